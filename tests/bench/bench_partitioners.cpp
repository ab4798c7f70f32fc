// Benchmark of the graph partitioners (Geo-Cut Section 6). One RESULT line per case:
//   wikivote          Wiki-Vote on geo-cut-ec2-8-regions, PageRank, random homes, budget B = GrapH's cost (the paper's
//                     setting): each partitioner's transfer time and WAN cost normalised to hash (Fig. 5-8, 12),
//                     mean of 5 seeds
//   wikivote_summary  geo-cut's reductions vs hash, whether it is the fastest of all and by how much, the budgets met
//   wikivote_no_budget (and _summary)  the same with no budget: the fastest, and geo-cut's cost against the others'
//   other_graph       two METIS meshes (4elt, copter2) and a generated power-law graph on the same eight sites, no
//                     budget and B = GrapH's cost: geo-cut against the fastest and the cheapest other partitioner
//   upload_share      per-site upload shares of hash and geo-cut (Table 10)
//   budget            B swept from 1.0 to 0.6 (Fig. 19-20): geo-cut's time and cost, whether met, the lower bound on the
//                     cost (partition::costLowerBound) and g-cut's time and cost with its WAN budget scaled alike
//   stage_2a          partition mapping (relocate_data) on the paper's stage 1: how much every mapping tried gains
//   site_removal      geo-cut's partition with SYD and SA removed (Section 6.4's data-centre removal) against geo-cut
//                     from scratch on the six remaining sites: transfer time, cost and runtime ratios
//   heterogeneity     Tables 5 and 6 on 20 sites with a 10^7-edge power-law graph, B = GrapH's cost, normalised to
//                     hash: g-cut, hdrf, geo-cut with its defaults and with 60 s of refinement
//   throughput        whole commands as a user runs them (SNAP text in, E.tsv and M.tsv out, wall clock, the input
//                     evicted from the page cache first) for hash, hdrf and geo-cut on 2 x 10^7 edges, with each
//                     phase's seconds and the peak memory per edge
#include "app/project/project_file.h"
#include "core/io/graph_io.h"
#include "core/partition/builtin_partitioners.h"
#include "core/partition/cost_bound.h"
#include "core/partition/site_removal.h"
#include "core/synth/power_law_graph.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <fcntl.h>
#include <unistd.h>

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

/// Every partitioner on one problem (no budget) and under B = GrapH's cost (g-cut with GrapH's WAN bytes as its
/// usage budget, as the paper sets it): metrics by id, and B.
struct Comparison {
    std::map<std::string, cost::GasMetrics> free, bounded;
    double budget = 0.0;
};

Comparison compareAll(const Registry<Partitioner>& registry, const model::Graph& graph, const model::Topology& topology,
                      const std::vector<int>& home, std::uint64_t seed)
{
    const auto pagerank = need(cost::TrafficProfile::fromId("pagerank"));
    const auto free = need(PartitionProblem::create(graph, topology, pagerank, home, {}));
    Comparison c;
    for (const auto& id : registry.ids())
        c.free[id] = run(registry, id, free, {}, seed).metrics;
    c.budget = c.free["graph-h"].wanUsd;
    const auto bounded = need(PartitionProblem::create(graph, topology, pagerank, home, c.budget));
    for (const auto& id : registry.ids()) {
        std::vector<std::string> params;
        if (id == "g-cut")
            params = {"wan_budget_gb=" + std::to_string(c.free["graph-h"].wanBytes / 1e9)};
        c.bounded[id] = id == "graph-h" ? c.free[id] : run(registry, id, bounded, params, seed).metrics;
    }
    return c;
}

/// Geo-Cut against the others of one comparison: its time over the fastest other's, its cost over the cheapest
/// other's and over the cheapest of those that aim at time or balance (g-cut, hdrf, greedy, hash).
struct Standing {
    std::string fastestOther, cheapestOther;
    double timeVsFastest = 0.0, costVsCheapest = 0.0, costVsTimeMinded = 0.0;
};

Standing standing(const std::map<std::string, cost::GasMetrics>& m)
{
    Standing s;
    double timeMinded = 1e300;
    for (const auto& [id, metrics] : m) {
        if (id == "geo-cut")
            continue;
        if (s.fastestOther.empty() || metrics.transferSeconds < m.at(s.fastestOther).transferSeconds)
            s.fastestOther = id;
        if (s.cheapestOther.empty() || metrics.wanUsd < m.at(s.cheapestOther).wanUsd)
            s.cheapestOther = id;
        if (id != "graph-h")
            timeMinded = std::min(timeMinded, metrics.wanUsd);
    }
    const auto& geo = m.at("geo-cut");
    s.timeVsFastest = geo.transferSeconds / m.at(s.fastestOther).transferSeconds;
    s.costVsCheapest = geo.wanUsd / m.at(s.cheapestOther).wanUsd;
    s.costVsTimeMinded = geo.wanUsd / timeMinded;
    return s;
}

void printStanding(const char* prefix, const Standing& s)
{
    std::printf("%s geo_cut_time_vs_fastest_other=%.4f fastest_other=%s geo_cut_cost_vs_cheapest_other=%.4f "
                "cheapest_other=%s geo_cut_cost_vs_cheapest_time_minded=%.4f\n",
                prefix, s.timeVsFastest, s.fastestOther.c_str(), s.costVsCheapest, s.cheapestOther.c_str(),
                s.costVsTimeMinded);
}

std::vector<int> randomHomes(const model::Graph& graph, int sites, std::uint64_t seed)
{
    std::vector<int> home(graph.vertexCount, -1);
    assignRandomHomes(home, sites, seed);
    return home;
}

void wikiVote(const Registry<Partitioner>& registry, const model::Graph& wiki, const model::Topology& topo)
{
    const int seeds = 5;
    const auto pagerank = need(cost::TrafficProfile::fromId("pagerank"));
    std::map<std::string, double> timeSum, costSum, rfSum, freeTime, freeCost;
    std::map<std::string, cost::GasMetrics> meanFree, meanBounded;
    int budgetsMet = 0;
    std::vector<double> sharesHash, sharesGeo;
    struct Sweep {
        double geoTime = 0, geoCost = 0, gcutTime = 0, gcutCost = 0, bound = 0;
        int met = 0;
    };
    std::map<double, Sweep> sweep;
    for (int s = 1; s <= seeds; ++s) {
        const auto home = randomHomes(wiki, topo.siteCount(), static_cast<std::uint64_t>(s));
        const auto c = compareAll(registry, wiki, topo, home, static_cast<std::uint64_t>(s));
        const auto& hash = c.free.at("hash");
        for (const auto& [id, m] : c.bounded) {
            timeSum[id] += m.transferSeconds / hash.transferSeconds;
            costSum[id] += m.wanUsd / hash.wanUsd;
            rfSum[id] += m.replicationFactor;
            meanBounded[id].transferSeconds += m.transferSeconds / seeds;
            meanBounded[id].wanUsd += m.wanUsd / seeds;
        }
        for (const auto& [id, m] : c.free) {
            freeTime[id] += m.transferSeconds / hash.transferSeconds;
            freeCost[id] += m.wanUsd / hash.wanUsd;
            meanFree[id].transferSeconds += m.transferSeconds / seeds;
            meanFree[id].wanUsd += m.wanUsd / seeds;
        }
        budgetsMet += withinBudget(c.bounded.at("geo-cut").wanUsd, c.budget) ? 1 : 0;
        if (s == 1) {
            sharesHash = hash.uploadShare;
            sharesGeo = c.bounded.at("geo-cut").uploadShare;
        }
        const auto free = need(PartitionProblem::create(wiki, topo, pagerank, home, {}));
        const double bound = need(costLowerBound(free, FeedbackRange(Feedback(), 0.0, 1.0)));
        const double wanGb = c.free.at("graph-h").wanBytes / 1e9;
        for (double factor : {1.0, 0.9, 0.8, 0.7, 0.6}) {
            const auto problem = need(PartitionProblem::create(wiki, topo, pagerank, home, c.budget * factor));
            const Outcome geo = run(registry, "geo-cut", problem, {}, s);
            const Outcome gcut = run(registry, "g-cut", problem, {"wan_budget_gb=" + std::to_string(wanGb * factor)}, s);
            auto& w = sweep[factor];
            w.geoTime += geo.metrics.transferSeconds / hash.transferSeconds / seeds;
            w.geoCost += geo.metrics.wanUsd / c.budget / seeds;
            w.gcutTime += gcut.metrics.transferSeconds / hash.transferSeconds / seeds;
            w.gcutCost += gcut.metrics.wanUsd / c.budget / seeds;
            w.bound += bound / c.budget / seeds;
            w.met += withinBudget(geo.metrics.wanUsd, c.budget * factor) ? 1 : 0;
        }
    }
    for (const auto& [id, t] : timeSum)
        std::printf("RESULT case=wikivote partitioner=%s seeds=%d profile=pagerank sites=8 budget=graph_h_cost "
                    "normalized_time=%.4f normalized_cost=%.4f replication_factor=%.3f\n",
                    id.c_str(), seeds, t / seeds, costSum[id] / seeds, rfSum[id] / seeds);
    std::printf("RESULT case=wikivote_summary geo_cut_time_reduction_vs_hash=%.4f geo_cut_cost_reduction_vs_hash=%.4f "
                "budgets_met=%d of=%d",
                1.0 - timeSum["geo-cut"] / seeds, 1.0 - costSum["geo-cut"] / seeds, budgetsMet, seeds);
    printStanding("", standing(meanBounded));
    for (const auto& [id, t] : freeTime)
        std::printf(
            "RESULT case=wikivote_no_budget partitioner=%s seeds=%d normalized_time=%.4f normalized_cost=%.4f\n",
            id.c_str(), seeds, t / seeds, freeCost[id] / seeds);
    printStanding("RESULT case=wikivote_no_budget_summary", standing(meanFree));
    std::string shares;
    for (int r = 0; r < topo.siteCount(); ++r) {
        char buffer[96];
        std::snprintf(buffer, sizeof buffer, " %s=%.3f/%.3f", topo.site(r).name.c_str(), sharesHash[r], sharesGeo[r]);
        shares += buffer;
    }
    std::printf("RESULT case=upload_share seed=1 hash/geo-cut%s\n", shares.c_str());
    for (const auto& [factor, w] : sweep)
        std::printf(
            "RESULT case=budget factor=%.1f geo_cut_time_vs_hash=%.4f geo_cut_cost_vs_B=%.4f geo_cut_budget_met=%d "
            "of=%d cost_lower_bound_vs_B=%.4f g_cut_time_vs_hash=%.4f g_cut_cost_vs_B=%.4f\n",
            factor, w.geoTime, w.geoCost, w.met, seeds, w.bound, w.gcutTime, w.gcutCost);
    std::fflush(stdout);
}

void otherGraphs(const Registry<Partitioner>& registry, const model::Topology& topo)
{
    const std::string data = std::string(MERIDIAN_SOURCE_DIR) + "/tests/data/graphs/";
    std::vector<std::pair<std::string, model::Graph>> graphs;
    graphs.emplace_back("4elt", need(io::readMetisGraph(data + "4elt.graph")));
    graphs.emplace_back("copter2", need(io::readMetisGraph(data + "copter2.graph")));
    graphs.emplace_back("power-law-10^6", need(synth::generatePowerLawGraph(1000000, 2.1, 5)));
    for (const auto& [name, graph] : graphs) {
        const auto c = compareAll(registry, graph, topo, randomHomes(graph, topo.siteCount(), 1), 1);
        for (const char* setting : {"no_budget", "graph_h_cost"}) {
            const auto& m = std::string(setting) == "no_budget" ? c.free : c.bounded;
            char prefix[160];
            std::snprintf(prefix, sizeof prefix,
                          "RESULT case=other_graph graph=%s edges=%zu sites=8 budget=%s geo_cut_time_vs_hash=%.4f "
                          "geo_cut_cost_vs_hash=%.4f geo_cut_budget=%s",
                          name.c_str(), graph.edgeCount(), setting,
                          m.at("geo-cut").transferSeconds / m.at("hash").transferSeconds,
                          m.at("geo-cut").wanUsd / m.at("hash").wanUsd,
                          std::string(setting) == "no_budget"                  ? "none"
                              : withinBudget(m.at("geo-cut").wanUsd, c.budget) ? "met"
                                                                               : "over");
            printStanding(prefix, standing(m));
            std::fflush(stdout);
        }
    }
}

void stageTwoA(const Registry<Partitioner>& registry, const model::Graph& wiki, const model::Topology& topo)
{
    const auto pagerank = need(cost::TrafficProfile::fromId("pagerank"));
    const auto problem = need(PartitionProblem::create(wiki, topo, pagerank, randomHomes(wiki, 8, 1), {}));
    const std::vector<std::string> base{"start=cost", "lq_fraction=0", "replica_passes=0"};
    const Outcome streamed = run(registry, "geo-cut", problem, base, 1);
    auto with = base;
    with.push_back("relocate_data=true");
    const Outcome mapped = run(registry, "geo-cut", problem, with, 1);
    std::printf("RESULT case=stage_2a graph=wiki-vote sites=8 every_mapping_tried=1 stage_1_time_s=%.4g "
                "mapped_time_s=%.4g reduction=%.4f\n",
                streamed.metrics.transferSeconds, mapped.metrics.transferSeconds,
                1.0 - mapped.metrics.transferSeconds / streamed.metrics.transferSeconds);
}

void siteRemoval(const Registry<Partitioner>& registry, const model::Graph& wiki, const model::Topology& topo)
{
    // Data-centre removal on seed 1: SYD and SA (the two dearest regions) leave.
    const auto pagerank = need(cost::TrafficProfile::fromId("pagerank"));
    const auto free = need(PartitionProblem::create(wiki, topo, pagerank, randomHomes(wiki, topo.siteCount(), 1), {}));
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
    std::fflush(stdout);
}

void heterogeneity(const Registry<Partitioner>& registry, const model::Site& use)
{
    // Tables 5 and 6: 20 sites, a 10^7-edge power-law graph (alpha 2.1), random homes, budget = GrapH's cost.
    const auto pagerank = need(cost::TrafficProfile::fromId("pagerank"));
    const auto big = need(synth::generatePowerLawGraph(10000000, 2.1, 1));
    const auto bigHome = randomHomes(big, 20, 1);
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
        const Outcome hdrf = run(registry, "hdrf", bounded, {}, 1);
        const Outcome geo = run(registry, "geo-cut", bounded, {}, 1);
        const Outcome geoLong = run(registry, "geo-cut", bounded, {"effort=100"}, 1);
        const auto t = [&](const Outcome& o) { return o.metrics.transferSeconds / hash.metrics.transferSeconds; };
        const auto c = [&](const Outcome& o) { return o.metrics.wanUsd / hash.metrics.wanUsd; };
        const auto met = [&](const Outcome& o) {
            return withinBudget(o.metrics.wanUsd, graphH.metrics.wanUsd) ? "met" : "over";
        };
        std::printf(
            "RESULT case=heterogeneity table=%s level=%s sites=20 edges=%zu graph_h_time=%.4f graph_h_cost=%.4f "
            "g_cut_time=%.4f g_cut_cost=%.4f hdrf_time=%.4f hdrf_cost=%.4f geo_cut_time=%.4f geo_cut_cost=%.4f "
            "geo_cut_budget=%s geo_cut_runtime_s=%.2f geo_cut_effort100_time=%.4f geo_cut_effort100_cost=%.4f "
            "geo_cut_effort100_budget=%s geo_cut_effort100_runtime_s=%.2f\n",
            st.table, st.level, big.edgeCount(), t(graphH), c(graphH), t(gcut), c(gcut), t(hdrf), c(hdrf), t(geo),
            c(geo), met(geo), geo.seconds, t(geoLong), c(geoLong), met(geoLong), geoLong.seconds);
        std::fflush(stdout);
    }
}

/// Drops a file's pages from the page cache, so the next read comes from the disk (a cold cache, as a user's first
/// run of the day finds it). Written pages are flushed first.
void evict(const QString& path)
{
    const int fd = ::open(path.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    (void)::fdatasync(fd);
    (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
}

void throughput(const model::Site& use)
{
    // Whole commands as a user runs them: meridian-cli from the SNAP text to E.tsv and M.tsv, wall clock around the
    // process, the input evicted from the page cache before each run, 2 x 10^7 edges of a power-law graph.
    QTemporaryDir dir;
    const QString text = dir.filePath("powerlaw.txt");
    const auto graph = need(synth::generatePowerLawGraph(20000000, 2.1, 2));
    {
        std::ofstream out(text.toStdString());
        out << "# power-law graph, alpha 2.1, seed 2\n";
        std::string lines;
        for (std::size_t e = 0; e < graph.edgeCount(); ++e)
            lines += std::to_string(graph.src[e]) + '\t' + std::to_string(graph.dst[e]) + '\n';
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
        evict(text);
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
    const double edges = static_cast<double>(graph.edgeCount());
    std::map<std::string, double> wall, time;
    for (const char* algorithm : {"hash", "hdrf", "g-cut", "geo-cut"}) {
        // 10^7 edges per second is the target of the streamed ones (hash, HDRF).
        const bool streamedTarget = std::string(algorithm) == "hash" || std::string(algorithm) == "hdrf";
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
        time[algorithm] = j["transfer_time_s"].toDouble();
        std::printf("RESULT case=throughput algorithm=%s edges=%.0f cold_cache=1 whole_command_wall_s=%.3f "
                    "whole_command_edges_per_s=%.3g%s streamed=%d read_s=%.3f partition_s=%.3f "
                    "write_s=%.3f transfer_time_s=%.5g wan_usd=%.5g peak_bytes_per_edge=%.1f target_max=40\n",
                    algorithm, edges, best.wallSeconds, edges / best.wallSeconds,
                    streamedTarget ? " target_min=1e7" : "", j["graph"].toObject()["streamed"].toBool() ? 1 : 0,
                    j["graph"].toObject()["load_s"].toDouble(), j["runtime_s"].toDouble(), j["write_s"].toDouble(),
                    j["transfer_time_s"].toDouble(), j["wan_cost_usd"].toDouble(),
                    j["peak_memory_bytes"].toDouble() / edges);
        std::fflush(stdout);
    }
    std::printf("RESULT case=throughput_summary geo_cut_over_hdrf_wall=%.2f geo_cut_over_g_cut_wall=%.2f "
                "geo_cut_time_vs_hdrf=%.3f geo_cut_time_vs_g_cut=%.3f\n",
                wall["geo-cut"] / wall["hdrf"], wall["geo-cut"] / wall["g-cut"], time["geo-cut"] / time["hdrf"],
                time["geo-cut"] / time["g-cut"]);
}

} // namespace

int main(int argc, char** argv)
{
    // Cases may be named on the command line (e.g. `bench_partitioners throughput`); all run by default.
    const auto wanted = [&](const char* name) {
        if (argc < 2)
            return true;
        for (int k = 1; k < argc; ++k)
            if (std::string(argv[k]) == name)
                return true;
        return false;
    };
    Registry<Partitioner> registry;
    registerBuiltinPartitioners(registry);
    const auto project = need(document::ProjectFile::load(
        QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/geo-cut-ec2-8-regions/geo-cut-ec2-8-regions.meridian"));
    const auto& topo = project.topology;
    const auto wiki = need(io::readSnapGraph(std::string(MERIDIAN_SOURCE_DIR) + "/tests/data/graphs/Wiki-Vote.txt"));
    const model::Site& use = topo.site(*topo.siteIndex("USE"));
    if (wanted("wikivote"))
        wikiVote(registry, wiki, topo);
    if (wanted("other_graph"))
        otherGraphs(registry, topo);
    if (wanted("stage_2a"))
        stageTwoA(registry, wiki, topo);
    if (wanted("site_removal"))
        siteRemoval(registry, wiki, topo);
    if (wanted("heterogeneity"))
        heterogeneity(registry, use);
    if (wanted("throughput"))
        throughput(use);
    return 0;
}
