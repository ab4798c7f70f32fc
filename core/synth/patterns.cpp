#include "core/synth/patterns.h"

#include <array>
#include <cmath>
#include <map>

namespace meridian::synth {

namespace {

constexpr std::array<std::pair<Pattern, std::string_view>, 8> kIds = {{{Pattern::LU, "lu"},
                                                                       {Pattern::BT, "bt"},
                                                                       {Pattern::SP, "sp"},
                                                                       {Pattern::CG, "cg"},
                                                                       {Pattern::FT, "ft"},
                                                                       {Pattern::MG, "mg"},
                                                                       {Pattern::KMeans, "kmeans"},
                                                                       {Pattern::DNN, "dnn"}}};

// Accumulates directed messages; `send` adds `count` messages of `bytes` each.
class Builder {
public:
    explicit Builder(int n)
        : m_n(n)
    {}
    void send(int from, int to, double bytes, double count = 1.0)
    {
        if (from == to)
            return;
        auto& cell = m_cells[{from, to}];
        cell.first += bytes * count;
        cell.second += count;
    }
    Expected<model::CommMatrix> build(int iterations) const
    {
        std::vector<model::CommEntry> entries;
        entries.reserve(m_cells.size());
        for (const auto& [key, value] : m_cells)
            entries.push_back({key.first, key.second, value.first * iterations, value.second * iterations});
        return model::CommMatrix::fromEntries(m_n, entries, true);
    }

private:
    int m_n;
    std::map<std::pair<int, int>, std::pair<double, double>> m_cells;
};

bool isPowerOfTwo(int n) { return n > 0 && (n & (n - 1)) == 0; }

int log2Floor(int n)
{
    int k = 0;
    while ((1 << (k + 1)) <= n)
        ++k;
    return k;
}

double orDefault(double value, double fallback) { return value >= 0 ? value : fallback; }

// Sends along the edges of a binomial tree rooted at 0 (parent -> child), as MPI_Bcast does.
void binomialBroadcast(Builder& b, int n, double bytes)
{
    for (int mask = 1; mask < n; mask <<= 1)
        for (int r = 0; r < mask && r + mask < n; ++r)
            b.send(r, r + mask, bytes);
}

// Reduction to rank 0 along the same tree (child -> parent).
void binomialReduce(Builder& b, int n, double bytes)
{
    for (int mask = 1; mask < n; mask <<= 1)
        for (int r = 0; r < mask && r + mask < n; ++r)
            b.send(r + mask, r, bytes);
}

// Allreduce: recursive doubling on a power of two, otherwise reduce + broadcast.
void allreduce(Builder& b, int n, double bytes)
{
    if (isPowerOfTwo(n)) {
        for (int mask = 1; mask < n; mask <<= 1)
            for (int r = 0; r < n; ++r)
                b.send(r, r ^ mask, bytes);
    } else {
        binomialReduce(b, n, bytes);
        binomialBroadcast(b, n, bytes);
    }
}

std::array<int, 3> grid3d(int n)
{
    std::array<int, 3> best = {1, 1, n};
    double bestSpread = 1e300;
    for (int a = 1; a * a * a <= n; ++a) {
        if (n % a)
            continue;
        for (int b = a; a * b * b <= n; ++b) {
            if ((n / a) % b)
                continue;
            const int c = n / a / b;
            const double spread = static_cast<double>(c) / a;
            if (spread < bestSpread) {
                bestSpread = spread;
                best = {a, b, c};
            }
        }
    }
    return best;
}

Error unsuited(Pattern p, const std::string& why)
{
    return makeError(ErrorCode::InvalidInput, "pattern '" + std::string(patternId(p)) + "': " + why);
}

} // namespace

std::string_view patternId(Pattern pattern)
{
    for (const auto& [p, id] : kIds)
        if (p == pattern)
            return id;
    return "lu";
}

std::optional<Pattern> patternFromId(std::string_view id)
{
    for (const auto& [p, name] : kIds)
        if (name == id)
            return p;
    return std::nullopt;
}

std::vector<Pattern> allPatterns()
{
    std::vector<Pattern> out;
    out.reserve(std::size(kIds));
    for (const auto& [p, id] : kIds)
        out.push_back(p);
    return out;
}

std::pair<int, int> grid2d(int n)
{
    int rows = static_cast<int>(std::sqrt(static_cast<double>(n)));
    while (rows > 1 && n % rows)
        --rows;
    return {rows, n / rows};
}

std::string describePattern(Pattern pattern)
{
    switch (pattern) {
    case Pattern::LU:
        return "NPB LU (SSOR): processes on a 2D grid (rows x columns, as square as the count allows), row-major. "
               "Per iteration every process sends one 43 KB pipeline message to each grid neighbour (lower sweep to "
               "south and east, upper sweep to north and west) and one 83 KB boundary exchange to each neighbour: the "
               "two message sizes SC17 reports for LU on 64 processes, where the corner process 0 talks to 1 and 8 "
               "only. Default 250 iterations (class C).";
    case Pattern::BT:
    case Pattern::SP:
        return std::string("NPB ") + (pattern == Pattern::BT ? "BT" : "SP")
            + " multi-partition on a square q x q process grid (periodic). Per iteration each process sends a solve "
              "message to its successor in x (i+1, j), y (i, j+1) and z (i-1, j+1) and back-substitution messages to "
              "its predecessors, plus a face exchange with all six. Sizes are estimates for class C on 64 processes: "
            + (pattern == Pattern::BT ? "solve 40 KB, faces 120 KB, 200 iterations."
                                      : "solve 20 KB, faces 120 KB, 400 iterations.");
    case Pattern::CG:
        return "NPB CG on a rows x columns grid (power of two). Per iteration each process exchanges the matrix-vector "
               "partial sums with log2(columns) partners in its row (recursive halving), swaps with its transpose "
               "partner, and joins two 8-byte dot-product allreduces in its row. Default 150 KB messages (estimated, "
               "class C, 64 processes), 75 iterations.";
    case Pattern::FT:
        return "NPB FT: an all-to-all transpose per iteration, every process sending an equal block to every other. "
               "Default block = 512^3 complex values x 16 bytes / N^2 (class C), 20 iterations.";
    case Pattern::MG:
        return "NPB MG: a periodic 3D process grid with six face neighbours; per iteration a V-cycle of 4 levels, each "
               "level exchanging faces a quarter the size of the level above. Default finest face 64 KB (estimated), "
               "20 iterations.";
    case Pattern::KMeans:
        return "Parallel K-means: per iteration an allreduce of the k x d centroid sums plus k counts (recursive "
               "doubling on a power of two, else binomial reduce + broadcast) and a binomial broadcast of the new "
               "centroids from rank 0; 8-byte values, default k = 64, d = 8, 100 iterations.";
    case Pattern::DNN:
        return "Data-parallel DNN training (SGD). Parameter server: every worker sends its gradient to rank 0 and "
               "receives the model back each iteration. Ring allreduce: each rank sends 2(N-1) chunks of P/N bytes to "
               "its ring successor. Default model 1.1 MB (ResNet-20 for CIFAR-10, 0.27 M float parameters) and 10 "
               "exchanges: SC17 trains with Zinkevich et al.'s parallel SGD, which averages models rarely, and reports "
               "DNN's traffic as small.";
    }
    return {};
}

namespace {

// Each pattern adds one iteration's messages to the builder and returns its default iteration count, or why
// the options do not suit it.

Expected<int> luPattern(Builder& b, int n, const PatternOptions& o)
{
    const auto [rows, cols] = grid2d(n);
    const double sweep = orDefault(o.messageBytes, 43e3);
    const double face = orDefault(o.secondaryBytes, 83e3);
    for (int p = 0; p < n; ++p) {
        const int r = p / cols, c = p % cols;
        const int neighbours[4][2] = {{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
        for (const auto& nb : neighbours) {
            if (nb[0] < 0 || nb[0] >= rows || nb[1] < 0 || nb[1] >= cols)
                continue;
            b.send(p, nb[0] * cols + nb[1], sweep);
            b.send(p, nb[0] * cols + nb[1], face);
        }
    }
    return 250;
}

Expected<int> multiPartitionPattern(Pattern pattern, Builder& b, int n, const PatternOptions& o)
{
    const int q = static_cast<int>(std::lround(std::sqrt(static_cast<double>(n))));
    if (q * q != n)
        return unsuited(pattern,
                        "needs a square number of processes (4, 9, 16, ..., 64, ...), got " + std::to_string(n));
    const double solve = orDefault(o.messageBytes, pattern == Pattern::BT ? 40e3 : 20e3);
    const double face = orDefault(o.secondaryBytes, 120e3);
    auto at = [q](int i, int j) { return ((i % q + q) % q) + q * ((j % q + q) % q); };
    for (int j = 0; j < q; ++j) {
        for (int i = 0; i < q; ++i) {
            const int p = at(i, j);
            const int successors[3] = {at(i + 1, j), at(i, j + 1), at(i - 1, j + 1)};
            const int predecessors[3] = {at(i - 1, j), at(i, j - 1), at(i + 1, j - 1)};
            for (int d = 0; d < 3; ++d) {
                b.send(p, successors[d], solve);
                b.send(p, predecessors[d], solve);
                b.send(p, successors[d], face);
                b.send(p, predecessors[d], face);
            }
        }
    }
    return pattern == Pattern::BT ? 200 : 400;
}

Expected<int> cgPattern(Builder& b, int n, const PatternOptions& o)
{
    if (!isPowerOfTwo(n))
        return unsuited(Pattern::CG, "needs a power-of-two process count, got " + std::to_string(n));
    const int k = log2Floor(n);
    const int rows = 1 << (k / 2);
    const int cols = n / rows;
    const double bytes = orDefault(o.messageBytes, 150e3);
    for (int p = 0; p < n; ++p) {
        const int r = p / cols, c = p % cols;
        for (int mask = 1; mask < cols; mask <<= 1)
            b.send(p, r * cols + (c ^ mask), bytes);
        // Transpose partner, a pairwise exchange: (r, c) <-> (c, r) inside each square rows x rows half
        // of the grid (a 1:2 grid has two halves side by side).
        const int half = c / rows;
        b.send(p, (c % rows) * cols + half * rows + r, bytes);
        for (int mask = 1; mask < cols; mask <<= 1)
            b.send(p, r * cols + (c ^ mask), 8.0, 2.0);
    }
    return 75;
}

Expected<int> ftPattern(Builder& b, int n, const PatternOptions& o)
{
    const double bytes = orDefault(o.messageBytes, 512.0 * 512.0 * 512.0 * 16.0 / (static_cast<double>(n) * n));
    for (int p = 0; p < n; ++p)
        for (int q = 0; q < n; ++q)
            b.send(p, q, bytes);
    return 20;
}

Expected<int> mgPattern(Builder& b, int n, const PatternOptions& o)
{
    if (o.levels < 1 || o.levels > 16)
        return unsuited(Pattern::MG, "the level count must be between 1 and 16");
    const auto g = grid3d(n);
    const double finest = orDefault(o.messageBytes, 64e3);
    for (int p = 0; p < n; ++p) {
        const int x = p % g[0], y = (p / g[0]) % g[1], z = p / (g[0] * g[1]);
        auto at = [&](int i, int j, int l) {
            return ((i + g[0]) % g[0]) + g[0] * (((j + g[1]) % g[1]) + g[1] * ((l + g[2]) % g[2]));
        };
        const int neighbours[6] = {at(x - 1, y, z), at(x + 1, y, z), at(x, y - 1, z),
                                   at(x, y + 1, z), at(x, y, z - 1), at(x, y, z + 1)};
        for (int level = 0; level < o.levels; ++level)
            for (int nb : neighbours)
                b.send(p, nb, finest / std::pow(4.0, level));
    }
    return 20;
}

Expected<int> kmeansPattern(Builder& b, int n, const PatternOptions& o)
{
    if (o.clusters < 1 || o.dimensions < 1)
        return unsuited(Pattern::KMeans, "k and d must be >= 1");
    const double centroids = 8.0 * o.clusters * o.dimensions;
    allreduce(b, n, centroids + 8.0 * o.clusters);
    binomialBroadcast(b, n, centroids);
    return 100;
}

Expected<int> dnnPattern(Builder& b, int n, const PatternOptions& o)
{
    const double model = orDefault(o.messageBytes, 1.1e6);
    if (o.dnnExchange == DnnExchange::ParameterServer) {
        for (int w = 1; w < n; ++w) {
            b.send(w, 0, model);
            b.send(0, w, model);
        }
    } else {
        for (int r = 0; r < n; ++r)
            b.send(r, (r + 1) % n, model / n, 2.0 * (n - 1));
    }
    return 10;
}

Expected<int> addPattern(Pattern pattern, Builder& b, int n, const PatternOptions& o)
{
    switch (pattern) {
    case Pattern::LU:
        return luPattern(b, n, o);
    case Pattern::BT:
    case Pattern::SP:
        return multiPartitionPattern(pattern, b, n, o);
    case Pattern::CG:
        return cgPattern(b, n, o);
    case Pattern::FT:
        return ftPattern(b, n, o);
    case Pattern::MG:
        return mgPattern(b, n, o);
    case Pattern::KMeans:
        return kmeansPattern(b, n, o);
    case Pattern::DNN:
        return dnnPattern(b, n, o);
    }
    return unsuited(pattern, "is not a known pattern");
}

} // namespace

Expected<model::CommMatrix> generatePattern(Pattern pattern, const PatternOptions& o)
{
    const int n = o.processes;
    if (n < 2)
        return unsuited(pattern, "needs at least 2 processes");
    if (n > (1 << 20))
        return unsuited(pattern, "supports at most 1048576 processes");
    if (pattern == Pattern::FT && n > 4096)
        return unsuited(pattern,
                        "is all-to-all: " + std::to_string(n) + " processes would need "
                            + std::to_string(static_cast<long long>(n) * (n - 1)) + " entries; at most 4096 processes");
    if (o.iterations == 0 || o.iterations < -1)
        return unsuited(pattern, "the iteration count must be >= 1");
    if (!(o.messageBytes >= 0 || o.messageBytes == -1) || !(o.secondaryBytes >= 0 || o.secondaryBytes == -1))
        return unsuited(pattern, "message sizes must be >= 0 bytes");
    Builder b(n);
    const Expected<int> defaultIterations = addPattern(pattern, b, n, o);
    if (!defaultIterations)
        return defaultIterations.error();
    return b.build(o.iterations < 0 ? *defaultIterations : o.iterations);
}

} // namespace meridian::synth
