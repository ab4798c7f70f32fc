/* Broadcasts argv[1] bytes from rank 0 and checks them on every rank. Errors are returned, not fatal, so that a
 * collective Open MPI refuses (say, a coll_tuned rule naming an algorithm that does not exist) prints
 *   bcast error: <Open MPI's message>
 * and exits 3. On success rank 0 prints "bcast ok <bytes> bytes on <ranks> ranks". Used by test_coll_tuned_mpirun. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const long bytes = argc > 1 ? atol(argv[1]) : 0;
    if (bytes <= 0) {
        if (rank == 0)
            fprintf(stderr, "usage: bcast_check BYTES\n");
        MPI_Finalize();
        return 2;
    }
    unsigned char* buffer = malloc((size_t)bytes);
    for (long i = 0; i < bytes; ++i)
        buffer[i] = rank == 0 ? (unsigned char)(i * 31 + 7) : 0;
    const int rc = MPI_Bcast(buffer, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        int length = 0;
        MPI_Error_string(rc, text, &length);
        fprintf(stderr, "bcast error: %s\n", text);
        fflush(stderr);
        free(buffer);
        MPI_Abort(MPI_COMM_WORLD, 3);
        return 3;
    }
    long wrong = 0;
    for (long i = 0; i < bytes; ++i)
        wrong += buffer[i] != (unsigned char)(i * 31 + 7);
    long total = 0;
    MPI_Reduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        if (total == 0)
            printf("bcast ok %ld bytes on %d ranks\n", bytes, size);
        else
            printf("bcast wrong %ld bytes\n", total);
    }
    free(buffer);
    MPI_Finalize();
    return total == 0 ? 0 : 4;
}
