/* Ranks 0 and 1 exchange 1 KB messages (MPI_Send / MPI_Recv) for N round trips; rank 0 prints the loop's
 * wall time as "loop_s=SECONDS". Used by bench_capture to measure the tracer's overhead and to make a trace
 * with many events. Usage: mpirun -np 2 pingpong N */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const long trips = argc > 1 ? atol(argv[1]) : 10000;
    char message[1024] = {0};
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (long k = 0; k < trips && rank < 2; ++k) {
        if (rank == 0) {
            MPI_Send(message, sizeof message, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(message, sizeof message, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(message, sizeof message, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(message, sizeof message, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
    const double loop = MPI_Wtime() - start;
    if (rank == 0)
        printf("loop_s=%.6f\n", loop);
    MPI_Finalize();
    return 0;
}
