/* An MPI program whose communication matrix is known exactly, for the capture tests. Run on 4 ranks.
 *
 * Phase 0 (from MPI_Init), rank r sends:
 *   to (r+1)%4: 3 x Send of 1000*(r+1) bytes, 1 x Sendrecv of 100 doubles, 1 x Bsend of 24 bytes
 *   to (r+2)%4: 2 x Ssend of 500 bytes, 1 x Sendrecv_replace of 10 ints
 *               (both Sendrecv left out with --without-sendrecv: EZTrace 2.0 records them without their messages)
 *   to (r+3)%4: 2 x Isend of 256 ints, 4 x persistent Send_init/Startall of 64 bytes (left out with
 *               --without-persistent: Open MPI 4.1's monitoring does not count them)
 *   to MPI_PROC_NULL: a Send of 99 bytes (no traffic)
 *   collectives: Bcast of 1000 bytes from rank 0, Allreduce of 8 doubles, Barrier
 * Phase 1 (after MPI_Pcontrol(1)), in the communicator of the ranks of r's parity ({0, 2} and {1, 3}):
 *   to its partner (r+2)%4: 5 x Send of 77 bytes, 1 x Isend of 13 doubles
 *   collectives: Reduce of 4 ints to the communicator's rank 1 (world rank 2 or 3) (left out with
 *               --without-subcommunicator-collectives: a time-independent trace cannot hold it)
 * --abort makes every rank call MPI_Abort(3) before sending anything. --expect-input WORD makes rank 0 read a line
 * from its standard input first and abort (4) unless it is WORD.
 * Built with -DMERIDIAN_MIXED and linked with known_matrix.F90 (also -DMERIDIAN_MIXED), it is a mixed C and Fortran
 * program with the same matrix: C initialises and finalises MPI and sends the ring and opposite traffic, Fortran
 * sends the rest (known_matrix_fortran_rest).
 * tests/app/capture checks what every capture path reports against these numbers. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef MERIDIAN_MIXED
/* known_matrix.F90: phase 0's backwards traffic and world collectives, then phase 1. */
void known_matrix_fortran_rest(int persistent, int subCollectives);
#endif

static char buffer[8192];
static char inbox[8192];

/* What a run leaves out, for tools that cannot see it (see the comment at the top). */
static int g_sendrecv = 1;
static int g_persistent = 1;
static int g_subCollectives = 1;

static void ring(int rank, int size)
{
    const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
    const int mine = 1000 * (rank + 1), theirs = 1000 * (previous + 1);
    for (int k = 0; k < 3; ++k) {
        if (rank % 2 == 0) {
            MPI_Send(buffer, mine, MPI_BYTE, next, 1, MPI_COMM_WORLD);
            MPI_Recv(inbox, theirs, MPI_BYTE, previous, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(inbox, theirs, MPI_BYTE, previous, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buffer, mine, MPI_BYTE, next, 1, MPI_COMM_WORLD);
        }
    }
    if (g_sendrecv)
        MPI_Sendrecv(buffer, 100, MPI_DOUBLE, next, 2, inbox, 100, MPI_DOUBLE, previous, 2, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    static char attached[1024];
    MPI_Buffer_attach(attached, sizeof attached);
    MPI_Bsend(buffer, 24, MPI_BYTE, next, 3, MPI_COMM_WORLD);
    MPI_Recv(inbox, 24, MPI_BYTE, previous, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    void* detached = NULL;
    int detachedSize = 0;
    MPI_Buffer_detach(&detached, &detachedSize);
}

static void opposite(int rank, int size)
{
    const int partner = (rank + 2) % size;
    for (int k = 0; k < 2; ++k) {
        if (rank < partner) {
            MPI_Ssend(buffer, 500, MPI_BYTE, partner, 4, MPI_COMM_WORLD);
            MPI_Recv(inbox, 500, MPI_BYTE, partner, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(inbox, 500, MPI_BYTE, partner, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Ssend(buffer, 500, MPI_BYTE, partner, 4, MPI_COMM_WORLD);
        }
    }
    int values[10] = {0};
    if (g_sendrecv)
        MPI_Sendrecv_replace(values, 10, MPI_INT, partner, 5, partner, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

#ifndef MERIDIAN_MIXED
static void backwards(int rank, int size)
{
    const int to = (rank + 3) % size, from = (rank + 1) % size;
    MPI_Request requests[4];
    MPI_Isend(buffer, 256, MPI_INT, to, 6, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(buffer + 1024, 256, MPI_INT, to, 6, MPI_COMM_WORLD, &requests[1]);
    MPI_Irecv(inbox, 256, MPI_INT, from, 6, MPI_COMM_WORLD, &requests[2]);
    MPI_Irecv(inbox + 1024, 256, MPI_INT, from, 6, MPI_COMM_WORLD, &requests[3]);
    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);

    if (!g_persistent) {
        MPI_Send(buffer, 99, MPI_BYTE, MPI_PROC_NULL, 8, MPI_COMM_WORLD);
        return;
    }
    MPI_Request persistent[2];
    MPI_Send_init(buffer, 64, MPI_BYTE, to, 7, MPI_COMM_WORLD, &persistent[0]);
    MPI_Recv_init(inbox, 64, MPI_BYTE, from, 7, MPI_COMM_WORLD, &persistent[1]);
    for (int k = 0; k < 4; ++k) {
        MPI_Startall(2, persistent);
        MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&persistent[0]);
    MPI_Request_free(&persistent[1]);
    MPI_Send(buffer, 99, MPI_BYTE, MPI_PROC_NULL, 8, MPI_COMM_WORLD);
}

static void subCommunicator(int rank)
{
    MPI_Comm pair;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &pair);
    int s = 0;
    MPI_Comm_rank(pair, &s);
    const int partner = 1 - s;
    for (int k = 0; k < 5; ++k) {
        if (s == 0) {
            MPI_Send(buffer, 77, MPI_BYTE, partner, 9, pair);
            MPI_Recv(inbox, 77, MPI_BYTE, partner, 9, pair, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(inbox, 77, MPI_BYTE, partner, 9, pair, MPI_STATUS_IGNORE);
            MPI_Send(buffer, 77, MPI_BYTE, partner, 9, pair);
        }
    }
    MPI_Request requests[2];
    MPI_Isend(buffer, 13, MPI_DOUBLE, partner, 10, pair, &requests[0]);
    MPI_Irecv(inbox, 13, MPI_DOUBLE, partner, 10, pair, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    int values[4] = {1, 2, 3, 4}, sums[4];
    if (g_subCollectives)
        MPI_Reduce(values, sums, 4, MPI_INT, MPI_SUM, 1, pair);
    MPI_Comm_free(&pair);
}
#endif

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        if (rank == 0)
            fprintf(stderr, "known_matrix: run on 4 ranks (mpirun -np 4)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (argc > 1 && strcmp(argv[1], "--abort") == 0)
        MPI_Abort(MPI_COMM_WORLD, 3);
    if (argc > 2 && strcmp(argv[1], "--expect-input") == 0 && rank == 0) {
        char line[256] = "";
        if (!fgets(line, sizeof line, stdin) || strncmp(line, argv[2], strlen(argv[2])) != 0) {
            fprintf(stderr, "known_matrix: expected '%s' on standard input, read '%s'\n", argv[2], line);
            MPI_Abort(MPI_COMM_WORLD, 4);
        }
    }
    for (int a = 1; a < argc; ++a) {
        g_persistent = g_persistent && strcmp(argv[a], "--without-persistent") != 0;
        g_sendrecv = g_sendrecv && strcmp(argv[a], "--without-sendrecv") != 0;
        g_subCollectives = g_subCollectives && strcmp(argv[a], "--without-subcommunicator-collectives") != 0;
    }
    memset(buffer, 1, sizeof buffer);
    ring(rank, size);
    opposite(rank, size);
#ifdef MERIDIAN_MIXED
    known_matrix_fortran_rest(g_persistent, g_subCollectives);
#else
    backwards(rank, size);
    MPI_Bcast(buffer, 1000, MPI_BYTE, 0, MPI_COMM_WORLD);
    double local[8] = {0}, global[8];
    MPI_Allreduce(local, global, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Pcontrol(1);
    subCommunicator(rank);
#endif
    MPI_Finalize();
    if (rank == 0)
        printf("known_matrix: done\n");
    return 0;
}
