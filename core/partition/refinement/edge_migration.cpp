#include "core/partition/refinement/edge_migration.h"

#include "core/common/readable.h"
#include "core/cost/gas_cost.h"
#include "core/partition/refinement/edge_groups.h"
#include "core/partition/refinement/replica_refinement.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>

namespace meridian::partition::refinement {

namespace {

/// The link a round works on: site `site`'s uplink or downlink, in the gather or the apply stage.
struct Bottleneck {
    bool gatherStage = true;
    int site = -1;
    bool uplink = true;

    bool operator==(const Bottleneck&) const = default;
    /// A master cannot leave its site, so for these links every edge of a queued master may move.
    bool masterCase() const { return gatherStage != uplink; }
};

/// How far the worst site's time in one stage stands above the next-worst site's.
double bottleneckGap(const cost::GasMetrics& metrics, const cost::GasNetwork& net, int m, bool gatherStage)
{
    std::vector<double> times(m);
    for (int r = 0; r < m; ++r)
        times[r] = gatherStage
            ? std::max(metrics.gatherUp[r] / net.upBytesPerSecond[r], metrics.gatherDown[r] / net.downBytesPerSecond[r])
            : std::max(metrics.applyUp[r] / net.upBytesPerSecond[r], metrics.applyDown[r] / net.downBytesPerSecond[r]);
    std::sort(times.begin(), times.end(), std::greater<>());
    return times[0] - times[1];
}

Bottleneck bottleneckOf(const cost::GasMetrics& metrics, bool gatherStage)
{
    return gatherStage ? Bottleneck{true, metrics.gatherBottleneck, metrics.gatherBottleneckUplink}
                       : Bottleneck{false, metrics.applyBottleneck, metrics.applyBottleneckUplink};
}

/// The bottlenecked link of eq. 1-3, or none when no link carries traffic.
std::optional<Bottleneck> findBottleneck(const cost::GasState& state, const cost::GasNetwork& net, int m)
{
    const cost::GasMetrics metrics = state.linkMetrics();
    const bool gatherStage = bottleneckGap(metrics, net, m, true) >= bottleneckGap(metrics, net, m, false);
    const Bottleneck link = bottleneckOf(metrics, gatherStage);
    if (link.site < 0 || (gatherStage ? metrics.gatherSeconds : metrics.applySeconds) <= 0.0)
        return std::nullopt;
    return link;
}

/// Queue Q: the replicas on the link's site that load it, heaviest first, cut to L_Q = `lq` of its length.
WeightedQueue bottleneckQueue(const cost::GasState& state, const Bottleneck& link, int m, double lq)
{
    const int r = link.site;
    WeightedQueue queue;
    for (std::uint32_t v = 0; v < state.vertexCount(); ++v) {
        const bool isMaster = state.master(v) == r;
        if (!isMaster && !state.edgesAt(v, r))
            continue;
        double weight = 0.0;
        if (link.gatherStage && link.uplink && !isMaster)
            weight = state.gatherSize(v, r);
        else if (link.gatherStage && !link.uplink && isMaster) {
            for (int k = 0; k < m; ++k)
                if (k != r)
                    weight += state.gatherSize(v, k);
        } else if (!link.gatherStage && link.uplink && isMaster)
            weight = state.applySize(v) * (std::popcount(state.replicaMask(v)) - 1);
        else if (!link.gatherStage && !link.uplink && !isMaster)
            weight = state.applySize(v);
        if (weight > 0.0)
            queue.emplace_back(weight, v);
    }
    sortHeaviestFirst(queue);
    const auto limit = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(lq * double(queue.size()))));
    queue.resize(std::min(queue.size(), limit));
    return queue;
}

/// Progress is a shorter transfer time, or the same time with less total site time (one of several equally
/// bottlenecked sites relieved), so tied bottlenecks do not stall the migration.
struct Score {
    double seconds = 0.0, sum = 0.0;

    static Score of(const cost::GasState& state) { return Score{state.transferSeconds(), state.siteSecondsSum()}; }
    bool betterThan(const Score& b) const
    {
        return seconds < b.seconds * (1 - 1e-12) || (seconds <= b.seconds * (1 + 1e-12) && sum < b.sum * (1 - 1e-9));
    }
};

/// The moves of one migration, with what they achieved.
class Migration {
public:
    Migration(const PartitionProblem& problem, const model::Graph& graph, model::EdgePartition& partition,
              double budgetUsd, int groups, cost::GasState& state, const Incidence* incidence)
        : m_graph(graph)
        , m_partition(partition)
        , m_incidence(incidence)
        , m_state(state)
        , m_net(problem.network)
        , m_m(problem.siteCount())
        , m_groups(groups)
        , m_budget(withinBudget(m_state.wanUsd(), budgetUsd) ? budgetUsd : m_state.wanUsd())
    {}

    enum class Round { Canceled, NoBottleneck, Progressed, Stalled };
    /// One round on the current bottleneck; Stalled when it improved nothing or gained less than 0.01% in both
    /// the transfer time and the total site time.
    Round round(double lq, const FeedbackRange& range, SearchBudget* budget);
    const cost::GasState& state() const { return m_state; }
    int movedEdges() const { return m_movedEdges; }

private:
    bool moveGroups(const std::vector<std::vector<std::uint32_t>>& groups, const Bottleneck& link, Score& now);

    const model::Graph& m_graph;
    model::EdgePartition& m_partition;
    /// The incident edges of `vertices`, read off the incidence.
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> fromIncidence(
        const std::vector<std::uint32_t>& vertices) const
    {
        std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> out;
        for (std::uint32_t v : vertices) {
            auto& edges = out[v];
            for (std::uint32_t i = m_incidence->offsets[v]; i < m_incidence->offsets[v + 1]; ++i)
                edges.push_back(m_incidence->ids[i] & ~Incidence::kTarget);
        }
        return out;
    }

    const Incidence* m_incidence;
    cost::GasState& m_state;
    const cost::GasNetwork& m_net;
    int m_m;
    int m_groups;
    double m_budget;
    int m_movedEdges = 0;
};

/// Moves each group to its best site (never the link's site for a mirror) if that is progress within budget.
bool Migration::moveGroups(const std::vector<std::vector<std::uint32_t>>& groups, const Bottleneck& link, Score& now)
{
    bool improved = false;
    for (const auto& group : groups) {
        int bestSite = -1;
        Score bestScore = now;
        const std::vector<std::uint8_t> from = sitesOf(m_partition, group);
        for (int s = 0; s < m_m; ++s) {
            if (s == link.site && !link.masterCase())
                continue;
            moveGroup(m_state, group, s);
            const Score score = Score::of(m_state);
            if (score.betterThan(bestScore) && withinBudget(m_state.wanUsd(), m_budget)) {
                bestScore = score;
                bestSite = s;
            }
            restoreGroup(m_state, group, from);
        }
        if (bestSite >= 0) {
            for (std::uint32_t e : group)
                m_movedEdges += m_partition.edgeSite[e] != bestSite ? 1 : 0;
            moveGroup(m_state, group, bestSite);
            now = bestScore;
            improved = true;
        }
    }
    return improved;
}

Migration::Round Migration::round(double lq, const FeedbackRange& range, SearchBudget* budget)
{
    const double roundSeconds = m_state.transferSeconds(), roundSum = m_state.siteSecondsSum();
    const std::optional<Bottleneck> link = findBottleneck(m_state, m_net, m_m);
    if (!link)
        return Round::NoBottleneck;
    const WeightedQueue queue = bottleneckQueue(m_state, *link, m_m, lq);
    std::vector<std::uint32_t> candidates;
    for (const auto& entry : queue)
        candidates.push_back(entry.second);
    auto incident = m_incidence ? fromIncidence(candidates) : incidentEdges(m_graph, candidates);
    bool improved = false;
    for (const auto& [weight, v] : queue) {
        if (range.isCanceled())
            return Round::Canceled;
        if (budget && budget->exhausted())
            break;
        Score now = Score::of(m_state);
        // A mirror's edges on the link's site leave it; a master's edges may all move, each group to its
        // best site (consolidating mirrors into fewer sites).
        const auto groups = groupEdges(m_graph, m_partition, m_state, v, incident[v],
                                       link->masterCase() ? -1 : link->site, m_groups);
        const std::uint64_t steps = m_state.steps();
        if (!groups.empty())
            improved = moveGroups(groups, *link, now) || improved;
        if (budget)
            budget->spend(incident[v].size() + (m_state.steps() - steps));
        if (groups.empty())
            continue;
        if (!(bottleneckOf(m_state.linkMetrics(), link->gatherStage) == *link))
            break; // the link is no longer the bottleneck: find the next one
    }
    const bool gained = m_state.transferSeconds() < roundSeconds * (1 - 1e-4)
        || m_state.siteSecondsSum() < roundSum * (1 - 1e-4);
    return improved && gained ? Round::Progressed : Round::Stalled;
}

} // namespace

bool migrateEdges(const PartitionProblem& problem, const model::Graph& graph, model::EdgePartition& partition,
                  const ParamValues& values, double budgetUsd, const FeedbackRange& range,
                  std::vector<std::string>& notes, std::optional<cost::GasState>* state, const Incidence* incidence,
                  SearchBudget* budget)
{
    const double lq = values.real("lq_fraction");
    const auto maxRounds = values.integer("max_rounds");
    if (lq <= 0.0 || maxRounds == 0 || problem.siteCount() < 2)
        return true;
    std::optional<cost::GasState> own;
    std::optional<cost::GasState>& held = state ? *state : own;
    if (!held)
        held.emplace(graph, partition, problem.sizes, problem.network, [&range] { return range.isCanceled(); });
    if (!held->complete())
        return false;
    Migration migration(problem, graph, partition, budgetUsd, static_cast<int>(values.integer("groups")), *held,
                        incidence);
    const double startSeconds = migration.state().transferSeconds();
    int rounds = 0;
    for (; rounds < maxRounds; ++rounds) {
        if (range.isCanceled())
            return false;
        if (budget && budget->exhausted())
            break;
        const Migration::Round outcome = migration.round(lq, range, budget);
        if (outcome == Migration::Round::Canceled)
            return false;
        if (outcome == Migration::Round::NoBottleneck)
            break;
        range.setProgress(0.3 + 0.7 * static_cast<double>(rounds + 1) / static_cast<double>(maxRounds),
                          "edge migration");
        if (outcome == Migration::Round::Stalled) {
            ++rounds; // the round ran: it counts
            break;
        }
    }
    notes.push_back("edge migration: " + std::to_string(migration.movedEdges()) + " edge(s) moved in "
                    + std::to_string(rounds) + " round(s), transfer time " + readableSeconds(startSeconds) + " \u2192 "
                    + readableSeconds(migration.state().transferSeconds()));
    return true;
}

} // namespace meridian::partition::refinement
