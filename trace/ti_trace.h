/* The time-independent trace libmeridian-trace records when MERIDIAN_TRACE_TI is set (meridian-cli capture
 * --trace): per rank, in order, what the program does, in SimGrid's format for SMPI's replay (smpirun -replay).
 * Internal to the tracer. */
#ifndef MERIDIAN_TI_TRACE_H
#define MERIDIAN_TI_TRACE_H

#include <mpi.h>
#include <stdint.h>

/* Internal to the tracer: not exported, so a program's own symbols of these names cannot take their place. */
#pragma GCC visibility push(hidden)

/* Opens this rank's trace (PREFIX.ti.RANK, through a temporary) when MERIDIAN_TRACE_TI is set and the program
 * runs with one thread calling MPI; writes "R init". */
void tiOpen(int worldRank, int worldSize, int threadMultiple);
/* Whether a trace is being recorded. */
int tiActive(void);
/* An MPI call starts: the processor time this thread used since the last one ended is written as computation
 * ("R compute FLOPS", at the 10^9 flop/s of the platform's hosts). */
void tiEnter(void);
/* An MPI call ends. */
void tiLeave(void);
/* Writes one line "R " + text. */
void tiLine(const char* format, ...) __attribute__((format(printf, 1, 2)));
/* A nonblocking send or receive was posted (receive: `isRecv`; peer -1 = MPI_ANY_SOURCE, tag -1 = MPI_ANY_TAG,
 * written when it completes, with the status's source and tag). Peers are world ranks. */
void tiPosted(MPI_Request request, int isRecv, int peer, int tag, uint64_t bytes);
/* `request` (as it was before the call) completed with `status` (may be MPI_STATUS_IGNORE): writes "R wait SRC
 * DST TAG" (and a receive from any source just before it). */
void tiCompleted(MPI_Request request, const MPI_Status* status);
/* The program did something the trace cannot hold (a collective on a communicator other than MPI_COMM_WORLD, a
 * v-variant collective): the trace is marked incomplete with `what`, once. */
void tiUnsupported(const char* what);
/* Writes "R finalize" and renames the trace into place (meridian-cli capture writes the list of the ranks' files,
 * SimGrid's -replay argument). Returns 0 on failure. */
int tiClose(void);

#pragma GCC visibility pop

#endif
