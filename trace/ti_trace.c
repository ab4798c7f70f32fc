/* See ti_trace.h. One file per rank, written with stdio's buffering; a request table maps each pending
 * nonblocking operation to its (source, destination, tag), which SimGrid's "wait" line names. */
#define _GNU_SOURCE
#include "ti_trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_PENDING = 65536 };

/* Computation shorter than this is not written (the wrappers' own overhead). */
static const double kMinComputeSeconds = 1e-6;
/* The speed of the exported platform's hosts (1Gf). */
static const double kFlopsPerSecond = 1e9;

typedef struct {
    MPI_Request request;
    int isRecv;
    int peer; /* world rank, -1 = any source */
    int tag;  /* -1 = any tag */
    uint64_t bytes;
} Pending;

static FILE* g_file = NULL;
static char g_path[4096];
static char g_temporary[4200];
static int g_rank = 0;
static int g_size = 0;
static double g_lastLeave = 0.0;
static Pending* g_pending = NULL;
static int g_pendingCount = 0;
static int g_depth = 0;
static char g_unsupported[256] = "";

/* The calling thread's processor time, not the wall clock: a rank that shares its core with others (more ranks
 * than cores, or a busy node) is paused by the scheduler between MPI calls, and those pauses are not computation.
 * Measured by wall clock they entered the trace as compute bursts at random places, which the replay then played
 * on every placement alike and which reordered placements whose times differ by a few percent. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void tiOpen(int worldRank, int worldSize, int threadMultiple)
{
    const char* prefix = getenv("MERIDIAN_TRACE_PREFIX");
    const char* wanted = getenv("MERIDIAN_TRACE_TI");
    if (!prefix || !*prefix || !wanted || strcmp(wanted, "1") != 0)
        return;
    g_rank = worldRank;
    g_size = worldSize;
    if (threadMultiple) {
        fprintf(stderr,
                "meridian-trace: rank %d: --trace records programs with one thread calling MPI; this one "
                "asked for MPI_THREAD_MULTIPLE, so no trace is written\n",
                worldRank);
        return;
    }
    snprintf(g_path, sizeof g_path, "%s.ti.%d", prefix, worldRank);
    snprintf(g_temporary, sizeof g_temporary, "%s.part-%ld", g_path, (long)getpid());
    g_pending = malloc(sizeof(Pending) * MAX_PENDING);
    g_file = g_pending ? fopen(g_temporary, "w") : NULL;
    if (!g_file) {
        fprintf(stderr, "meridian-trace: rank %d: cannot write %s\n", worldRank, g_temporary);
        free(g_pending);
        g_pending = NULL;
        return;
    }
    fprintf(g_file, "%d init\n", g_rank);
    g_lastLeave = now();
}

int tiActive(void) { return g_file != NULL; }

void tiEnter(void)
{
    if (!g_file || g_depth++ > 0)
        return;
    const double computed = now() - g_lastLeave;
    if (computed >= kMinComputeSeconds)
        fprintf(g_file, "%d compute %.0f\n", g_rank, computed * kFlopsPerSecond);
}

void tiLeave(void)
{
    if (!g_file || --g_depth > 0)
        return;
    g_lastLeave = now();
}

void tiLine(const char* format, ...)
{
    if (!g_file)
        return;
    fprintf(g_file, "%d ", g_rank);
    va_list args;
    va_start(args, format);
    vfprintf(g_file, format, args);
    va_end(args);
    fputc('\n', g_file);
}

void tiPosted(MPI_Request request, int isRecv, int peer, int tag, uint64_t bytes)
{
    if (!g_file || request == MPI_REQUEST_NULL)
        return;
    if (g_pendingCount == MAX_PENDING) {
        tiUnsupported("more than 65536 nonblocking operations pending at once");
        return;
    }
    g_pending[g_pendingCount++] = (Pending){request, isRecv, peer, tag, bytes};
    if (!isRecv)
        fprintf(g_file, "%d isend %d %d %llu\n", g_rank, peer, tag, (unsigned long long)bytes);
    else if (peer >= 0 && tag >= 0)
        fprintf(g_file, "%d irecv %d %d %llu\n", g_rank, peer, tag, (unsigned long long)bytes);
}

void tiCompleted(MPI_Request request, const MPI_Status* status)
{
    if (!g_file || request == MPI_REQUEST_NULL)
        return;
    for (int i = g_pendingCount - 1; i >= 0; --i) {
        Pending* p = &g_pending[i];
        if (p->request != request)
            continue;
        int peer = p->peer;
        int tag = p->tag;
        int cancelled = 0;
        if (status != MPI_STATUS_IGNORE)
            PMPI_Test_cancelled(status, &cancelled);
        if (cancelled) {
            /* MPI_Cancel took it back (HPCC's RandomAccess cancels its last receives from any source): nothing
             * happened. A receive from any source was not written yet; anything else was, and cannot be undone. */
            if (!(p->isRecv && (peer < 0 || tag < 0)))
                tiUnsupported("a send or a receive from a given rank cancelled (MPI_Cancel) after it was posted");
            g_pending[i] = g_pending[--g_pendingCount];
            return;
        }
        if (p->isRecv && (peer < 0 || tag < 0)) {
            /* Posted from any source (or with any tag): written now, with what the status names. */
            if (status == MPI_STATUS_IGNORE) {
                tiUnsupported("a receive from any source completed without a status");
            } else {
                if (peer < 0)
                    peer = status->MPI_SOURCE;
                if (tag < 0)
                    tag = status->MPI_TAG;
            }
            fprintf(g_file, "%d irecv %d %d %llu\n", g_rank, peer, tag, (unsigned long long)p->bytes);
        }
        if (p->isRecv)
            fprintf(g_file, "%d wait %d %d %d\n", g_rank, peer, g_rank, tag);
        else
            fprintf(g_file, "%d wait %d %d %d\n", g_rank, g_rank, peer, tag);
        g_pending[i] = g_pending[--g_pendingCount];
        return;
    }
}

void tiUnsupported(const char* what)
{
    if (!g_file || g_unsupported[0] != '\0')
        return;
    snprintf(g_unsupported, sizeof g_unsupported, "%s", what);
}

int tiClose(void)
{
    if (!g_file)
        return 1;
    fprintf(g_file, "%d finalize\n", g_rank);
    if (g_unsupported[0] != '\0')
        fprintf(g_file, "# incomplete: %s\n", g_unsupported);
    const int ok = !ferror(g_file) && fflush(g_file) == 0 && fsync(fileno(g_file)) == 0;
    const int closed = fclose(g_file) == 0;
    g_file = NULL;
    free(g_pending);
    g_pending = NULL;
    if (!ok || !closed || rename(g_temporary, g_path) != 0) {
        fprintf(stderr, "meridian-trace: rank %d: cannot write %s\n", g_rank, g_path);
        remove(g_temporary);
        return 0;
    }
    return 1;
}
