// Sites readers: CSV and GeoJSON.
#include "core/io/sites_io.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static meridian::fuzz::InputFile file;
    const auto& path = file.write(data, size);
    (void)meridian::io::readSitesCsv(path);
    (void)meridian::io::readSitesGeoJson(path);
    (void)meridian::io::readHostsCsv(path, meridian::fuzz::topology());
    return 0;
}
