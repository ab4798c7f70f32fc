/* The MPI programs bench_prediction measures with SimGrid's SMPI (compiled with smpicc, run with smpirun on the
 * platform Meridian exports): prediction_apps MODE STEPS BASE_BYTES. Each runs STEPS steps of the communication
 * prediction_apps.h describes, structured as such a program is:
 *   halo2d, halo3d  every step each rank posts its receives and sends, then waits for all of them;
 *   alltoall        every step one MPI_Alltoall;
 *   master          every step the master sends each worker a task (nonblocking) and waits for every result;
 *                   a worker receives its task, then sends its result;
 *   pipeline        every step rank i receives from i - 1, then sends to i + 1 (blocking).
 * Every rank prints "TIME <seconds>" when it ended its last step, on SMPI's simulated clock (the same for every
 * rank, starting at 0 when the ranks start); the latest is the run time, as the replay of a prediction counts it. */
#include "prediction_apps.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, n = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (argc != 4) {
        if (rank == 0)
            fprintf(stderr, "usage: prediction_apps halo2d|halo3d|alltoall|master|pipeline STEPS BASE_BYTES\n");
        MPI_Finalize();
        return 2;
    }
    const char* mode = argv[1];
    const int steps = atoi(argv[2]);
    const long base = atol(argv[3]);
    int peers[APP_MAX_PEERS];
    long bytes[APP_MAX_PEERS];
    const int sends = app_sends(mode, rank, n, base, peers, bytes);
    /* The receives: every rank whose sends name this one. */
    int from[APP_MAX_PEERS];
    long fromBytes[APP_MAX_PEERS];
    int receives = 0;
    for (int r = 0; r < n; ++r) {
        int p[APP_MAX_PEERS];
        long b[APP_MAX_PEERS];
        const int c = app_sends(mode, r, n, base, p, b);
        for (int k = 0; k < c; ++k)
            if (p[k] == rank && receives < APP_MAX_PEERS) {
                from[receives] = r;
                fromBytes[receives++] = b[k];
            }
    }
    long largest = base;
    for (int k = 0; k < sends; ++k)
        largest = bytes[k] > largest ? bytes[k] : largest;
    for (int k = 0; k < receives; ++k)
        largest = fromBytes[k] > largest ? fromBytes[k] : largest;
    char* out = calloc((size_t)(sends > 0 ? sends : 1), (size_t)largest);
    char* in = calloc((size_t)(receives > 0 ? receives : 1), (size_t)largest);
    char* all = NULL;
    char* allIn = NULL;
    if (mode[0] == 'a') {
        all = calloc((size_t)n, (size_t)(base / n > 0 ? base / n : 1));
        allIn = calloc((size_t)n, (size_t)(base / n > 0 ? base / n : 1));
    }
    MPI_Request requests[2 * APP_MAX_PEERS];
    for (int s = 0; s < steps; ++s) {
        if (mode[0] == 'h') {
            int q = 0;
            for (int k = 0; k < receives; ++k)
                MPI_Irecv(in + (size_t)k * largest, (int)fromBytes[k], MPI_BYTE, from[k], 0, MPI_COMM_WORLD,
                          &requests[q++]);
            for (int k = 0; k < sends; ++k)
                MPI_Isend(out + (size_t)k * largest, (int)bytes[k], MPI_BYTE, peers[k], 0, MPI_COMM_WORLD,
                          &requests[q++]);
            MPI_Waitall(q, requests, MPI_STATUSES_IGNORE);
        } else if (mode[0] == 'a') {
            MPI_Alltoall(all, (int)(base / n), MPI_BYTE, allIn, (int)(base / n), MPI_BYTE, MPI_COMM_WORLD);
        } else if (mode[0] == 'm') {
            if (rank == 0) {
                int q = 0;
                for (int k = 0; k < sends; ++k)
                    MPI_Isend(out + (size_t)k * largest, (int)bytes[k], MPI_BYTE, peers[k], 0, MPI_COMM_WORLD,
                              &requests[q++]);
                for (int k = 0; k < receives; ++k)
                    MPI_Irecv(in + (size_t)k * largest, (int)fromBytes[k], MPI_BYTE, from[k], 0, MPI_COMM_WORLD,
                              &requests[q++]);
                MPI_Waitall(q, requests, MPI_STATUSES_IGNORE);
            } else {
                MPI_Recv(in, (int)fromBytes[0], MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(out, (int)bytes[0], MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        } else {
            if (receives > 0)
                MPI_Recv(in, (int)fromBytes[0], MPI_BYTE, from[0], 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (sends > 0)
                MPI_Send(out, (int)bytes[0], MPI_BYTE, peers[0], 0, MPI_COMM_WORLD);
        }
    }
    /* Every rank prints when it ended its last step; the run time is the latest. No collective gathers them: it
     * would be part of the captured trace (and of its replay) but not of the time measured before it. */
    printf("TIME %.9f\n", MPI_Wtime());
    fflush(stdout);
    free(out);
    free(in);
    free(all);
    free(allIn);
    MPI_Finalize();
    return 0;
}
