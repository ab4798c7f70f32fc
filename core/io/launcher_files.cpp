#include "core/io/launcher_files.h"

#include "core/io/text_file.h"

#include <algorithm>
#include <cctype>

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
        out += "# Open MPI rankfile written by Meridian (" + std::to_string(n) + " ranks): mpirun -np "
            + std::to_string(n) + " --rankfile <this file> ./app\n";
        out += "# slot=S binds the rank to core S of its host: each host needs as many cores as the slots used on it\n";
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

std::string shellWord(const std::string& word)
{
    static const std::string plain = "_./-+=:,@%";
    const bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return (std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80)
            || plain.find(c) != std::string::npos;
    });
    if (safe)
        return word;
    std::string quoted = "'";
    for (char c : word)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string LaunchAdvice::placeholderWarning() const
{
    if (placeholders.empty())
        return {};
    std::string sites, hosts;
    for (std::size_t k = 0; k < placeholders.size(); ++k) {
        const std::string separator = k == 0 ? "" : k + 1 == placeholders.size() ? " and " : ", ";
        sites += separator + placeholders[k].first;
        hosts += separator + placeholders[k].second;
    }
    return std::string(placeholders.size() == 1 ? "the hosts of site " : "the hosts of sites ") + sites
        + " are placeholders named after their site (" + hosts
        + "), not machines a launcher can reach: give the machines' names (a hosts file, host,site[,slots]) and "
          "export again";
}

LaunchAdvice launchAdvice(LauncherFormat format, const model::Placement& placement, const model::Topology& topology,
                          const std::string& path)
{
    LaunchAdvice advice;
    const std::string n = std::to_string(placement.processCount());
    const std::string file = shellWord(path);
    std::vector<int> mostSlot(static_cast<std::size_t>(topology.hostCount()), -1);
    std::vector<bool> siteUsed(static_cast<std::size_t>(topology.siteCount()), false);
    for (int p = 0; p < placement.processCount(); ++p) {
        if (placement.host.empty() || placement.host[p] < 0)
            continue;
        const int h = placement.host[p];
        mostSlot[h] = std::max(mostSlot[h], placement.slot.empty() ? 0 : placement.slot[p]);
        if (topology.isPlaceholderHost(h) && !siteUsed[topology.siteOfHost(h)]) {
            siteUsed[topology.siteOfHost(h)] = true;
            advice.placeholders.emplace_back(topology.site(topology.siteOfHost(h)).name, topology.host(h).name);
        }
    }
    std::sort(advice.placeholders.begin(), advice.placeholders.end(), [&](const auto& a, const auto& b) {
        return *topology.siteIndex(a.first) < *topology.siteIndex(b.first);
    });
    switch (format) {
    case LauncherFormat::OpenMpiRankfile: {
        const auto busiest = std::max_element(mostSlot.begin(), mostSlot.end());
        advice.command = "mpirun -np " + n + " --rankfile " + file + " ./app";
        advice.slots = "slot=S binds the rank to core S of its host (cores numbered from 0 on each host), so every "
                       "host needs at least as many cores as the slots used on it";
        if (busiest != mostSlot.end() && *busiest >= 0)
            advice.slots += " (up to " + std::to_string(*busiest + 1) + " on "
                + topology.host(static_cast<int>(busiest - mostSlot.begin())).name + ")";
        advice.slots += ": Open MPI refuses a rankfile that names a core its host lacks. -np must be " + n
            + ", the ranks the file lists: with fewer, mpirun starts only that many";
        break;
    }
    case LauncherFormat::MpichMachinefile:
        advice.command = "mpiexec.hydra -n " + n + " -f " + file + " ./app";
        advice.slots = "line k is the host of rank k, for MPICH's launcher Hydra (mpiexec.hydra in MPICH and Intel "
                       "MPI); a host listed several times runs that many ranks, bound as the launcher's -bind-to "
                       "says";
        break;
    case LauncherFormat::SlurmHostfile:
        advice.command = "SLURM_HOSTFILE=" + file + " srun -n " + n + " --distribution=arbitrary ./app";
        advice.slots = "line k is the host of task k; the job's allocation (salloc or sbatch) must hold these "
                       "hosts";
        break;
    }
    return advice;
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
