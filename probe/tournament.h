/* A round-robin tournament (the circle method): every pair of n players meets exactly once, and in each round
 * every player is in at most one pair, so pairs measured in one round never share an endpoint. */
#pragma once

/* The number of rounds for n players: n - 1 when n is even, n when odd (each player rests once). */
static inline int tournamentRounds(int n) { return n < 2 ? 0 : (n % 2 == 0 ? n - 1 : n); }

/* The player `player` meets in round `round` (0-based), or -1 when it rests. */
static inline int tournamentPartner(int n, int round, int player)
{
    const int m = n % 2 == 0 ? n : n + 1; /* with an extra player, the rest, when n is odd */
    int partner;
    if (player == m - 1)
        partner = round;
    else if (player == round)
        partner = m - 1;
    else
        partner = ((2 * round - player) % (m - 1) + (m - 1)) % (m - 1);
    return partner >= n ? -1 : partner;
}
