/* Calls each collective once on MPI_COMM_WORLD with sizes that tell the operations apart, for the capture tests'
 * check that the tracer and the OTF2 import count a collective's bytes alike. Run on 4 ranks. Where MPI ignores an
 * argument (a scatter's and a scatterv's send counts at the other ranks than the root) those ranks pass zeros, so a
 * count that takes them is seen. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        if (rank == 0)
            fprintf(stderr, "every_collective: run on 4 ranks (mpirun -np 4)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    static char in[65536], out[65536];
    MPI_Bcast(in, 1000, MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Scatter(in, rank == 1 ? 10 : 0, MPI_INT, out, 10, MPI_INT, 1, MPI_COMM_WORLD);
    MPI_Gather(in, 3, MPI_DOUBLE, out, 3, MPI_DOUBLE, 2, MPI_COMM_WORLD);
    MPI_Allgather(in, 5, MPI_BYTE, out, 5, MPI_BYTE, MPI_COMM_WORLD);
    MPI_Alltoall(in, 7, MPI_BYTE, out, 7, MPI_BYTE, MPI_COMM_WORLD);
    const int counts[4] = {1, 2, 3, 4}, displs[4] = {0, 10, 20, 30}, none[4] = {0, 0, 0, 0};
    MPI_Gatherv(in, counts[rank], MPI_BYTE, out, counts, displs, MPI_BYTE, 3, MPI_COMM_WORLD);
    MPI_Scatterv(in, rank == 3 ? counts : none, displs, MPI_BYTE, out, counts[rank], MPI_BYTE, 3, MPI_COMM_WORLD);
    const int mine[4] = {rank + 1, rank + 1, rank + 1, rank + 1};
    MPI_Alltoallv(in, mine, displs, MPI_BYTE, out, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
    MPI_Reduce(in, out, 6, MPI_BYTE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Allreduce(in, out, 9, MPI_BYTE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
