// Matrix readers: CSV matrices (both cell rules), Matrix Market, communication matrices, network matrices.
#include "core/io/comm_io.h"
#include "core/io/matrix_csv.h"
#include "core/io/matrix_market.h"
#include "core/io/network_io.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace meridian;
    static fuzz::InputFile file;
    const auto& path = file.write(data, size);
    (void)io::readMatrixCsv(path, io::CellRule::NonNegative, true);
    (void)io::readMatrixCsv(path, io::CellRule::Positive, false);
    (void)io::readMatrixMarket(path, io::CellRule::NonNegative);
    (void)io::readCommMatrix(path);
    model::Network network(fuzz::topology().siteCount());
    (void)io::readNetworkMatrix(path, model::NetworkQuantity::Latency, fuzz::topology(), network);
    return 0;
}
