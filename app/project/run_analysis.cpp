#include "app/project/run_analysis.h"

#include "core/cost/bottleneck_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace meridian::document {

bool isLevel(double a, double b) { return std::max(a, b) <= std::min(a, b) * (1.0 + kLevelTime); }

bool samplesDiffer(const Run& run)
{
    if (run.costSamples.empty())
        return false;
    const auto [lo, hi] = std::minmax_element(run.costSamples.begin(), run.costSamples.end());
    return *hi - *lo > 1e-6 * std::max(std::abs(*lo), std::abs(*hi));
}

std::vector<SitePairCost> heaviestSitePairs(const Run& run, const model::Topology& topology, int limit)
{
    std::vector<SitePairCost> pairs;
    const auto n = run.trafficBytes.rows();
    if (run.kind != RunKind::Mapping || n != topology.siteCount() || run.trafficBytes.cols() != n
        || run.timeSeconds.rows() != n || run.timeSeconds.cols() != n)
        return pairs;
    const double cost = run.metric("cost_s").value_or(run.timeSeconds.sum());
    for (int k = 0; k < n; ++k)
        for (int l = 0; l < n; ++l) {
            if (k == l || (run.trafficBytes(k, l) <= 0.0 && run.timeSeconds(k, l) <= 0.0))
                continue;
            SitePairCost p;
            p.from = k;
            p.to = l;
            p.bytes = run.trafficBytes(k, l);
            p.seconds = run.timeSeconds(k, l);
            p.shareOfCost = cost > 0.0 ? p.seconds / cost : 0.0;
            const double price = topology.site(k).egressUsdPerGB;
            if (!std::isnan(price))
                p.egressUsd = p.bytes / 1e9 * price;
            pairs.push_back(p);
        }
    std::sort(pairs.begin(), pairs.end(), [](const SitePairCost& a, const SitePairCost& b) {
        return a.seconds != b.seconds ? a.seconds > b.seconds : a.bytes > b.bytes;
    });
    if (limit >= 0 && static_cast<int>(pairs.size()) > limit)
        pairs.resize(limit);
    return pairs;
}

namespace {

bool isBaseline(const Run& run) { return run.algorithm == "random"; }

/// The baseline of one application: its current random runs' mean, else a monte-carlo run's sample mean.
void setBaseline(Recommendation& r, const std::vector<std::shared_ptr<const Run>>& current)
{
    double cost = 0.0, usd = 0.0;
    int count = 0, priced = 0;
    for (const auto& run : current) {
        if (!isBaseline(*run) || !run->metric(r.metric))
            continue;
        cost += *run->metric(r.metric);
        ++count;
        if (auto d = run->metric(r.usdMetric)) {
            usd += *d;
            ++priced;
        }
    }
    if (count > 0) {
        r.baselineKind = "random";
        r.baselineRuns = count;
        r.baselineCost = cost / count;
        if (priced == count)
            r.baselineUsd = usd / count;
        return;
    }
    // Monte-carlo samples are traffic costs: a baseline for that metric only.
    for (const auto& run : current)
        if (r.metric == "cost_s" && !run->costSamples.empty()) {
            double sum = 0.0;
            for (double c : run->costSamples)
                sum += c;
            r.baselineKind = "monte-carlo";
            r.baselineRuns = static_cast<int>(run->costSamples.size());
            r.baselineCost = sum / static_cast<double>(run->costSamples.size());
            return;
        }
}

} // namespace

std::vector<Recommendation> recommend(const std::vector<std::shared_ptr<const Run>>& runs,
                                      const std::function<bool(const Run&)>& isStale)
{
    std::vector<std::string> applications;
    for (const auto& run : runs)
        if (run->kind == RunKind::Mapping && !isStale(*run) && run->metric("cost_s")
            && std::find(applications.begin(), applications.end(), run->application) == applications.end())
            applications.push_back(run->application);
    std::vector<Recommendation> out;
    for (const auto& application : applications) {
        std::vector<std::shared_ptr<const Run>> current;
        for (const auto& run : runs)
            if (run->kind == RunKind::Mapping && run->application == application && !isStale(*run)
                && run->metric("cost_s"))
                current.push_back(run);
        Recommendation r;
        r.application = application;
        const bool allTotal = std::all_of(current.begin(), current.end(),
                                          [](const auto& run) { return run->metric("usd").has_value(); });
        r.usdMetric = allTotal ? "usd" : "wan_usd";
        const bool predicted = std::all_of(current.begin(), current.end(),
                                           [](const auto& run) { return run->metric("predicted_s").has_value(); });
        r.metric = predicted ? "predicted_s" : "cost_s";
        const std::string& money = r.usdMetric;
        const std::string& metric = r.metric;
        auto better = [&money, &metric](const Run& a, const Run& b) {
            for (const std::string& m : {metric, std::string("cost_s")}) {
                const double ca = *a.metric(m), cb = *b.metric(m);
                if (ca != cb)
                    return ca < cb;
            }
            return a.metric(money).value_or(INFINITY) < b.metric(money).value_or(INFINITY);
        };
        for (const auto& run : current)
            if (!isBaseline(*run) && (!r.best || better(*run, *r.best)))
                r.best = run;
        if (!r.best)
            continue;
        // Predicted times within kLevelTime of the fastest are level: of those, the lowest traffic cost.
        if (predicted)
            for (const auto& run : current)
                if (!isBaseline(*run) && isLevel(*run->metric("predicted_s"), *r.best->metric("predicted_s"))
                    && *run->metric("cost_s") < *r.best->metric("cost_s"))
                    r.best = run;
        for (const auto& run : current)
            if (!isBaseline(*run) && run->algorithm != r.best->algorithm && (!r.runnerUp || better(*run, *r.runnerUp)))
                r.runnerUp = run;
        setBaseline(r, current);
        if (predicted)
            for (const auto& run : current)
                if (!isBaseline(*run) && *run->metric("cost_s") < *r.best->metric("cost_s")
                    && (!r.lowestTrafficCost || *run->metric("cost_s") < *r.lowestTrafficCost->metric("cost_s")))
                    r.lowestTrafficCost = run;
        out.push_back(std::move(r));
    }
    return out;
}

namespace {

std::string format(const char* pattern, double a, double b = 0.0)
{
    char text[96];
    std::snprintf(text, sizeof text, pattern, a, b);
    return text;
}

/// The largest latency (seconds) between two sites, or inside one, that holds a communicating pair of processes
/// of `comm` placed by `siteOf`; `from` and `to` get the sites.
double largestLatencyInUse(const model::CommMatrix& comm, const std::vector<int>& siteOf, const model::Network& network,
                           int& from, int& to)
{
    double largest = -1.0;
    const auto& v = comm.volume();
    for (int i = 0; i < v.outerSize(); ++i)
        for (model::CommMatrix::Sparse::InnerIterator it(v, i); it; ++it) {
            const int a = siteOf[static_cast<std::size_t>(i)], b = siteOf[static_cast<std::size_t>(it.col())];
            if (it.value() <= 0.0 || it.col() == i || a < 0 || b < 0)
                continue;
            const double latency = network.latencyMs()(a, b) / 1e3;
            if (latency > largest) {
                largest = latency;
                from = a;
                to = b;
            }
        }
    return largest;
}

} // namespace

std::string slowestStep(const Run& run, const Project& project, const model::Network& network)
{
    const int a = project.applicationIndex(run.application);
    const auto& topology = project.topology;
    const int sites = topology.siteCount();
    if (run.kind != RunKind::Mapping || a < 0 || run.trafficBytes.rows() != sites || run.trafficBytes.cols() != sites
        || static_cast<int>(run.placement.site.size()) != project.applications[a].comm.processCount())
        return {};
    const auto& comm = project.applications[a].comm;
    const double steps = cost::bulkSynchronousSteps(comm);
    const cost::Bottleneck busiest = cost::bottleneck(run.trafficBytes, topology, network);
    int from = -1, to = -1;
    const double latency = largestLatencyInUse(comm, run.placement.site, network, from, to);
    const auto name = [&](int s) { return topology.site(s).name; };
    if (latency >= busiest.seconds / steps && from >= 0)
        return "its steps wait for the " + format("%.0f ms", latency * 1e3) + " of "
            + (from == to ? "the inside of " + name(from) : name(from) + "-" + name(to));
    switch (busiest.link) {
    case cost::Bottleneck::Link::SitePair:
        return "its slowest step crosses " + name(busiest.from) + "-" + name(busiest.to) + " ("
            + format("%.3g MB a step at %.3g MB/s", run.trafficBytes(busiest.from, busiest.to) / steps / 1e6,
                     network.bandwidthMBps()(busiest.from, busiest.to))
            + ")";
    case cost::Bottleneck::Link::Uplink:
        return "its slowest step leaves " + name(busiest.from) + " through the site's uplink";
    case cost::Bottleneck::Link::Downlink:
        return "its slowest step enters " + name(busiest.to) + " through the site's downlink";
    case cost::Bottleneck::Link::None:
        break;
    }
    return {};
}

std::string trafficButSlower(const Run& cheaper, const Run& faster, const Project& project,
                             const model::Network& network)
{
    const auto cost = [](const Run& r) { return r.metric("cost_s"); };
    const auto time = [](const Run& r) { return r.metric("predicted_s"); };
    if (!cost(cheaper) || !cost(faster) || !time(cheaper) || !time(faster) || *cost(cheaper) >= *cost(faster)
        || isLevel(*time(cheaper), *time(faster)))
        return {};
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on a chain of string + string.
    std::string text = "#";
    text.append(std::to_string(cheaper.id)).append(" ").append(cheaper.algorithm);
    text.append(" has the lower traffic cost (").append(format("%.4g s against %.4g s", *cost(cheaper), *cost(faster)));
    text.append("), but is slower: ").append(format("%.4g s against %.4g s predicted", *time(cheaper), *time(faster)));
    if (const std::string why = slowestStep(cheaper, project, network); !why.empty())
        text.append("; ").append(why);
    return text;
}

} // namespace meridian::document
