#include "core/io/launcher_files.h"

#include "core/io/text_file.h"

namespace meridian::io {

Expected<std::string> launcherFileText(LauncherFormat format, const model::Placement& placement,
                                       const model::Topology& topology)
{
    if (!placement.hasHosts())
        return makeError(ErrorCode::InvalidInput,
                         "the placement has processes without a host and slot; complete it first");
    const int n = placement.processCount();
    std::string out;
    out.reserve(static_cast<std::size_t>(n) * 32 + 128);
    switch (format) {
    case LauncherFormat::OpenMpiRankfile:
        out += "# Open MPI rankfile written by Meridian (" + std::to_string(n)
            + " ranks): mpirun --rankfile <this file> ./app\n";
        for (int p = 0; p < n; ++p)
            out += "rank " + std::to_string(p) + "=" + topology.host(placement.host[p]).name
                + " slot=" + std::to_string(placement.slot[p]) + "\n";
        break;
    case LauncherFormat::MpichMachinefile:
        for (int p = 0; p < n; ++p)
            out += topology.host(placement.host[p]).name + ":1\n";
        break;
    case LauncherFormat::SlurmHostfile:
        for (int p = 0; p < n; ++p)
            out += topology.host(placement.host[p]).name + "\n";
        break;
    }
    return out;
}

Status writeLauncherFile(const std::string& path, LauncherFormat format, const model::Placement& placement,
                         const model::Topology& topology)
{
    auto text = launcherFileText(format, placement, topology);
    if (!text)
        return inFile(text.error(), path);
    return writeTextFileAtomically(path, *text);
}

} // namespace meridian::io
