// Capture readers: Open MPI's monitoring files and NetPIPE's output. The monitoring reader reads a folder, so
// the input is also written as rank 0's file of a run in a folder of its own.
#include "core/io/netpipe.h"
#include "core/io/openmpi_monitoring.h"
#include "fuzz_input.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

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
    return 0;
}
