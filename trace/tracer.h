/* What libmeridian-trace records for each MPI call it wraps, in C terms. Internal to the tracer.
 *
 * Two sets of entry points call these: the C bindings (c_entry.c: MPI_Send, ...) and the Fortran ones
 * (fortran_entry.c: mpi_send_, ... and mpi_send_f08_, ...), since Open MPI's Fortran bindings call PMPI_*
 * directly and never reach the C wrappers. An entry point calls tiEnter(), the hooks that need only the
 * arguments, the MPI library, the hooks that need its results (requests, statuses), then tiLeave(). Ranks, tags
 * and counts are the caller's (ranks in `comm`); handles are C handles. */
#ifndef MERIDIAN_TRACER_H
#define MERIDIAN_TRACER_H

#include <mpi.h>

/* Internal to the tracer: not exported, so a program's own symbols of these names cannot take their place. */
#pragma GCC visibility push(hidden)

/* ---- life cycle ---- */

/* MPI_Init or MPI_Init_thread succeeded: sets the tracer up (world size, thread level, the trace). */
void traceInitialised(void);
/* MPI_Pcontrol(level): phase `level` starts. */
void tracePcontrol(int level);
/* Before MPI_Finalize: rank 0 gathers every rank's counts and writes the files. */
void traceFinalize(void);

/* ---- point-to-point ---- */

/* A blocking send (Send, Ssend, Bsend, Rsend): counted and written to the trace. */
void traceSend(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type);
/* A non-blocking send (Isend, Issend, Ibsend, Irsend) was posted as `request`. */
void traceIsend(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type, MPI_Request request);
/* A Sendrecv (or Sendrecv_replace, with the same count and type both ways) completed with `status` (never
 * MPI_STATUS_IGNORE: the entry point passes room of its own). */
void traceSendrecv(MPI_Comm comm, int dest, int sendtag, int sendcount, MPI_Datatype sendtype, int source,
                   int recvcount, MPI_Datatype recvtype, const MPI_Status* status);
/* A persistent send (Send_init and its modes) was created as `request`; it is counted at each start. */
void tracePersistentSend(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type, MPI_Request request);
/* Before MPI_Start(request) (and for each request of MPI_Startall). */
void traceStart(MPI_Request request);
/* Before MPI_Request_free(request). */
void traceRequestFree(MPI_Request request);
/* A blocking receive completed with `status` (never MPI_STATUS_IGNORE). */
void traceRecv(MPI_Comm comm, int source, int count, MPI_Datatype type, const MPI_Status* status);
/* A non-blocking receive was posted as `request`. */
void traceIrecv(MPI_Comm comm, int source, int tag, int count, MPI_Datatype type, MPI_Request request);
/* `request` (as it was before the wait or test) completed with `status` (may be MPI_STATUS_IGNORE). */
void traceCompleted(MPI_Request request, const MPI_Status* status);
/* Whether waits and tests need their requests kept and their statuses (a time-independent trace is recorded). */
int traceWantsCompletions(void);

/* ---- collectives: `inPlace` when the send buffer was MPI_IN_PLACE (in the caller's language) ---- */

void traceBarrier(MPI_Comm comm);
void traceBcast(MPI_Comm comm, int root, int count, MPI_Datatype type);
void traceGather(MPI_Comm comm, int root, int inPlace, int sendcount, MPI_Datatype sendtype, int recvcount,
                 MPI_Datatype recvtype);
void traceGatherv(MPI_Comm comm, int root, int inPlace, int sendcount, MPI_Datatype sendtype, const int recvcounts[],
                  MPI_Datatype recvtype);
void traceScatter(MPI_Comm comm, int root, int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype);
void traceScatterv(MPI_Comm comm, int root, const int sendcounts[], MPI_Datatype sendtype);
void traceAllgather(MPI_Comm comm, int inPlace, int sendcount, MPI_Datatype sendtype, int recvcount,
                    MPI_Datatype recvtype);
void traceAllgatherv(MPI_Comm comm, int inPlace, int sendcount, MPI_Datatype sendtype, const int recvcounts[],
                     MPI_Datatype recvtype);
void traceAlltoall(MPI_Comm comm, int inPlace, int sendcount, MPI_Datatype sendtype, int recvcount,
                   MPI_Datatype recvtype);
void traceAlltoallv(MPI_Comm comm, int inPlace, const int sendcounts[], MPI_Datatype sendtype, const int recvcounts[],
                    MPI_Datatype recvtype);
void traceReduce(MPI_Comm comm, int root, int count, MPI_Datatype type);
void traceAllreduce(MPI_Comm comm, int count, MPI_Datatype type);
void traceReduceScatter(MPI_Comm comm, const int recvcounts[], MPI_Datatype type);
void traceReduceScatterBlock(MPI_Comm comm, int recvcount, MPI_Datatype type);
void traceScan(MPI_Comm comm, int count, MPI_Datatype type);
void traceExscan(MPI_Comm comm, int count, MPI_Datatype type);

#pragma GCC visibility pop

#endif
