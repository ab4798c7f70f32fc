// Capture readers: Open MPI's monitoring files, NetPIPE's output, meridian-probe's results and the
// time-independent traces of capture --trace (the input is rank 1's file of a two-rank trace whose rank 0 is
// valid, then checked against a matrix). The monitoring
// reader reads a folder, so the input is also written as rank 0's file of a run in a folder of its own; the
// probe's reader reads three files, so the input is written once as the JSON and once as the latency matrix,
// each beside valid companions.
#include "core/io/netpipe.h"
#include "core/io/openmpi_monitoring.h"
#include "core/io/probe_results.h"
#include "core/io/ti_trace.h"
#include "fuzz_input.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace {

constexpr const char* kProbeJson = R"({"format": "meridian-probe", "version": 1, "date": "2026-11-23T14:43:23Z",
"per_rank": true, "small_bytes": 1024, "small_repetitions": 1000, "large_bytes": 4194304, "large_repetitions": 10,
"participants": [{"name": "vm/0", "group": "a"}, {"name": "vm/1", "group": "b"}], "pairs": []}
)";
constexpr const char* kProbeMatrix = "site,a,b\na,0.0028,0.0026\nb,0.0026,0.0028\n";

void writeFile(const std::string& path, const char* data, std::size_t size)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(data, static_cast<std::streamsize>(size));
}

void writeFile(const std::string& path, const std::string& text) { writeFile(path, text.data(), text.size()); }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace meridian;
    static fuzz::InputFile file;
    static const std::string folder = [] {
        char pattern[] = "/tmp/meridian-fuzz-capture-XXXXXX";
        if (!::mkdtemp(pattern))
            std::abort();
        return std::string(pattern);
    }();
    const auto& path = file.write(data, size);
    (void)io::readNetpipe(path);
    {
        std::ofstream out(folder + "/app.0.prof", std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    if (auto capture = io::readOpenMpiMonitoring(folder))
        (void)io::monitoringCollectivesJson(*capture);
    const auto* bytes = reinterpret_cast<const char*>(data);
    static const bool companions = [] {
        writeFile(folder + "/json.latency.csv", kProbeMatrix);
        writeFile(folder + "/json.bandwidth.csv", kProbeMatrix);
        writeFile(folder + "/csv.probe.json", kProbeJson);
        writeFile(folder + "/csv.bandwidth.csv", kProbeMatrix);
        writeFile(folder + "/t.ti", std::string("t.ti.0\nt.ti.1\n"));
        writeFile(folder + "/t.ti.0", std::string("0 init\n0 isend 1 0 100\n0 waitall\n0 finalize\n"));
        return true;
    }();
    (void)companions;
    writeFile(folder + "/json.probe.json", bytes, size);
    (void)io::readProbeResults(folder + "/json");
    writeFile(folder + "/csv.latency.csv", bytes, size);
    (void)io::readProbeResults(folder + "/csv");
    writeFile(folder + "/t.ti.1", bytes, size);
    if (auto trace = io::readTiTrace(folder + "/t.ti")) {
        static const auto comm = *model::CommMatrix::fromEntries(2, {{0, 1, 100, 1}});
        (void)io::checkTraceMatchesMatrix(*trace, comm);
    }
    return 0;
}
