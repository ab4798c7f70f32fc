// Runs files (JSON), read against a small fixed project: fuzz::topology()'s three sites, an application "app"
// of four processes and a graph "g" of five vertices and four edges, so that both mapping and partition runs
// reach the checks against the project. Seeds: tests/data/runs (written for this project).
#include "app/project/project_edits.h"
#include "app/project/run_file.h"
#include "fuzz_input.h"

#include <QString>

namespace {

const meridian::document::Project& project()
{
    using namespace meridian;
    static const document::Project p = [] {
        document::Project out;
        out.name = "fuzz";
        out.topology = fuzz::topology();
        out.network = model::Network(out.topology.siteCount());
        document::Application app;
        app.name = "app";
        app.comm = *model::CommMatrix::fromEntries(4, {{0, 1, 100.0, 1.0}, {1, 2, 50.0, 2.0}, {3, 0, 10.0, 1.0}});
        out.applications.push_back(std::move(app));
        document::GraphInput graph;
        graph.name = "g";
        graph.path = "/nonexistent/g.txt";
        graph.stats.vertices = 5;
        graph.stats.edges = 4;
        out.graphs.push_back(std::move(graph));
        return out;
    }();
    return p;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static meridian::fuzz::InputFile file;
    const auto& path = file.write(data, size);
    (void)meridian::document::RunFile::load(QString::fromStdString(path), project());
    return 0;
}
