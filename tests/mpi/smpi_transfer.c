/* Rank 0 sends BYTES bytes to rank 1 (argv[1]); rank 1 prints how long the receive took in simulated seconds.
 * Compiled with SimGrid's smpicc and run with smpirun on a platform meridian-cli exported. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int bytes = argc > 1 ? atoi(argv[1]) : 1000000;
    char* buffer = calloc((size_t)bytes, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    if (rank == 0)
        MPI_Send(buffer, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1) {
        MPI_Recv(buffer, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("received %d bytes in %.9f s\n", bytes, MPI_Wtime() - t0);
    }
    free(buffer);
    MPI_Finalize();
    return 0;
}
