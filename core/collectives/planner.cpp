#include "core/collectives/planner.h"

#include "core/collectives/network_model.h"
#include "core/model/network.h"
#include "core/model/topology.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace meridian::collectives {

namespace {

/// The most messages of a chain whose chunk count is chosen (p x k, for each of the three counts tried). Beyond a
/// few times p chunks the chain's time changes by about a percent (Eq. 3), while evaluating it costs p x k.
constexpr double kMaxChosenChainMessages = 3e5;

struct SlowestLink {
    UniformLink link;
    bool uniform = true; ///< every link the processes use has the same latency and bandwidth
};

/// The slowest latency and bandwidth among the links the layout's processes use (the diagonal of a site with two
/// processes or more), as one uniform link.
SlowestLink slowestLink(const Layout& layout, const model::Network& network)
{
    std::vector<int> count(static_cast<std::size_t>(network.siteCount()), 0);
    for (int s : layout.site)
        ++count[static_cast<std::size_t>(s)];
    double latency = 0.0;
    double bandwidth = std::numeric_limits<double>::infinity();
    std::set<std::pair<double, double>> seen;
    for (int a = 0; a < network.siteCount(); ++a)
        for (int b = 0; b < network.siteCount(); ++b) {
            if (count[static_cast<std::size_t>(a)] == 0 || count[static_cast<std::size_t>(b)] == 0
                || (a == b && count[static_cast<std::size_t>(a)] < 2))
                continue;
            latency = std::max(latency, network.latencyMs(a, b));
            bandwidth = std::min(bandwidth, network.bandwidthMBps(a, b));
            seen.emplace(network.latencyMs(a, b), network.bandwidthMBps(a, b));
        }
    if (!std::isfinite(bandwidth))
        return {};
    return {{latency * 1e-3, 1.0 / (bandwidth * 1e6)}, seen.size() <= 1};
}

Expected<AlgorithmTime> twisterTime(const PlanRequest& request, const PlanContext& context, Algorithm algorithm)
{
    const UniformLink link = slowestLink(context.layout, context.network).link;
    const int p = context.layout.processes();
    AlgorithmTime out{algorithm, 0.0, 1, 0.0, 0.0};
    Expected<double> seconds = 0.0;
    switch (algorithm) {
    case Algorithm::Flat:
        seconds = (p - 1) * (link.alphaS + request.bytes * link.betaSPerByte);
        break;
    case Algorithm::Mst:
        seconds = mstBroadcastSeconds(p, request.bytes, link);
        break;
    case Algorithm::Bucket:
        seconds = bucketBroadcastSeconds(p, request.bytes, link);
        break;
    case Algorithm::Chain:
    case Algorithm::TopologyChain: {
        auto k = request.chunks > 0 ? Expected<int>(request.chunks) : optimalChunks(p, request.bytes, link);
        if (!k)
            return k.error();
        out.chunks = *k;
        seconds = chainBroadcastSeconds(p, *k, request.bytes, link);
        break;
    }
    default:
        return makeError(ErrorCode::InvalidInput,
                         std::string("Twister's model has no ") + algorithmId(algorithm)
                             + " broadcast; use the network model");
    }
    if (!seconds)
        return seconds.error();
    out.seconds = *seconds;
    out.bytes = request.bytes * (p - 1);
    return out;
}

Expected<AlgorithmTime> networkTimeWith(const PlanRequest& request, const PlanContext& context, Algorithm algorithm,
                                        int chunks)
{
    CollectiveSpec spec{request.operation, algorithm, request.root, request.bytes, chunks, request.shuffle};
    auto schedule = buildSchedule(spec, context.layout, &context.network);
    if (!schedule)
        return schedule.error();
    auto timing = scheduleTime(*schedule, context.layout, context.topology, context.network);
    if (!timing)
        return timing.error();
    return AlgorithmTime{algorithm, timing->seconds, chunks, timing->bytes, timing->crossSiteBytes};
}

/// The chain's chunk count: given, or the best of k_opt (Eq. 3's optimum for the slowest link the processes use),
/// half and twice it, evaluated on the network.
Expected<AlgorithmTime> chainTime(const PlanRequest& request, const PlanContext& context, Algorithm algorithm)
{
    if (request.chunks > 0)
        return networkTimeWith(request, context, algorithm, request.chunks);
    const UniformLink link = slowestLink(context.layout, context.network).link;
    const int p = context.layout.processes();
    const double cap = std::max(1.0,
                                std::min(std::floor(request.bytes),
                                         std::floor(kMaxChosenChainMessages / std::max(1, p - 1))));
    int k0 = 1;
    if (link.betaSPerByte > 0.0)
        if (auto k = optimalChunks(std::max(p, 2), request.bytes, link); k)
            k0 = *k;
    std::set<int> candidates;
    for (double k : {k0 / 2.0, static_cast<double>(k0), k0 * 2.0})
        candidates.insert(static_cast<int>(std::clamp(std::floor(k), 1.0, cap)));
    std::optional<AlgorithmTime> best;
    for (int k : candidates) {
        auto t = networkTimeWith(request, context, algorithm, k);
        if (!t)
            return t.error();
        if (!best || t->seconds < best->seconds)
            best = *t;
    }
    return *best;
}

Expected<AlgorithmTime> timeOf(const PlanRequest& request, const PlanContext& context, Algorithm algorithm)
{
    if (request.model == CostModel::Twister)
        return twisterTime(request, context, algorithm);
    if (takesChunks(algorithm))
        return chainTime(request, context, algorithm);
    return networkTimeWith(request, context, algorithm, 1);
}

/// A byte count in full, whatever its size (a cast to an integer type overflows above 2^63).
std::string wholeBytes(double bytes)
{
    char text[400];
    std::snprintf(text, sizeof text, "%.0f", bytes);
    return text;
}

/// A swept size whose fastest algorithm Open MPI lacks, and the one the rules name instead.
struct Substitute {
    double bytes;
    Algorithm fastest;
    Algorithm named;
    double ratio;
};

/// One note per run of consecutive sizes with the same fastest and named algorithms.
void describeSubstitutes(const std::vector<Substitute>& list, std::vector<std::string>& notes)
{
    for (std::size_t i = 0; i < list.size();) {
        std::size_t j = i;
        double low = list[i].ratio, high = list[i].ratio;
        while (j + 1 < list.size() && list[j + 1].fastest == list[i].fastest && list[j + 1].named == list[i].named) {
            ++j;
            low = std::min(low, list[j].ratio);
            high = std::max(high, list[j].ratio);
        }
        char ratios[64];
        std::snprintf(ratios, sizeof ratios, low == high ? "%.2f" : "%.2f to %.2f", low, high);
        notes.push_back((i == j ? "at " + wholeBytes(list[i].bytes)
                                : "from " + wholeBytes(list[i].bytes) + " to " + wholeBytes(list[j].bytes))
                        + " bytes " + algorithmId(list[i].fastest)
                        + " is fastest but Open MPI has no equivalent: the rules name " + algorithmId(list[i].named)
                        + ", " + ratios + " times as long");
        i = j + 1;
    }
}

} // namespace

const char* costModelId(CostModel model) { return model == CostModel::Twister ? "twister" : "network"; }

std::optional<CostModel> parseCostModel(std::string_view id)
{
    if (id == "network")
        return CostModel::Network;
    if (id == "twister")
        return CostModel::Twister;
    return std::nullopt;
}

Expected<Ranking> rankAlgorithms(const PlanRequest& request, const PlanContext& context)
{
    const int p = context.layout.processes();
    if (auto ok = checkRootAndSize(request.root, request.bytes, p); !ok)
        return ok.error();
    if (request.model == CostModel::Twister && request.operation != Operation::Broadcast)
        return makeError(ErrorCode::InvalidInput,
                         std::string("Twister's model covers the broadcast only, not ") + operationId(request.operation)
                             + "; use the network model");
    const bool named = !request.algorithms.empty();
    const std::vector<Algorithm>& algorithms = named ? request.algorithms : algorithmsFor(request.operation);
    const auto& supported = algorithmsFor(request.operation);
    for (Algorithm a : algorithms)
        if (std::find(supported.begin(), supported.end(), a) == supported.end())
            return makeError(ErrorCode::InvalidInput,
                             std::string(algorithmId(a)) + " does not implement " + operationId(request.operation)
                                 + "; these do: " + algorithmList(request.operation));
    if (request.chunks > 0 && std::none_of(algorithms.begin(), algorithms.end(), takesChunks))
        return makeError(ErrorCode::InvalidInput,
                         "a chunk count applies to chain and topology-chain, and neither is among the algorithms");
    if (request.chunks > 0 && static_cast<double>(request.chunks) > request.bytes)
        return makeError(ErrorCode::InvalidInput,
                         std::to_string(request.chunks) + " chunks of a " + wholeBytes(request.bytes)
                             + "-byte message leave chunks without a byte");
    Ranking ranking;
    for (Algorithm a : algorithms) {
        auto t = timeOf(request, context, a);
        if (t) {
            ranking.results.push_back(*t);
            continue;
        }
        if (named)
            return t.error();
        ranking.skipped.push_back({a, t.error().message});
    }
    if (ranking.results.empty()) {
        std::string reasons;
        for (const Skipped& s : ranking.skipped)
            reasons += (reasons.empty() ? "" : "; ") + s.reason;
        return makeError(ErrorCode::InvalidInput, "no algorithm can run: " + reasons);
    }
    std::stable_sort(ranking.results.begin(), ranking.results.end(),
                     [](const AlgorithmTime& a, const AlgorithmTime& b) { return a.seconds < b.seconds; });
    if (request.model == CostModel::Twister) {
        const auto [link, uniform] = slowestLink(context.layout, context.network);
        if (!uniform)
            ranking.notes.push_back("the network is not uniform: Twister's model takes the slowest link the processes "
                                    "use (latency "
                                    + std::to_string(link.alphaS * 1e3) + " ms, bandwidth "
                                    + std::to_string(link.betaSPerByte > 0.0 ? 1e-6 / link.betaSPerByte : 0.0)
                                    + " MB/s)");
    }
    return ranking;
}

Expected<SizeSweep> sweepSizes(const PlanRequest& request, const PlanContext& context, double minBytes, double maxBytes)
{
    if (!std::isfinite(minBytes) || !std::isfinite(maxBytes) || minBytes < 1.0 || maxBytes < minBytes
        || maxBytes > std::pow(2.0, 40))
        return makeError(ErrorCode::InvalidInput,
                         "a size sweep needs 1 <= MIN <= MAX <= 2^40 bytes, not " + wholeBytes(minBytes) + ":"
                             + wholeBytes(maxBytes));
    SizeSweep sweep;
    sweep.sizes.push_back(minBytes);
    for (double s = std::pow(2.0, std::ceil(std::log2(minBytes))); s <= maxBytes; s *= 2.0)
        if (s > sweep.sizes.back())
            sweep.sizes.push_back(s);
    if (maxBytes > sweep.sizes.back())
        sweep.sizes.push_back(maxBytes);
    for (double size : sweep.sizes) {
        PlanRequest at = request;
        at.bytes = size;
        if (at.chunks > 0 && static_cast<double>(at.chunks) > size)
            at.chunks = static_cast<int>(size);
        auto ranking = rankAlgorithms(at, context);
        if (!ranking)
            return makeError(ranking.error().code, "at " + wholeBytes(size) + " bytes: " + ranking.error().message);
        const Algorithm best = ranking->results.front().algorithm;
        if (sweep.bands.empty() || sweep.bands.back().algorithm != best)
            sweep.bands.push_back({size, size, best});
        else
            sweep.bands.back().toBytes = size;
        sweep.rankings.push_back(std::move(*ranking));
    }
    return sweep;
}

Expected<std::vector<std::pair<int, Ranking>>> sweepProcesses(const PlanRequest& request, const PlanContext& context)
{
    const int p = context.layout.processes();
    std::vector<int> counts;
    for (int k = 2; k < p; k *= 2)
        counts.push_back(k);
    counts.push_back(p);
    std::vector<std::pair<int, Ranking>> out;
    for (int k : counts) {
        Layout prefix{std::vector<int>(context.layout.site.begin(), context.layout.site.begin() + k),
                      std::vector<int>(context.layout.node.begin(), context.layout.node.begin() + k)};
        PlanRequest at = request;
        if (at.root >= k)
            at.root = 0;
        auto ranking = rankAlgorithms(at, {prefix, context.topology, context.network});
        if (!ranking)
            return makeError(ranking.error().code,
                             "with " + std::to_string(k) + " processes: " + ranking.error().message);
        if (at.root != request.root)
            ranking->notes.push_back("the root " + std::to_string(request.root) + " is not among the first "
                                     + std::to_string(k) + " processes: rank 0 is the root");
        out.emplace_back(k, std::move(*ranking));
    }
    return out;
}

std::optional<TunedOperation> tunedOperation(Operation op)
{
    switch (op) {
    case Operation::Broadcast:
        return TunedOperation::Bcast;
    case Operation::Scatter:
        return TunedOperation::Scatter;
    case Operation::Gather:
        return TunedOperation::Gather;
    case Operation::Reduce:
        return TunedOperation::Reduce;
    case Operation::Allreduce:
        return TunedOperation::Allreduce;
    case Operation::Allgather:
        return TunedOperation::Allgather;
    case Operation::Alltoall:
        return TunedOperation::Alltoall;
    case Operation::Shuffle:
        return std::nullopt;
    }
    return std::nullopt;
}

std::optional<int> openMpiAlgorithm(Operation op, Algorithm algorithm)
{
    using A = Algorithm;
    struct Entry {
        Operation op;
        A algorithm;
        int id;
    };
    // Open MPI 4.1's ids (`ompi_info --param coll tuned --level 9`). Its chain ("pipeline", one chain cut into
    // segments) follows rank order; the topology-aware chain needs ranks numbered site by site to be the same.
    static constexpr Entry kTable[] = {
        {Operation::Broadcast, A::Flat, 1},
        {Operation::Broadcast, A::Chain, 3},
        {Operation::Broadcast, A::TopologyChain, 3},
        {Operation::Broadcast, A::Mst, 6},
        {Operation::Broadcast, A::Bucket, 9},
        {Operation::Reduce, A::Flat, 1},
        {Operation::Reduce, A::Chain, 3},
        {Operation::Reduce, A::TopologyChain, 3},
        {Operation::Reduce, A::Mst, 5},
        {Operation::Allreduce, A::Flat, 1},
        {Operation::Allreduce, A::Mst, 2},
        {Operation::Allreduce, A::RecursiveDoubling, 3},
        {Operation::Allreduce, A::Ring, 4},
        {Operation::Allreduce, A::Rabenseifner, 6},
        {Operation::Scatter, A::Flat, 1},
        {Operation::Scatter, A::Mst, 2},
        {Operation::Gather, A::Flat, 1},
        {Operation::Gather, A::Mst, 2},
        {Operation::Allgather, A::Flat, 1},
        {Operation::Allgather, A::RecursiveDoubling, 3},
        {Operation::Allgather, A::Ring, 4},
        {Operation::Alltoall, A::Flat, 2},
    };
    for (const Entry& e : kTable)
        if (e.op == op && e.algorithm == algorithm)
            return e.id;
    return std::nullopt;
}

Expected<TunedCollective> tunedRules(Operation op, const SizeSweep& sweep, int processes,
                                     std::vector<std::string>& notes)
{
    const auto tuned = tunedOperation(op);
    if (!tuned)
        return makeError(ErrorCode::InvalidInput,
                         std::string("Open MPI's coll_tuned has no ") + operationId(op) + " to choose an algorithm for");
    TunedCommunicator communicator;
    communicator.communicatorSize = processes;
    std::vector<Substitute> slower;
    for (std::size_t i = 0; i < sweep.sizes.size(); ++i) {
        // Open MPI's rules hold sizes as 64-bit signed integers (and a cast above 2^63 overflows).
        if (!(sweep.sizes[i] < 0x1p63))
            return makeError(ErrorCode::InvalidInput,
                             "the swept size " + wholeBytes(sweep.sizes[i])
                                 + " bytes is larger than Open MPI's rules can state "
                                   "(9223372036854775807 bytes)");
        const Ranking& ranking = sweep.rankings[i];
        const AlgorithmTime* chosen = nullptr;
        for (const AlgorithmTime& t : ranking.results)
            if (openMpiAlgorithm(op, t.algorithm)) {
                chosen = &t;
                break;
            }
        if (!chosen) {
            notes.push_back("at " + wholeBytes(sweep.sizes[i])
                            + " bytes no ranked algorithm has an Open MPI equivalent: Open MPI's own choice is kept");
            continue;
        }
        if (chosen != &ranking.results.front())
            slower.push_back({sweep.sizes[i], ranking.results.front().algorithm, chosen->algorithm,
                              chosen->seconds / ranking.results.front().seconds});
        TunedRule rule;
        rule.fromBytes = i == 0 ? 0 : static_cast<long long>(sweep.sizes[i]);
        rule.algorithm = *openMpiAlgorithm(op, chosen->algorithm);
        if (takesChunks(chosen->algorithm) && chosen->chunks > 1)
            rule.segmentBytes = static_cast<long long>(std::ceil(sweep.sizes[i] / chosen->chunks));
        if (!communicator.rules.empty() && communicator.rules.back().algorithm == rule.algorithm
            && communicator.rules.back().segmentBytes == rule.segmentBytes)
            continue;
        if (communicator.rules.empty())
            rule.fromBytes = 0;
        communicator.rules.push_back(rule);
    }
    describeSubstitutes(slower, notes);
    if (communicator.rules.empty())
        return makeError(ErrorCode::InvalidInput,
                         std::string("no swept size has an algorithm Open MPI offers for ") + operationId(op));
    return TunedCollective{*tuned, {communicator}};
}

} // namespace meridian::collectives
