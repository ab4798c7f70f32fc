#include "core/mapping/scotch_mapper.h"

#include "core/common/ranks.h"
#include "core/mapping/placement_units.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <numeric>
#include <optional>
#include <sstream>

extern "C" {
#include <scotch.h>
}

namespace meridian::mapping {

namespace {

/// libscotch keeps global state (error handlers, strategy parsing); calls are serialised.
std::mutex& scotchMutex()
{
    static std::mutex mutex;
    return mutex;
}

constexpr long kMaxDistance = 1000;
constexpr double kMaxEdgeWeight = 1000.0;
constexpr int kExhaustiveSplitLimit = 14;

/// Splits terminals into two halves: capacity balance first, then small intra-half distance.
std::pair<std::vector<int>, std::vector<int>> splitTerminals(const std::vector<int>& terms,
                                                             const std::vector<int>& weights,
                                                             const std::vector<std::vector<long>>& d)
{
    const int n = static_cast<int>(terms.size());
    double total = 0.0;
    long maxD = 1;
    for (int t : terms)
        total += weights[t];
    for (int a : terms)
        for (int b : terms)
            maxD = std::max(maxD, d[a][b]);
    const double pairs = std::max(1.0, n * (n - 1) / 2.0);
    const auto score = [&](const std::vector<int>& left, const std::vector<int>& right) {
        double capL = 0.0, capR = 0.0, intra = 0.0;
        for (int t : left)
            capL += weights[t];
        for (int t : right)
            capR += weights[t];
        for (std::size_t i = 0; i < left.size(); ++i)
            for (std::size_t j = i + 1; j < left.size(); ++j)
                intra += static_cast<double>(d[left[i]][left[j]]);
        for (std::size_t i = 0; i < right.size(); ++i)
            for (std::size_t j = i + 1; j < right.size(); ++j)
                intra += static_cast<double>(d[right[i]][right[j]]);
        return 4.0 * std::abs(capL - capR) / total + intra / (static_cast<double>(maxD) * pairs);
    };
    std::vector<int> bestL, bestR;
    double best = INFINITY;
    if (n <= kExhaustiveSplitLimit) {
        // terms[0] always on the left; every non-empty right side.
        for (unsigned mask = 0; mask < (1u << (n - 1)) - 1; ++mask) {
            std::vector<int> left{terms[0]}, right;
            for (int i = 1; i < n; ++i)
                ((mask >> (i - 1)) & 1u ? left : right).push_back(terms[i]);
            if (right.empty())
                continue;
            const double s = score(left, right);
            if (s < best) {
                best = s;
                bestL = left;
                bestR = right;
            }
        }
        return {bestL, bestR};
    }
    // Larger sets: seed with the farthest pair, then give each terminal to the nearer side that has room.
    int sa = terms[0], sb = terms[1];
    for (int a : terms)
        for (int b : terms)
            if (d[a][b] > d[sa][sb])
                sa = a, sb = b;
    std::vector<int> left{sa}, right{sb};
    double capL = weights[sa], capR = weights[sb];
    std::vector<int> rest;
    for (int t : terms)
        if (t != sa && t != sb)
            rest.push_back(t);
    std::stable_sort(rest.begin(), rest.end(), [&](int x, int y) { return weights[x] > weights[y]; });
    for (int t : rest) {
        double dl = 0.0, dr = 0.0;
        for (int u : left)
            dl += static_cast<double>(d[t][u]);
        for (int u : right)
            dr += static_cast<double>(d[t][u]);
        dl /= static_cast<double>(left.size());
        dr /= static_cast<double>(right.size());
        const bool leftFull = capL + weights[t] > total / 2.0 + 0.5 * weights[t];
        const bool rightFull = capR + weights[t] > total / 2.0 + 0.5 * weights[t];
        const bool toLeft = leftFull ? false : (rightFull ? true : dl <= dr);
        (toLeft ? left : right).push_back(t);
        (toLeft ? capL : capR) += weights[t];
    }
    return {left, right};
}

void numberTerminals(const std::vector<int>& terms, long number, const std::vector<int>& weights,
                     const std::vector<std::vector<long>>& d, std::vector<long>& out)
{
    if (terms.size() == 1) {
        out[terms[0]] = number;
        return;
    }
    auto [left, right] = splitTerminals(terms, weights, d);
    numberTerminals(left, 2 * number, weights, d, out);
    numberTerminals(right, 2 * number + 1, weights, d, out);
}

std::vector<std::vector<long>> scaleDistances(const Eigen::MatrixXd& raw)
{
    const int k = static_cast<int>(raw.rows());
    double maxRaw = 0.0;
    for (int a = 0; a < k; ++a)
        for (int b = 0; b < k; ++b)
            if (a != b)
                maxRaw = std::max(maxRaw, 0.5 * (raw(a, b) + raw(b, a)));
    std::vector<std::vector<long>> d(k, std::vector<long>(k, 0));
    for (int a = 0; a < k; ++a)
        for (int b = 0; b < k; ++b)
            if (a != b) {
                const double r = std::max(0.0, 0.5 * (raw(a, b) + raw(b, a)));
                d[a][b] = maxRaw > 0.0 ? std::max<long>(1, std::lround(r / maxRaw * kMaxDistance)) : 1;
            }
    return d;
}

struct ScotchGuard {
    SCOTCH_Graph graph;
    SCOTCH_Graph bound;
    SCOTCH_Arch arch;
    SCOTCH_Strat strat;
    SCOTCH_Context context;
    bool graphInit = false, boundInit = false, archInit = false, stratInit = false, contextInit = false;
    ~ScotchGuard()
    {
        if (stratInit)
            SCOTCH_stratExit(&strat);
        if (boundInit)
            SCOTCH_graphExit(&bound);
        if (contextInit)
            SCOTCH_contextExit(&context);
        if (graphInit)
            SCOTCH_graphExit(&graph);
        if (archInit)
            SCOTCH_archExit(&arch);
    }
};

Error scotchError(const char* call)
{
    return makeError(ErrorCode::Internal, std::string("libscotch: ") + call + " failed");
}

/// The free processes' graph in Scotch's compact form, weights scaled to small integers (SCOTCH_Num is 32-bit).
struct ScotchGraphArrays {
    std::vector<SCOTCH_Num> vert, edge, edlo;
    std::vector<SCOTCH_Num> velo; ///< vertex weights; empty: every vertex weighs 1
};

ScotchGraphArrays scotchGraphOf(const MappingProblem& problem, bool bandwidth)
{
    const Adjacency g = bandwidth ? problem.traffic() : symmetrize(problem.comm().messages());
    const std::vector<int>& freeProcs = problem.freeProcesses();
    std::vector<int> local(problem.processCount(), -1);
    for (std::size_t i = 0; i < freeProcs.size(); ++i)
        local[freeProcs[i]] = static_cast<int>(i);
    double maxW = 0.0;
    for (double w : g.weight)
        maxW = std::max(maxW, w);
    ScotchGraphArrays out;
    out.vert.assign(freeProcs.size() + 1, 0);
    for (std::size_t i = 0; i < freeProcs.size(); ++i) {
        const int p = freeProcs[i];
        for (int e = g.ptr[p]; e < g.ptr[p + 1]; ++e) {
            if (local[g.idx[e]] < 0)
                continue;
            out.edge.push_back(local[g.idx[e]]);
            out.edlo.push_back(
                std::max<SCOTCH_Num>(1, static_cast<SCOTCH_Num>(std::lround(g.weight[e] / maxW * kMaxEdgeWeight))));
        }
        out.vert[i + 1] = static_cast<SCOTCH_Num>(out.edge.size());
    }
    out.edge.push_back(0); // keeps data() valid for an edgeless graph
    out.edlo.push_back(1);
    return out;
}

/// Builds the graph and the deco target in libscotch and maps with SCOTCH_STRATQUALITY, deterministically
/// for `seed`; fills `part` (one terminal per free process).
std::optional<Error> runScotch(ScotchGraphArrays& arrays, const std::string& target, int k, double imbalance,
                               std::uint64_t seed, std::vector<SCOTCH_Num>& part)
{
    std::lock_guard lock(scotchMutex());
    ScotchGuard s;
    if (SCOTCH_graphInit(&s.graph) != 0)
        return scotchError("SCOTCH_graphInit");
    s.graphInit = true;
    const auto vn = static_cast<SCOTCH_Num>(part.size());
    auto& vert = arrays.vert;
    if (SCOTCH_graphBuild(&s.graph, 0, vn, vert.data(), vert.data() + 1,
                          arrays.velo.empty() ? nullptr : arrays.velo.data(), nullptr, vert[vn], arrays.edge.data(),
                          arrays.edlo.data())
        != 0)
        return scotchError("SCOTCH_graphBuild");
    if (SCOTCH_graphCheck(&s.graph) != 0)
        return scotchError("SCOTCH_graphCheck");
    if (SCOTCH_archInit(&s.arch) != 0)
        return scotchError("SCOTCH_archInit");
    s.archInit = true;
    FILE* stream = fmemopen(const_cast<char*>(target.data()), target.size(), "r");
    if (!stream)
        return scotchError("fmemopen");
    const int loaded = SCOTCH_archLoad(&s.arch, stream);
    std::fclose(stream);
    if (loaded != 0)
        return scotchError("SCOTCH_archLoad");
    if (SCOTCH_contextInit(&s.context) != 0)
        return scotchError("SCOTCH_contextInit");
    s.contextInit = true;
    SCOTCH_contextRandomClone(&s.context);
    SCOTCH_contextOptionSetNum(&s.context, SCOTCH_OPTIONNUMDETERMINISTIC, 1);
    SCOTCH_contextOptionSetNum(&s.context, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1);
    SCOTCH_contextRandomSeed(&s.context, static_cast<SCOTCH_Num>(seed % static_cast<std::uint64_t>(INT_MAX)));
    if (SCOTCH_graphInit(&s.bound) != 0)
        return scotchError("SCOTCH_graphInit");
    s.boundInit = true;
    if (SCOTCH_contextBindGraph(&s.context, &s.graph, &s.bound) != 0)
        return scotchError("SCOTCH_contextBindGraph");
    if (SCOTCH_stratInit(&s.strat) != 0)
        return scotchError("SCOTCH_stratInit");
    s.stratInit = true;
    if (SCOTCH_stratGraphMapBuild(&s.strat, SCOTCH_STRATQUALITY, static_cast<SCOTCH_Num>(k), imbalance) != 0)
        return scotchError("SCOTCH_stratGraphMapBuild");
    if (SCOTCH_graphMap(&s.bound, &s.arch, &s.strat, part.data()) != 0)
        return scotchError("SCOTCH_graphMap");
    return std::nullopt;
}

/// Step 1 of the two-step scheme: the free processes' graph split over the ranks in blocks (shareOf), partitioned by
/// PT-Scotch into one part per terminal, weighted by the terminals' rooms. Returns every free process's part, on
/// every rank.
Expected<std::vector<SCOTCH_Num>> partsOverRanks(const ScotchGraphArrays& g, const std::vector<int>& weights,
                                                 double imbalance, std::uint64_t seed, const Ranks& ranks)
{
    const auto n = static_cast<std::int64_t>(g.vert.size()) - 1;
    // Scotch sums edge weights in its 32-bit SCOTCH_Num: the weights are scaled down (to at least 1 each) so that
    // their total stays within 2^30. Every rank scales the same whole graph alike.
    constexpr double kMaxTotalWeight = 1 << 30;
    const double total = std::accumulate(g.edlo.begin(), g.edlo.begin() + g.vert.back(), 0.0);
    if (static_cast<double>(g.vert.back()) > kMaxTotalWeight)
        return makeError(ErrorCode::InvalidInput,
                         "the processes' graph has " + std::to_string(g.vert.back())
                             + " edge ends, more than PT-Scotch's 32-bit numbers can sum");
    const double scale = total > kMaxTotalWeight ? kMaxTotalWeight / total : 1.0;
    const Share share = shareOf(n, ranks.rank(), ranks.size());
    RankGraph local;
    local.globalVertices = n;
    for (std::int64_t v = share.begin; v < share.end; ++v) {
        for (SCOTCH_Num e = g.vert[static_cast<std::size_t>(v)]; e < g.vert[static_cast<std::size_t>(v) + 1]; ++e) {
            local.neighbours.push_back(g.edge[static_cast<std::size_t>(e)]);
            local.weights.push_back(
                std::max<std::int64_t>(1,
                                       std::llround(static_cast<double>(g.edlo[static_cast<std::size_t>(e)]) * scale)));
        }
        local.offsets.push_back(static_cast<std::int64_t>(local.neighbours.size()));
    }
    auto parts = ranks.partitionGraph(local, weights, imbalance, seed);
    if (!parts)
        return parts.error();
    const std::vector<double> all = concatenatedOnEveryRank(ranks, std::vector<double>(parts->begin(), parts->end()));
    return std::vector<SCOTCH_Num>(all.begin(), all.end());
}

/// Step 2: the quotient graph of the parts (a vertex per part weighing its processes, an edge per pair of parts
/// weighing the traffic between them, scaled to small integers).
ScotchGraphArrays quotientGraph(const ScotchGraphArrays& g, const std::vector<SCOTCH_Num>& part, int k)
{
    std::vector<double> between(static_cast<std::size_t>(k) * k, 0.0);
    ScotchGraphArrays q;
    q.velo.assign(static_cast<std::size_t>(k), 0);
    for (std::size_t v = 0; v + 1 < g.vert.size(); ++v) {
        ++q.velo[static_cast<std::size_t>(part[v])];
        for (SCOTCH_Num e = g.vert[v]; e < g.vert[v + 1]; ++e) {
            const SCOTCH_Num a = part[v], b = part[static_cast<std::size_t>(g.edge[static_cast<std::size_t>(e)])];
            if (a != b)
                between[static_cast<std::size_t>(a) * k + b] += g.edlo[static_cast<std::size_t>(e)];
        }
    }
    const double maxW = std::max(1.0, *std::max_element(between.begin(), between.end()));
    q.vert.assign(static_cast<std::size_t>(k) + 1, 0);
    for (int a = 0; a < k; ++a) {
        for (int b = 0; b < k; ++b) {
            const double w = between[static_cast<std::size_t>(a) * k + b];
            if (a == b || w <= 0.0)
                continue;
            q.edge.push_back(b);
            q.edlo.push_back(std::max<SCOTCH_Num>(1, static_cast<SCOTCH_Num>(std::lround(w / maxW * kMaxEdgeWeight))));
        }
        q.vert[static_cast<std::size_t>(a) + 1] = static_cast<SCOTCH_Num>(q.edge.size());
    }
    q.edge.push_back(0); // keeps data() valid for an edgeless graph
    q.edlo.push_back(1);
    return q;
}

/// Step 2 for a few terminals: every assignment of the parts to the terminals, one part each, tried; the one that
/// overflows the terminals' rooms least, then costs least (the quotient's traffic times the target's distances),
/// wins. Empty when there are too many terminals to try them all.
std::vector<SCOTCH_Num> partsOntoTerminals(const ScotchGraphArrays& q, const std::vector<int>& room,
                                           const std::vector<std::vector<long>>& distance)
{
    constexpr int kExhaustiveTerminals = 8; // 8! = 40,320 assignments
    const int k = static_cast<int>(room.size());
    if (k > kExhaustiveTerminals)
        return {};
    std::vector<SCOTCH_Num> order(static_cast<std::size_t>(k)), best;
    std::iota(order.begin(), order.end(), 0);
    double bestOverflow = INFINITY, bestCost = INFINITY;
    do {
        double overflow = 0.0, cost = 0.0;
        for (int a = 0; a < k; ++a) {
            const auto t = static_cast<std::size_t>(order[static_cast<std::size_t>(a)]);
            overflow += std::max(0, q.velo[static_cast<std::size_t>(a)] - room[t]);
            for (SCOTCH_Num e = q.vert[static_cast<std::size_t>(a)]; e < q.vert[static_cast<std::size_t>(a) + 1]; ++e)
                cost += static_cast<double>(q.edlo[static_cast<std::size_t>(e)])
                    * static_cast<double>(distance[t][static_cast<std::size_t>(
                        order[static_cast<std::size_t>(q.edge[static_cast<std::size_t>(e)])])]);
        }
        if (overflow < bestOverflow || (overflow == bestOverflow && cost < bestCost)) {
            bestOverflow = overflow;
            bestCost = cost;
            best = order;
        }
    } while (std::next_permutation(order.begin(), order.end()));
    return best;
}

/// The two-step scheme of parallel=true: PT-Scotch's parts over the ranks, then the parts onto the terminals (every
/// assignment tried up to 8 terminals, Scotch beyond). Returns each free process's terminal index and a note.
Expected<std::pair<std::vector<SCOTCH_Num>, std::string>> twoStepMapping(const ScotchGraphArrays& graph,
                                                                         const std::vector<int>& weights,
                                                                         const std::vector<std::vector<long>>& distance,
                                                                         const std::string& target, double imbalance,
                                                                         std::uint64_t seed, const FeedbackRange& range)
{
    const int k = static_cast<int>(weights.size());
    range.setProgress(0.1, "PT-Scotch partitioning");
    auto parts = partsOverRanks(graph, weights, imbalance, seed, range.ranks());
    if (!parts)
        return parts.error();
    for (const SCOTCH_Num p : *parts)
        if (p < 0 || p >= k)
            return makeError(ErrorCode::Internal, "PT-Scotch returned part " + std::to_string(p));
    range.setProgress(0.6, "mapping the parts onto the terminals");
    ScotchGraphArrays quotient = quotientGraph(graph, *parts, k);
    std::vector<SCOTCH_Num> terminalOf = partsOntoTerminals(quotient, weights, distance);
    const bool exhaustive = !terminalOf.empty();
    if (!exhaustive) {
        terminalOf.assign(static_cast<std::size_t>(k), 0);
        if (auto error = runScotch(quotient, target, k, imbalance, seed, terminalOf))
            return std::move(*error);
    }
    std::vector<SCOTCH_Num> part(parts->size());
    for (std::size_t i = 0; i < parts->size(); ++i)
        part[i] = terminalOf[static_cast<std::size_t>((*parts)[i])];
    return std::pair{std::move(part),
                     "PT-Scotch over " + std::to_string(range.ranks().size()) + " rank(s): " + std::to_string(k)
                         + " parts, then the parts placed on the terminals "
                         + (exhaustive ? "by trying every assignment" : "by Scotch")};
}

/// Capacity repair: a unit over its room sheds its cheapest-to-move processes to units with room. Returns how
/// many processes moved.
int repairCapacity(const MappingProblem& problem, const PlacementUnits& units, const std::vector<int>& room,
                   std::vector<int>& unitOf)
{
    const std::vector<int>& freeProcs = problem.freeProcesses();
    const int unitCount = units.count();
    std::vector<int> load(unitCount, 0);
    for (int u : unitOf)
        ++load[u];
    std::vector<int> siteOf = problem.pinnedAssignment();
    for (std::size_t i = 0; i < freeProcs.size(); ++i)
        siteOf[freeProcs[i]] = units.siteOf(unitOf[i]);
    int repaired = 0;
    for (int u = 0; u < unitCount; ++u) {
        while (load[u] > room[u]) {
            double best = INFINITY;
            std::size_t bestI = 0;
            int bestTo = -1;
            for (std::size_t i = 0; i < freeProcs.size(); ++i) {
                if (unitOf[i] != u)
                    continue;
                for (int v = 0; v < unitCount; ++v) {
                    if (load[v] >= room[v])
                        continue;
                    const double d = problem.cost().moveDelta(siteOf, freeProcs[i], units.siteOf(v));
                    if (d < best) {
                        best = d;
                        bestI = i;
                        bestTo = v;
                    }
                }
            }
            unitOf[bestI] = bestTo;
            siteOf[freeProcs[bestI]] = units.siteOf(bestTo);
            --load[u];
            ++load[bestTo];
            ++repaired;
        }
    }
    return repaired;
}

} // namespace

std::string scotchDecoTarget(const std::vector<int>& weights, const std::vector<std::vector<long>>& distance)
{
    const int k = static_cast<int>(weights.size());
    std::vector<int> terms(k);
    std::iota(terms.begin(), terms.end(), 0);
    std::vector<long> number(k, 1);
    if (k > 1)
        numberTerminals(terms, 1, weights, distance, number);
    std::ostringstream out;
    out << "deco\n0\n" << k << ' ' << *std::max_element(number.begin(), number.end()) << '\n';
    for (int t = 0; t < k; ++t)
        out << t << ' ' << weights[t] << ' ' << number[t] << '\n';
    for (int a = 1; a < k; ++a) {
        for (int b = 0; b < a; ++b)
            out << (b ? " " : "") << distance[a][b];
        out << '\n';
    }
    return out.str();
}

std::vector<ParamSpec> ScotchMapper::parameters() const
{
    return {ParamSpec::real("imbalance", 0.01, 0.0, 0.5,
                            "Load imbalance Scotch may accept per terminal before Meridian's capacity repair."),
            ParamSpec::choice("terminals", "auto", {"auto", "sites", "hosts"},
                              "Map onto sites, or onto hosts (CloudMap's instances); auto = hosts when the project has "
                              "host-level links."),
            ParamSpec::flag("parallel", false,
                            "Map with PT-Scotch over the ranks of an MPI launcher (mpirun -np N meridian-cli map), in "
                            "two steps: the processes partitioned into one part per terminal, then the parts mapped "
                            "onto the terminals.")};
}

Expected<MappingResult> ScotchMapper::mapImpl(const MappingProblem& problem, const ParamValues& values,
                                              std::uint64_t seed, const FeedbackRange& range) const
{
    const std::string& terminalsMode = values.choice("terminals");
    constexpr int kMaxHostTerminals = 1024; // a deco target's distance matrix is quadratic
    const int hostCount = problem.topology().hostCount();
    if (terminalsMode == "hosts" && hostCount > kMaxHostTerminals)
        return makeError(ErrorCode::InvalidInput,
                         "terminals=hosts: the project has " + std::to_string(hostCount) + " hosts, more than the "
                             + std::to_string(kMaxHostTerminals)
                             + " a Scotch deco target can hold here; use terminals=sites");
    const bool hostLevel = terminalsMode == "hosts"
        || (terminalsMode == "auto" && problem.hasHostLinks() && hostCount <= kMaxHostTerminals);
    const bool bandwidth = m_metric == Metric::Bandwidth;

    const PlacementUnits unitsView(problem, hostLevel);
    std::vector<int> room = unitsView.rooms();
    std::vector<int> units; // the terminals: units with room
    for (int u = 0; u < unitsView.count(); ++u)
        if (room[u] > 0)
            units.push_back(u);
    const std::vector<int>& freeProcs = problem.freeProcesses();
    std::vector<int> unitOf(freeProcs.size(), units.empty() ? -1 : units[0]);
    MappingResult result;

    if (units.size() > 1 && !freeProcs.empty()) {
        const int k = static_cast<int>(units.size());
        // The per-pair value the metric uses, in seconds per byte or seconds per message, less the mean of the
        // diagonal.
        const auto pairValue = [&](int a, int b) {
            return bandwidth ? unitsView.secondsPerByte(a, b) : unitsView.latencySeconds(a, b);
        };
        double diag = 0.0;
        for (int u : units)
            diag += pairValue(u, u);
        diag /= k;
        Eigen::MatrixXd raw(k, k);
        std::vector<int> weights(k);
        for (int a = 0; a < k; ++a) {
            weights[a] = room[units[a]];
            for (int b = 0; b < k; ++b)
                raw(a, b) = pairValue(units[a], units[b]) - diag;
        }
        const std::vector<std::vector<long>> distance = scaleDistances(raw);
        const std::string target = scotchDecoTarget(weights, distance);
        ScotchGraphArrays graph = scotchGraphOf(problem, bandwidth);
        std::vector<SCOTCH_Num> part(freeProcs.size(), 0);
        if (range.isCanceled())
            return makeError(ErrorCode::Canceled, "canceled");
        if (values.flag("parallel")) {
            auto twoStep = twoStepMapping(graph, weights, distance, target, values.real("imbalance"), seed, range);
            if (!twoStep)
                return twoStep.error();
            part = std::move(twoStep->first);
            result.notes.push_back(std::move(twoStep->second));
        } else {
            range.setProgress(0.2, "Scotch mapping");
            if (auto error = runScotch(graph, target, k, values.real("imbalance"), seed, part))
                return std::move(*error);
        }
        for (std::size_t i = 0; i < freeProcs.size(); ++i) {
            if (part[i] < 0 || part[i] >= k)
                return makeError(ErrorCode::Internal, "libscotch returned terminal " + std::to_string(part[i]));
            unitOf[i] = units[static_cast<std::size_t>(part[i])];
        }
    }

    const int repaired = repairCapacity(problem, unitsView, room, unitOf);
    if (repaired > 0)
        result.notes.push_back(std::to_string(repaired) + " process(es) moved after Scotch to honour capacities");
    result.notes.push_back(std::string("terminals: ") + (hostLevel ? "hosts" : "sites"));
    result.placement = unitsView.place(unitOf);
    return result;
}

} // namespace meridian::mapping
