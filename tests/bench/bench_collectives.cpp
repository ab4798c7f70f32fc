// Benchmark of the collectives planner against the papers' figures. Every figure comes from the whole command a
// user runs (`meridian-cli collective` on sites, latency, bandwidth and mapping files written here); the papers'
// numbers are printed beside ours. One RESULT line per case and size:
//   twister_table8  Twister's PolarGrid as one uniform network (1 Gb/s nodes: 125 MB/s; latency 0.1 ms), p nodes of
//                   Table 8 (25 ... 150), 0.5, 1 and 2 GB (10^9 B): the chain and the simple (flat) broadcast under
//                   --model twister (Eq. 3 with k_opt; flat = (p - 1)(alpha + n beta)) and --model network, beside
//                   Table 8's measured seconds.
//   twister_fig5    150 nodes on 5 switches (sites of 30 nodes, 1 GbE to the node, 10 GbE uplinks and core links),
//                   1 GB: the chain in random rank order against the topology-aware chain, by the network model and
//                   simulated by SimGrid (--simulate: max-min sharing), with the paper's ratio (about 5) beside
//                   them; also 25, 50, 75, 100 and 125 nodes on 1 to 5 switches.
//   local_reduction Twister's K-means shuffle: 125 nodes, 80 map tasks each, 2 GB per task: the bytes sent without
//                   and with local reduction (paper: 20 TB -> 250 GB) and the shuffle's time on the PolarGrid network.
//   fan_hierarchical Fan et al.'s setting (Figs. 12-13): 15 and 14 processes spread over 3 clusters in random rank
//                   order, 2 to 1024 bytes: the hierarchical scatter, reduce, broadcast and all-to-all against the
//                   flat and binomial ones (the paper: the topology-aware one is fastest at every size).
//   wall            the wall clock of a whole size sweep (1 KiB to 4 GiB, every algorithm) for allreduce on 150
//                   processes, with a rules file written.
// Arguments: case names to run (default all).
#include "cli_run.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

namespace {

using Run = meridian::test::CliRun;

Run cli(const QStringList& args)
{
    Run r = meridian::test::cli(args, -1);
    if (r.code != 0)
        std::fprintf(stderr, "meridian-cli %s failed: %s\n", qPrintable(args.join(' ')), r.err.constData());
    return r;
}

void write(const QString& path, const QString& text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
    f.write(text.toUtf8());
}

/// A network of `sites` sites of `nodes` one-slot nodes: inside a site (latencyIn, bandwidthIn), between sites
/// (latencyOut, bandwidthOut), each site's uplink and downlink `accessMBps`; the mapping puts rank r at
/// siteOf[r] (on its sites' nodes in turn). Returns the common arguments.
QStringList network(const QTemporaryDir& dir, const QString& name, int sites, int nodes, double latencyIn,
                    double bandwidthIn, double latencyOut, double bandwidthOut, double accessMBps,
                    const std::vector<int>& siteOf)
{
    QString s = "name,lat,lon,nodes,slots,up_MBps,down_MBps\n";
    QString lat, bw;
    for (int a = 0; a < sites; ++a) {
        s += QString("s%1,%2,%3,%4,1,%5,%5\n").arg(a).arg(a).arg(a).arg(nodes).arg(accessMBps);
        for (int b = 0; b < sites; ++b) {
            lat += QString::number(a == b ? latencyIn : latencyOut) + (b + 1 < sites ? "," : "\n");
            bw += QString::number(a == b ? bandwidthIn : bandwidthOut) + (b + 1 < sites ? "," : "\n");
        }
    }
    QString mapping = "process,site\n";
    for (std::size_t r = 0; r < siteOf.size(); ++r)
        mapping += QString("%1,s%2\n").arg(r).arg(siteOf[r]);
    const QString base = dir.filePath(name);
    write(base + ".sites.csv", s);
    write(base + ".latency.csv", lat);
    write(base + ".bandwidth.csv", bw);
    write(base + ".mapping.csv", mapping);
    return {"collective",          "--sites",     base + ".sites.csv",     "--latency",
            base + ".latency.csv", "--bandwidth", base + ".bandwidth.csv", "--mapping",
            base + ".mapping.csv"};
}

double valueOf(const Run& r, const QString& algorithm, const char* key)
{
    for (const auto& v : r.json()["results"].toArray())
        if (v.toObject()["algorithm"].toString() == algorithm)
            return v.toObject()[key].toDouble();
    return std::nan("");
}

double timeOf(const Run& r, const QString& algorithm) { return valueOf(r, algorithm, "time_s"); }
double bytesOf(const Run& r, const QString& algorithm) { return valueOf(r, algorithm, "bytes_sent"); }

void twisterTable8(const QTemporaryDir& dir)
{
    // Table 8 (seconds): chain and simple broadcast at 0.5, 1 and 2 GB.
    const int nodes[] = {25, 50, 75, 100, 125, 150};
    const double chain[][3] = {{4.13, 8.22, 16.4},  {4.15, 8.24, 16.42}, {4.16, 8.28, 16.43},
                               {4.18, 8.28, 16.44}, {4.2, 8.29, 16.46},  {4.23, 8.3, 16.48}};
    const double simple[][3] = {{101, 202, 441.64},        {202.01, 404.04, 882.63},  {303.04, 606.09, 1325.63},
                                {404.08, 808.21, 1765.46}, {505.14, 1010.71, 2021.3}, {606.14, 1212.21, 2648.6}};
    const double sizes[] = {5e8, 1e9, 2e9};
    for (int i = 0; i < 6; ++i) {
        const int p = nodes[i];
        const QStringList base = network(dir, QString("t8_%1").arg(p), 1, p, 0.1, 125, 0.1, 125, 125,
                                         std::vector<int>(static_cast<std::size_t>(p), 0));
        for (int k = 0; k < 3; ++k) {
            const QString bytes = QString::number(sizes[k], 'f', 0);
            const Run twister = cli(base
                                    + QStringList{"--op", "broadcast", "--bytes", bytes, "--algorithms", "chain,flat",
                                                  "--model", "twister"});
            const Run net = cli(base + QStringList{"--op", "broadcast", "--bytes", bytes, "--algorithms", "chain,flat"});
            std::printf("RESULT case=twister_table8 nodes=%d gb=%.1f chain_twister_s=%.3f chain_network_s=%.3f "
                        "chain_paper_s=%.2f flat_twister_s=%.2f flat_network_s=%.2f simple_paper_s=%.2f "
                        "wall_s=%.3f\n",
                        p, sizes[k] / 1e9, timeOf(twister, "chain"), timeOf(net, "chain"), chain[i][k],
                        timeOf(twister, "flat"), timeOf(net, "flat"), simple[i][k], net.seconds);
        }
    }
}

void twisterFig5(const QTemporaryDir& dir)
{
    const int counts[][2] = {{25, 1}, {50, 2}, {75, 3}, {100, 4}, {125, 5}, {150, 5}};
    for (const auto& c : counts) {
        const int p = c[0];
        const int switches = c[1];
        const int perSwitch = (p + switches - 1) / switches;
        // Ranks in random order over the switches: rank r's node is a random one.
        std::vector<int> siteOf;
        for (int s = 0; s < switches; ++s)
            for (int k = 0; k < perSwitch && static_cast<int>(siteOf.size()) < p; ++k)
                siteOf.push_back(s);
        std::mt19937 rng(42);
        std::shuffle(siteOf.begin(), siteOf.end(), rng);
        const QStringList base = network(dir, QString("f5_%1").arg(p), switches, perSwitch, 0.05, 125, 0.1, 1250, 1250,
                                         siteOf);
        const Run r = cli(base
                          + QStringList{"--op", "broadcast", "--bytes", "1000000000", "--algorithms",
                                        "chain,topology-chain", "--simulate"});
        const double plain = timeOf(r, "chain");
        const double aware = timeOf(r, "topology-chain");
        const double plainSim = valueOf(r, "chain", "simulated_s");
        const double awareSim = valueOf(r, "topology-chain", "simulated_s");
        std::printf("RESULT case=twister_fig5 nodes=%d switches=%d chain_s=%.3f topology_chain_s=%.3f ratio=%.2f "
                    "simgrid_chain_s=%.3f simgrid_topology_chain_s=%.3f simgrid_ratio=%.2f paper_ratio_150=5 "
                    "wall_s=%.3f\n",
                    p, switches, plain, aware, plain / aware, plainSim, awareSim, plainSim / awareSim, r.seconds);
    }
}

void localReduction(const QTemporaryDir& dir)
{
    const int p = 125;
    const QStringList base = network(dir, "kmeans", 5, 25, 0.05, 125, 0.1, 1250, 1250, [] {
        std::vector<int> s;
        for (int r = 0; r < 125; ++r)
            s.push_back(r / 25);
        return s;
    }());
    const QStringList shuffle{"--op", "shuffle", "--bytes", "2GB", "--map-tasks", "80", "--algorithms", "flat"};
    const Run plain = cli(base + shuffle);
    const Run reduced = cli(base + shuffle + QStringList{"--local-reduction"});
    std::printf("RESULT case=local_reduction nodes=%d map_tasks=80 task_output_gb=2 sent_without_tb=%.2f "
                "sent_with_gb=%.1f paper=20TB->250GB time_without_s=%.0f time_with_s=%.1f wall_s=%.3f\n",
                p, bytesOf(plain, "flat") / 1e12, bytesOf(reduced, "flat") / 1e9, timeOf(plain, "flat"),
                timeOf(reduced, "flat"), plain.seconds + reduced.seconds);
}

void fanHierarchical(const QTemporaryDir& dir)
{
    for (int p : {15, 14}) {
        std::vector<int> siteOf;
        for (int r = 0; r < p; ++r)
            siteOf.push_back(r % 3);
        std::mt19937 rng(7);
        std::shuffle(siteOf.begin(), siteOf.end(), rng);
        // Three clusters of a cloud: 0.05 ms and 1 GB/s inside, 1 ms and 100 MB/s between.
        const QStringList base = network(dir, QString("fan_%1").arg(p), 3, 5, 0.05, 1000, 1.0, 100, 1000, siteOf);
        for (const char* op : {"scatter", "reduce", "broadcast", "alltoall"}) {
            int wins = 0;
            int sizes = 0;
            double worstRatio = 0.0;
            double wall = 0.0;
            for (int bytes = 2; bytes <= 1024; bytes *= 2) {
                const Run r = cli(base + QStringList{"--op", op, "--bytes", QString::number(bytes)});
                wall += r.seconds;
                const double hierarchical = timeOf(r, "hierarchical");
                const double flat = timeOf(r, "flat");
                double bestOther = flat;
                for (const auto& v : r.json()["results"].toArray())
                    if (v.toObject()["algorithm"].toString() != "hierarchical")
                        bestOther = std::min(bestOther, v.toObject()["time_s"].toDouble());
                ++sizes;
                wins += hierarchical <= bestOther ? 1 : 0;
                worstRatio = std::max(worstRatio, hierarchical / bestOther);
                if (bytes == 1024)
                    std::printf("RESULT case=fan_hierarchical processes=%d op=%s bytes=1024 hierarchical_ms=%.3f "
                                "flat_ms=%.3f best_other_ms=%.3f ",
                                p, op, hierarchical * 1e3, flat * 1e3, bestOther * 1e3);
            }
            std::printf("hierarchical_fastest=%d/%d worst_ratio_to_best_other=%.2f paper=fastest_at_every_size "
                        "wall_s=%.3f\n",
                        wins, sizes, worstRatio, wall);
        }
    }
}

void wall(const QTemporaryDir& dir)
{
    std::vector<int> siteOf;
    for (int r = 0; r < 150; ++r)
        siteOf.push_back(r % 5);
    const QStringList base = network(dir, "wall", 5, 30, 0.05, 125, 0.1, 1250, 1250, siteOf);
    const Run r = cli(
        base
        + QStringList{"--op", "allreduce", "--sweep-bytes", "1KiB:4GiB", "--rules-out", dir.filePath("wall.rules")});
    std::printf("RESULT case=wall processes=150 op=allreduce sizes=%d wall_s=%.3f exit=%d\n",
                static_cast<int>(r.json()["results"].toArray().size()), r.seconds, r.code);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QStringList cases = app.arguments().mid(1);
    if (cases.isEmpty())
        cases = {"twister_table8", "twister_fig5", "local_reduction", "fan_hierarchical", "wall"};
    QTemporaryDir dir;
    for (const QString& c : cases) {
        if (c == "twister_table8")
            twisterTable8(dir);
        else if (c == "twister_fig5")
            twisterFig5(dir);
        else if (c == "local_reduction")
            localReduction(dir);
        else if (c == "fan_hierarchical")
            fanHierarchical(dir);
        else if (c == "wall")
            wall(dir);
        else
            std::fprintf(stderr, "unknown case %s\n", qPrintable(c));
    }
    return 0;
}
