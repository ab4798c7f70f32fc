// Graph readers (SNAP, METIS, Matrix Market) and partition files (edge partitions, homes).
#include "core/io/edge_partition_io.h"
#include "core/io/graph_io.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace meridian;
    static fuzz::InputFile file;
    const auto& path = file.write(data, size);
    (void)io::readSnapGraph(path);
    (void)io::readMetisGraph(path);
    (void)io::readMatrixMarketGraph(path);
    (void)io::readEdgePartition(path, fuzz::topology());
    (void)io::readHomes(path, fuzz::graph(), fuzz::topology());
    return 0;
}
