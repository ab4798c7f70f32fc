// Benchmark of mapping at scale, timing the whole command a user runs (`meridian-cli map`, wall clock from
// reading the sites and matrices to writing the mapping CSV) and its peak resident memory (wait4's ru_maxrss).
// One RESULT line per case:
//   map65536   65,536 processes on 64 sites of 64 nodes x 16 slots (LU, MG, K-means from `meridian-cli generate`,
//              and a random sparse pattern with 10^6 nonzeros): geo, and refine with its defaults (start=auto,
//              which is geo at this size, then its search); targets: under 2 s and 1 GB.
//   map8192    8,192 processes (LU) on 512 hosts of 16 slots in 8 sites, CloudMap's setting at scale: a project
//              file whose every ordered pair of hosts in a site has its own link (32,256 host links, latency
//              0.1-0.4 ms, 100-250 MB/s, heterogeneous as CloudMap measured), site-pair matrices between the
//              sites; geo and refine; target under 5 s.
// Arguments: case names to run (default all).
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

struct Measured {
    double seconds = 0.0;
    double peakMb = 0.0;
    int status = -1;
};

/// Runs `args` (stdout to `out`), returns its wall clock, peak RSS and exit status.
Measured runCommand(const std::vector<std::string>& args, const fs::path& out)
{
    std::vector<char*> argv;
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    timespec t0{}, t1{};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = 0;
    Measured m;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return m;
    }
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    m.seconds = static_cast<double>(t1.tv_sec - t0.tv_sec) + 1e-9 * static_cast<double>(t1.tv_nsec - t0.tv_nsec);
    m.peakMb = static_cast<double>(usage.ru_maxrss) / 1024.0;
    m.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return m;
}

/// Reads "cost_s": <number> from the CLI's JSON output.
double costOf(const fs::path& json)
{
    std::ifstream in(json);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = text.find("\"cost_s\":");
    return at == std::string::npos ? -1.0 : std::atof(text.c_str() + at + 9);
}

/// `sites` sites spread over the globe, each `nodes` x `slots`.
void writeSites(const fs::path& path, int sites, int nodes, int slots)
{
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> lat(-60.0, 70.0), lon(-180.0, 180.0);
    std::ofstream out(path);
    out << "name,lat,lon,nodes,slots\n";
    for (int s = 0; s < sites; ++s)
        out << "site" << s << ',' << lat(random) << ',' << lon(random) << ',' << nodes << ',' << slots << '\n';
}

/// A random sparse pattern: `nonzeros` distinct (i, j) pairs, i != j, bytes 1 KB-1 MB, 1-100 messages.
void writeRandomPattern(const fs::path& volume, const fs::path& messages, int n, long nonzeros)
{
    std::mt19937_64 random(11);
    std::uniform_int_distribution<int> process(0, n - 1);
    std::uniform_real_distribution<double> bytes(1e3, 1e6);
    std::uniform_int_distribution<int> count(1, 100);
    std::vector<std::pair<int, int>> pairs;
    pairs.reserve(static_cast<std::size_t>(nonzeros));
    while (static_cast<long>(pairs.size()) < nonzeros) {
        const int i = process(random), j = process(random);
        if (i != j)
            pairs.emplace_back(i, j);
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    std::ofstream v(volume), m(messages);
    for (auto* out : {&v, &m})
        *out << "%%MatrixMarket matrix coordinate real general\n" << n << ' ' << n << ' ' << pairs.size() << '\n';
    for (const auto& [i, j] : pairs) {
        v << i + 1 << ' ' << j + 1 << ' ' << bytes(random) << '\n';
        m << i + 1 << ' ' << j + 1 << ' ' << count(random) << '\n';
    }
}

/// A project of `sites` sites of `hosts` hosts x `slots` slots, site-pair latency and bandwidth, a link of its
/// own for every ordered pair of hosts within a site, and one application "LU" from the given files.
void writeHostProject(const fs::path& path, int sites, int hosts, int slots, const fs::path& volume,
                      const fs::path& messages)
{
    std::mt19937_64 random(13);
    std::uniform_real_distribution<double> lat(-60.0, 70.0), lon(-180.0, 180.0), unit(0.0, 1.0);
    std::ofstream out(path);
    out << "{\"format\": \"meridian-project\", \"version\": 1, \"name\": \"bench 512 hosts\", \"sites\": [";
    const auto host = [](int s, int h) {
        std::string name = "s";
        name += std::to_string(s);
        name += 'h';
        name += std::to_string(h);
        return name;
    };
    for (int s = 0; s < sites; ++s) {
        out << (s ? ", " : "") << "{\"name\": \"site" << s << "\", \"lat\": " << lat(random)
            << ", \"lon\": " << lon(random) << ", \"hosts\": [";
        for (int h = 0; h < hosts; ++h)
            out << (h ? ", " : "") << "{\"name\": \"" << host(s, h) << "\", \"slots\": " << slots << "}";
        out << "]}";
    }
    const auto matrix = [&](double diagonal, double low, double high) {
        out << "{\"values\": [";
        for (int i = 0; i < sites; ++i) {
            out << (i ? ", " : "") << "[";
            for (int j = 0; j < sites; ++j)
                out << (j ? ", " : "") << (i == j ? diagonal : low + (high - low) * unit(random));
            out << "]";
        }
        out << "]}";
    };
    out << "], \"network\": {\"latency_ms\": ";
    matrix(0.2, 20.0, 200.0);
    out << ", \"bandwidth_MBps\": ";
    matrix(250.0, 20.0, 200.0);
    out << ", \"host_links\": [";
    bool first = true;
    for (int s = 0; s < sites; ++s)
        for (int a = 0; a < hosts; ++a)
            for (int b = 0; b < hosts; ++b) {
                if (a == b)
                    continue;
                out << (first ? "" : ", ") << "{\"from\": \"" << host(s, a) << "\", \"to\": \"" << host(s, b)
                    << "\", \"latency_ms\": " << 0.1 + 0.3 * unit(random)
                    << ", \"bandwidth_MBps\": " << 100.0 + 150.0 * unit(random) << "}";
                first = false;
            }
    out << "]}, \"applications\": [{\"name\": \"LU\", \"volume\": \"" << volume.filename().string()
        << "\", \"messages\": \"" << messages.filename().string() << "\"}]}\n";
}

bool wanted(const std::vector<std::string>& cases, const std::string& name)
{
    return cases.empty() || std::find(cases.begin(), cases.end(), name) != cases.end();
}

/// Maps one pattern with geo and refine and prints a RESULT line each.
void mapBoth(const std::string& caseName, const std::string& pattern, int processes, const fs::path& dir,
             const std::vector<std::string>& input, double targetS)
{
    for (const char* algorithm : {"geo", "refine"}) {
        const fs::path csv = dir / (pattern + "." + algorithm + ".csv");
        const fs::path json = dir / (pattern + "." + algorithm + ".json");
        std::vector<std::string> args{MERIDIAN_CLI, "map"};
        args.insert(args.end(), input.begin(), input.end());
        args.insert(args.end(), {"--algorithm", algorithm, "--out", csv.string()});
        const Measured m = runCommand(args, json);
        std::printf("RESULT case=%s pattern=%s processes=%d mapper=%s wall_s=%.3f peak_rss_mb=%.1f cost_s=%.6e "
                    "status=%d target_wall_s=%.0f meets_time=%d meets_memory=%d\n",
                    caseName.c_str(), pattern.c_str(), processes, algorithm, m.seconds, m.peakMb, costOf(json),
                    m.status, targetS, m.status == 0 && m.seconds < targetS ? 1 : 0,
                    m.status == 0 && m.peakMb < 1024.0 ? 1 : 0);
        std::fflush(stdout);
    }
}

} // namespace

int main(int argc, char** argv)
{
    const std::vector<std::string> cases(argv + 1, argv + argc);
    const fs::path dir = fs::temp_directory_path() / ("meridian-bench-scale-" + std::to_string(getpid()));
    fs::create_directories(dir);
    if (wanted(cases, "map65536")) {
        const int n = 65536;
        writeSites(dir / "sites64.csv", 64, 64, 16);
        for (const char* pattern : {"lu", "mg", "kmeans"}) {
            const fs::path v = dir / (std::string(pattern) + ".mtx"), m = dir / (std::string(pattern) + ".msg.mtx");
            runCommand({MERIDIAN_CLI, "generate", pattern, "--processes", std::to_string(n), "--out", v.string(),
                        "--messages-out", m.string()},
                       dir / "generate.out");
            mapBoth("map65536", pattern, n, dir,
                    {"--sites", (dir / "sites64.csv").string(), "--volume", v.string(), "--messages", m.string()}, 2.0);
        }
        writeRandomPattern(dir / "random.mtx", dir / "random.msg.mtx", n, 1000000);
        mapBoth("map65536", "random", n, dir,
                {"--sites", (dir / "sites64.csv").string(), "--volume", (dir / "random.mtx").string(), "--messages",
                 (dir / "random.msg.mtx").string()},
                2.0);
    }
    if (wanted(cases, "map8192")) {
        const int n = 8192;
        const fs::path v = dir / "lu8192.mtx", m = dir / "lu8192.msg.mtx";
        runCommand({MERIDIAN_CLI, "generate", "lu", "--processes", std::to_string(n), "--out", v.string(),
                    "--messages-out", m.string()},
                   dir / "generate.out");
        writeHostProject(dir / "hosts512.meridian", 8, 64, 16, v, m);
        mapBoth("map8192", "lu", n, dir, {"--project", (dir / "hosts512.meridian").string(), "--application", "LU"},
                5.0);
    }
    fs::remove_all(dir);
    return 0;
}
