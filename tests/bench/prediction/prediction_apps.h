/* The communication of the MPI programs bench_prediction runs: per step, what each rank sends to whom. Shared by
 * the programs (prediction_apps.c, compiled with smpicc) and by the benchmark, which builds each application's
 * matrices from it, as `meridian-cli capture` would record them. C, so that both compilers take it. */
#ifndef MERIDIAN_PREDICTION_APPS_H
#define MERIDIAN_PREDICTION_APPS_H

#include <string.h>

enum { APP_MAX_PEERS = 64 };

/* The largest side s with s * s <= n (s >= 1), and of s^3 <= n. */
static int app_side2(int n)
{
    int s = 1;
    while ((s + 1) * (s + 1) <= n)
        ++s;
    return s;
}
static int app_side3(int n)
{
    int s = 1;
    while ((s + 1) * (s + 1) * (s + 1) <= n)
        ++s;
    return s;
}

/* Adds `b` bytes to `peer` in the send list (a neighbour met twice, as on a grid of side 2, gets both). */
static void app_add(int* peers, long* bytes, int* count, int peer, long b)
{
    for (int j = 0; j < *count; ++j)
        if (peers[j] == peer) {
            bytes[j] += b;
            return;
        }
    peers[*count] = peer;
    bytes[(*count)++] = b;
}

/* The sends of `rank` of `n` in every step of application `mode` with base size `base` bytes: fills peers[] and
 * bytes[] (at most APP_MAX_PEERS) and returns their count. Modes:
 *   halo2d  a periodic px x py grid (px the largest side with px^2 <= n, py = n / px; ranks beyond px x py
 *           idle), east/west base x (1 + rank % 3), north/south 2 x base: uneven weights;
 *   halo3d  a periodic s x s x s grid (ranks beyond s^3 idle), x neighbours 3 x base, y 2 x base, z base;
 *   alltoall every rank to every other, base / n each (an MPI_Alltoall);
 *   master  rank 0 sends base to every worker, each worker base / 4 back;
 *   pipeline rank i sends base to i + 1. */
static int app_sends(const char* mode, int rank, int n, long base, int* peers, long* bytes)
{
    int count = 0;
    if (strcmp(mode, "halo2d") == 0) {
        const int px = app_side2(n), py = n / px;
        if (rank >= px * py)
            return 0;
        const int x = rank % px, y = rank / px;
        const int nb[4] = {y * px + (x + 1) % px, y * px + (x + px - 1) % px, ((y + 1) % py) * px + x,
                           ((y + py - 1) % py) * px + x};
        const long b[4] = {base * (1 + rank % 3), base * (1 + rank % 3), 2 * base, 2 * base};
        for (int k = 0; k < 4; ++k)
            if (nb[k] != rank)
                app_add(peers, bytes, &count, nb[k], b[k]);
    } else if (strcmp(mode, "halo3d") == 0) {
        const int s = app_side3(n);
        if (rank >= s * s * s)
            return 0;
        const int x = rank % s, y = (rank / s) % s, z = rank / (s * s);
        const int nb[6] = {z * s * s + y * s + (x + 1) % s,   z * s * s + y * s + (x + s - 1) % s,
                           z * s * s + ((y + 1) % s) * s + x, z * s * s + ((y + s - 1) % s) * s + x,
                           ((z + 1) % s) * s * s + y * s + x, ((z + s - 1) % s) * s * s + y * s + x};
        const long b[6] = {3 * base, 3 * base, 2 * base, 2 * base, base, base};
        for (int k = 0; k < 6; ++k)
            if (nb[k] != rank)
                app_add(peers, bytes, &count, nb[k], b[k]);
    } else if (strcmp(mode, "alltoall") == 0) {
        for (int j = 0; j < n && count < APP_MAX_PEERS; ++j)
            if (j != rank) {
                peers[count] = j;
                bytes[count++] = base / n;
            }
    } else if (strcmp(mode, "master") == 0) {
        if (rank == 0) {
            for (int j = 1; j < n && count < APP_MAX_PEERS; ++j) {
                peers[count] = j;
                bytes[count++] = base;
            }
        } else {
            peers[0] = 0;
            bytes[0] = base / 4;
            count = 1;
        }
    } else if (strcmp(mode, "pipeline") == 0) {
        if (rank + 1 < n) {
            peers[0] = rank + 1;
            bytes[0] = base;
            count = 1;
        }
    }
    return count;
}

#endif
