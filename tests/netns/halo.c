/* The MPI program real_run.sh runs across its network namespaces: halo STEPS BASE_BYTES.
 * A periodic 2-D halo exchange on a px x 2 grid (px = ranks / 2), with uneven weights: rank r sends
 * BASE x (1 + r % 3) bytes to its east and to its west neighbour, and 4 x BASE to the rank above it (above and below
 * are the same rank on a grid two high, so its two halo rows travel as one message). With BASE = 1 MiB the messages
 * are 1 to 4 MiB. Every step each rank posts its receives, then its sends, then waits for all of them: the
 * bulk-synchronous program Meridian's predictions model.
 * Rank 0 prints "TIME <seconds>": from a barrier after MPI_Init to the moment the slowest rank ended its last step
 * (the wall clock of the exchange; MPI_Wtime is this machine's clock, so the ranks' clocks agree). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { PEERS = 3 };

/* The peers of `rank` (east, west, vertical) and the bytes it sends to each; returns their count (a neighbour met
 * twice, as on a grid 2 wide, gets both messages' bytes in one). */
static int sends(int rank, int n, long base, int* peer, long* bytes)
{
    const int px = n / 2, x = rank % px, y = rank / px;
    const int nb[PEERS] = {y * px + (x + 1) % px, y * px + (x + px - 1) % px, ((y + 1) % 2) * px + x};
    const long b[PEERS] = {base * (1 + rank % 3), base * (1 + rank % 3), 4 * base};
    int count = 0;
    for (int k = 0; k < PEERS; ++k) {
        if (nb[k] == rank)
            continue;
        int j = 0;
        while (j < count && peer[j] != nb[k])
            ++j;
        if (j == count) {
            peer[count] = nb[k];
            bytes[count++] = 0;
        }
        bytes[j] += b[k];
    }
    return count;
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, n = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (argc != 3 || n < 4 || n % 2) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np N halo STEPS BASE_BYTES (N even, at least 4)\n");
        MPI_Finalize();
        return 2;
    }
    const int steps = atoi(argv[1]);
    const long base = atol(argv[2]);
    int peer[PEERS], from[PEERS];
    long bytes[PEERS], fromBytes[PEERS];
    const int count = sends(rank, n, base, peer, bytes);
    /* The receives: every rank whose sends name this one. */
    int receives = 0;
    for (int r = 0; r < n; ++r) {
        int p[PEERS];
        long b[PEERS];
        const int c = sends(r, n, base, p, b);
        for (int k = 0; k < c; ++k)
            if (p[k] == rank && receives < PEERS) {
                from[receives] = r;
                fromBytes[receives++] = b[k];
            }
    }
    long largest = 1;
    for (int k = 0; k < count; ++k)
        largest = bytes[k] > largest ? bytes[k] : largest;
    for (int k = 0; k < receives; ++k)
        largest = fromBytes[k] > largest ? fromBytes[k] : largest;
    char* out = calloc(PEERS, (size_t)largest);
    char* in = calloc(PEERS, (size_t)largest);
    MPI_Request requests[2 * PEERS];
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (int s = 0; s < steps; ++s) {
        int q = 0;
        for (int k = 0; k < receives; ++k)
            MPI_Irecv(in + (size_t)k * largest, (int)fromBytes[k], MPI_BYTE, from[k], 0, MPI_COMM_WORLD,
                      &requests[q++]);
        for (int k = 0; k < count; ++k)
            MPI_Isend(out + (size_t)k * largest, (int)bytes[k], MPI_BYTE, peer[k], 0, MPI_COMM_WORLD, &requests[q++]);
        MPI_Waitall(q, requests, MPI_STATUSES_IGNORE);
    }
    const double end = MPI_Wtime();
    double last = 0.0;
    MPI_Reduce(&end, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("TIME %.6f\n", last - start);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
