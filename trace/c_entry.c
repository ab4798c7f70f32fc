/* The C entry points of libmeridian-trace (C and C++ programs): each runs the MPI call through PMPI_* and tells
 * the tracer (tracer.h) what happened. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "ti_trace.h"
#include "tracer.h"

int MPI_Init(int* argc, char*** argv)
{
    const int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        traceInitialised();
    return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided)
{
    const int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        traceInitialised();
    return rc;
}

int MPI_Pcontrol(const int level, ...)
{
    tracePcontrol(level);
    return MPI_SUCCESS;
}

int MPI_Finalize(void)
{
    tiEnter();
    traceFinalize();
    return PMPI_Finalize();
}

/* ---- point-to-point --------------------------------------------------------------------------------- */

/* The blocking sends share MPI_Send's signature, the non-blocking ones MPI_Isend's. */
#define BLOCKING_SEND(NAME) \
    int MPI_##NAME(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) \
    { \
        tiEnter(); \
        traceSend(comm, dest, tag, count, type); \
        const int rc = PMPI_##NAME(buf, count, type, dest, tag, comm); \
        tiLeave(); \
        return rc; \
    }
BLOCKING_SEND(Send)
BLOCKING_SEND(Ssend)
BLOCKING_SEND(Bsend)
BLOCKING_SEND(Rsend)

#define NONBLOCKING_SEND(NAME) \
    int MPI_##NAME(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) \
    { \
        tiEnter(); \
        const int rc = PMPI_##NAME(buf, count, type, dest, tag, comm, req); \
        if (rc == MPI_SUCCESS) \
            traceIsend(comm, dest, tag, count, type, *req); \
        tiLeave(); \
        return rc; \
    }
NONBLOCKING_SEND(Isend)
NONBLOCKING_SEND(Issend)
NONBLOCKING_SEND(Ibsend)
NONBLOCKING_SEND(Irsend)

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status)
{
    tiEnter();
    MPI_Status own;
    MPI_Status* got = status == MPI_STATUS_IGNORE ? &own : status;
    const int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                                 recvtag, comm, got);
    if (rc == MPI_SUCCESS)
        traceSendrecv(comm, dest, sendtag, sendcount, sendtype, source, recvcount, recvtype, got);
    tiLeave();
    return rc;
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status)
{
    tiEnter();
    MPI_Status own;
    MPI_Status* got = status == MPI_STATUS_IGNORE ? &own : status;
    const int rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, got);
    if (rc == MPI_SUCCESS)
        traceSendrecv(comm, dest, sendtag, count, type, source, count, type, got);
    tiLeave();
    return rc;
}

#define PERSISTENT_SEND(NAME) \
    int MPI_##NAME(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) \
    { \
        const int rc = PMPI_##NAME(buf, count, type, dest, tag, comm, req); \
        if (rc == MPI_SUCCESS) \
            tracePersistentSend(comm, dest, tag, count, type, *req); \
        return rc; \
    }
PERSISTENT_SEND(Send_init)
PERSISTENT_SEND(Ssend_init)
PERSISTENT_SEND(Bsend_init)
PERSISTENT_SEND(Rsend_init)

int MPI_Start(MPI_Request* req)
{
    tiEnter();
    traceStart(*req);
    const int rc = PMPI_Start(req);
    tiLeave();
    return rc;
}

int MPI_Startall(int count, MPI_Request reqs[])
{
    tiEnter();
    for (int i = 0; i < count; ++i)
        traceStart(reqs[i]);
    const int rc = PMPI_Startall(count, reqs);
    tiLeave();
    return rc;
}

int MPI_Request_free(MPI_Request* req)
{
    traceRequestFree(*req);
    return PMPI_Request_free(req);
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status)
{
    tiEnter();
    MPI_Status own;
    MPI_Status* got = status == MPI_STATUS_IGNORE ? &own : status;
    const int rc = PMPI_Recv(buf, count, type, source, tag, comm, got);
    if (rc == MPI_SUCCESS)
        traceRecv(comm, source, count, type, got);
    tiLeave();
    return rc;
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* req)
{
    tiEnter();
    const int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
    if (rc == MPI_SUCCESS)
        traceIrecv(comm, source, tag, count, type, *req);
    tiLeave();
    return rc;
}

/* ---- waits and tests -------------------------------------------------------------------------------- */

int MPI_Wait(MPI_Request* req, MPI_Status* status)
{
    tiEnter();
    const MPI_Request before = *req;
    MPI_Status own;
    MPI_Status* got = status == MPI_STATUS_IGNORE ? &own : status;
    const int rc = PMPI_Wait(req, got);
    traceCompleted(before, got);
    tiLeave();
    return rc;
}

int MPI_Test(MPI_Request* req, int* flag, MPI_Status* status)
{
    tiEnter();
    const MPI_Request before = *req;
    MPI_Status own;
    MPI_Status* got = status == MPI_STATUS_IGNORE ? &own : status;
    const int rc = PMPI_Test(req, flag, got);
    if (*flag)
        traceCompleted(before, got);
    tiLeave();
    return rc;
}

/* The requests of an array call, copied before it (completed ones become MPI_REQUEST_NULL); NULL when no trace
 * is recorded or memory is short (then nothing is recorded). */
static MPI_Request* keepRequests(int count, const MPI_Request reqs[])
{
    if (!traceWantsCompletions() || count <= 0)
        return NULL;
    MPI_Request* kept = malloc(sizeof(MPI_Request) * (size_t)count);
    if (kept)
        memcpy(kept, reqs, sizeof(MPI_Request) * (size_t)count);
    return kept;
}

/* Where an array call puts its statuses: the caller's, or room of our own when it ignores them and the trace needs
 * them (`kept` set). Free with releaseStatuses. */
static MPI_Status* statusesFor(int count, MPI_Status* given, const MPI_Request* kept)
{
    if (!kept || given != MPI_STATUSES_IGNORE)
        return given;
    MPI_Status* own = malloc(sizeof(MPI_Status) * (size_t)count);
    return own ? own : given;
}

static void releaseStatuses(MPI_Status* statuses, MPI_Status* given)
{
    if (statuses != given)
        free(statuses);
}

/* After an all-or-nothing array call: every kept request completed (when `completed`), then the copies go. */
static void allCompleted(int count, MPI_Request* kept, MPI_Status* got, MPI_Status* given, int completed)
{
    if (kept && completed)
        for (int i = 0; i < count; ++i)
            traceCompleted(kept[i], got == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &got[i]);
    free(kept);
    releaseStatuses(got, given);
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    tiEnter();
    MPI_Request* kept = keepRequests(count, reqs);
    MPI_Status* got = statusesFor(count, statuses, kept);
    const int rc = PMPI_Waitall(count, reqs, got);
    allCompleted(count, kept, got, statuses, 1);
    tiLeave();
    return rc;
}

int MPI_Testall(int count, MPI_Request reqs[], int* flag, MPI_Status statuses[])
{
    tiEnter();
    MPI_Request* kept = keepRequests(count, reqs);
    MPI_Status* got = statusesFor(count, statuses, kept);
    const int rc = PMPI_Testall(count, reqs, flag, got);
    allCompleted(count, kept, got, statuses, *flag);
    tiLeave();
    return rc;
}

int MPI_Waitany(int count, MPI_Request reqs[], int* index, MPI_Status* status)
{
    tiEnter();
    MPI_Request* kept = keepRequests(count, reqs);
    MPI_Status own;
    MPI_Status* got = status == MPI_STATUS_IGNORE ? &own : status;
    const int rc = PMPI_Waitany(count, reqs, index, got);
    if (kept && *index != MPI_UNDEFINED)
        traceCompleted(kept[*index], got);
    free(kept);
    tiLeave();
    return rc;
}

int MPI_Testany(int count, MPI_Request reqs[], int* index, int* flag, MPI_Status* status)
{
    tiEnter();
    MPI_Request* kept = keepRequests(count, reqs);
    MPI_Status own;
    MPI_Status* got = status == MPI_STATUS_IGNORE ? &own : status;
    const int rc = PMPI_Testany(count, reqs, index, flag, got);
    if (kept && *flag && *index != MPI_UNDEFINED)
        traceCompleted(kept[*index], got);
    free(kept);
    tiLeave();
    return rc;
}

/* Waitsome and Testsome: the completed requests' indices and statuses come back in the first outcount places. */
#define SOME(NAME) \
    int MPI_##NAME(int incount, MPI_Request reqs[], int* outcount, int indices[], MPI_Status statuses[]) \
    { \
        tiEnter(); \
        MPI_Request* kept = keepRequests(incount, reqs); \
        MPI_Status* got = statusesFor(incount, statuses, kept); \
        const int rc = PMPI_##NAME(incount, reqs, outcount, indices, got); \
        if (kept && *outcount != MPI_UNDEFINED) \
            for (int k = 0; k < *outcount; ++k) \
                traceCompleted(kept[indices[k]], got == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &got[k]); \
        free(kept); \
        releaseStatuses(got, statuses); \
        tiLeave(); \
        return rc; \
    }
SOME(Waitsome)
SOME(Testsome)

/* ---- collectives ------------------------------------------------------------------------------------ */

int MPI_Barrier(MPI_Comm comm)
{
    tiEnter();
    traceBarrier(comm);
    const int rc = PMPI_Barrier(comm);
    tiLeave();
    return rc;
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    tiEnter();
    traceBcast(comm, root, count, type);
    const int rc = PMPI_Bcast(buf, count, type, root, comm);
    tiLeave();
    return rc;
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    tiEnter();
    traceGather(comm, root, sendbuf == MPI_IN_PLACE, sendcount, sendtype, recvcount, recvtype);
    const int rc = PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    tiLeave();
    return rc;
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    tiEnter();
    traceGatherv(comm, root, sendbuf == MPI_IN_PLACE, sendcount, sendtype, recvcounts, recvtype);
    const int rc = PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
    tiLeave();
    return rc;
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    tiEnter();
    traceScatter(comm, root, sendcount, sendtype, recvcount, recvtype);
    const int rc = PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    tiLeave();
    return rc;
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    tiEnter();
    traceScatterv(comm, root, sendcounts, sendtype);
    const int rc = PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
    tiLeave();
    return rc;
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    tiEnter();
    traceAllgather(comm, sendbuf == MPI_IN_PLACE, sendcount, sendtype, recvcount, recvtype);
    const int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    tiLeave();
    return rc;
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    tiEnter();
    traceAllgatherv(comm, sendbuf == MPI_IN_PLACE, sendcount, sendtype, recvcounts, recvtype);
    const int rc = PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
    tiLeave();
    return rc;
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm)
{
    tiEnter();
    traceAlltoall(comm, sendbuf == MPI_IN_PLACE, sendcount, sendtype, recvcount, recvtype);
    const int rc = PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    tiLeave();
    return rc;
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    tiEnter();
    traceAlltoallv(comm, sendbuf == MPI_IN_PLACE, sendcounts, sendtype, recvcounts, recvtype);
    const int rc = PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
    tiLeave();
    return rc;
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    tiEnter();
    traceReduce(comm, root, count, type);
    const int rc = PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
    tiLeave();
    return rc;
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    tiEnter();
    traceAllreduce(comm, count, type);
    const int rc = PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
    tiLeave();
    return rc;
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm)
{
    tiEnter();
    traceReduceScatter(comm, recvcounts, type);
    const int rc = PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
    tiLeave();
    return rc;
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm)
{
    tiEnter();
    traceReduceScatterBlock(comm, recvcount, type);
    const int rc = PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
    tiLeave();
    return rc;
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    tiEnter();
    traceScan(comm, count, type);
    const int rc = PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
    tiLeave();
    return rc;
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    tiEnter();
    traceExscan(comm, count, type);
    const int rc = PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
    tiLeave();
    return rc;
}
