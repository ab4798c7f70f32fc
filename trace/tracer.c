/* libmeridian-trace: records an MPI program's communication matrix through the MPI profiling interface.
 *
 * Preloaded into an MPI program (LD_PRELOAD; `meridian-cli capture` arranges it), its entry points (c_entry.c for
 * C and C++, fortran_entry.c for Fortran) call the hooks here (tracer.h). They count, per sender -> receiver pair
 * of world ranks, the bytes and the messages sent: Send, Ssend, Bsend, Rsend, their non-blocking forms,
 * persistent sends (counted at each Start), Sendrecv and Sendrecv_replace. Ranks in other communicators are
 * translated to world ranks through a table cached on the communicator as an attribute. Collectives are counted
 * apart, per operation, communicator size and root. MPI_Pcontrol(n) starts phase n. At MPI_Finalize rank 0
 * gathers every rank's counts and writes, for the prefix in MERIDIAN_TRACE_PREFIX:
 *   PREFIX.volume.mtx, PREFIX.messages.mtx  Matrix Market, 1-based (sender, receiver, bytes or messages)
 *   PREFIX.collectives.json                 one record per (phase, operation, communicator size, root)
 *   PREFIX.phaseN.{volume,messages}.mtx     per phase, when MPI_Pcontrol was called
 * Each file is written to a temporary name and renamed, so a reader never sees half a file.
 *
 * Counters are updated with atomic additions when the program runs with MPI_THREAD_MULTIPLE (several threads
 * may send at once) and with plain ones otherwise; the collective records and the phase table take a mutex.
 * Nothing is printed unless something fails. */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ti_trace.h"
#include "tracer.h"

enum { MAX_PHASES = 256, MAX_PERSISTENT = 4096 };

/* One phase's point-to-point counters: row of this rank, indexed by receiver (world rank). */
typedef struct {
    int id;
    uint64_t* bytes;
    uint64_t* messages;
} Phase;

/* One collective record of this rank. */
typedef struct {
    int phase;
    int operation;
    int commSize;
    int root; /* world rank, -1 for operations without a root */
    uint64_t calls;
    uint64_t bytes;
} Collective;

/* A persistent send: counted each time it is started. */
typedef struct {
    MPI_Request request;
    int receiver;
    int tag;
    uint64_t bytes;
} Persistent;

static const char* const kOperations[] = {"barrier",        "bcast",
                                          "gather",         "gatherv",
                                          "scatter",        "scatterv",
                                          "allgather",      "allgatherv",
                                          "alltoall",       "alltoallv",
                                          "reduce",         "allreduce",
                                          "reduce_scatter", "reduce_scatter_block",
                                          "scan",           "exscan"};
enum {
    OP_BARRIER,
    OP_BCAST,
    OP_GATHER,
    OP_GATHERV,
    OP_SCATTER,
    OP_SCATTERV,
    OP_ALLGATHER,
    OP_ALLGATHERV,
    OP_ALLTOALL,
    OP_ALLTOALLV,
    OP_REDUCE,
    OP_ALLREDUCE,
    OP_REDUCE_SCATTER,
    OP_REDUCE_SCATTER_BLOCK,
    OP_SCAN,
    OP_EXSCAN,
    OP_COUNT
};

/* Exported so that meridian-cli capture can tell this library from any other shared library named in
 * MERIDIAN_TRACE_LIBRARY, by its dynamic symbol table, before it runs the program. */
__attribute__((visibility("default"))) const int meridian_trace_library = 1;

static int g_worldSize = 0;
static int g_worldRank = 0;
static int g_keyval = MPI_KEYVAL_INVALID;
static int g_active = 0;
/* Only with MPI_THREAD_MULTIPLE may two threads send at once: the counters are then added to atomically. */
static int g_threadMultiple = 0;
static pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
static Phase g_phases[MAX_PHASES];
static int g_phaseCount = 0;
static Phase* volatile g_current = NULL;
static int g_phasesUsed = 0;
static Collective* g_collectives = NULL;
static int g_collectiveCount = 0;
static int g_collectiveCapacity = 0;
static Persistent g_persistent[MAX_PERSISTENT];
static int g_persistentCount = 0;

static void fail(const char* what) { fprintf(stderr, "meridian-trace: rank %d: %s\n", g_worldRank, what); }

static void failWriting(const char* path)
{
    fprintf(stderr, "meridian-trace: rank %d: cannot write %s\n", g_worldRank, path);
}

/* ---- ranks ------------------------------------------------------------------------------------------ */

static int deleteTable(MPI_Comm comm, int keyval, void* table, void* extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    free(table);
    return MPI_SUCCESS;
}

/* The world rank of each rank of `comm` (of its remote group for an intercommunicator), cached on it. */
static const int* worldRanksOf(MPI_Comm comm)
{
    int* table = NULL;
    int found = 0;
    PMPI_Comm_get_attr(comm, g_keyval, &table, &found);
    if (found)
        return table;
    int inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    MPI_Group group, world;
    if (inter)
        PMPI_Comm_remote_group(comm, &group);
    else
        PMPI_Comm_group(comm, &group);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    int size = 0;
    PMPI_Group_size(group, &size);
    int* ranks = malloc(sizeof(int) * (size_t)size);
    table = malloc(sizeof(int) * (size_t)size);
    if (!ranks || !table) {
        free(ranks);
        free(table);
        PMPI_Group_free(&group);
        PMPI_Group_free(&world);
        return NULL;
    }
    for (int i = 0; i < size; ++i)
        ranks[i] = i;
    PMPI_Group_translate_ranks(group, size, ranks, world, table);
    free(ranks);
    PMPI_Group_free(&group);
    PMPI_Group_free(&world);
    PMPI_Comm_set_attr(comm, g_keyval, table);
    return table;
}

/* The world rank of rank `rank` of `comm`, or -1 (MPI_PROC_NULL, or not in the world). */
static int worldRank(MPI_Comm comm, int rank)
{
    if (rank < 0)
        return -1;
    if (comm == MPI_COMM_WORLD)
        return rank < g_worldSize ? rank : -1;
    const int* table = worldRanksOf(comm);
    if (!table)
        return -1;
    const int world = table[rank];
    return world == MPI_UNDEFINED ? -1 : world;
}

static uint64_t sizeOf(int count, MPI_Datatype type)
{
    int size = 0;
    if (count <= 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS || size <= 0)
        return 0;
    return (uint64_t)count * (uint64_t)size;
}

/* ---- phases and counting ---------------------------------------------------------------------------- */

/* Finds or adds phase `id` (under the mutex). */
static Phase* phaseOf(int id)
{
    for (int p = 0; p < g_phaseCount; ++p)
        if (g_phases[p].id == id)
            return &g_phases[p];
    if (g_phaseCount == MAX_PHASES) {
        fail("more than 256 phases (MPI_Pcontrol levels); the later ones are counted in the last");
        return &g_phases[g_phaseCount - 1];
    }
    Phase* phase = &g_phases[g_phaseCount];
    phase->id = id;
    phase->bytes = calloc((size_t)g_worldSize, sizeof(uint64_t));
    phase->messages = calloc((size_t)g_worldSize, sizeof(uint64_t));
    if (!phase->bytes || !phase->messages) {
        fail("out of memory for a phase's counters");
        exit(1);
    }
    ++g_phaseCount;
    return phase;
}

static void countSend(MPI_Comm comm, int dest, int count, MPI_Datatype type)
{
    if (!g_active || dest == MPI_PROC_NULL)
        return;
    const int to = worldRank(comm, dest);
    if (to < 0)
        return;
    Phase* phase = g_current;
    const uint64_t bytes = sizeOf(count, type);
    if (g_threadMultiple) {
        __atomic_fetch_add(&phase->bytes[to], bytes, __ATOMIC_RELAXED);
        __atomic_fetch_add(&phase->messages[to], 1, __ATOMIC_RELAXED);
    } else {
        phase->bytes[to] += bytes;
        ++phase->messages[to];
    }
}

static void countCollective(int operation, MPI_Comm comm, int root, uint64_t bytes)
{
    if (!g_active)
        return;
    int size = 0;
    PMPI_Comm_size(comm, &size);
    const int rootWorld = root >= 0 ? worldRank(comm, root) : -1;
    pthread_mutex_lock(&g_mutex);
    const int phase = g_current->id;
    for (int c = 0; c < g_collectiveCount; ++c) {
        Collective* r = &g_collectives[c];
        if (r->phase == phase && r->operation == operation && r->commSize == size && r->root == rootWorld) {
            ++r->calls;
            r->bytes += bytes;
            pthread_mutex_unlock(&g_mutex);
            return;
        }
    }
    if (g_collectiveCount == g_collectiveCapacity) {
        const int capacity = g_collectiveCapacity ? 2 * g_collectiveCapacity : 64;
        Collective* grown = realloc(g_collectives, sizeof(Collective) * (size_t)capacity);
        if (!grown) {
            pthread_mutex_unlock(&g_mutex);
            fail("out of memory for the collective records");
            return;
        }
        g_collectives = grown;
        g_collectiveCapacity = capacity;
    }
    g_collectives[g_collectiveCount++] = (Collective){phase, operation, size, rootWorld, 1, bytes};
    pthread_mutex_unlock(&g_mutex);
}

static int rankIn(MPI_Comm comm)
{
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    return rank;
}

static int sizeOfComm(MPI_Comm comm)
{
    int size = 0;
    PMPI_Comm_size(comm, &size);
    return size;
}

static void rememberPersistent(MPI_Request request, MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type)
{
    if (!g_active || dest == MPI_PROC_NULL)
        return;
    pthread_mutex_lock(&g_mutex);
    if (g_persistentCount < MAX_PERSISTENT)
        g_persistent[g_persistentCount++] = (Persistent){request, worldRank(comm, dest), tag, sizeOf(count, type)};
    else
        fail("more than 4096 persistent sends at once; the later ones are not counted");
    pthread_mutex_unlock(&g_mutex);
}

static void startPersistent(MPI_Request request)
{
    if (!g_active)
        return;
    pthread_mutex_lock(&g_mutex);
    for (int i = 0; i < g_persistentCount; ++i)
        if (g_persistent[i].request == request && g_persistent[i].receiver >= 0) {
            Phase* phase = g_current;
            __atomic_fetch_add(&phase->bytes[g_persistent[i].receiver], g_persistent[i].bytes, __ATOMIC_RELAXED);
            __atomic_fetch_add(&phase->messages[g_persistent[i].receiver], 1, __ATOMIC_RELAXED);
            tiPosted(request, 0, g_persistent[i].receiver, g_persistent[i].tag, g_persistent[i].bytes);
            break;
        }
    pthread_mutex_unlock(&g_mutex);
}

static void forgetPersistent(MPI_Request request)
{
    pthread_mutex_lock(&g_mutex);
    for (int i = 0; i < g_persistentCount; ++i)
        if (g_persistent[i].request == request) {
            g_persistent[i] = g_persistent[--g_persistentCount];
            break;
        }
    pthread_mutex_unlock(&g_mutex);
}

/* ---- set-up ----------------------------------------------------------------------------------------- */

void traceInitialised(void)
{
    PMPI_Comm_size(MPI_COMM_WORLD, &g_worldSize);
    PMPI_Comm_rank(MPI_COMM_WORLD, &g_worldRank);
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, deleteTable, &g_keyval, NULL);
    int provided = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&provided);
    g_threadMultiple = provided == MPI_THREAD_MULTIPLE;
    pthread_mutex_lock(&g_mutex);
    g_current = phaseOf(0);
    pthread_mutex_unlock(&g_mutex);
    g_active = getenv("MERIDIAN_TRACE_PREFIX") != NULL && *getenv("MERIDIAN_TRACE_PREFIX") != '\0';
    if (!g_active && g_worldRank == 0)
        fail("MERIDIAN_TRACE_PREFIX is not set: nothing is recorded (run through meridian-cli capture)");
    if (g_active)
        tiOpen(g_worldRank, g_worldSize, g_threadMultiple);
}

void tracePcontrol(int level)
{
    if (g_worldSize > 0) {
        pthread_mutex_lock(&g_mutex);
        g_current = phaseOf(level);
        g_phasesUsed = 1;
        pthread_mutex_unlock(&g_mutex);
    }
}

/* ---- point-to-point --------------------------------------------------------------------------------- */

void traceSend(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type)
{
    countSend(comm, dest, count, type);
    if (dest != MPI_PROC_NULL)
        tiLine("send %d %d %llu", worldRank(comm, dest), tag, (unsigned long long)sizeOf(count, type));
}

void traceIsend(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type, MPI_Request request)
{
    countSend(comm, dest, count, type);
    if (dest != MPI_PROC_NULL)
        tiPosted(request, 0, worldRank(comm, dest), tag, sizeOf(count, type));
}

/* In the trace, a send and a receive posted together, then both waited for (the receive's source and tag as the
 * status names them). */
void traceSendrecv(MPI_Comm comm, int dest, int sendtag, int sendcount, MPI_Datatype sendtype, int source,
                   int recvcount, MPI_Datatype recvtype, const MPI_Status* status)
{
    countSend(comm, dest, sendcount, sendtype);
    if (!tiActive())
        return;
    const int to = dest == MPI_PROC_NULL ? -1 : worldRank(comm, dest);
    const int from = source == MPI_PROC_NULL ? -1 : worldRank(comm, status->MPI_SOURCE);
    if (to >= 0)
        tiLine("isend %d %d %llu", to, sendtag, (unsigned long long)sizeOf(sendcount, sendtype));
    if (from >= 0)
        tiLine("irecv %d %d %llu", from, status->MPI_TAG, (unsigned long long)sizeOf(recvcount, recvtype));
    if (to >= 0)
        tiLine("wait %d %d %d", g_worldRank, to, sendtag);
    if (from >= 0)
        tiLine("wait %d %d %d", from, g_worldRank, status->MPI_TAG);
}

void tracePersistentSend(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type, MPI_Request request)
{
    rememberPersistent(request, comm, dest, tag, count, type);
}

void traceStart(MPI_Request request) { startPersistent(request); }

void traceRequestFree(MPI_Request request) { forgetPersistent(request); }

void traceRecv(MPI_Comm comm, int source, int count, MPI_Datatype type, const MPI_Status* status)
{
    if (source != MPI_PROC_NULL)
        tiLine("recv %d %d %llu", worldRank(comm, status->MPI_SOURCE), status->MPI_TAG,
               (unsigned long long)sizeOf(count, type));
}

void traceIrecv(MPI_Comm comm, int source, int tag, int count, MPI_Datatype type, MPI_Request request)
{
    if (source != MPI_PROC_NULL)
        tiPosted(request, 1, source == MPI_ANY_SOURCE ? -1 : worldRank(comm, source), tag == MPI_ANY_TAG ? -1 : tag,
                 sizeOf(count, type));
}

void traceCompleted(MPI_Request request, const MPI_Status* status) { tiCompleted(request, status); }

int traceWantsCompletions(void) { return tiActive(); }

/* ---- collectives: the bytes of a record are what this rank passes in its send buffer ----------------- */

/* Whether a collective on `comm` can be written in the trace (SMPI's replay runs collectives on MPI_COMM_WORLD);
 * otherwise the trace is marked incomplete. */
static int onWorld(MPI_Comm comm, const char* operation)
{
    if (!tiActive())
        return 0;
    int result = MPI_UNEQUAL;
    PMPI_Comm_compare(comm, MPI_COMM_WORLD, &result);
    if (result == MPI_IDENT || result == MPI_CONGRUENT)
        return 1;
    char what[160];
    snprintf(what, sizeof what, "%s on a communicator other than MPI_COMM_WORLD", operation);
    tiUnsupported(what);
    return 0;
}

/* A collective the trace format cannot hold with its counts: the trace is marked incomplete. */
static void unsupported(const char* operation)
{
    if (!tiActive())
        return;
    char what[160];
    snprintf(what, sizeof what, "%s (its per-rank counts)", operation);
    tiUnsupported(what);
}

static uint64_t sumOf(const int counts[], int n, MPI_Datatype type)
{
    uint64_t total = 0;
    for (int i = 0; i < n; ++i)
        total += sizeOf(counts[i], type);
    return total;
}

void traceBarrier(MPI_Comm comm)
{
    countCollective(OP_BARRIER, comm, -1, 0);
    if (onWorld(comm, "MPI_Barrier"))
        tiLine("barrier");
}

void traceBcast(MPI_Comm comm, int root, int count, MPI_Datatype type)
{
    countCollective(OP_BCAST, comm, root, rankIn(comm) == root ? sizeOf(count, type) : 0);
    if (onWorld(comm, "MPI_Bcast"))
        tiLine("bcast %llu %d", (unsigned long long)sizeOf(count, type), root);
}

void traceGather(MPI_Comm comm, int root, int inPlace, int sendcount, MPI_Datatype sendtype, int recvcount,
                 MPI_Datatype recvtype)
{
    const uint64_t bytes = inPlace ? sizeOf(recvcount, recvtype) : sizeOf(sendcount, sendtype);
    countCollective(OP_GATHER, comm, root, bytes);
    if (onWorld(comm, "MPI_Gather"))
        tiLine("gather %llu %llu %d", (unsigned long long)bytes, (unsigned long long)sizeOf(recvcount, recvtype), root);
}

void traceGatherv(MPI_Comm comm, int root, int inPlace, int sendcount, MPI_Datatype sendtype, const int recvcounts[],
                  MPI_Datatype recvtype)
{
    const uint64_t bytes = inPlace ? sizeOf(recvcounts[rankIn(comm)], recvtype) : sizeOf(sendcount, sendtype);
    countCollective(OP_GATHERV, comm, root, bytes);
    unsupported("MPI_Gatherv");
}

void traceScatter(MPI_Comm comm, int root, int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype)
{
    const uint64_t bytes = rankIn(comm) == root ? sizeOf(sendcount, sendtype) * (uint64_t)sizeOfComm(comm) : 0;
    countCollective(OP_SCATTER, comm, root, bytes);
    if (onWorld(comm, "MPI_Scatter"))
        tiLine("scatter %llu %llu %d", (unsigned long long)sizeOf(sendcount, sendtype),
               (unsigned long long)sizeOf(recvcount, recvtype), root);
}

void traceScatterv(MPI_Comm comm, int root, const int sendcounts[], MPI_Datatype sendtype)
{
    const uint64_t bytes = rankIn(comm) == root ? sumOf(sendcounts, sizeOfComm(comm), sendtype) : 0;
    countCollective(OP_SCATTERV, comm, root, bytes);
    unsupported("MPI_Scatterv");
}

void traceAllgather(MPI_Comm comm, int inPlace, int sendcount, MPI_Datatype sendtype, int recvcount,
                    MPI_Datatype recvtype)
{
    const uint64_t bytes = inPlace ? sizeOf(recvcount, recvtype) : sizeOf(sendcount, sendtype);
    countCollective(OP_ALLGATHER, comm, -1, bytes);
    if (onWorld(comm, "MPI_Allgather"))
        tiLine("allgather %llu %llu", (unsigned long long)bytes, (unsigned long long)sizeOf(recvcount, recvtype));
}

void traceAllgatherv(MPI_Comm comm, int inPlace, int sendcount, MPI_Datatype sendtype, const int recvcounts[],
                     MPI_Datatype recvtype)
{
    const uint64_t bytes = inPlace ? sizeOf(recvcounts[rankIn(comm)], recvtype) : sizeOf(sendcount, sendtype);
    countCollective(OP_ALLGATHERV, comm, -1, bytes);
    unsupported("MPI_Allgatherv");
}

void traceAlltoall(MPI_Comm comm, int inPlace, int sendcount, MPI_Datatype sendtype, int recvcount,
                   MPI_Datatype recvtype)
{
    const uint64_t each = inPlace ? sizeOf(recvcount, recvtype) : sizeOf(sendcount, sendtype);
    countCollective(OP_ALLTOALL, comm, -1, each * (uint64_t)sizeOfComm(comm));
    if (onWorld(comm, "MPI_Alltoall"))
        tiLine("alltoall %llu %llu", (unsigned long long)each, (unsigned long long)sizeOf(recvcount, recvtype));
}

void traceAlltoallv(MPI_Comm comm, int inPlace, const int sendcounts[], MPI_Datatype sendtype, const int recvcounts[],
                    MPI_Datatype recvtype)
{
    const uint64_t bytes = inPlace ? sumOf(recvcounts, sizeOfComm(comm), recvtype)
                                   : sumOf(sendcounts, sizeOfComm(comm), sendtype);
    countCollective(OP_ALLTOALLV, comm, -1, bytes);
    unsupported("MPI_Alltoallv");
}

void traceReduce(MPI_Comm comm, int root, int count, MPI_Datatype type)
{
    countCollective(OP_REDUCE, comm, root, sizeOf(count, type));
    if (onWorld(comm, "MPI_Reduce"))
        tiLine("reduce %llu 0 %d", (unsigned long long)sizeOf(count, type), root);
}

void traceAllreduce(MPI_Comm comm, int count, MPI_Datatype type)
{
    countCollective(OP_ALLREDUCE, comm, -1, sizeOf(count, type));
    if (onWorld(comm, "MPI_Allreduce"))
        tiLine("allreduce %llu 0", (unsigned long long)sizeOf(count, type));
}

void traceReduceScatter(MPI_Comm comm, const int recvcounts[], MPI_Datatype type)
{
    countCollective(OP_REDUCE_SCATTER, comm, -1, sumOf(recvcounts, sizeOfComm(comm), type));
    unsupported("MPI_Reduce_scatter");
}

void traceReduceScatterBlock(MPI_Comm comm, int recvcount, MPI_Datatype type)
{
    countCollective(OP_REDUCE_SCATTER_BLOCK, comm, -1, sizeOf(recvcount, type) * (uint64_t)sizeOfComm(comm));
    unsupported("MPI_Reduce_scatter_block");
}

/* SMPI's replay has no scan. A scan by recursive doubling (Open MPI's and MPICH's for commutative operations)
 * exchanges, in log2(p) rounds of `count` elements between the same partners, what an allreduce by recursive
 * doubling exchanges, so the trace holds it as an allreduce of the same size: its time, not its data flow. (LAMMPS
 * numbers its atoms with one MPI_Scan.) */
static void prefixReduction(MPI_Comm comm, int operation, const char* name, int count, MPI_Datatype type)
{
    countCollective(operation, comm, -1, sizeOf(count, type));
    if (onWorld(comm, name))
        tiLine("allreduce %llu 0", (unsigned long long)sizeOf(count, type));
}

void traceScan(MPI_Comm comm, int count, MPI_Datatype type) { prefixReduction(comm, OP_SCAN, "MPI_Scan", count, type); }

void traceExscan(MPI_Comm comm, int count, MPI_Datatype type)
{
    prefixReduction(comm, OP_EXSCAN, "MPI_Exscan", count, type);
}

/* ---- writing at MPI_Finalize ------------------------------------------------------------------------ */

/* Opens PATH's temporary for writing; finishWrite() renames it to PATH. */
static FILE* startWrite(const char* path, char* temporary, size_t size)
{
    snprintf(temporary, size, "%s.part-%ld", path, (long)getpid());
    FILE* file = fopen(temporary, "w");
    if (!file)
        failWriting(temporary);
    return file;
}

static int finishWrite(FILE* file, const char* temporary, const char* path)
{
    const int ok = !ferror(file) && fflush(file) == 0 && fsync(fileno(file)) == 0;
    if (fclose(file) != 0 || !ok || rename(temporary, path) != 0) {
        failWriting(path);
        remove(temporary);
        return 0;
    }
    return 1;
}

/* Writes an n x n matrix (row-major, all ranks' rows) in Matrix Market coordinate form. */
static int writeMatrix(const char* path, const uint64_t* matrix, int n, const char* what)
{
    char temporary[4200];
    FILE* file = startWrite(path, temporary, sizeof temporary);
    if (!file)
        return 0;
    long nonZeros = 0;
    for (long k = 0; k < (long)n * n; ++k)
        nonZeros += matrix[k] != 0;
    fprintf(file, "%%%%MatrixMarket matrix coordinate integer general\n");
    fprintf(file, "%% %s sent from row rank to column rank (world ranks, 1-based), recorded by meridian-trace\n", what);
    fprintf(file, "%d %d %ld\n", n, n, nonZeros);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            if (matrix[(long)i * n + j] != 0)
                fprintf(file, "%d %d %llu\n", i + 1, j + 1, (unsigned long long)matrix[(long)i * n + j]);
    return finishWrite(file, temporary, path);
}

static int comparePhaseIds(const void* a, const void* b)
{
    const int x = *(const int*)a, y = *(const int*)b;
    return (x > y) - (x < y);
}

/* Every phase id used on any rank, sorted and unique, known to every rank; returns how many. */
static int allPhaseIds(int** ids)
{
    int local[MAX_PHASES];
    for (int p = 0; p < g_phaseCount; ++p)
        local[p] = g_phases[p].id;
    int* counts = malloc(sizeof(int) * (size_t)g_worldSize);
    int* offsets = malloc(sizeof(int) * (size_t)g_worldSize);
    PMPI_Allgather(&g_phaseCount, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (int r = 0; r < g_worldSize; ++r) {
        offsets[r] = total;
        total += counts[r];
    }
    int* all = malloc(sizeof(int) * (size_t)total);
    PMPI_Allgatherv(local, g_phaseCount, MPI_INT, all, counts, offsets, MPI_INT, MPI_COMM_WORLD);
    free(counts);
    free(offsets);
    qsort(all, (size_t)total, sizeof(int), comparePhaseIds);
    int unique = 0;
    for (int k = 0; k < total; ++k)
        if (unique == 0 || all[unique - 1] != all[k])
            all[unique++] = all[k];
    *ids = all;
    return unique;
}

/* Gathers phase `id`'s rows at rank 0 into volume and messages (n x n each), adding to the totals. */
static void gatherPhase(int id, uint64_t* volume, uint64_t* messages, uint64_t* totalVolume, uint64_t* totalMessages)
{
    const int n = g_worldSize;
    uint64_t* row = calloc(2 * (size_t)n, sizeof(uint64_t));
    for (int p = 0; p < g_phaseCount; ++p)
        if (g_phases[p].id == id) {
            memcpy(row, g_phases[p].bytes, sizeof(uint64_t) * (size_t)n);
            memcpy(row + n, g_phases[p].messages, sizeof(uint64_t) * (size_t)n);
        }
    uint64_t* rows = g_worldRank == 0 ? malloc(sizeof(uint64_t) * 2 * (size_t)n * (size_t)n) : NULL;
    PMPI_Gather(row, 2 * n, MPI_UINT64_T, rows, 2 * n, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    free(row);
    if (g_worldRank != 0)
        return;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            const size_t k = (size_t)i * (size_t)n + (size_t)j;
            volume[k] = rows[(size_t)i * 2 * (size_t)n + (size_t)j];
            messages[k] = rows[(size_t)i * 2 * (size_t)n + (size_t)n + (size_t)j];
            totalVolume[k] += volume[k];
            totalMessages[k] += messages[k];
        }
    free(rows);
}

static int writeMatrices(const char* prefix, const char* infix, const uint64_t* volume, const uint64_t* messages)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s.volume.mtx", prefix, infix);
    int ok = writeMatrix(path, volume, g_worldSize, "bytes");
    snprintf(path, sizeof path, "%s%s.messages.mtx", prefix, infix);
    ok = writeMatrix(path, messages, g_worldSize, "messages") && ok;
    return ok;
}

/* Writes the point-to-point matrices: totals, and per phase when MPI_Pcontrol was called on any rank. */
static void writePointToPoint(const char* prefix)
{
    int* ids = NULL;
    const int phases = allPhaseIds(&ids);
    int used = g_phasesUsed;
    PMPI_Allreduce(MPI_IN_PLACE, &used, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    const size_t cells = g_worldRank == 0 ? (size_t)g_worldSize * (size_t)g_worldSize : 1;
    uint64_t* volume = calloc(cells, sizeof(uint64_t));
    uint64_t* messages = calloc(cells, sizeof(uint64_t));
    uint64_t* totalVolume = calloc(cells, sizeof(uint64_t));
    uint64_t* totalMessages = calloc(cells, sizeof(uint64_t));
    for (int p = 0; p < phases; ++p) {
        gatherPhase(ids[p], volume, messages, totalVolume, totalMessages);
        if (g_worldRank == 0 && used) {
            char infix[32];
            snprintf(infix, sizeof infix, ".phase%d", ids[p]);
            writeMatrices(prefix, infix, volume, messages);
        }
    }
    if (g_worldRank == 0)
        writeMatrices(prefix, "", totalVolume, totalMessages);
    free(ids);
    free(volume);
    free(messages);
    free(totalVolume);
    free(totalMessages);
}

enum { FIELDS = 6 };

/* What a record's bytes are: io::kCollectiveBytesDefinition, word for word (test_capture compares them). */
static const char* const kCollectiveBytes
    = "the bytes the ranks' send buffers held for the operation's calls, summed over the ranks: the root's alone for "
      "a bcast, a scatter (its block times the communicator size) and a scatterv; each rank's block times the "
      "communicator size for an alltoall; each rank's contribution for the others (a reduction's count, a gather's "
      "or allgather's send count, the block a rank gives in place for MPI_IN_PLACE)";

/* Gathers every rank's collective records at rank 0 (FIELDS numbers each); returns how many (0 elsewhere). */
static int gatherCollectives(uint64_t** records)
{
    uint64_t* local = malloc(sizeof(uint64_t) * FIELDS * (size_t)(g_collectiveCount + 1));
    for (int c = 0; c < g_collectiveCount; ++c) {
        const Collective* r = &g_collectives[c];
        const uint64_t fields[FIELDS] = {(uint64_t)(int64_t)r->phase,
                                         (uint64_t)r->operation,
                                         (uint64_t)r->commSize,
                                         (uint64_t)(int64_t)r->root,
                                         r->calls,
                                         r->bytes};
        memcpy(local + (size_t)c * FIELDS, fields, sizeof fields);
    }
    const int mine = FIELDS * g_collectiveCount;
    int* counts = malloc(sizeof(int) * (size_t)g_worldSize);
    int* offsets = malloc(sizeof(int) * (size_t)g_worldSize);
    PMPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    if (g_worldRank == 0)
        for (int r = 0; r < g_worldSize; ++r) {
            offsets[r] = total;
            total += counts[r];
        }
    *records = malloc(sizeof(uint64_t) * (size_t)(total + 1));
    PMPI_Gatherv(local, mine, MPI_UINT64_T, *records, counts, offsets, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    free(local);
    free(counts);
    free(offsets);
    return total / FIELDS;
}

/* Merges records with the same (phase, operation, communicator size, root): calls per rank (the most any
 * rank made), the ranks that took part, and the bytes all of them passed. */
static void writeCollectives(const char* prefix)
{
    uint64_t* records = NULL;
    const int count = gatherCollectives(&records);
    if (g_worldRank != 0) {
        free(records);
        return;
    }
    char path[4096], temporary[4200];
    snprintf(path, sizeof path, "%s.collectives.json", prefix);
    FILE* file = startWrite(path, temporary, sizeof temporary);
    if (!file) {
        free(records);
        return;
    }
    fprintf(file,
            "{\n  \"format\": \"meridian-collectives\",\n  \"version\": 2,\n  \"source\": \"meridian-trace\",\n"
            "  \"processes\": %d,\n  \"bytes\": \"%s\",\n",
            g_worldSize, kCollectiveBytes);
    fprintf(file, "  \"collectives\": [");
    int* merged = calloc((size_t)count + 1, sizeof(int));
    int written = 0;
    for (int a = 0; a < count; ++a) {
        if (merged[a])
            continue;
        const uint64_t* r = records + (size_t)a * FIELDS;
        uint64_t calls = r[4], bytes = r[5], ranks = 1;
        for (int b = a + 1; b < count; ++b) {
            const uint64_t* s = records + (size_t)b * FIELDS;
            if (!merged[b] && s[0] == r[0] && s[1] == r[1] && s[2] == r[2] && s[3] == r[3]) {
                merged[b] = 1;
                calls = s[4] > calls ? s[4] : calls;
                bytes += s[5];
                ++ranks;
            }
        }
        fprintf(file,
                "%s\n    {\"phase\": %lld, \"operation\": \"%s\", \"communicator_size\": %llu, \"root\": %lld, "
                "\"ranks\": %llu, \"calls\": %llu, \"bytes\": %llu}",
                written++ ? "," : "", (long long)(int64_t)r[0], r[1] < OP_COUNT ? kOperations[r[1]] : "unknown",
                (unsigned long long)r[2], (long long)(int64_t)r[3], (unsigned long long)ranks,
                (unsigned long long)calls, (unsigned long long)bytes);
    }
    fprintf(file, "%s]\n}\n", written ? "\n  " : "");
    free(merged);
    free(records);
    finishWrite(file, temporary, path);
}

void traceFinalize(void)
{
    if (g_worldSize > 0) {
        int active = g_active;
        PMPI_Allreduce(MPI_IN_PLACE, &active, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (active) {
            const char* prefix = getenv("MERIDIAN_TRACE_PREFIX");
            writePointToPoint(prefix);
            writeCollectives(prefix);
            tiClose();
        }
        g_active = 0;
    }
}
