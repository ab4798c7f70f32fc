#include "core/sim/simulator.h"

#include "core/sim/child_process.h"

#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <xbt/log.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>

extern char** environ;

namespace meridian::sim {

namespace sg4 = simgrid::s4u;

namespace {

/// Each simulated process runs in a SimGrid actor; its stack needs little (KiB).
constexpr int kActorStackKiB = 128;

/// Runs in the child: one iteration's transfers between process actors, joined by the controller (the barrier).
/// Each transfer is a chain of messages through a mailbox of its own: the sender puts the next message when the
/// last has arrived, the receiver has a get posted all along, so a message starts as soon as it is put. (SimGrid
/// 3.32's host-to-host Comm::sendto keeps every message in flight in one list that each completion searches,
/// which made 4,096 processes take minutes; mailboxes keep each search to one process's chains.) Records, per
/// link, when its last chain ended.
class Replay {
public:
    Replay(const std::vector<Transfer>& transfers, std::vector<std::vector<int>> routes, std::size_t linkCount,
           std::vector<sg4::Host*> hosts)
        : m_transfers(transfers)
        , m_linkCount(linkCount)
        , m_hosts(std::move(hosts))
        , m_routes(std::move(routes))
    {
        int phases = 0;
        for (const Transfer& t : transfers)
            phases = std::max(phases, t.phase + 1);
        m_phases.resize(static_cast<std::size_t>(phases));
        for (std::size_t c = 0; c < transfers.size(); ++c) {
            std::string name = "chain ";
            name += std::to_string(c);
            m_mailboxes.push_back(sg4::Mailbox::by_name(name));
            auto& processes = m_phases[static_cast<std::size_t>(transfers[c].phase)];
            Process& from = processes[transfers[c].process];
            from.host = transfers[c].fromHost;
            from.out.push_back(static_cast<int>(c));
            Process& to = processes[transfers[c].peer];
            to.host = transfers[c].toHost;
            to.in.push_back(static_cast<int>(c));
        }
    }

    /// Runs the iterations inside the controller actor, each phase after the last; fills the iterations' times,
    /// each phase's time and each link's busy seconds (the last two summed over the iterations).
    void run(int iterations, std::vector<double>& times, std::vector<double>& phaseTimes, std::vector<double>& busy)
    {
        if (std::any_of(m_transfers.begin(), m_transfers.end(), [](const Transfer& t) { return !t.after.empty(); })) {
            runSchedule(times, phaseTimes, busy);
            return;
        }
        busy.assign(m_linkCount, 0.0);
        phaseTimes.assign(m_phases.size(), 0.0);
        for (int it = 0; it < iterations; ++it) {
            const double start = sg4::Engine::get_clock();
            for (std::size_t phase = 0; phase < m_phases.size(); ++phase) {
                const double t0 = sg4::Engine::get_clock();
                m_lastEnd.assign(m_linkCount, t0);
                std::vector<sg4::ActorPtr> actors;
                actors.reserve(m_phases[phase].size());
                for (const auto& [process, chains] : m_phases[phase]) {
                    std::string name = "p";
                    name += std::to_string(process);
                    const Process* mine = &chains;
                    actors.push_back(sg4::Actor::create(name, m_hosts[chains.host], [this, mine] { exchange(*mine); }));
                }
                for (auto& actor : actors)
                    actor->join();
                phaseTimes[phase] += sg4::Engine::get_clock() - t0;
                for (std::size_t l = 0; l < busy.size(); ++l)
                    busy[l] += m_lastEnd[l] - t0;
            }
            times.push_back(sg4::Engine::get_clock() - start);
        }
    }

private:
    struct Process {
        int host = 0;
        std::vector<int> out; // chains it sends
        std::vector<int> in;  // chains it receives
    };

    /// A schedule, once: per process a sender actor (its transfers in order, each once what it waits for has
    /// arrived, each put blocking until it arrived) and a receiver actor (a get on every transfer to it, marking
    /// each arrived and waking the senders).
    void runSchedule(std::vector<double>& times, std::vector<double>& phaseTimes, std::vector<double>& busy)
    {
        const double t0 = sg4::Engine::get_clock();
        m_lastEnd.assign(m_linkCount, t0);
        m_arrived.assign(m_transfers.size(), 0);
        m_mutex = sg4::Mutex::create();
        m_arrival = sg4::ConditionVariable::create();
        std::vector<sg4::ActorPtr> actors;
        for (const auto& [process, chains] : m_phases.front()) {
            const Process* mine = &chains;
            const std::string id = std::to_string(process);
            if (!chains.out.empty())
                actors.push_back(
                    sg4::Actor::create("s" + id,
                                       m_hosts[static_cast<std::size_t>(
                                           m_transfers[static_cast<std::size_t>(chains.out.front())].fromHost)],
                                       [this, mine] { sendInOrder(*mine); }));
            if (!chains.in.empty())
                actors.push_back(sg4::Actor::create(
                    "r" + id,
                    m_hosts[static_cast<std::size_t>(m_transfers[static_cast<std::size_t>(chains.in.front())].toHost)],
                    [this, mine] { receiveAll(*mine); }));
        }
        for (auto& actor : actors)
            actor->join();
        const double elapsed = sg4::Engine::get_clock() - t0;
        times.push_back(elapsed);
        phaseTimes.assign(1, elapsed);
        busy.assign(m_linkCount, 0.0);
        for (std::size_t l = 0; l < busy.size(); ++l)
            busy[l] = m_lastEnd[l] - t0;
    }

    void sendInOrder(const Process& self)
    {
        static int payload = 0;
        for (int c : self.out) {
            const Transfer& t = m_transfers[static_cast<std::size_t>(c)];
            {
                std::unique_lock lock(*m_mutex);
                const auto& after = m_transfers[static_cast<std::size_t>(c)].after;
                while (std::any_of(after.begin(), after.end(),
                                   [&](int a) { return !m_arrived[static_cast<std::size_t>(a)]; }))
                    m_arrival->wait(lock);
            }
            if (t.fromHost == t.toHost) {
                // Processes of one host exchange through memory: arrived at once.
                {
                    const std::unique_lock lock(*m_mutex);
                    m_arrived[static_cast<std::size_t>(c)] = 1;
                }
                m_arrival->notify_all();
                continue;
            }
            for (std::int64_t k = 0; k < m_transfers[static_cast<std::size_t>(c)].messages; ++k)
                m_mailboxes[static_cast<std::size_t>(c)]->put(&payload, messageBytes(c, k));
            const double now = sg4::Engine::get_clock();
            for (int l : m_routes[static_cast<std::size_t>(c)])
                m_lastEnd[static_cast<std::size_t>(l)] = std::max(m_lastEnd[static_cast<std::size_t>(l)], now);
        }
    }

    void receiveAll(const Process& self)
    {
        void* received = nullptr;
        std::vector<sg4::CommPtr> active;
        std::vector<int> chain;
        std::vector<std::int64_t> completed;
        for (int c : self.in) {
            if (m_transfers[static_cast<std::size_t>(c)].fromHost == m_transfers[static_cast<std::size_t>(c)].toHost)
                continue;
            active.push_back(m_mailboxes[static_cast<std::size_t>(c)]->get_async(&received));
            chain.push_back(c);
            completed.push_back(0);
        }
        while (!active.empty()) {
            const auto i = static_cast<std::size_t>(sg4::Comm::wait_any(active));
            const int c = chain[i];
            if (++completed[i] < m_transfers[static_cast<std::size_t>(c)].messages) {
                active[i] = m_mailboxes[static_cast<std::size_t>(c)]->get_async(&received);
                continue;
            }
            {
                const std::unique_lock lock(*m_mutex);
                m_arrived[static_cast<std::size_t>(c)] = 1;
            }
            m_arrival->notify_all();
            active[i] = active.back();
            chain[i] = chain.back();
            completed[i] = completed.back();
            active.pop_back();
            chain.pop_back();
            completed.pop_back();
        }
    }

    /// The size of message k of chain c: the sizes add up to the entry's bytes (rounded to whole bytes).
    std::uint64_t messageBytes(int c, std::int64_t k) const
    {
        const Transfer& t = m_transfers[c];
        const auto total = static_cast<std::uint64_t>(std::llround(t.bytes));
        // total x k / messages without overflow (messages is at most kMaxSimulatedMessages).
        const auto m = static_cast<std::uint64_t>(t.messages);
        const auto share = [&](std::int64_t j) {
            const auto jj = static_cast<std::uint64_t>(j);
            return total / m * jj + total % m * jj / m;
        };
        return share(k + 1) - share(k);
    }

    /// One process: the first message of every chain it sends and a get on every chain it receives, then each
    /// chain's next message (or get) as its last completes.
    void exchange(const Process& self)
    {
        static int payload = 0;
        void* received = nullptr;
        const std::size_t sends = self.out.size();
        // Entry k < sends is chain self.out[k] sent, the others the chains received.
        const auto chain = [&](std::size_t k) { return k < sends ? self.out[k] : self.in[k - sends]; };
        const auto post = [&](std::size_t k, std::int64_t message) {
            const int c = chain(k);
            return k < sends ? m_mailboxes[c]->put_async(&payload, messageBytes(c, message))
                             : m_mailboxes[c]->get_async(&received);
        };
        std::vector<sg4::CommPtr> active;
        std::vector<std::size_t> entry;
        std::vector<std::int64_t> completed(sends + self.in.size(), 0);
        for (std::size_t k = 0; k < completed.size(); ++k) {
            active.push_back(post(k, 0));
            entry.push_back(k);
        }
        while (!active.empty()) {
            const auto i = static_cast<std::size_t>(sg4::Comm::wait_any(active));
            const std::size_t k = entry[i];
            const int c = chain(k);
            if (++completed[k] < m_transfers[c].messages) {
                active[i] = post(k, completed[k]);
                continue;
            }
            if (k < sends) {
                const double now = sg4::Engine::get_clock();
                for (int l : m_routes[c])
                    m_lastEnd[l] = std::max(m_lastEnd[l], now);
            }
            active[i] = active.back();
            entry[i] = entry.back();
            active.pop_back();
            entry.pop_back();
        }
    }

    const std::vector<Transfer>& m_transfers;
    std::size_t m_linkCount = 0;
    std::vector<sg4::Host*> m_hosts;
    std::vector<std::vector<int>> m_routes;
    std::vector<sg4::Mailbox*> m_mailboxes;
    std::vector<std::map<int, Process>> m_phases; // per phase, the processes with chains in it
    std::vector<double> m_lastEnd;
    std::vector<char> m_arrived; // a schedule's transfers that have arrived
    sg4::MutexPtr m_mutex;
    sg4::ConditionVariablePtr m_arrival;
};

/// What the worker process reads besides the platform file: the hosts in index order, the platform's link count,
/// the iterations, and each transfer with the links of its route. A text file, one item per line.
struct WorkerInput {
    std::vector<std::string> hostNames;
    std::size_t linkCount = 0;
    int iterations = 1;
    std::vector<Transfer> transfers;
    std::vector<std::vector<int>> routes;
};

/// The worker's input text. Routes each transfer once, for the text and for `linkBytes` (the bytes each link of the
/// platform carries per iteration).
std::string workerInputText(const SimPlatform& platform, const std::vector<Transfer>& transfers, int iterations,
                            std::vector<double>& linkBytes)
{
    linkBytes.assign(platform.links.size(), 0.0);
    std::ostringstream out;
    out.precision(17);
    out << platform.hostCount() << ' ' << platform.links.size() << ' ' << iterations << ' ' << transfers.size() << '\n';
    for (const std::string& name : platform.hostNames)
        out << name << '\n';
    std::vector<int> route;
    for (const Transfer& t : transfers) {
        route.clear();
        platform.route(t.fromHost, t.toHost, route);
        out << t.process << ' ' << t.peer << ' ' << t.fromHost << ' ' << t.toHost << ' ' << t.bytes << ' ' << t.messages
            << ' ' << t.phase << ' ' << route.size();
        for (int l : route) {
            out << ' ' << l;
            linkBytes[static_cast<std::size_t>(l)] += t.bytes;
        }
        out << ' ' << t.after.size();
        for (int a : t.after)
            out << ' ' << a;
        out << '\n';
    }
    return out.str();
}

bool readWorkerInput(const char* path, WorkerInput& in)
{
    std::ifstream file(path);
    std::size_t hosts = 0;
    std::size_t count = 0;
    if (!(file >> hosts >> in.linkCount >> in.iterations >> count))
        return false;
    file.ignore(1);
    in.hostNames.resize(hosts);
    for (std::string& name : in.hostNames)
        if (!std::getline(file, name))
            return false;
    in.transfers.resize(count);
    in.routes.resize(count);
    for (std::size_t c = 0; c < count; ++c) {
        Transfer& t = in.transfers[c];
        std::size_t links = 0;
        if (!(file >> t.process >> t.peer >> t.fromHost >> t.toHost >> t.bytes >> t.messages >> t.phase >> links)
            || t.phase < 0)
            return false;
        in.routes[c].resize(links);
        for (int& l : in.routes[c])
            if (!(file >> l))
                return false;
        std::size_t after = 0;
        if (!(file >> after) || after > c)
            return false;
        t.after.resize(after);
        for (int& a : t.after)
            if (!(file >> a) || a < 0 || a >= static_cast<int>(c))
                return false;
    }
    return true;
}

/// The worker's whole life: SimGrid on the platform file, the replay, the results written to `out`. It runs in a
/// process of its own, started for it, before that process's main (see kWorker).
[[noreturn]] void runWorker(const char* platformFile, const char* inputFile, int out)
{
    try {
        WorkerInput in;
        if (!readWorkerInput(inputFile, in) || in.hostNames.empty())
            throw std::runtime_error(std::string("unreadable simulation input ") + inputFile);
        int argc = 1;
        char name[] = "meridian-simulate";
        char* argv[] = {name, nullptr};
        sg4::Engine engine(&argc, argv);
        xbt_log_control_set("root.thresh:warning");
        for (const std::string& setting : simgridConfiguration())
            sg4::Engine::set_config(setting);
        sg4::Engine::set_config("contexts/stack-size:" + std::to_string(kActorStackKiB));
        engine.load_platform(platformFile);
        std::vector<sg4::Host*> hosts;
        for (const std::string& host : in.hostNames)
            hosts.push_back(engine.host_by_name(host));
        Replay replay(in.transfers, std::move(in.routes), in.linkCount, hosts);
        std::vector<double> times;
        std::vector<double> phaseTimes;
        std::vector<double> busy;
        sg4::Actor::create("barrier", hosts.front(), [&] { replay.run(in.iterations, times, phaseTimes, busy); });
        engine.run();
        const auto count = static_cast<std::int64_t>(times.size());
        const auto links = static_cast<std::int64_t>(busy.size());
        const auto phases = static_cast<std::int64_t>(phaseTimes.size());
        const bool ok = writeAll(out, &count, sizeof count)
            && writeAll(out, times.data(), times.size() * sizeof(double)) && writeAll(out, &links, sizeof links)
            && writeAll(out, busy.data(), busy.size() * sizeof(double)) && writeAll(out, &phases, sizeof phases)
            && writeAll(out, phaseTimes.data(), phaseTimes.size() * sizeof(double));
        ::close(out);
        std::fflush(stderr);
        ::_exit(ok ? 0 : 3);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
    }
    std::fflush(stderr);
    ::_exit(4);
}

/// The file descriptor the worker writes its results to.
constexpr int kResultFd = 3;
constexpr const char* kPlatformVariable = "MERIDIAN_SIMULATION_PLATFORM";
constexpr const char* kInputVariable = "MERIDIAN_SIMULATION_INPUT";

/// simulate() starts its own executable again (/proc/self/exe) with these two variables set; in that process the
/// simulation runs here, during static initialisation, before main has started Qt or any thread, and the process
/// exits. (Forking the caller instead would copy a process whose other threads may hold locks the child then
/// waits on forever; that happened under AddressSanitizer.)
const bool kWorker = [] {
    const char* platform = std::getenv(kPlatformVariable);
    const char* input = std::getenv(kInputVariable);
    if (platform != nullptr && input != nullptr)
        runWorker(platform, input, kResultFd);
    return false;
}();

/// Decodes what the child wrote: iteration times, then per-link busy seconds and per-phase times, both summed over
/// the iterations.
Expected<SimResult> decode(const std::string& bytes, const SimPlatform& platform)
{
    SimResult r;
    std::size_t at = 0;
    const auto take = [&](void* to, std::size_t size) {
        if (at + size > bytes.size())
            return false;
        std::memcpy(to, bytes.data() + at, size);
        at += size;
        return true;
    };
    std::int64_t count = 0;
    std::int64_t links = 0;
    if (!take(&count, sizeof count) || count < 1)
        return makeError(ErrorCode::Internal, "simulate: the simulation returned no iteration");
    r.iterationSeconds.resize(static_cast<std::size_t>(count));
    std::vector<double> busy;
    if (!take(r.iterationSeconds.data(), r.iterationSeconds.size() * sizeof(double)) || !take(&links, sizeof links)
        || links != static_cast<std::int64_t>(platform.links.size()))
        return makeError(ErrorCode::Internal, "simulate: the simulation's result is incomplete");
    busy.resize(static_cast<std::size_t>(links));
    std::int64_t phases = 0;
    // The phase times are the rest of the result, exactly.
    if (!take(busy.data(), busy.size() * sizeof(double)) || !take(&phases, sizeof phases) || phases < 0
        || static_cast<std::size_t>(phases) * sizeof(double) != bytes.size() - at)
        return makeError(ErrorCode::Internal, "simulate: the simulation's result is incomplete");
    r.phaseSeconds.resize(static_cast<std::size_t>(phases));
    take(r.phaseSeconds.data(), r.phaseSeconds.size() * sizeof(double));
    for (double& t : r.phaseSeconds)
        t /= static_cast<double>(count);
    double sum = 0.0;
    for (double t : r.iterationSeconds)
        sum += t;
    r.meanIterationSeconds = sum / static_cast<double>(count);
    r.links.resize(busy.size());
    for (std::size_t l = 0; l < busy.size(); ++l)
        r.links[l].busySeconds = busy[l] / static_cast<double>(count);
    return r;
}

/// Starts this executable again as the simulation worker (kWorker): its results on `resultFd` (as fd 3), its
/// standard error on `errorFd`. Returns the pid, or -1.
pid_t spawnWorker(const std::string& platformFile, const std::string& inputFile, int resultFd, int errorFd)
{
    std::vector<std::string> variables;
    for (char** e = environ; *e != nullptr; ++e)
        if (!std::string_view(*e).starts_with("MERIDIAN_SIMULATION_"))
            variables.emplace_back(*e);
    variables.push_back(std::string(kPlatformVariable) + "=" + platformFile);
    variables.push_back(std::string(kInputVariable) + "=" + inputFile);
    std::vector<char*> envp;
    envp.reserve(variables.size() + 1);
    for (std::string& v : variables)
        envp.push_back(v.data());
    envp.push_back(nullptr);
    char name[] = "meridian-simulation-worker";
    char* argv[] = {name, nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, resultFd, kResultFd);
    posix_spawn_file_actions_adddup2(&actions, errorFd, STDERR_FILENO);
    pid_t pid = -1;
    if (::posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv, envp.data()) != 0)
        pid = -1;
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

/// What went wrong in a child that did not finish, from its exit status and the end of its standard error.
Error childFailure(int status, const std::string& errors)
{
    const std::string tail = errorTail(errors);
    return makeError(ErrorCode::Internal,
                     "simulate: SimGrid " + exitDescription(status) + (tail.empty() ? "" : ": " + tail));
}

} // namespace

std::vector<Transfer> iterationTransfers(const model::CommMatrix& comm, const model::Placement& placement)
{
    std::vector<Transfer> out;
    const auto& volume = comm.volume();
    const auto& messages = comm.messages();
    for (int i = 0; i < volume.outerSize(); ++i)
        for (int k = volume.outerIndexPtr()[i]; k < volume.outerIndexPtr()[i + 1]; ++k) {
            const int j = volume.innerIndexPtr()[k];
            if (j == i)
                continue; // a process's messages to itself cost nothing, as in the alpha-beta cost
            const double bytes = volume.valuePtr()[k];
            const double count = comm.hasMessages() ? messages.valuePtr()[k] : 1.0;
            if (bytes <= 0.0 && count <= 0.0)
                continue;
            const auto n = std::max<std::int64_t>(1, std::llround(count));
            out.push_back({i, j, placement.host[i], placement.host[j], bytes, n, 0, {}});
        }
    return out;
}

std::vector<Transfer> scheduleTransfers(const collectives::Schedule& schedule, const model::Placement& placement)
{
    std::vector<Transfer> out;
    out.reserve(schedule.messages.size());
    for (const collectives::Message& m : schedule.messages) {
        Transfer t;
        t.process = m.from;
        t.peer = m.to;
        t.fromHost = placement.host[static_cast<std::size_t>(m.from)];
        t.toHost = placement.host[static_cast<std::size_t>(m.to)];
        t.bytes = m.bytes;
        t.after = m.needs;
        out.push_back(std::move(t));
    }
    return out;
}

std::vector<Transfer> phaseTransfers(const std::vector<model::CommMatrix>& phases, const model::Placement& placement)
{
    std::vector<Transfer> out;
    for (std::size_t k = 0; k < phases.size(); ++k)
        for (Transfer& t : iterationTransfers(phases[k], placement)) {
            t.phase = static_cast<int>(k);
            out.push_back(t);
        }
    return out;
}

double SimResult::utilisation(const SimPlatform& platform, int link) const
{
    const double capacity = platform.links[link].bandwidthBps * meanIterationSeconds;
    return capacity > 0.0 ? links[link].bytes / capacity : 0.0;
}

std::vector<int> SimResult::bottlenecks(const SimPlatform& platform) const
{
    std::vector<int> order;
    for (int l = 0; l < static_cast<int>(platform.links.size()); ++l)
        if (platform.links[l].shared && links[l].bytes > 0.0)
            order.push_back(l);
    // On a tie, a site-pair or host link before an uplink or downlink (whose bandwidth may be derived from it).
    const auto access = [&](int l) {
        const SimLink::Kind k = platform.links[l].kind;
        return k == SimLink::Kind::Uplink || k == SimLink::Kind::Downlink;
    };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const double ua = utilisation(platform, a);
        const double ub = utilisation(platform, b);
        return ua > ub || (ua == ub && !access(a) && access(b));
    });
    return order;
}

std::string simgridVersion()
{
    return "SimGrid " + std::to_string(SIMGRID_VERSION_MAJOR) + "." + std::to_string(SIMGRID_VERSION_MINOR);
}

Expected<SimResult> simulate(const SimPlatform& platform, const std::vector<Transfer>& transfers,
                             const SimOptions& options, const FeedbackRange& range)
{
    if (options.iterations < 1)
        return makeError(ErrorCode::InvalidInput, "simulate: iterations must be at least 1");
    std::int64_t messages = 0;
    for (const Transfer& t : transfers)
        messages += t.messages;
    messages *= options.iterations;
    if (messages > kMaxSimulatedMessages)
        return makeError(ErrorCode::InvalidInput,
                         "simulate: " + std::to_string(messages) + " messages to simulate, over the limit of "
                             + std::to_string(kMaxSimulatedMessages) + " (fewer iterations, or fewer processes)");
    const auto started = std::chrono::steady_clock::now();
    SimResult empty;
    if (transfers.empty()) {
        empty.iterationSeconds.assign(options.iterations, 0.0);
        empty.links.resize(platform.links.size());
        return empty;
    }
    for (const Transfer& t : transfers)
        if (t.phase < 0)
            return makeError(ErrorCode::InvalidInput, "simulate: a transfer's phase is negative");
    const bool schedule = std::any_of(transfers.begin(), transfers.end(),
                                      [](const Transfer& t) { return !t.after.empty(); });
    if (schedule && options.iterations != 1)
        return makeError(ErrorCode::InvalidInput,
                         "simulate: a collective's schedule is simulated once, not "
                             + std::to_string(options.iterations) + " times");
    auto file = writeTemporaryFile("simulate", "platform", ".xml", platformXml(platform));
    if (!file)
        return file.error();
    std::vector<double> linkBytes;
    auto input = writeTemporaryFile("simulate", "simulation", ".txt",
                                    workerInputText(platform, transfers, options.iterations, linkBytes));
    if (!input) {
        std::remove(file->c_str());
        return input.error();
    }
    auto ran = runChild(
        "the simulation process",
        [&](int resultFd, int errorFd) { return spawnWorker(*file, *input, resultFd, errorFd); }, range);
    std::remove(file->c_str());
    std::remove(input->c_str());
    if (!ran)
        return ran.error().code == ErrorCode::Canceled
            ? ran.error()
            : makeError(ran.error().code, "simulate: " + ran.error().message);
    if (!WIFEXITED(ran->status) || WEXITSTATUS(ran->status) != 0)
        return childFailure(ran->status, ran->second);
    auto decoded = decode(ran->first, platform);
    if (!decoded)
        return decoded.error();
    for (std::size_t l = 0; l < linkBytes.size(); ++l)
        decoded->links[l].bytes = linkBytes[l];
    decoded->messages = messages;
    decoded->wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return decoded;
}

} // namespace meridian::sim
