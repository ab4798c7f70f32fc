// Project files (JSON; sidecars referenced by the input are looked up beside it and are absent here).
#include "app/document/project_file.h"
#include "fuzz_input.h"

#include <QString>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static meridian::fuzz::InputFile file;
    const auto& path = file.write(data, size);
    (void)meridian::document::ProjectFile::load(QString::fromStdString(path));
    return 0;
}
