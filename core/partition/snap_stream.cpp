#include "core/partition/snap_stream.h"

#include "core/partition/snap_stream_ranks.h"

#include "core/partition/dense_hash_ranks.h"

#include "core/common/held_share.h"
#include "core/io/edge_list_parsing.h"
#include "core/io/edge_partition_io.h"
#include "core/io/text_file.h"
#include "core/partition/geo_cut_partitioner.h"
#include "core/partition/online_placers.h"
#include "core/partition/partitioner.h"
#include "core/partition/stream_homes.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>

namespace meridian::partition {

namespace {

using Clock = std::chrono::steady_clock;

/// One chunk on its way through the stream: parsed, placed, formatted, then appended.
struct Slot {
    enum class Stage { Free, Parsing, Parsed, Placing, Placed, Formatting, Formatted, Writing };
    Stage stage = Stage::Free;
    std::size_t chunk = 0;
    io::detail::SnapChunk parsed;
    std::vector<std::uint32_t> src, dst; ///< dense ids of the chunk's edges (self-loops dropped)
    std::vector<std::uint8_t> sites;
    std::string text;        ///< the chunk's edge lines
    std::string mastersText; ///< the lines of the vertices that first appear in the chunk
};

/// The stream's shared state: the slots in flight, what comes next at each in-order step, and the failure that
/// stops it. Workers take the most urgent task there is (append, place, format, parse), and wait only while
/// another worker holds what they need, so one worker alone also finishes.
class Stream {
public:
    Stream(const SnapStreamRequest& request, const io::detail::SnapChunks& chunks, OnlinePlacer& placer,
           StreamHomes& homes, io::StreamedFile& edges, io::StreamedFile* masters, const Feedback& feedback)
        : m_chunks(chunks)
        , m_placer(placer)
        , m_homes(homes)
        , m_edges(edges)
        , m_masters(masters)
        , m_feedback(feedback)
        , m_ids(m_idGraph, chunks.fileBytes())
        , m_endings(io::siteLineEndings(*request.topology))
        , m_slots(kSlots)
        , m_start(Clock::now())
    {}

    void work()
    {
        std::unique_lock lock(m_mutex);
        while (!m_failure && m_appended < m_chunks.count()) {
            if (m_feedback.isCanceled()) {
                m_failure = makeError(ErrorCode::Canceled, "canceled");
                break;
            }
            Slot* slot = nullptr;
            Slot::Stage next = Slot::Stage::Free;
            if ((slot = inStage(m_appended, Slot::Stage::Formatted)))
                next = Slot::Stage::Writing;
            else if ((slot = inStage(m_placed, Slot::Stage::Parsed)))
                next = Slot::Stage::Placing;
            else if ((slot = anyInStage(Slot::Stage::Placed)))
                next = Slot::Stage::Formatting;
            else if (m_parsed < m_chunks.count() && (slot = freeSlot())) {
                slot->chunk = m_parsed++;
                next = Slot::Stage::Parsing;
            }
            if (!slot) {
                if (m_busy == 0)
                    break; // nothing in flight and nothing to do: cannot happen unless failed
                m_changed.wait(lock);
                continue;
            }
            const Slot::Stage from = slot->stage;
            slot->stage = next;
            ++m_busy;
            lock.unlock();
            Status done;
            try {
                done = run(*slot, next);
            } catch (const std::bad_alloc&) {
                // Out of memory is the caller's to report (the CLI says to give it more memory or ranks).
                m_outOfMemory = true;
                done = makeError(ErrorCode::Internal, "out of memory");
            } catch (const std::exception& e) {
                done = makeError(ErrorCode::Internal, std::string("the stream failed: ") + e.what());
            }
            lock.lock();
            --m_busy;
            if (!done && !m_failure)
                m_failure = done.error();
            advance(*slot, from, next);
            m_changed.notify_all();
        }
        m_changed.notify_all();
    }

    const std::optional<Error>& failure() const { return m_failure; }
    /// Whether a task ran out of memory (which failure() then names).
    bool outOfMemory() const { return m_outOfMemory; }
    model::Graph& idGraph() { return m_idGraph; }
    std::uint64_t edges() const { return m_edgeCount; }
    std::uint64_t selfLoops() const { return m_selfLoops; }
    double readSeconds() const { return m_readSeconds; }
    double placedSeconds() const { return m_placedSeconds; }
    /// Each vertex's home, as the stream gave it.
    const std::vector<std::uint8_t>& homes() const { return m_allHomes; }

private:
    static constexpr std::size_t kSlots = 8; ///< chunks in flight: the memory is a few times 16 MB

    Slot* inStage(std::size_t chunk, Slot::Stage stage)
    {
        for (auto& s : m_slots)
            if (s.stage == stage && s.chunk == chunk)
                return &s;
        return nullptr;
    }
    Slot* anyInStage(Slot::Stage stage)
    {
        Slot* oldest = nullptr;
        for (auto& s : m_slots)
            if (s.stage == stage && (!oldest || s.chunk < oldest->chunk))
                oldest = &s;
        return oldest;
    }
    Slot* freeSlot()
    {
        for (auto& s : m_slots)
            if (s.stage == Slot::Stage::Free)
                return &s;
        return nullptr;
    }

    /// The task itself, outside the lock.
    Status run(Slot& slot, Slot::Stage task)
    {
        switch (task) {
        case Slot::Stage::Parsing:
            return m_chunks.parse(slot.chunk, slot.parsed);
        case Slot::Stage::Placing:
            return place(slot);
        case Slot::Stage::Formatting:
            format(slot);
            return {};
        case Slot::Stage::Writing:
            if (m_masters)
                if (auto s = m_masters->append(slot.mastersText); !s)
                    return s;
            return m_edges.append(slot.text);
        default:
            return {};
        }
    }
    /// Records a finished task (under the lock).
    void advance(Slot& slot, Slot::Stage from, Slot::Stage task)
    {
        switch (task) {
        case Slot::Stage::Parsing:
            slot.stage = Slot::Stage::Parsed;
            if (slot.chunk + 1 == m_chunks.count())
                m_readSeconds = seconds();
            break;
        case Slot::Stage::Placing:
            slot.stage = Slot::Stage::Placed;
            ++m_placed;
            if (m_placed == m_chunks.count())
                m_placedSeconds = seconds();
            m_feedback.setProgress(static_cast<double>(m_placed) / static_cast<double>(m_chunks.count()),
                                   "partitioning the graph as it is read");
            break;
        case Slot::Stage::Formatting:
            slot.stage = Slot::Stage::Formatted;
            break;
        case Slot::Stage::Writing:
            slot.stage = Slot::Stage::Free;
            slot.text.clear();
            slot.mastersText.clear();
            ++m_appended;
            break;
        default:
            slot.stage = from;
        }
    }

    /// Renumbers the chunk's ids (new vertices get their homes), then places its edges: in chunk order, on one
    /// worker at a time.
    Status place(Slot& slot)
    {
        if (slot.parsed.error)
            return io::detail::SnapChunks::located(slot.parsed, m_linesBefore);
        m_linesBefore += slot.parsed.lines;
        const auto& raw = slot.parsed.pairs;
        slot.src.clear();
        slot.dst.clear();
        const std::uint32_t known = m_idGraph.vertexCount;
        constexpr std::size_t kAhead = 64; // the map is larger than the caches: its slots are loaded ahead
        for (std::size_t i = 0; i < raw.size(); i += 2) {
            if (i + kAhead < raw.size()) {
                m_ids.prefetch(raw[i + kAhead]);
                m_ids.prefetch(raw[i + kAhead + 1]);
            }
            const std::uint32_t u = m_ids.get(raw[i]);
            if (raw[i] == raw[i + 1]) {
                ++m_selfLoops;
                continue;
            }
            slot.src.push_back(u);
            slot.dst.push_back(m_ids.get(raw[i + 1]));
        }
        m_newHomes.clear();
        slot.mastersText.clear();
        for (std::uint32_t v = known; v < m_idGraph.vertexCount; ++v) {
            m_newHomes.push_back(m_homes.next(m_idGraph.originalId[v]));
            if (m_masters)
                io::appendVertexLine(slot.mastersText, m_idGraph.originalId[v], m_endings[m_newHomes.back()]);
        }
        // What this chunk brings is held from here on (the records of its new vertices are next).
        const auto edgesHeld = static_cast<double>(m_edgeCount + slot.src.size());
        held_share::set({static_cast<double>(slot.chunk + 1) / static_cast<double>(m_chunks.count()),
                         static_cast<double>(m_idGraph.vertexCount), edgesHeld});
        m_placer.addVertices(m_newHomes.data(), m_newHomes.size());
        m_allHomes.insert(m_allHomes.end(), m_newHomes.begin(), m_newHomes.end());
        slot.sites.resize(slot.src.size());
        m_placer.place(slot.src.data(), slot.dst.data(), slot.src.size(), m_edgeCount, slot.sites.data());
        m_edgeCount += slot.src.size();
        return {};
    }

    /// The chunk's `src dst site` lines, original ids as the file gives them.
    void format(Slot& slot) const
    {
        const auto& raw = slot.parsed.pairs;
        slot.text.clear();
        slot.text.reserve(raw.size() * 12);
        std::size_t e = 0;
        for (std::size_t i = 0; i < raw.size(); i += 2)
            if (raw[i] != raw[i + 1])
                io::appendEdgeLine(slot.text, raw[i], raw[i + 1], m_endings[slot.sites[e++]]);
        std::vector<std::uint32_t>().swap(slot.parsed.pairs);
    }

    double seconds() const { return std::chrono::duration<double>(Clock::now() - m_start).count(); }

    const io::detail::SnapChunks& m_chunks;
    OnlinePlacer& m_placer;
    StreamHomes& m_homes;
    io::StreamedFile& m_edges;
    io::StreamedFile* m_masters;
    const Feedback& m_feedback;
    model::Graph m_idGraph; ///< holds the original id of each dense id (no edges)
    io::detail::DenseIdMap m_ids;
    std::vector<std::string> m_endings;
    std::vector<Slot> m_slots;
    std::vector<std::uint8_t> m_newHomes, m_allHomes;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::size_t m_parsed = 0, m_placed = 0, m_appended = 0;
    int m_busy = 0;
    std::int64_t m_linesBefore = 0;
    std::uint64_t m_edgeCount = 0, m_selfLoops = 0;
    std::optional<Error> m_failure;
    std::atomic<bool> m_outOfMemory{false};
    Clock::time_point m_start;
    double m_readSeconds = 0.0, m_placedSeconds = 0.0;
};

} // namespace

bool canStreamSnap(const std::string& algorithm, const cost::TrafficProfile& profile)
{
    return hasOnlinePlacer(algorithm) && !profile.binds();
}

namespace {

/// The homes file's lines; none without one.
Expected<std::vector<io::HomeLine>> homeLinesOf(const SnapStreamRequest& request)
{
    if (request.homesPath.empty())
        return std::vector<io::HomeLine>{};
    return io::readHomeLines(request.homesPath, *request.topology);
}

} // namespace

bool splitsSnapOverRanks(const std::string& algorithm, const ParamValues& values)
{
    // A saved run from before `batch` was added has none: it ran one edge at a time.
    const bool batched = values.contains("batch") && values.integer("batch") > 0;
    if (algorithm == "geo-cut")
        return batched && values.choice("start") == "cost" && !GeoCutPartitioner::refines(values);
    return algorithm == "hash" || (algorithm == "hdrf" && batched);
}

std::string overRanksRefusal(const std::string& algorithm)
{
    if (algorithm == "hdrf")
        return "HDRF places each edge from those placed before it: over ranks it runs in batches, whose partition is "
               "the same on any number of ranks and in one process; give it --param batch=65536 (edges placed "
               "at once: smaller is closer to HDRF one edge at a time, larger takes fewer rounds)";
    if (algorithm == "geo-cut")
        return "over ranks Geo-Cut runs its stage 1, the paper's cost-aware streaming, in batches, whose partition is "
               "the same on any number of ranks and in one process; its stages 2 and 3 refine the whole graph in one "
               "process. Give it --param start=cost --param batch=65536 --param lq_fraction=0 --param "
               "replica_passes=0 (and relocate_data off, its default), or start it without mpirun";
    return "under an MPI launcher a graph splits over the ranks only for hash, HDRF in batches and Geo-Cut's stage 1 "
           "in batches ('"
        + algorithm + "' places each edge from those placed before it): start it without mpirun";
}

namespace {

/// partitionSnapStream in one process: the placer's stream on every core.
Expected<SnapStreamResult> streamInOneProcess(const SnapStreamRequest& request, const Feedback& feedback)
{
    const auto start = Clock::now();
    const auto& topology = *request.topology;
    auto network = cost::GasNetwork::fromTopology(topology);
    if (!network)
        return network.error();
    auto homeLines = homeLinesOf(request);
    if (!homeLines)
        return homeLines.error();
    auto chunks = io::detail::SnapChunks::open(request.graphPath, request.chunkBytes);
    if (!chunks)
        return chunks.error();
    auto edges = io::StreamedFile::create(request.edgesPath);
    if (!edges)
        return edges.error();
    std::optional<io::StreamedFile> masters;
    if (!request.mastersPath.empty()) {
        auto created = io::StreamedFile::create(request.mastersPath);
        if (!created)
            return created.error();
        masters.emplace(std::move(*created));
    }
    auto placer = makeOnlinePlacer(request.algorithm, request.values, request.seed, topology.siteCount());
    StreamHomes homes(*homeLines, topology.siteCount(), request.homesSeed);
    Stream stream(request, *chunks, *placer, homes, *edges, masters ? &*masters : nullptr, feedback);
    FirstException thrown;
    feedback.executor().shareWork(std::max(1, feedback.executor().concurrency()),
                                  [&](int) { thrown.run([&] { stream.work(); }); });
    thrown.rethrow();
    if (stream.outOfMemory())
        throw std::bad_alloc(); // with the stream's memory released, as any allocation failure reaches the caller
    if (stream.failure())
        return *stream.failure();

    auto& ids = stream.idGraph();
    if (stream.edges() == 0)
        return makeError(ErrorCode::InvalidInput, "the graph has no edges (self-loops are dropped)",
                         SourceLocation{request.graphPath, 0, 0});
    // The homes file is checked against the graph as readHomes checks it: the first bad line in the file wins.
    if (!request.homesPath.empty()) {
        auto checked = io::homesOf(request.homesPath, *homeLines, ids.originalId);
        if (!checked)
            return checked.error();
    }
    if (auto s = edges->finish(); !s)
        return s.error();
    if (masters)
        if (auto s = masters->finish(); !s)
            return s.error();
    if (feedback.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    std::vector<io::StreamedFile*> files{&*edges};
    if (masters)
        files.push_back(&*masters);
    if (auto s = io::commitTogether(files); !s)
        return s.error();

    SnapStreamResult result;
    std::vector<std::uint64_t> replicas, inSites;
    placer->sites(replicas, inSites);
    result.metrics = cost::evaluateGasFromSites(replicas, inSites, stream.homes(),
                                                cost::combiningSizes(ids.vertexCount, request.profile), *network);
    result.vertices = ids.vertexCount;
    result.edges = stream.edges();
    result.selfLoopsDropped = stream.selfLoops();
    result.homesFromFile = homes.fromFile;
    result.homesDrawn = homes.drawn;
    result.readSeconds = stream.readSeconds();
    result.placedSeconds = stream.placedSeconds();
    result.wholeSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
}

} // namespace

Expected<SnapStreamResult> partitionSnapStream(const SnapStreamRequest& request, const Feedback& feedback)
{
    const bool batched = request.algorithm != "hash" && splitsSnapOverRanks(request.algorithm, request.values);
    if (request.profile.binds() || !(canStreamSnap(request.algorithm, request.profile) || batched))
        return makeError(ErrorCode::Internal,
                         "partitionSnapStream takes hash, hdrf or geo-cut in batches with a combining profile");
    // Hash and the streams in batches split over ranks (partitionSnapOverRanks); a rank of a stream in batches also
    // holds its edges (8 bytes each) and its vertices' degrees; hash, on dense ids, its edges and tables by id.
    const bool splits = splitsSnapOverRanks(request.algorithm, request.values);
    if (batched)
        held_share::begin(splits, 9.0, 79.0);
    else
        held_share::begin(splits, detail::kDenseEdgeBytes, 0.0,
                          detail::denseVertexBytesEachRank(request.topology->siteCount()));
    if (feedback.ranks().size() > 1)
        return partitionSnapOverRanks(request, feedback);
    // In one process a stream in batches needs every edge at once: it runs on the graph in memory (placeInBatches).
    if (batched)
        return makeError(ErrorCode::Internal, "partitionSnapStream runs streams in batches only over ranks");
    return streamInOneProcess(request, feedback);
}

} // namespace meridian::partition
