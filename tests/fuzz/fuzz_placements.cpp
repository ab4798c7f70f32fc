// Pins and mapping readers.
#include "core/io/placement_io.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace meridian;
    static fuzz::InputFile file;
    const auto& path = file.write(data, size);
    (void)io::readPinsCsv(path, fuzz::topology());
    (void)io::readPinsCsv(path, fuzz::topology(), 8);
    (void)io::readMappingCsv(path, fuzz::topology());
    (void)io::readMappingCsv(path, fuzz::topology(), 4);
    return 0;
}
