/* The Fortran entry points of libmeridian-trace. Open MPI's Fortran bindings (mpif.h, `use mpi`, `use mpi_f08`)
 * call PMPI_* directly, so a Fortran program never reaches the C wrappers of c_entry.c. Each entry point here
 * takes the place of one Fortran binding under every name a Fortran compiler gives it (mpi_send, mpi_send_,
 * mpi_send__, MPI_SEND for mpif.h and `use mpi`; mpi_send_f08_ for `use mpi_f08`), tells the tracer (tracer.h)
 * what the call does in C terms (handles converted with PMPI_*_f2c), and calls the binding it replaces, found
 * with dlsym(RTLD_NEXT): Open MPI's own Fortran code does the call, with its handling of MPI_IN_PLACE,
 * MPI_BOTTOM, status and error arguments, and the program sees no difference.
 *
 * Every argument of these bindings is passed by reference, in both binding styles: integers and handles as
 * pointers to MPI_Fint (an mpi_f08 handle is a derived type holding one integer), buffers as addresses, and the
 * error argument last (absent, a null pointer, when an mpi_f08 caller leaves it out). A status is
 * sizeof(MPI_Status) / sizeof(MPI_Fint) integers (Open MPI's MPI_STATUS_SIZE, and the layout of mpi_f08's
 * TYPE(MPI_Status)). Open MPI only: the sentinel of Fortran's MPI_IN_PLACE is Open MPI's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ti_trace.h"
#include "tracer.h"

#ifndef OPEN_MPI
#    error "the Fortran entry points are written for Open MPI's Fortran bindings"
#endif

typedef MPI_Fint F;
typedef void (*Binding)(void);

enum { STATUS_INTEGERS = sizeof(MPI_Status) / sizeof(MPI_Fint) };
_Static_assert(sizeof(MPI_Status) % sizeof(MPI_Fint) == 0, "a Fortran status is whole integers");

/* Fortran's MPI_IN_PLACE: the address of this common block (Open MPI's mpif-c-constants-decl.h). */
extern int mpi_fortran_in_place_;

static int inPlace(const void* buffer) { return buffer == (const void*)&mpi_fortran_in_place_; }

/* The binding this entry point replaces: the next definition of `name` after this library (Open MPI's). */
static Binding next(Binding* cache, const char* name)
{
    Binding binding = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (binding)
        return binding;
    void* found = dlsym(RTLD_NEXT, name);
    if (!found) {
        fprintf(stderr, "meridian-trace: the MPI library has no Fortran binding %s\n", name);
        abort();
    }
    memcpy(&binding, &found, sizeof binding);
    __atomic_store_n(cache, binding, __ATOMIC_RELEASE);
    return binding;
}

/* Whether the call succeeded: its error argument says so, or (mpi_f08 without one) errors abort. */
static int succeeded(const F* ierror) { return !ierror || *ierror == MPI_SUCCESS; }

/* A status the caller passed, or room of our own when it passed MPI_STATUS_IGNORE. */
static F* statusFor(F* given, F* own) { return given == MPI_F_STATUS_IGNORE ? own : given; }

static MPI_Status cStatus(const F* status)
{
    MPI_Status c;
    PMPI_Status_f2c(status, &c);
    return c;
}

/* The C handles of a Fortran request array, before a wait or test completes them (NULL when no trace is recorded
 * or memory is short: then nothing is recorded). */
static MPI_Request* keepRequests(F count, const F* requests)
{
    if (!traceWantsCompletions() || count <= 0)
        return NULL;
    MPI_Request* kept = malloc(sizeof(MPI_Request) * (size_t)count);
    if (kept)
        for (F i = 0; i < count; ++i)
            kept[i] = PMPI_Request_f2c(requests[i]);
    return kept;
}

/* Where an array call puts its statuses: the caller's, or room of our own when it passes MPI_STATUSES_IGNORE and
 * the trace needs them (`kept` set). */
static F* statusesFor(F count, F* given, const MPI_Request* kept)
{
    if (!kept || given != MPI_F_STATUSES_IGNORE)
        return given;
    F* own = malloc(sizeof(F) * STATUS_INTEGERS * (size_t)count);
    return own ? own : given;
}

/* Request k of an array call completed with status `slot` of `statuses`. */
static void completed(const MPI_Request* kept, F k, const F* statuses, F slot)
{
    if (statuses == MPI_F_STATUSES_IGNORE) {
        traceCompleted(kept[k], MPI_STATUS_IGNORE);
        return;
    }
    const MPI_Status status = cStatus(statuses + (size_t)slot * STATUS_INTEGERS);
    traceCompleted(kept[k], &status);
}

static void release(MPI_Request* kept, F* statuses, F* given)
{
    free(kept);
    if (statuses != given)
        free(statuses);
}

/* Defines a binding under each of its Fortran names; IMPLEMENTATION(binding, arguments...) does the work. */
#define FORTRAN(IMPLEMENTATION, lower, UPPER, PARAMETERS, ...) \
    void lower PARAMETERS \
    { \
        static Binding cache; \
        IMPLEMENTATION(next(&cache, #lower), __VA_ARGS__); \
    } \
    void lower##_ PARAMETERS \
    { \
        static Binding cache; \
        IMPLEMENTATION(next(&cache, #lower "_"), __VA_ARGS__); \
    } \
    void lower##__ PARAMETERS \
    { \
        static Binding cache; \
        IMPLEMENTATION(next(&cache, #lower "__"), __VA_ARGS__); \
    } \
    void UPPER PARAMETERS \
    { \
        static Binding cache; \
        IMPLEMENTATION(next(&cache, #UPPER), __VA_ARGS__); \
    } \
    void lower##_f08_ PARAMETERS \
    { \
        static Binding cache; \
        IMPLEMENTATION(next(&cache, #lower "_f08_"), __VA_ARGS__); \
    }

/* ---- life cycle ------------------------------------------------------------------------------------- */

typedef void (*InitFn)(F*);
static void init(Binding binding, F* ierror)
{
    ((InitFn)binding)(ierror);
    if (succeeded(ierror))
        traceInitialised();
}
FORTRAN(init, mpi_init, MPI_INIT, (F * ierror), ierror)

typedef void (*InitThreadFn)(F*, F*, F*);
static void initThread(Binding binding, F* required, F* provided, F* ierror)
{
    ((InitThreadFn)binding)(required, provided, ierror);
    if (succeeded(ierror))
        traceInitialised();
}
FORTRAN(initThread, mpi_init_thread, MPI_INIT_THREAD, (F * required, F* provided, F* ierror), required, provided, ierror)

static void finalize(Binding binding, F* ierror)
{
    tiEnter();
    traceFinalize();
    ((InitFn)binding)(ierror);
}
FORTRAN(finalize, mpi_finalize, MPI_FINALIZE, (F * ierror), ierror)

typedef void (*PcontrolFn)(F*);
static void pcontrol(Binding binding, F* level)
{
    tracePcontrol(*level);
    ((PcontrolFn)binding)(level);
}
FORTRAN(pcontrol, mpi_pcontrol, MPI_PCONTROL, (F * level), level)

/* ---- point-to-point --------------------------------------------------------------------------------- */

typedef void (*SendFn)(void*, F*, F*, F*, F*, F*, F*);
static void send(Binding binding, void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* ierror)
{
    tiEnter();
    traceSend(PMPI_Comm_f2c(*comm), *dest, *tag, *count, PMPI_Type_f2c(*type));
    ((SendFn)binding)(buf, count, type, dest, tag, comm, ierror);
    tiLeave();
}
#define SEND_PARAMETERS (void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* ierror)
FORTRAN(send, mpi_send, MPI_SEND, SEND_PARAMETERS, buf, count, type, dest, tag, comm, ierror)
FORTRAN(send, mpi_ssend, MPI_SSEND, SEND_PARAMETERS, buf, count, type, dest, tag, comm, ierror)
FORTRAN(send, mpi_bsend, MPI_BSEND, SEND_PARAMETERS, buf, count, type, dest, tag, comm, ierror)
FORTRAN(send, mpi_rsend, MPI_RSEND, SEND_PARAMETERS, buf, count, type, dest, tag, comm, ierror)

typedef void (*IsendFn)(void*, F*, F*, F*, F*, F*, F*, F*);
static void isend(Binding binding, void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request, F* ierror)
{
    tiEnter();
    ((IsendFn)binding)(buf, count, type, dest, tag, comm, request, ierror);
    if (succeeded(ierror))
        traceIsend(PMPI_Comm_f2c(*comm), *dest, *tag, *count, PMPI_Type_f2c(*type), PMPI_Request_f2c(*request));
    tiLeave();
}
#define ISEND_PARAMETERS (void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request, F* ierror)
FORTRAN(isend, mpi_isend, MPI_ISEND, ISEND_PARAMETERS, buf, count, type, dest, tag, comm, request, ierror)
FORTRAN(isend, mpi_issend, MPI_ISSEND, ISEND_PARAMETERS, buf, count, type, dest, tag, comm, request, ierror)
FORTRAN(isend, mpi_ibsend, MPI_IBSEND, ISEND_PARAMETERS, buf, count, type, dest, tag, comm, request, ierror)
FORTRAN(isend, mpi_irsend, MPI_IRSEND, ISEND_PARAMETERS, buf, count, type, dest, tag, comm, request, ierror)

static void persistentSend(Binding binding, void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request,
                           F* ierror)
{
    ((IsendFn)binding)(buf, count, type, dest, tag, comm, request, ierror);
    if (succeeded(ierror))
        tracePersistentSend(PMPI_Comm_f2c(*comm), *dest, *tag, *count, PMPI_Type_f2c(*type), PMPI_Request_f2c(*request));
}
FORTRAN(persistentSend, mpi_send_init, MPI_SEND_INIT, ISEND_PARAMETERS, buf, count, type, dest, tag, comm, request,
        ierror)
FORTRAN(persistentSend, mpi_ssend_init, MPI_SSEND_INIT, ISEND_PARAMETERS, buf, count, type, dest, tag, comm, request,
        ierror)
FORTRAN(persistentSend, mpi_bsend_init, MPI_BSEND_INIT, ISEND_PARAMETERS, buf, count, type, dest, tag, comm, request,
        ierror)
FORTRAN(persistentSend, mpi_rsend_init, MPI_RSEND_INIT, ISEND_PARAMETERS, buf, count, type, dest, tag, comm, request,
        ierror)

typedef void (*SendrecvFn)(void*, F*, F*, F*, F*, void*, F*, F*, F*, F*, F*, F*, F*);
static void sendrecv(Binding binding, void* sendbuf, F* sendcount, F* sendtype, F* dest, F* sendtag, void* recvbuf,
                     F* recvcount, F* recvtype, F* source, F* recvtag, F* comm, F* status, F* ierror)
{
    tiEnter();
    F own[STATUS_INTEGERS];
    F* got = statusFor(status, own);
    ((SendrecvFn)binding)(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                          comm, got, ierror);
    if (succeeded(ierror)) {
        const MPI_Status c = cStatus(got);
        traceSendrecv(PMPI_Comm_f2c(*comm), *dest, *sendtag, *sendcount, PMPI_Type_f2c(*sendtype), *source, *recvcount,
                      PMPI_Type_f2c(*recvtype), &c);
    }
    tiLeave();
}
FORTRAN(sendrecv, mpi_sendrecv, MPI_SENDRECV,
        (void* sendbuf, F* sendcount, F* sendtype, F* dest, F* sendtag, void* recvbuf, F* recvcount, F* recvtype,
         F* source, F* recvtag, F* comm, F* status, F* ierror),
        sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm, status,
        ierror)

typedef void (*SendrecvReplaceFn)(void*, F*, F*, F*, F*, F*, F*, F*, F*, F*);
static void sendrecvReplace(Binding binding, void* buf, F* count, F* type, F* dest, F* sendtag, F* source, F* recvtag,
                            F* comm, F* status, F* ierror)
{
    tiEnter();
    F own[STATUS_INTEGERS];
    F* got = statusFor(status, own);
    ((SendrecvReplaceFn)binding)(buf, count, type, dest, sendtag, source, recvtag, comm, got, ierror);
    if (succeeded(ierror)) {
        const MPI_Status c = cStatus(got);
        const MPI_Datatype t = PMPI_Type_f2c(*type);
        traceSendrecv(PMPI_Comm_f2c(*comm), *dest, *sendtag, *count, t, *source, *count, t, &c);
    }
    tiLeave();
}
FORTRAN(sendrecvReplace, mpi_sendrecv_replace, MPI_SENDRECV_REPLACE,
        (void* buf, F* count, F* type, F* dest, F* sendtag, F* source, F* recvtag, F* comm, F* status, F* ierror), buf,
        count, type, dest, sendtag, source, recvtag, comm, status, ierror)

typedef void (*StartFn)(F*, F*);
static void start(Binding binding, F* request, F* ierror)
{
    tiEnter();
    traceStart(PMPI_Request_f2c(*request));
    ((StartFn)binding)(request, ierror);
    tiLeave();
}
FORTRAN(start, mpi_start, MPI_START, (F * request, F* ierror), request, ierror)

typedef void (*StartallFn)(F*, F*, F*);
static void startall(Binding binding, F* count, F* requests, F* ierror)
{
    tiEnter();
    for (F i = 0; i < *count; ++i)
        traceStart(PMPI_Request_f2c(requests[i]));
    ((StartallFn)binding)(count, requests, ierror);
    tiLeave();
}
FORTRAN(startall, mpi_startall, MPI_STARTALL, (F * count, F* requests, F* ierror), count, requests, ierror)

static void requestFree(Binding binding, F* request, F* ierror)
{
    traceRequestFree(PMPI_Request_f2c(*request));
    ((StartFn)binding)(request, ierror);
}
FORTRAN(requestFree, mpi_request_free, MPI_REQUEST_FREE, (F * request, F* ierror), request, ierror)

typedef void (*RecvFn)(void*, F*, F*, F*, F*, F*, F*, F*);
static void recv(Binding binding, void* buf, F* count, F* type, F* source, F* tag, F* comm, F* status, F* ierror)
{
    tiEnter();
    F own[STATUS_INTEGERS];
    F* got = statusFor(status, own);
    ((RecvFn)binding)(buf, count, type, source, tag, comm, got, ierror);
    if (succeeded(ierror)) {
        const MPI_Status c = cStatus(got);
        traceRecv(PMPI_Comm_f2c(*comm), *source, *count, PMPI_Type_f2c(*type), &c);
    }
    tiLeave();
}
FORTRAN(recv, mpi_recv, MPI_RECV, (void* buf, F* count, F* type, F* source, F* tag, F* comm, F* status, F* ierror), buf,
        count, type, source, tag, comm, status, ierror)

static void irecv(Binding binding, void* buf, F* count, F* type, F* source, F* tag, F* comm, F* request, F* ierror)
{
    tiEnter();
    ((IsendFn)binding)(buf, count, type, source, tag, comm, request, ierror);
    if (succeeded(ierror))
        traceIrecv(PMPI_Comm_f2c(*comm), *source, *tag, *count, PMPI_Type_f2c(*type), PMPI_Request_f2c(*request));
    tiLeave();
}
FORTRAN(irecv, mpi_irecv, MPI_IRECV, (void* buf, F* count, F* type, F* source, F* tag, F* comm, F* request, F* ierror),
        buf, count, type, source, tag, comm, request, ierror)

/* ---- waits and tests -------------------------------------------------------------------------------- */

typedef void (*WaitFn)(F*, F*, F*);
static void wait(Binding binding, F* request, F* status, F* ierror)
{
    tiEnter();
    const MPI_Request before = PMPI_Request_f2c(*request);
    F own[STATUS_INTEGERS];
    F* got = statusFor(status, own);
    ((WaitFn)binding)(request, got, ierror);
    if (succeeded(ierror)) {
        const MPI_Status c = cStatus(got);
        traceCompleted(before, &c);
    }
    tiLeave();
}
FORTRAN(wait, mpi_wait, MPI_WAIT, (F * request, F* status, F* ierror), request, status, ierror)

typedef void (*TestFn)(F*, F*, F*, F*);
static void test(Binding binding, F* request, F* flag, F* status, F* ierror)
{
    tiEnter();
    const MPI_Request before = PMPI_Request_f2c(*request);
    F own[STATUS_INTEGERS];
    F* got = statusFor(status, own);
    ((TestFn)binding)(request, flag, got, ierror);
    if (succeeded(ierror) && *flag) {
        const MPI_Status c = cStatus(got);
        traceCompleted(before, &c);
    }
    tiLeave();
}
FORTRAN(test, mpi_test, MPI_TEST, (F * request, F* flag, F* status, F* ierror), request, flag, status, ierror)

static void waitall(Binding binding, F* count, F* requests, F* statuses, F* ierror)
{
    tiEnter();
    MPI_Request* kept = keepRequests(*count, requests);
    F* got = statusesFor(*count, statuses, kept);
    ((TestFn)binding)(count, requests, got, ierror);
    if (kept && succeeded(ierror))
        for (F i = 0; i < *count; ++i)
            completed(kept, i, got, i);
    release(kept, got, statuses);
    tiLeave();
}
FORTRAN(waitall, mpi_waitall, MPI_WAITALL, (F * count, F* requests, F* statuses, F* ierror), count, requests, statuses,
        ierror)

typedef void (*TestallFn)(F*, F*, F*, F*, F*);
static void testall(Binding binding, F* count, F* requests, F* flag, F* statuses, F* ierror)
{
    tiEnter();
    MPI_Request* kept = keepRequests(*count, requests);
    F* got = statusesFor(*count, statuses, kept);
    ((TestallFn)binding)(count, requests, flag, got, ierror);
    if (kept && succeeded(ierror) && *flag)
        for (F i = 0; i < *count; ++i)
            completed(kept, i, got, i);
    release(kept, got, statuses);
    tiLeave();
}
FORTRAN(testall, mpi_testall, MPI_TESTALL, (F * count, F* requests, F* flag, F* statuses, F* ierror), count, requests,
        flag, statuses, ierror)

/* Fortran's indices are 1-based; MPI_UNDEFINED stays as it is. */
static void waitany(Binding binding, F* count, F* requests, F* index, F* status, F* ierror)
{
    tiEnter();
    MPI_Request* kept = keepRequests(*count, requests);
    F own[STATUS_INTEGERS];
    F* got = statusFor(status, own);
    ((TestallFn)binding)(count, requests, index, got, ierror);
    if (kept && succeeded(ierror) && *index != MPI_UNDEFINED) {
        const MPI_Status c = cStatus(got);
        traceCompleted(kept[*index - 1], &c);
    }
    free(kept);
    tiLeave();
}
FORTRAN(waitany, mpi_waitany, MPI_WAITANY, (F * count, F* requests, F* index, F* status, F* ierror), count, requests,
        index, status, ierror)

typedef void (*TestanyFn)(F*, F*, F*, F*, F*, F*);
static void testany(Binding binding, F* count, F* requests, F* index, F* flag, F* status, F* ierror)
{
    tiEnter();
    MPI_Request* kept = keepRequests(*count, requests);
    F own[STATUS_INTEGERS];
    F* got = statusFor(status, own);
    ((TestanyFn)binding)(count, requests, index, flag, got, ierror);
    if (kept && succeeded(ierror) && *flag && *index != MPI_UNDEFINED) {
        const MPI_Status c = cStatus(got);
        traceCompleted(kept[*index - 1], &c);
    }
    free(kept);
    tiLeave();
}
FORTRAN(testany, mpi_testany, MPI_TESTANY, (F * count, F* requests, F* index, F* flag, F* status, F* ierror), count,
        requests, index, flag, status, ierror)

/* Waitsome and Testsome: the completed requests' indices (1-based) and statuses come back in the first outcount
 * places. */
static void some(Binding binding, F* incount, F* requests, F* outcount, F* indices, F* statuses, F* ierror)
{
    tiEnter();
    MPI_Request* kept = keepRequests(*incount, requests);
    F* got = statusesFor(*incount, statuses, kept);
    ((TestanyFn)binding)(incount, requests, outcount, indices, got, ierror);
    if (kept && succeeded(ierror) && *outcount != MPI_UNDEFINED)
        for (F k = 0; k < *outcount; ++k)
            completed(kept, indices[k] - 1, got, k);
    release(kept, got, statuses);
    tiLeave();
}
#define SOME_PARAMETERS (F * incount, F * requests, F * outcount, F * indices, F * statuses, F * ierror)
FORTRAN(some, mpi_waitsome, MPI_WAITSOME, SOME_PARAMETERS, incount, requests, outcount, indices, statuses, ierror)
FORTRAN(some, mpi_testsome, MPI_TESTSOME, SOME_PARAMETERS, incount, requests, outcount, indices, statuses, ierror)

/* ---- collectives ------------------------------------------------------------------------------------ */

typedef void (*BarrierFn)(F*, F*);
static void barrier(Binding binding, F* comm, F* ierror)
{
    tiEnter();
    traceBarrier(PMPI_Comm_f2c(*comm));
    ((BarrierFn)binding)(comm, ierror);
    tiLeave();
}
FORTRAN(barrier, mpi_barrier, MPI_BARRIER, (F * comm, F* ierror), comm, ierror)

typedef void (*BcastFn)(void*, F*, F*, F*, F*, F*);
static void bcast(Binding binding, void* buf, F* count, F* type, F* root, F* comm, F* ierror)
{
    tiEnter();
    traceBcast(PMPI_Comm_f2c(*comm), *root, *count, PMPI_Type_f2c(*type));
    ((BcastFn)binding)(buf, count, type, root, comm, ierror);
    tiLeave();
}
FORTRAN(bcast, mpi_bcast, MPI_BCAST, (void* buf, F* count, F* type, F* root, F* comm, F* ierror), buf, count, type,
        root, comm, ierror)

typedef void (*GatherFn)(void*, F*, F*, void*, F*, F*, F*, F*, F*);
static void gather(Binding binding, void* sendbuf, F* sendcount, F* sendtype, void* recvbuf, F* recvcount, F* recvtype,
                   F* root, F* comm, F* ierror)
{
    tiEnter();
    traceGather(PMPI_Comm_f2c(*comm), *root, inPlace(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype), *recvcount,
                PMPI_Type_f2c(*recvtype));
    ((GatherFn)binding)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, ierror);
    tiLeave();
}
#define GATHER_PARAMETERS \
    (void* sendbuf, F* sendcount, F* sendtype, void* recvbuf, F* recvcount, F* recvtype, F* root, F* comm, F* ierror)
FORTRAN(gather, mpi_gather, MPI_GATHER, GATHER_PARAMETERS, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
        root, comm, ierror)

static void scatter(Binding binding, void* sendbuf, F* sendcount, F* sendtype, void* recvbuf, F* recvcount, F* recvtype,
                    F* root, F* comm, F* ierror)
{
    tiEnter();
    traceScatter(PMPI_Comm_f2c(*comm), *root, *sendcount, PMPI_Type_f2c(*sendtype), *recvcount,
                 PMPI_Type_f2c(*recvtype));
    ((GatherFn)binding)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, ierror);
    tiLeave();
}
FORTRAN(scatter, mpi_scatter, MPI_SCATTER, GATHER_PARAMETERS, sendbuf, sendcount, sendtype, recvbuf, recvcount,
        recvtype, root, comm, ierror)

typedef void (*GathervFn)(void*, F*, F*, void*, F*, F*, F*, F*, F*, F*);
static void gatherv(Binding binding, void* sendbuf, F* sendcount, F* sendtype, void* recvbuf, F* recvcounts, F* displs,
                    F* recvtype, F* root, F* comm, F* ierror)
{
    tiEnter();
    traceGatherv(PMPI_Comm_f2c(*comm), *root, inPlace(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype), recvcounts,
                 PMPI_Type_f2c(*recvtype));
    ((GathervFn)binding)(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, ierror);
    tiLeave();
}
FORTRAN(gatherv, mpi_gatherv, MPI_GATHERV,
        (void* sendbuf, F* sendcount, F* sendtype, void* recvbuf, F* recvcounts, F* displs, F* recvtype, F* root,
         F* comm, F* ierror),
        sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, ierror)

static void scatterv(Binding binding, void* sendbuf, F* sendcounts, F* displs, F* sendtype, void* recvbuf, F* recvcount,
                     F* recvtype, F* root, F* comm, F* ierror)
{
    tiEnter();
    traceScatterv(PMPI_Comm_f2c(*comm), *root, sendcounts, PMPI_Type_f2c(*sendtype));
    ((GathervFn)binding)(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, ierror);
    tiLeave();
}
FORTRAN(scatterv, mpi_scatterv, MPI_SCATTERV,
        (void* sendbuf, F* sendcounts, F* displs, F* sendtype, void* recvbuf, F* recvcount, F* recvtype, F* root,
         F* comm, F* ierror),
        sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, ierror)

typedef void (*AllgatherFn)(void*, F*, F*, void*, F*, F*, F*, F*);
static void allgather(Binding binding, void* sendbuf, F* sendcount, F* sendtype, void* recvbuf, F* recvcount,
                      F* recvtype, F* comm, F* ierror)
{
    tiEnter();
    traceAllgather(PMPI_Comm_f2c(*comm), inPlace(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype), *recvcount,
                   PMPI_Type_f2c(*recvtype));
    ((AllgatherFn)binding)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierror);
    tiLeave();
}
#define ALLGATHER_PARAMETERS \
    (void* sendbuf, F* sendcount, F* sendtype, void* recvbuf, F* recvcount, F* recvtype, F* comm, F* ierror)
FORTRAN(allgather, mpi_allgather, MPI_ALLGATHER, ALLGATHER_PARAMETERS, sendbuf, sendcount, sendtype, recvbuf, recvcount,
        recvtype, comm, ierror)

static void alltoall(Binding binding, void* sendbuf, F* sendcount, F* sendtype, void* recvbuf, F* recvcount,
                     F* recvtype, F* comm, F* ierror)
{
    tiEnter();
    traceAlltoall(PMPI_Comm_f2c(*comm), inPlace(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype), *recvcount,
                  PMPI_Type_f2c(*recvtype));
    ((AllgatherFn)binding)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierror);
    tiLeave();
}
FORTRAN(alltoall, mpi_alltoall, MPI_ALLTOALL, ALLGATHER_PARAMETERS, sendbuf, sendcount, sendtype, recvbuf, recvcount,
        recvtype, comm, ierror)

typedef void (*AllgathervFn)(void*, F*, F*, void*, F*, F*, F*, F*, F*);
static void allgatherv(Binding binding, void* sendbuf, F* sendcount, F* sendtype, void* recvbuf, F* recvcounts,
                       F* displs, F* recvtype, F* comm, F* ierror)
{
    tiEnter();
    traceAllgatherv(PMPI_Comm_f2c(*comm), inPlace(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype), recvcounts,
                    PMPI_Type_f2c(*recvtype));
    ((AllgathervFn)binding)(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, ierror);
    tiLeave();
}
FORTRAN(allgatherv, mpi_allgatherv, MPI_ALLGATHERV,
        (void* sendbuf, F* sendcount, F* sendtype, void* recvbuf, F* recvcounts, F* displs, F* recvtype, F* comm,
         F* ierror),
        sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, ierror)

typedef void (*AlltoallvFn)(void*, F*, F*, F*, void*, F*, F*, F*, F*, F*);
static void alltoallv(Binding binding, void* sendbuf, F* sendcounts, F* sdispls, F* sendtype, void* recvbuf,
                      F* recvcounts, F* rdispls, F* recvtype, F* comm, F* ierror)
{
    tiEnter();
    traceAlltoallv(PMPI_Comm_f2c(*comm), inPlace(sendbuf), sendcounts, PMPI_Type_f2c(*sendtype), recvcounts,
                   PMPI_Type_f2c(*recvtype));
    ((AlltoallvFn)binding)(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, ierror);
    tiLeave();
}
FORTRAN(alltoallv, mpi_alltoallv, MPI_ALLTOALLV,
        (void* sendbuf, F* sendcounts, F* sdispls, F* sendtype, void* recvbuf, F* recvcounts, F* rdispls, F* recvtype,
         F* comm, F* ierror),
        sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, ierror)

typedef void (*ReduceFn)(void*, void*, F*, F*, F*, F*, F*, F*);
static void reduce(Binding binding, void* sendbuf, void* recvbuf, F* count, F* type, F* op, F* root, F* comm, F* ierror)
{
    tiEnter();
    traceReduce(PMPI_Comm_f2c(*comm), *root, *count, PMPI_Type_f2c(*type));
    ((ReduceFn)binding)(sendbuf, recvbuf, count, type, op, root, comm, ierror);
    tiLeave();
}
FORTRAN(reduce, mpi_reduce, MPI_REDUCE,
        (void* sendbuf, void* recvbuf, F* count, F* type, F* op, F* root, F* comm, F* ierror), sendbuf, recvbuf, count,
        type, op, root, comm, ierror)

/* The reductions without a root share one signature: Allreduce, Reduce_scatter (its third argument is the counts),
 * Reduce_scatter_block, Scan and Exscan. */
typedef void (*AllreduceFn)(void*, void*, F*, F*, F*, F*, F*);
#define ALLREDUCE_PARAMETERS (void* sendbuf, void* recvbuf, F* count, F* type, F* op, F* comm, F* ierror)
#define ROOTLESS_REDUCTION(NAME, HOOK) \
    static void NAME(Binding binding, void* sendbuf, void* recvbuf, F* count, F* type, F* op, F* comm, F* ierror) \
    { \
        tiEnter(); \
        HOOK; \
        ((AllreduceFn)binding)(sendbuf, recvbuf, count, type, op, comm, ierror); \
        tiLeave(); \
    }
ROOTLESS_REDUCTION(allreduce, traceAllreduce(PMPI_Comm_f2c(*comm), *count, PMPI_Type_f2c(*type)))
ROOTLESS_REDUCTION(reduceScatter, traceReduceScatter(PMPI_Comm_f2c(*comm), count, PMPI_Type_f2c(*type)))
ROOTLESS_REDUCTION(reduceScatterBlock, traceReduceScatterBlock(PMPI_Comm_f2c(*comm), *count, PMPI_Type_f2c(*type)))
ROOTLESS_REDUCTION(scan, traceScan(PMPI_Comm_f2c(*comm), *count, PMPI_Type_f2c(*type)))
ROOTLESS_REDUCTION(exscan, traceExscan(PMPI_Comm_f2c(*comm), *count, PMPI_Type_f2c(*type)))
FORTRAN(allreduce, mpi_allreduce, MPI_ALLREDUCE, ALLREDUCE_PARAMETERS, sendbuf, recvbuf, count, type, op, comm, ierror)
FORTRAN(reduceScatter, mpi_reduce_scatter, MPI_REDUCE_SCATTER, ALLREDUCE_PARAMETERS, sendbuf, recvbuf, count, type, op,
        comm, ierror)
FORTRAN(reduceScatterBlock, mpi_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK, ALLREDUCE_PARAMETERS, sendbuf, recvbuf,
        count, type, op, comm, ierror)
FORTRAN(scan, mpi_scan, MPI_SCAN, ALLREDUCE_PARAMETERS, sendbuf, recvbuf, count, type, op, comm, ierror)
FORTRAN(exscan, mpi_exscan, MPI_EXSCAN, ALLREDUCE_PARAMETERS, sendbuf, recvbuf, count, type, op, comm, ierror)
