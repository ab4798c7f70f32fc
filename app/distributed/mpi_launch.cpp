#include "app/distributed/mpi_launch.h"

#include <dlfcn.h>
#include <link.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

// The sanitizers' runtimes refuse modules loaded with RTLD_DEEPBIND (GCC says it builds with one by
// __SANITIZE_ADDRESS__ or __SANITIZE_THREAD__, clang by __has_feature).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#    define MERIDIAN_UNDER_SANITIZER 1
#elif defined(__has_feature)
#    if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#        define MERIDIAN_UNDER_SANITIZER 1
#    endif
#endif
#ifndef MERIDIAN_UNDER_SANITIZER
#    define MERIDIAN_UNDER_SANITIZER 0
#endif

namespace meridian::distributed {

namespace {

/// MPI counts are ints: larger messages go in pieces of at most 1 GiB.
constexpr std::size_t kPiece = std::size_t{1} << 30;

/// The MPI functions meridian-cli calls, taken from Open MPI's library itself. meridian-cli also links SimGrid,
/// whose SMPI exports the same MPI_* functions and comes first in the search order, so a plain call would run
/// SMPI's MPI_Init (which aborts outside smpirun). MPI's data handles (MPI_COMM_WORLD, MPI_BYTE, ...) are Open
/// MPI's own symbols (ompi_mpi_comm_world, ...), which SimGrid does not define.
struct Mpi {
    decltype(&MPI_Init_thread) initThread = nullptr;
    decltype(&MPI_Comm_rank) commRank = nullptr;
    decltype(&MPI_Comm_size) commSize = nullptr;
    decltype(&MPI_Send) send = nullptr;
    decltype(&MPI_Recv) recv = nullptr;
    decltype(&MPI_Sendrecv) sendrecv = nullptr;
    decltype(&MPI_Bcast) bcast = nullptr;
    decltype(&MPI_Allreduce) allreduce = nullptr;
    decltype(&MPI_Finalized) finalized = nullptr;
    decltype(&MPI_Finalize) finalize = nullptr;
    decltype(&MPI_Abort) abort = nullptr;

    /// Resolves the functions in Open MPI's libmpi.so, which the dynamic linker loaded with meridian-cli; returns
    /// what is missing, or nothing.
    static std::string resolve(Mpi& mpi)
    {
        std::string path;
        dl_iterate_phdr(
            [](dl_phdr_info* object, std::size_t, void* found) {
                const std::string_view name = object->dlpi_name ? object->dlpi_name : "";
                const auto slash = name.rfind('/');
                if (name.substr(slash == std::string_view::npos ? 0 : slash + 1).rfind("libmpi.so", 0) != 0)
                    return 0;
                *static_cast<std::string*>(found) = std::string(name);
                return 1;
            },
            &path);
        if (path.empty())
            return "Open MPI's libmpi.so is not loaded";
        void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
        if (!library)
            return "cannot open " + path;
        const auto take = [&](auto& function, const char* name) {
            function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(library, name));
            return function != nullptr;
        };
        if (take(mpi.initThread, "MPI_Init_thread") && take(mpi.commRank, "MPI_Comm_rank")
            && take(mpi.commSize, "MPI_Comm_size") && take(mpi.send, "MPI_Send") && take(mpi.recv, "MPI_Recv")
            && take(mpi.sendrecv, "MPI_Sendrecv") && take(mpi.bcast, "MPI_Bcast")
            && take(mpi.allreduce, "MPI_Allreduce") && take(mpi.finalized, "MPI_Finalized")
            && take(mpi.finalize, "MPI_Finalize") && take(mpi.abort, "MPI_Abort"))
            return {};
        return path + " lacks an MPI function meridian-cli calls";
    }
};

Mpi g_mpi;

/// The PT-Scotch module's entry point (ptscotch_module.cpp).
using PtScotchMap = int (*)(std::int64_t, const std::int64_t*, const std::int64_t*, const std::int64_t*, int,
                            const int*, std::uint64_t, double, int*, char*, int);

/// Loads libmeridian-ptscotch.so, beside meridian-cli in the build tree or in lib/meridian when installed, with
/// RTLD_DEEPBIND so that it and libptscotch call Open MPI's MPI_* rather than SimGrid's SMPI, which comes first in
/// meridian-cli's global scope. Once per process.
Expected<PtScotchMap> ptScotchMap()
{
    static const Expected<PtScotchMap> loaded = []() -> Expected<PtScotchMap> {
#if MERIDIAN_UNDER_SANITIZER
        return makeError(ErrorCode::InvalidInput,
                         "PT-Scotch is loaded with RTLD_DEEPBIND, which the sanitizers' runtimes do not allow: use a "
                         "build without sanitizers");
#else
        constexpr const char* kName = "libmeridian-ptscotch.so";
        char self[4096] = {};
        const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
        std::string here = length > 0 ? std::string(self, static_cast<std::size_t>(length)) : std::string();
        here = here.substr(0, here.rfind('/') + 1);
        std::string tried;
        for (const std::string& candidate : {here + kName, here + MERIDIAN_PLUGINS_INSTALLED + "/" + kName}) {
            if (access(candidate.c_str(), R_OK) != 0) {
                tried += (tried.empty() ? "" : " and ") + candidate;
                continue;
            }
            void* module = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
            if (!module)
                return makeError(ErrorCode::Internal, "cannot load " + candidate + ": " + dlerror());
            if (auto* map = reinterpret_cast<PtScotchMap>(dlsym(module, "meridian_ptscotch_map")))
                return map;
            return makeError(ErrorCode::Internal, candidate + " lacks meridian_ptscotch_map");
        }
        return makeError(ErrorCode::Io,
                         "cannot find PT-Scotch's module " + std::string(kName) + " (looked at " + tried
                             + "); it is built and installed with meridian-cli");
#endif
    }();
    return loaded;
}

/// Whether this rank's block of a graph fits PT-Scotch's 32-bit numbers (Debian's SCOTCH_Num is an int): checked
/// by every rank before the first collective call, so that none starts alone.
Status fitsPtScotch(const RankGraph& graph)
{
    constexpr std::int64_t kMax = std::numeric_limits<int>::max();
    const auto vertices = static_cast<std::int64_t>(graph.offsets.size()) - 1;
    std::int64_t weight = 0;
    bool fits = graph.globalVertices <= kMax && vertices <= kMax && graph.offsets.back() <= kMax;
    for (std::size_t e = 0; fits && e < graph.neighbours.size(); ++e) {
        weight += graph.weights[e];
        fits = graph.neighbours[e] >= 0 && graph.neighbours[e] < graph.globalVertices && graph.weights[e] >= 1
            && weight <= kMax;
    }
    if (fits)
        return {};
    return makeError(ErrorCode::InvalidInput,
                     "the graph is too large for PT-Scotch's 32-bit numbers (Debian's libptscotch): "
                         + std::to_string(vertices) + " vertices and " + std::to_string(graph.offsets.back())
                         + " edge ends on this rank");
}

/// The world communicator as Ranks. Only the thread that initialised MPI calls it (MPI_THREAD_FUNNELED).
class MpiRanks final : public Ranks {
public:
    MpiRanks()
    {
        g_mpi.commRank(MPI_COMM_WORLD, &m_rank);
        g_mpi.commSize(MPI_COMM_WORLD, &m_size);
    }
    int rank() const override { return m_rank; }
    int size() const override { return m_size; }

    std::vector<std::string> gather(std::string_view bytes) const override
    {
        std::vector<std::string> all;
        if (m_rank != 0) {
            send(0, bytes);
            return all;
        }
        all.resize(static_cast<std::size_t>(m_size));
        all[0] = std::string(bytes);
        for (int r = 1; r < m_size; ++r)
            all[static_cast<std::size_t>(r)] = receive(r);
        return all;
    }

    void broadcast(std::string& bytes) const override
    {
        std::uint64_t size = bytes.size();
        g_mpi.bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        bytes.resize(size);
        for (std::size_t at = 0; at < size; at += kPiece)
            g_mpi.bcast(bytes.data() + at, static_cast<int>(std::min(kPiece, size - at)), MPI_BYTE, 0, MPI_COMM_WORLD);
    }

    bool all(bool ok) const override
    {
        int mine = ok ? 1 : 0, every = 0;
        g_mpi.allreduce(&mine, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        return every == 1;
    }

    /// In size() - 1 steps: at step k each rank sends to the rank k after it and receives from the rank k before
    /// it, at once (MPI_Sendrecv), so no step waits on a send that nobody receives yet.
    std::vector<std::string> exchange(const std::vector<std::string>& toEach) const override
    {
        std::vector<std::string> received(static_cast<std::size_t>(m_size));
        received[static_cast<std::size_t>(m_rank)] = toEach[static_cast<std::size_t>(m_rank)];
        for (int k = 1; k < m_size; ++k) {
            const int to = (m_rank + k) % m_size, from = (m_rank - k + m_size) % m_size;
            const std::string& out = toEach[static_cast<std::size_t>(to)];
            std::string& in = received[static_cast<std::size_t>(from)];
            std::uint64_t outSize = out.size(), inSize = 0;
            g_mpi.sendrecv(&outSize, 1, MPI_UINT64_T, to, kExchangeTag, &inSize, 1, MPI_UINT64_T, from, kExchangeTag,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            in.resize(inSize);
            // Each side sends its own number of pieces and receives the other's: a partner with nothing left to
            // send or receive in a step is MPI_PROC_NULL, so no message is ever sent that nobody receives.
            const std::uint64_t outPieces = (outSize + kPiece - 1) / kPiece, inPieces = (inSize + kPiece - 1) / kPiece;
            for (std::uint64_t k = 0; k < std::max(outPieces, inPieces); ++k) {
                const std::uint64_t at = k * kPiece;
                const bool sending = k < outPieces, receiving = k < inPieces;
                g_mpi.sendrecv(sending ? out.data() + at : nullptr,
                               sending ? static_cast<int>(std::min<std::uint64_t>(kPiece, outSize - at)) : 0, MPI_BYTE,
                               sending ? to : MPI_PROC_NULL, kExchangeTag, receiving ? in.data() + at : nullptr,
                               receiving ? static_cast<int>(std::min<std::uint64_t>(kPiece, inSize - at)) : 0, MPI_BYTE,
                               receiving ? from : MPI_PROC_NULL, kExchangeTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        }
        return received;
    }

    void send(int to, std::string_view bytes) const override
    {
        std::uint64_t size = bytes.size();
        g_mpi.send(&size, 1, MPI_UINT64_T, to, kTag, MPI_COMM_WORLD);
        for (std::size_t at = 0; at < size; at += kPiece)
            g_mpi.send(bytes.data() + at, static_cast<int>(std::min(kPiece, size - at)), MPI_BYTE, to, kTag,
                       MPI_COMM_WORLD);
    }
    Expected<std::vector<int>> partitionGraph(const RankGraph& graph, const std::vector<int>& partWeights,
                                              double imbalance, std::uint64_t seed) const override
    {
        auto map = ptScotchMap();
        Status ready = map ? fitsPtScotch(graph) : Status(map.error());
        // Every rank can go on, or none starts (each with the first failure's words): PT-Scotch's calls are
        // collective.
        if (auto agreed = agreeOn(*this, ready); !agreed)
            return agreed.error();
        const auto vertices = static_cast<std::int64_t>(graph.offsets.size()) - 1;
        std::vector<int> parts(static_cast<std::size_t>(vertices) + 1, 0);
        char error[256] = {};
        const int failed = (*map)(vertices, graph.offsets.data(), graph.neighbours.data(), graph.weights.data(),
                                  static_cast<int>(partWeights.size()), partWeights.data(), seed, imbalance,
                                  parts.data(), error, sizeof error);
        if (auto agreed = agreeOn(*this,
                                  failed ? Status(makeError(ErrorCode::Internal, std::string("PT-Scotch: ") + error))
                                         : Status{});
            !agreed)
            return agreed.error();
        parts.resize(static_cast<std::size_t>(vertices));
        return parts;
    }

    std::string receive(int from) const override
    {
        std::uint64_t size = 0;
        g_mpi.recv(&size, 1, MPI_UINT64_T, from, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        std::string bytes(size, '\0');
        for (std::size_t at = 0; at < size; at += kPiece)
            g_mpi.recv(bytes.data() + at, static_cast<int>(std::min(kPiece, size - at)), MPI_BYTE, from, kTag,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return bytes;
    }

private:
    static constexpr int kTag = 36;
    static constexpr int kExchangeTag = 37; ///< apart from send's, so that an exchange never takes a fold's bytes
    int m_rank = 0;
    int m_size = 1;
};

} // namespace

int Launch::launcherSize()
{
    // Open MPI's mpirun; PMI-1 and PMI-2 launchers (MPICH's hydra, srun --mpi=pmi2).
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
        if (const char* value = std::getenv(name); value && *value)
            return std::max(1, std::atoi(value));
    return std::getenv("PMIX_RANK") ? -1 : 0; // srun --mpi=pmix
}

int Launch::launcherRank()
{
    for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
        if (const char* value = std::getenv(name); value && *value)
            return std::atoi(value);
    return 0;
}

namespace {

/// How many tasks Slurm started for this job step (1 outside Slurm).
int slurmTasks()
{
    const char* value = std::getenv("SLURM_STEP_NUM_TASKS");
    return value && *value ? std::max(1, std::atoi(value)) : 1;
}

} // namespace

Expected<std::unique_ptr<Launch>> Launch::join(int* argc, char*** argv)
{
    std::unique_ptr<Launch> launch(new Launch());
    const int expected = launcherSize();
    if (expected == 0) {
        // srun without an MPI plugin starts N copies that know nothing of each other: N whole runs, one output.
        if (slurmTasks() > 1)
            return makeError(ErrorCode::InvalidInput,
                             "srun started " + std::to_string(slurmTasks())
                                 + " tasks without MPI, so each would run the whole command: start them with srun "
                                   "--mpi=pmix (or Open MPI's mpirun)");
        return launch;
    }
    // hwloc, which Open MPI uses to find the cores, would load its OpenGL and OpenCL plugins, and with them the
    // display libraries a cluster node may lack.
    setenv("HWLOC_PLUGINS_BLACKLIST", "hwloc_gl,hwloc_opencl", 0);
    if (const std::string missing = Mpi::resolve(g_mpi); !missing.empty())
        return makeError(ErrorCode::Internal, "an MPI launcher started meridian-cli, but " + missing);
    int provided = 0;
    if (g_mpi.initThread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return makeError(ErrorCode::Internal, "an MPI launcher started meridian-cli, but MPI could not start");
    // Only the main thread calls MPI; the mappers' worker threads never do.
    if (provided < MPI_THREAD_FUNNELED) {
        g_mpi.abort(MPI_COMM_WORLD, 1);
        return makeError(ErrorCode::Internal, "this MPI library does not allow threads beside the one calling MPI");
    }
    launch->m_launched = true;
    launch->m_owned = std::make_unique<MpiRanks>();
    launch->m_ranks = launch->m_owned.get();
    const int seen = launch->m_ranks->size();
    // Under Open MPI's mpirun inside a Slurm job, Slurm's count is that of mpirun's daemons: only a PMIx launch is
    // checked against it.
    if ((expected > 0 && seen != expected) || (expected < 0 && slurmTasks() > 1 && seen != slurmTasks()))
        return makeError(ErrorCode::InvalidInput,
                         "the launcher started " + std::to_string(std::max(expected, slurmTasks()))
                             + " processes, but MPI sees " + std::to_string(seen)
                             + ": it is not the launcher of the MPI meridian-cli is built with (Open MPI); start "
                               "it with Open MPI's mpirun (mpirun.openmpi), or srun with --mpi=pmix");
    return launch;
}

Launch::~Launch()
{
    if (m_launched) {
        int finalized = 0;
        g_mpi.finalized(&finalized);
        if (!finalized)
            g_mpi.finalize();
    }
}

void Launch::abortAll(int code) const
{
    if (m_launched)
        g_mpi.abort(MPI_COMM_WORLD, code);
    std::exit(code);
}

} // namespace meridian::distributed
