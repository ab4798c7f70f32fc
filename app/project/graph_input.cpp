#include "app/project/graph_input.h"

#include "core/io/edge_partition_io.h"
#include "core/partition/partitioner.h"

#include <algorithm>
#include <bit>
#include <filesystem>

namespace meridian::document {

namespace {

std::string fileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

std::string withThousands(std::uint64_t n)
{
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

/// Reads the homes file (when there is one) and draws the homes it does not give; returns how many it gave.
Expected<std::uint64_t> readAndDrawHomes(const std::string& homesPath, std::uint64_t seed, const model::Graph& graph,
                                         const model::Topology& topology, std::vector<int>& home)
{
    home.assign(graph.vertexCount, -1);
    if (!homesPath.empty()) {
        auto h = io::readHomes(homesPath, graph, topology);
        if (!h)
            return h.error();
        home = std::move(*h);
    }
    const std::size_t drawn = partition::assignRandomHomes(home, topology.siteCount(), seed);
    return static_cast<std::uint64_t>(graph.vertexCount - drawn);
}

} // namespace

std::string GraphInput::homesText(int siteCount) const
{
    const std::uint64_t drawn = stats.vertices - stats.homesFromFile;
    std::string text;
    if (!homesPath.empty())
        text = withThousands(stats.homesFromFile) + " from " + fileName(homesPath) + ", ";
    if (drawn == 0)
        return text + "none drawn";
    return text + withThousands(drawn) + " drawn uniformly over the " + std::to_string(siteCount) + " sites (seed "
        + std::to_string(homesSeed) + ")";
}

GraphStats graphStats(const model::Graph& graph)
{
    GraphStats s;
    s.vertices = graph.vertexCount;
    s.edges = graph.edgeCount();
    s.selfLoopsDropped = graph.selfLoopsDropped;
    std::vector<std::uint32_t> degree(graph.vertexCount, 0);
    for (std::size_t e = 0; e < graph.edgeCount(); ++e) {
        ++degree[graph.src[e]];
        ++degree[graph.dst[e]];
    }
    for (std::uint32_t d : degree) {
        if (d == 0)
            continue;
        const auto bin = static_cast<std::size_t>(std::bit_width(d) - 1);
        if (s.degreeHistogram.size() <= bin)
            s.degreeHistogram.resize(bin + 1, 0);
        ++s.degreeHistogram[bin];
        s.maxDegree = std::max<std::uint64_t>(s.maxDegree, d);
    }
    return s;
}

Expected<std::pair<GraphInput, LoadedGraph>> importGraph(const std::string& name, const std::string& path,
                                                         io::GraphFormat format, const std::string& homesPath,
                                                         std::uint64_t homesSeed, const model::Topology& topology,
                                                         const Feedback& feedback)
{
    if (name.empty())
        return makeError(ErrorCode::InvalidInput, "the graph needs a name");
    if (topology.siteCount() == 0)
        return makeError(ErrorCode::InvalidInput, "the project has no sites to give the vertices homes");
    GraphInput input;
    input.name = name;
    input.path = std::filesystem::absolute(path).lexically_normal().string();
    input.format = format;
    input.homesSeed = homesSeed;
    auto checksum = io::fileChecksum(input.path);
    if (!checksum)
        return checksum.error();
    input.checksum = *checksum;
    if (!homesPath.empty()) {
        input.homesPath = std::filesystem::absolute(homesPath).lexically_normal().string();
        auto homesChecksum = io::fileChecksum(input.homesPath);
        if (!homesChecksum)
            return homesChecksum.error();
        input.homesChecksum = *homesChecksum;
    }
    auto graph = io::loadGraph(input.path, format, io::defaultGraphCacheDir(), nullptr, feedback);
    if (!graph)
        return graph.error();
    if (feedback.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    LoadedGraph loaded{std::move(*graph), {}};
    auto fromFile = readAndDrawHomes(input.homesPath, homesSeed, loaded.graph, topology, loaded.home);
    if (!fromFile)
        return fromFile.error();
    input.stats = graphStats(loaded.graph);
    input.stats.homesFromFile = *fromFile;
    return std::make_pair(std::move(input), std::move(loaded));
}

std::string graphChangeOnDisk(const GraphInput& input)
{
    const auto check = [](const std::string& path, std::uint64_t recorded) -> std::string {
        auto now = io::fileChecksum(path);
        if (!now)
            return path + " cannot be read (" + now.error().message + ")";
        return *now == recorded ? std::string() : path + " changed since it was imported";
    };
    std::string change = check(input.path, input.checksum);
    if (change.empty() && !input.homesPath.empty())
        change = check(input.homesPath, input.homesChecksum);
    return change;
}

Status checkGraphOnDisk(const GraphInput& input)
{
    if (const auto change = graphChangeOnDisk(input); !change.empty())
        return makeError(ErrorCode::InvalidInput,
                         "graph '" + input.name + "': " + change
                             + "; import it again (File > Import > Graph, or meridian-cli project import-graph)");
    return {};
}

Expected<LoadedGraph> loadGraphInput(const GraphInput& input, const model::Topology& topology, const Feedback& feedback)
{
    if (auto unchanged = checkGraphOnDisk(input); !unchanged)
        return unchanged.error();
    auto graph = io::loadGraph(input.path, input.format, io::defaultGraphCacheDir(), nullptr, feedback);
    if (!graph)
        return graph.error();
    LoadedGraph loaded{std::move(*graph), {}};
    auto fromFile = readAndDrawHomes(input.homesPath, input.homesSeed, loaded.graph, topology, loaded.home);
    if (!fromFile)
        return fromFile.error();
    return loaded;
}

} // namespace meridian::document
