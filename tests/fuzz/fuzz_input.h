#pragma once
// What every fuzz target shares: the input as a file the readers can open (memfd, no disk I/O), and the
// small fixed topology and graph that readers of site names and vertex ids are checked against.

#include "core/model/graph.h"
#include "core/model/topology.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace meridian::fuzz {

/// The fuzz input as a regular file at "/proc/self/fd/N", rewritten for each input.
class InputFile {
public:
    InputFile()
        : m_fd(::memfd_create("meridian-fuzz", 0))
    {
        if (m_fd < 0)
            std::abort();
    }
    ~InputFile() { ::close(m_fd); }
    const std::string& write(const std::uint8_t* data, std::size_t size)
    {
        if (::ftruncate(m_fd, 0) != 0 || ::pwrite(m_fd, data, size, 0) != static_cast<ssize_t>(size))
            std::abort();
        return m_path;
    }

private:
    int m_fd;
    std::string m_path = "/proc/self/fd/" + std::to_string(m_fd);
};

/// Three sites (one with a quoted name) of two hosts with two slots, as tests/data/sites.csv.
inline const model::Topology& topology()
{
    static const model::Topology topo = [] {
        std::vector<model::Site> sites;
        const char* names[] = {"alpha", "beta, east", "gamma"};
        for (int s = 0; s < 3; ++s) {
            model::Site site;
            site.name = names[s];
            site.longitude = 10.0 * s;
            site.nodes = 2;
            site.slotsPerNode = 2;
            sites.push_back(site);
        }
        return *model::Topology::create(std::move(sites));
    }();
    return topo;
}

/// A graph of 5 vertices with SNAP ids 0..4 and a few edges, for homes files.
inline const model::Graph& graph()
{
    static const model::Graph g = [] {
        model::Graph out;
        out.vertexCount = 5;
        out.originalId = {0, 1, 2, 3, 4};
        out.src = {0, 1, 2, 3};
        out.dst = {1, 2, 3, 4};
        return out;
    }();
    return g;
}

} // namespace meridian::fuzz
