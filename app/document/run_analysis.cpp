#include "app/document/run_analysis.h"

#include <algorithm>
#include <cmath>

namespace meridian::document {

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
        if (!isBaseline(*run) || !run->metric("cost_s"))
            continue;
        cost += *run->metric("cost_s");
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
    for (const auto& run : current)
        if (!run->costSamples.empty()) {
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
        const std::string& money = r.usdMetric;
        auto better = [&money](const Run& a, const Run& b) {
            const double ca = *a.metric("cost_s"), cb = *b.metric("cost_s");
            if (ca != cb)
                return ca < cb;
            return a.metric(money).value_or(INFINITY) < b.metric(money).value_or(INFINITY);
        };
        for (const auto& run : current)
            if (!isBaseline(*run) && (!r.best || better(*run, *r.best)))
                r.best = run;
        if (!r.best)
            continue;
        for (const auto& run : current)
            if (!isBaseline(*run) && run->algorithm != r.best->algorithm && (!r.runnerUp || better(*run, *r.runnerUp)))
                r.runnerUp = run;
        setBaseline(r, current);
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace meridian::document
