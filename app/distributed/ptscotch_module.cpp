// meridian-ptscotch: PT-Scotch's distributed graph mapping, as a module that mpi_launch.cpp loads with
// RTLD_DEEPBIND. meridian-cli also links SimGrid, whose SMPI exports MPI_* under Open MPI's names and comes first
// in the global search order: libptscotch linked into meridian-cli would call SMPI's MPI_Comm_size (which fails
// outside smpirun). Loaded with its own scope first, this module and libptscotch call Open MPI's libmpi, which
// meridian-cli has already initialised.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

extern "C" {
#include <scotch/ptscotch.h>
}

namespace {

/// Releases what was initialised, in reverse order.
struct Scotch {
    SCOTCH_Dgraph graph{};
    SCOTCH_Dgraph bound{};
    SCOTCH_Arch arch{};
    SCOTCH_Strat strat{};
    SCOTCH_Context context{};
    bool graphInit = false, boundInit = false, archInit = false, stratInit = false, contextInit = false;
    ~Scotch()
    {
        if (stratInit)
            SCOTCH_stratExit(&strat);
        if (boundInit)
            SCOTCH_dgraphExit(&bound);
        if (contextInit)
            SCOTCH_contextExit(&context);
        if (graphInit)
            SCOTCH_dgraphExit(&graph);
        if (archInit)
            SCOTCH_archExit(&arch);
    }
};

int fail(char* error, int size, const char* what)
{
    std::snprintf(error, static_cast<std::size_t>(size), "%s", what);
    return 1;
}

bool fits(std::int64_t n) { return n >= 0 && n <= std::numeric_limits<SCOTCH_Num>::max(); }

} // namespace

/// Maps this rank's `vertices` vertices (adjacency `offsets`/`neighbours`/`weights`, global ids, the ranks' blocks in
/// rank order) onto a complete graph of `parts` terminals weighted `partWeights`, deterministically for `seed`
/// with `imbalance`; writes their terminals to `out`. Returns 0, or 1 with a message in `error`. Collective over
/// MPI_COMM_WORLD.
extern "C" __attribute__((visibility("default"))) int meridian_ptscotch_map(
    std::int64_t vertices, const std::int64_t* offsets, const std::int64_t* neighbours, const std::int64_t* weights,
    int parts, const int* partWeights, std::uint64_t seed, double imbalance, int* out, char* error, int errorSize)
{
    const std::int64_t edges = offsets[vertices];
    if (!fits(vertices) || !fits(edges))
        return fail(error, errorSize, "this rank's block of the graph is too large for PT-Scotch's 32-bit numbers");
    std::vector<SCOTCH_Num> vert(static_cast<std::size_t>(vertices) + 1), edge(static_cast<std::size_t>(edges) + 1),
        edlo(static_cast<std::size_t>(edges) + 1, 1);
    for (std::int64_t v = 0; v <= vertices; ++v)
        vert[static_cast<std::size_t>(v)] = static_cast<SCOTCH_Num>(offsets[v]);
    for (std::int64_t e = 0; e < edges; ++e) {
        if (!fits(neighbours[e]) || !fits(weights[e]))
            return fail(error, errorSize, "a vertex id or edge weight is larger than PT-Scotch's 32-bit numbers");
        edge[static_cast<std::size_t>(e)] = static_cast<SCOTCH_Num>(neighbours[e]);
        edlo[static_cast<std::size_t>(e)] = static_cast<SCOTCH_Num>(weights[e]);
    }
    Scotch s;
    if (SCOTCH_dgraphInit(&s.graph, MPI_COMM_WORLD) != 0)
        return fail(error, errorSize, "SCOTCH_dgraphInit failed");
    s.graphInit = true;
    const auto vn = static_cast<SCOTCH_Num>(vertices);
    const auto en = static_cast<SCOTCH_Num>(edges);
    if (SCOTCH_dgraphBuild(&s.graph, 0, vn, vn, vert.data(), vert.data() + 1, nullptr, nullptr, en, en, edge.data(),
                           nullptr, edlo.data())
        != 0)
        return fail(error, errorSize, "SCOTCH_dgraphBuild failed");
    if (SCOTCH_dgraphCheck(&s.graph) != 0)
        return fail(error, errorSize, "SCOTCH_dgraphCheck failed: the ranks' blocks do not form one graph");
    // A deterministic context, seeded: the same partition for the same seed and number of ranks.
    if (SCOTCH_contextInit(&s.context) != 0)
        return fail(error, errorSize, "SCOTCH_contextInit failed");
    s.contextInit = true;
    SCOTCH_contextRandomClone(&s.context);
    SCOTCH_contextOptionSetNum(&s.context, SCOTCH_OPTIONNUMDETERMINISTIC, 1);
    SCOTCH_contextOptionSetNum(&s.context, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1);
    SCOTCH_contextRandomSeed(&s.context, static_cast<SCOTCH_Num>(seed % std::numeric_limits<SCOTCH_Num>::max()));
    if (SCOTCH_dgraphInit(&s.bound, MPI_COMM_WORLD) != 0)
        return fail(error, errorSize, "SCOTCH_dgraphInit failed");
    s.boundInit = true;
    if (SCOTCH_contextBindDgraph(&s.context, &s.graph, &s.bound) != 0)
        return fail(error, errorSize, "SCOTCH_contextBindDgraph failed");
    if (SCOTCH_archInit(&s.arch) != 0)
        return fail(error, errorSize, "SCOTCH_archInit failed");
    s.archInit = true;
    std::vector<SCOTCH_Num> terminalWeights(partWeights, partWeights + parts);
    if (SCOTCH_archCmpltw(&s.arch, static_cast<SCOTCH_Num>(parts), terminalWeights.data()) != 0)
        return fail(error, errorSize, "SCOTCH_archCmpltw failed");
    if (SCOTCH_stratInit(&s.strat) != 0)
        return fail(error, errorSize, "SCOTCH_stratInit failed");
    s.stratInit = true;
    int ranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (SCOTCH_stratDgraphMapBuild(&s.strat, SCOTCH_STRATQUALITY, static_cast<SCOTCH_Num>(ranks),
                                   static_cast<SCOTCH_Num>(parts), imbalance)
        != 0)
        return fail(error, errorSize, "SCOTCH_stratDgraphMapBuild failed");
    std::vector<SCOTCH_Num> part(static_cast<std::size_t>(vertices) + 1, 0);
    if (SCOTCH_dgraphMap(&s.bound, &s.arch, &s.strat, part.data()) != 0)
        return fail(error, errorSize, "SCOTCH_dgraphMap failed");
    for (std::int64_t v = 0; v < vertices; ++v)
        out[v] = static_cast<int>(part[static_cast<std::size_t>(v)]);
    return 0;
}
