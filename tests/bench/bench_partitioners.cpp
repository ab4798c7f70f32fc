// Benchmark of the graph partitioners (Geo-Cut Section 6). One RESULT line per case:
//   wikivote       Wiki-Vote on geo-cut-ec2-8-regions, PageRank, random homes, budget B = GrapH's cost:
//                  each partitioner's transfer time and WAN cost normalised to hash (Fig. 5-8, 12), mean of 5 seeds
//   wikivote_summary  geo-cut's reductions vs hash (targets: time >= 40%, cost >= 25%), hdrf's replication
//                  factor (target <= 3.3), budgets met
//   wikivote_no_budget  the same with no budget (g-cut without its usage budget): who is fastest, at what cost
//   upload_share   per-site upload shares of hash and geo-cut (Table 10)
//   site_removal   geo-cut's partition with SYD and SA removed (Section 6.4's data-centre removal) against geo-cut
//                  from scratch on the six remaining sites: transfer time, cost and runtime ratios
//   budget         B swept from 1.0 to 0.6 (Fig. 19-20): geo-cut and g-cut (WAN budget scaled alike)
//   heterogeneity  Tables 5 and 6 on 20 sites with a 10^7-edge power-law graph, normalised to hash
//   throughput     whole commands (SNAP text in, E.tsv and M.tsv out, wall clock) for hash, hdrf and geo-cut on
//                  2 x 10^7 edges, with each phase's seconds and the peak memory per edge
#include "app/document/project_file.h"
#include "core/io/graph_io.h"
#include "core/partition/builtin_partitioners.h"
#include "core/partition/site_removal.h"
#include "core/synth/power_law_graph.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>

using namespace meridian;
using namespace meridian::partition;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

[[noreturn]] void fail(const Error& e)
{
    std::fprintf(stderr, "bench: %s\n", e.toString().c_str());
    std::exit(1);
}

template <typename T>
T need(Expected<T> value)
{
    if (!value)
        fail(value.error());
    return std::move(*value);
}

struct Outcome {
    cost::GasMetrics metrics;
    double seconds = 0.0;
    double streamingSeconds = 0.0;
};

Outcome run(const Registry<Partitioner>& registry, const std::string& id, const PartitionProblem& problem,
            const std::vector<std::string>& params, std::uint64_t seed)
{
    const Partitioner* p = registry.find(id);
    const auto values = need(ParamValues::parse(p->parameters(), params));
    const Feedback feedback;
    const auto t0 = Clock::now();
    auto r = need(p->run(problem, values, seed, feedback));
    Outcome o;
    o.seconds = since(t0);
    o.streamingSeconds = r.streamingSeconds;
    o.metrics = cost::evaluateGas(*problem.graph, r.partition, problem.sizes, problem.network);
    return o;
}

model::Topology twentySites(const model::Site& reference, double bw1, double price1, double bw2, double price2)
{
    std::vector<model::Site> sites;
    for (int r = 0; r < 20; ++r) {
        model::Site s = reference;
        s.name = "dc" + std::to_string(r);
        s.hosts.clear();
        const double bw = r < 10 ? 1.0 : (r < 15 ? bw1 : bw2);
        const double price = r < 10 ? 1.0 : (r < 15 ? price1 : price2);
        s.uplinkMBps = reference.uplinkMBps * bw;
        s.downlinkMBps = reference.downlinkMBps * bw;
        s.egressUsdPerGB = reference.egressUsdPerGB * price;
        sites.push_back(s);
    }
    return need(model::Topology::create(std::move(sites)));
}

} // namespace

int main()
{
    Registry<Partitioner> registry;
    registerBuiltinPartitioners(registry);
    const auto project = need(document::ProjectFile::load(
        QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/geo-cut-ec2-8-regions/geo-cut-ec2-8-regions.meridian"));
    const auto& topo = project.topology;
    const auto wiki = need(io::readSnapGraph(std::string(MERIDIAN_SOURCE_DIR) + "/tests/data/graphs/Wiki-Vote.txt"));
    const auto pagerank = need(cost::TrafficProfile::fromId("pagerank"));
    const int seeds = 5;

    // Wiki-Vote, budget = GrapH's cost (Section 6.1), mean over seeds of values normalised to hash.
    std::map<std::string, double> timeSum, costSum, rfSum, freeTime, freeCost;
    int budgetsMet = 0;
    std::vector<double> sharesHash, sharesGeo;
    std::map<double, std::pair<double, double>> sweepGeo, sweepGcut; // factor -> (time, cost) normalised sums
    std::map<double, int> sweepMet;
    for (int s = 1; s <= seeds; ++s) {
        std::vector<int> home(wiki.vertexCount, -1);
        assignRandomHomes(home, topo.siteCount(), static_cast<std::uint64_t>(s));
        const auto free = need(PartitionProblem::create(wiki, topo, pagerank, home, {}));
        const Outcome hash = run(registry, "hash", free, {}, s);
        const Outcome graphH = run(registry, "graph-h", free, {}, s);
        const double budget = graphH.metrics.wanUsd;
        const double wanGb = graphH.metrics.wanBytes / 1e9;
        const auto bounded = need(PartitionProblem::create(wiki, topo, pagerank, home, budget));
        for (const auto& id : registry.ids()) {
            std::vector<std::string> params;
            if (id == "g-cut")
                params = {"wan_budget_gb=" + std::to_string(wanGb)};
            const Outcome o = id == "hash" ? hash : (id == "graph-h" ? graphH : run(registry, id, bounded, params, s));
            timeSum[id] += o.metrics.transferSeconds / hash.metrics.transferSeconds;
            costSum[id] += o.metrics.wanUsd / hash.metrics.wanUsd;
            rfSum[id] += o.metrics.replicationFactor;
            if (id == "geo-cut") {
                budgetsMet += budgetStatus(bounded, o.metrics.wanUsd).met ? 1 : 0;
                if (s == 1)
                    sharesGeo = o.metrics.uploadShare;
            }
        }
        if (s == 1)
            sharesHash = hash.metrics.uploadShare;
        for (const auto& id : registry.ids()) {
            const Outcome o = id == "hash" ? hash : (id == "graph-h" ? graphH : run(registry, id, free, {}, s));
            freeTime[id] += o.metrics.transferSeconds / hash.metrics.transferSeconds;
            freeCost[id] += o.metrics.wanUsd / hash.metrics.wanUsd;
        }
        for (double factor : {1.0, 0.9, 0.8, 0.7, 0.6}) {
            const auto problem = need(PartitionProblem::create(wiki, topo, pagerank, home, budget * factor));
            const Outcome geo = run(registry, "geo-cut", problem, {}, s);
            const Outcome gcut = run(registry, "g-cut", problem, {"wan_budget_gb=" + std::to_string(wanGb * factor)}, s);
            sweepGeo[factor].first += geo.metrics.transferSeconds / hash.metrics.transferSeconds;
            sweepGeo[factor].second += geo.metrics.wanUsd / budget;
            sweepGcut[factor].first += gcut.metrics.transferSeconds / hash.metrics.transferSeconds;
            sweepGcut[factor].second += gcut.metrics.wanUsd / budget;
            sweepMet[factor] += budgetStatus(problem, geo.metrics.wanUsd).met ? 1 : 0;
        }
    }
    for (const auto& id : registry.ids())
        std::printf("RESULT case=wikivote partitioner=%s seeds=%d profile=pagerank sites=8 normalized_time=%.4f "
                    "normalized_cost=%.4f "
                    "replication_factor=%.3f\n",
                    id.c_str(), seeds, timeSum[id] / seeds, costSum[id] / seeds, rfSum[id] / seeds);
    std::printf("RESULT case=wikivote_summary geo_cut_time_reduction=%.4f target_min=0.40 geo_cut_cost_reduction=%.4f "
                "target_min=0.25 "
                "hdrf_replication_factor=%.3f target_max=3.3 hash_replication_factor=%.3f budgets_met=%d of=%d\n",
                1.0 - timeSum["geo-cut"] / seeds, 1.0 - costSum["geo-cut"] / seeds, rfSum["hdrf"] / seeds,
                rfSum["hash"] / seeds, budgetsMet, seeds);
    std::string fastest;
    for (const auto& id : registry.ids()) {
        std::printf(
            "RESULT case=wikivote_no_budget partitioner=%s seeds=%d normalized_time=%.4f normalized_cost=%.4f\n",
            id.c_str(), seeds, freeTime[id] / seeds, freeCost[id] / seeds);
        if (fastest.empty() || freeTime[id] < freeTime[fastest])
            fastest = id;
    }
    std::printf("RESULT case=wikivote_no_budget_summary fastest=%s geo_cut_time_vs_fastest_other=%.4f\n",
                fastest.c_str(), [&] {
                    double other = 1e300;
                    for (const auto& [id, t] : freeTime)
                        if (id != "geo-cut")
                            other = std::min(other, t);
                    return freeTime["geo-cut"] / other;
                }());
    {
        // Data-centre removal on seed 1: SYD and SA (the two dearest regions) leave.
        std::vector<int> home(wiki.vertexCount, -1);
        assignRandomHomes(home, topo.siteCount(), 1);
        const auto free = need(PartitionProblem::create(wiki, topo, pagerank, home, {}));
        const Partitioner* geoCut = registry.find("geo-cut");
        const auto values = ParamValues::defaults(geoCut->parameters());
        const Feedback feedback;
        auto before = need(geoCut->run(free, values, 1, feedback));
        auto t0 = Clock::now();
        model::EdgePartition partition = before.partition;
        const auto removal = need(removeSites(free, partition, {6, 7}, values, 1, feedback));
        const double removalSeconds = since(t0);
        const auto after = cost::evaluateGas(wiki, partition, free.sizes, free.network);
        std::vector<model::Site> six(topo.sites().begin(), topo.sites().begin() + 6);
        const auto sixTopo = need(model::Topology::create(six));
        std::vector<int> sixHome(wiki.vertexCount);
        for (std::uint32_t v = 0; v < wiki.vertexCount; ++v)
            sixHome[v] = partition.masterSite[v];
        const auto sixProblem = need(PartitionProblem::create(wiki, sixTopo, pagerank, sixHome, {}));
        const Outcome scratch = run(registry, "geo-cut", sixProblem, {}, 1);
        std::printf("RESULT case=site_removal graph=wiki-vote sites=8to6 moved_edges=%zu moved_masters=%zu "
                    "time_vs_scratch=%.4f cost_vs_scratch=%.4f runtime_s=%.3f scratch_runtime_s=%.3f\n",
                    removal.movedEdges, removal.movedMasters, after.transferSeconds / scratch.metrics.transferSeconds,
                    after.wanUsd / scratch.metrics.wanUsd, removalSeconds, scratch.seconds);
    }
    std::string shares;
    for (int r = 0; r < topo.siteCount(); ++r) {
        char buffer[96];
        std::snprintf(buffer, sizeof buffer, " %s=%.3f/%.3f", topo.site(r).name.c_str(), sharesHash[r], sharesGeo[r]);
        shares += buffer;
    }
    std::printf("RESULT case=upload_share seed=1 hash/geo-cut%s\n", shares.c_str());
    for (const auto& [factor, geo] : sweepGeo)
        std::printf("RESULT case=budget factor=%.1f geo_cut_time_vs_hash=%.4f geo_cut_cost_vs_B=%.4f "
                    "geo_cut_budget_met=%d of=%d "
                    "g_cut_time_vs_hash=%.4f g_cut_cost_vs_B=%.4f\n",
                    factor, geo.first / seeds, geo.second / seeds, sweepMet[factor], seeds,
                    sweepGcut[factor].first / seeds, sweepGcut[factor].second / seeds);
    std::fflush(stdout);

    // Tables 5 and 6: 20 sites, a 10^7-edge power-law graph (alpha 2.1), random homes, budget = GrapH's cost.
    const auto big = need(synth::generatePowerLawGraph(10000000, 2.1, 1));
    std::vector<int> bigHome(big.vertexCount, -1);
    assignRandomHomes(bigHome, 20, 1);
    const model::Site& use = topo.site(*topo.siteIndex("USE"));
    struct Setting {
        const char* table;
        const char* level;
        double bw1, price1, bw2, price2;
    };
    const Setting settings[] = {{"5", "low", 1, 0.5, 0.5, 0.5},        {"5", "medium", 0.5, 0.5, 0.25, 0.5},
                                {"5", "high", 0.5, 0.5, 0.125, 0.5},   {"6", "low", 0.5, 1, 0.25, 1},
                                {"6", "medium", 0.5, 0.75, 0.25, 0.5}, {"6", "high", 0.5, 0.25, 0.25, 0.125}};
    for (const auto& st : settings) {
        const auto sites20 = twentySites(use, st.bw1, st.price1, st.bw2, st.price2);
        const auto free = need(PartitionProblem::create(big, sites20, pagerank, bigHome, {}));
        const Outcome hash = run(registry, "hash", free, {}, 1);
        const Outcome graphH = run(registry, "graph-h", free, {}, 1);
        const auto bounded = need(PartitionProblem::create(big, sites20, pagerank, bigHome, graphH.metrics.wanUsd));
        const Outcome gcut = run(registry, "g-cut", bounded,
                                 {"wan_budget_gb=" + std::to_string(graphH.metrics.wanBytes / 1e9)}, 1);
        const Outcome geo = run(registry, "geo-cut", bounded, {}, 1);
        std::printf("RESULT case=heterogeneity table=%s level=%s sites=20 edges=%zu graph_h_time=%.4f "
                    "graph_h_cost=%.4f g_cut_time=%.4f "
                    "g_cut_cost=%.4f geo_cut_time=%.4f geo_cut_cost=%.4f geo_cut_budget=%s geo_cut_runtime_s=%.2f\n",
                    st.table, st.level, big.edgeCount(), graphH.metrics.transferSeconds / hash.metrics.transferSeconds,
                    graphH.metrics.wanUsd / hash.metrics.wanUsd,
                    gcut.metrics.transferSeconds / hash.metrics.transferSeconds,
                    gcut.metrics.wanUsd / hash.metrics.wanUsd,
                    geo.metrics.transferSeconds / hash.metrics.transferSeconds,
                    geo.metrics.wanUsd / hash.metrics.wanUsd,
                    budgetStatus(bounded, geo.metrics.wanUsd).met ? "met" : "over", geo.seconds);
        std::fflush(stdout);
    }

    // Throughput and memory of whole commands as a user runs them: meridian-cli from the SNAP text to E.tsv and
    // M.tsv, wall clock around the process (no binary edge cache), 2 x 10^7 edges of a power-law graph.
    QTemporaryDir dir;
    const QString text = dir.filePath("powerlaw.txt");
    const auto throughputGraph = need(synth::generatePowerLawGraph(20000000, 2.1, 2));
    {
        std::ofstream out(text.toStdString());
        out << "# power-law graph, alpha 2.1, seed 2\n";
        std::string lines;
        for (std::size_t e = 0; e < throughputGraph.edgeCount(); ++e)
            lines += std::to_string(throughputGraph.src[e]) + '\t' + std::to_string(throughputGraph.dst[e]) + '\n';
        out << lines;
    }
    const QString sitesCsv = dir.filePath("sites.csv");
    {
        std::ofstream out(sitesCsv.toStdString());
        out << "name,lat,lon,nodes,slots,up_MBps,down_MBps,egress_usd_per_GB\n";
        for (int r = 0; r < 20; ++r)
            out << "dc" << r << ',' << r << ',' << r << ",1,1," << use.uplinkMBps * (r < 10 ? 1 : 0.5) << ','
                << use.downlinkMBps * (r < 10 ? 1 : 0.5) << ',' << use.egressUsdPerGB * (r < 15 ? 1 : 0.5) << '\n';
    }
    struct Command {
        QJsonObject json;
        double wallSeconds = 0.0;
    };
    const auto cli = [&](const QStringList& args) {
        QProcess p;
        QStringList env = QProcess::systemEnvironment();
        env << "XDG_CACHE_HOME=" + dir.filePath("cache");
        p.setEnvironment(env);
        const auto t0 = Clock::now();
        p.start(MERIDIAN_CLI, args);
        p.waitForFinished(-1);
        const double wall = since(t0);
        if (p.exitCode() != 0) {
            std::fprintf(stderr, "bench: meridian-cli failed: %s\n", p.readAllStandardError().constData());
            std::exit(1);
        }
        return Command{QJsonDocument::fromJson(p.readAllStandardOutput()).object(), wall};
    };
    const double edges = static_cast<double>(throughputGraph.edgeCount());
    std::map<std::string, double> wall;
    for (const char* algorithm : {"hash", "hdrf", "geo-cut"}) {
        // The fastest of 3 runs: identical runs differ by up to 30% on this virtual machine.
        Command best;
        for (int k = 0; k < 3; ++k) {
            Command c = cli({"partition", "--graph", text, "--sites", sitesCsv, "--algorithm", algorithm, "--no-cache",
                             "--out", dir.filePath("E.tsv"), "--masters", dir.filePath("M.tsv")});
            if (k == 0 || c.wallSeconds < best.wallSeconds)
                best = c;
        }
        wall[algorithm] = best.wallSeconds;
        const QJsonObject& j = best.json;
        std::printf("RESULT case=throughput algorithm=%s edges=%.0f whole_command_wall_s=%.3f "
                    "whole_command_edges_per_s=%.3g target_min=1e7 json_edges_per_s=%.3g read_s=%.3f partition_s=%.3f "
                    "evaluate_s=%.3f write_s=%.3f peak_bytes_per_edge=%.1f target_max=40\n",
                    algorithm, edges, best.wallSeconds, edges / best.wallSeconds, j["edges_per_second"].toDouble(),
                    j["graph"].toObject()["load_s"].toDouble(), j["runtime_s"].toDouble(), j["evaluate_s"].toDouble(),
                    j["write_s"].toDouble(), j["peak_memory_bytes"].toDouble() / edges);
        std::fflush(stdout);
    }
    std::printf("RESULT case=throughput_summary geo_cut_over_hdrf_wall=%.2f target_max=2\n",
                wall["geo-cut"] / wall["hdrf"]);
    return 0;
}
