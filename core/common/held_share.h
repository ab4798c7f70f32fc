#pragma once

namespace meridian {

/// What a command read of its input so far: the share of the input, and the distinct vertices and edges of the
/// whole job (over several ranks, this rank's times their number).
struct HeldPoint {
    double fraction = 0.0;
    double vertices = 0.0;
    double edges = 0.0;
};

/// How much of its input a command holds in memory so far, process-wide: the streaming partitioners report it as
/// they read (the one-process stream as it places each chunk, the ranks at each round of their first pass), and
/// meridian-cli reads it when an allocation fails, to say how many ranks would hold the whole.
namespace held_share {

/// Starts a command's record anew: `splits` says whether the command can run over more ranks (hash, the streams
/// in batches), so that its out-of-memory message may suggest how many, from what the ranks hold per edge and per
/// vertex of the graph (divided by the ranks), and what each rank holds per vertex of the graph whatever their
/// number (`vertexBytesEachRank`: hash's tables by id, partitionHashDense).
void begin(bool splits, double edgeBytes = 1.0, double vertexBytes = 75.0, double vertexBytesEachRank = 0.0);
/// Whether the command begun can run over more ranks.
bool splits();
/// What the ranks of the command begun hold per edge and per vertex of the graph, all together.
double edgeBytes();
double vertexBytes();
double vertexBytesEachRank();
/// Records a point (one without vertices or edges is left out); kept are the last one and one each time the edges
/// doubled.
void set(const HeldPoint& point);
/// The last point (fraction 0: nothing was read, or the command does not report).
HeldPoint last();
/// The graph's distinct vertices once all of it is read, by Heaps' law (vertices = K edges^b, as the distinct words
/// of a text grow), its exponent fitted between the last point and the latest one with at most half its edges and
/// kept within [0, 1]; straight from the share read (b = 1) without such a point. 0 when nothing was read. New
/// vertices come ever rarer in a graph's stream, so this tends to be high.
double projectedVertices();

} // namespace held_share

} // namespace meridian
