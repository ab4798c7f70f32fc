#include "core/io/otf2_trace.h"

#include "core/io/text_file.h"

#include <nlohmann/json.hpp>
#include <otf2/otf2.h>

#include <algorithm>
#include <cstdarg>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>

#include <unistd.h>

namespace meridian::io {

namespace {

/// The definitions the counting needs, keyed as OTF2 keys them (groups by type and reference: a reference
/// may be defined once per type).
struct Definitions {
    std::map<std::pair<int, std::uint64_t>, std::vector<std::uint64_t>> groups;
    std::unordered_map<std::uint64_t, std::uint64_t> commGroup;
    /// The world's locations in rank order, and each location's rank.
    std::vector<std::uint64_t> worldLocations;
    std::unordered_map<std::uint64_t, int> rankOfLocation;
};

struct Counting {
    Definitions definitions;
    std::vector<model::CommEntry> entries;
    std::map<std::tuple<int, int, int>, std::map<int, std::pair<std::uint64_t, std::uint64_t>>> collectives;
    std::uint64_t events = 0;
    /// The sends seen per location, to name the one refused.
    std::unordered_map<std::uint64_t, std::uint64_t> sends;
    /// Why the events were refused (a send to a receiver outside its communicator), empty if they were not.
    std::string refusal;
    std::string problem;
};

OTF2_CallbackCode onGroup(void* data, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type, OTF2_Paradigm paradigm,
                          OTF2_GroupFlag, uint32_t count, const uint64_t* members)
{
    auto& d = static_cast<Counting*>(data)->definitions;
    d.groups[{type, self}] = std::vector<std::uint64_t>(members, members + count);
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && paradigm == OTF2_PARADIGM_MPI)
        d.worldLocations = d.groups[{type, self}];
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onComm(void* data, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group, OTF2_CommRef, OTF2_CommFlag)
{
    static_cast<Counting*>(data)->definitions.commGroup[self] = group;
    return OTF2_CALLBACK_SUCCESS;
}

/// The world rank of rank `rank` of `comm`, or -1 (MPI_PROC_NULL and other ranks outside the communicator).
int worldRank(const Definitions& d, OTF2_CommRef comm, std::uint64_t rank)
{
    const auto group = d.commGroup.find(comm);
    if (group == d.commGroup.end())
        return -1;
    if (const auto members = d.groups.find({OTF2_GROUP_TYPE_COMM_GROUP, group->second}); members != d.groups.end())
        return rank < members->second.size() ? static_cast<int>(members->second[rank]) : -1;
    if (const auto locations = d.groups.find({OTF2_GROUP_TYPE_COMM_LOCATIONS, group->second});
        locations != d.groups.end() && rank < locations->second.size()) {
        const auto it = d.rankOfLocation.find(locations->second[rank]);
        return it == d.rankOfLocation.end() ? -1 : it->second;
    }
    return -1;
}

/// Counts a send, or refuses it (interrupting the reading): a receiver outside its communicator, or an unknown
/// communicator, is a damaged or foreign trace, and dropping the send would understate the traffic silently.
OTF2_CallbackCode countSend(Counting& c, OTF2_LocationRef location, OTF2_TimeStamp time, uint32_t receiver,
                            OTF2_CommRef comm, uint64_t length)
{
    const auto from = c.definitions.rankOfLocation.find(location);
    const std::uint64_t send = ++c.sends[location];
    // Events of a location outside the MPI world are not the application's; a receiver that is negative as an
    // MPI rank is MPI_PROC_NULL (-2 in Open MPI, -1 in MPICH), a send that moves nothing.
    if (from == c.definitions.rankOfLocation.end() || static_cast<std::int32_t>(receiver) < 0)
        return OTF2_CALLBACK_SUCCESS;
    const int to = worldRank(c.definitions, comm, receiver);
    if (to < 0) {
        c.refusal = "location " + std::to_string(location) + " (rank " + std::to_string(from->second) + "), its send "
            + std::to_string(send) + " (time " + std::to_string(time) + "), names receiver " + std::to_string(receiver)
            + " of communicator " + std::to_string(comm)
            + ", which is not one of its ranks: expected a rank of a communicator the trace defines";
        return OTF2_CALLBACK_INTERRUPT;
    }
    c.entries.push_back({from->second, to, static_cast<double>(length), 1.0});
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onSend(OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*,
                         uint32_t receiver, OTF2_CommRef comm, uint32_t, uint64_t length)
{
    return countSend(*static_cast<Counting*>(data), location, time, receiver, comm, length);
}

OTF2_CallbackCode onIsend(OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*,
                          uint32_t receiver, OTF2_CommRef comm, uint32_t, uint64_t length, uint64_t)
{
    return countSend(*static_cast<Counting*>(data), location, time, receiver, comm, length);
}

const char* operationName(int op)
{
    static const char* const names[] = {"barrier",
                                        "bcast",
                                        "gather",
                                        "gatherv",
                                        "scatter",
                                        "scatterv",
                                        "allgather",
                                        "allgatherv",
                                        "alltoall",
                                        "alltoallv",
                                        "alltoallw",
                                        "allreduce",
                                        "reduce",
                                        "reduce_scatter",
                                        "scan",
                                        "exscan",
                                        "reduce_scatter_block"};
    return op >= 0 && op < static_cast<int>(std::size(names)) ? names[op] : "other";
}

OTF2_CallbackCode onCollectiveEnd(OTF2_LocationRef location, OTF2_TimeStamp, void* data, OTF2_AttributeList*,
                                  OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent, uint64_t)
{
    auto& c = *static_cast<Counting*>(data);
    const auto from = c.definitions.rankOfLocation.find(location);
    const auto group = c.definitions.commGroup.find(comm);
    if (from == c.definitions.rankOfLocation.end() || group == c.definitions.commGroup.end())
        return OTF2_CALLBACK_SUCCESS;
    const auto members = c.definitions.groups.find({OTF2_GROUP_TYPE_COMM_GROUP, group->second});
    const int size = members == c.definitions.groups.end() ? 0 : static_cast<int>(members->second.size());
    const int rootWorld = root == OTF2_UNDEFINED_UINT32 ? -1 : worldRank(c.definitions, comm, root);
    auto& [calls, bytes] = c.collectives[{static_cast<int>(op), size, rootWorld}][from->second];
    // EZTrace's sent sizes to the send buffers' bytes (kCollectiveBytesDefinition).
    const bool fromRootOnly = op == OTF2_COLLECTIVE_OP_BCAST || op == OTF2_COLLECTIVE_OP_SCATTER
        || op == OTF2_COLLECTIVE_OP_SCATTERV;
    if (fromRootOnly && from->second != rootWorld)
        sent = 0;
    if (op == OTF2_COLLECTIVE_OP_SCATTER || op == OTF2_COLLECTIVE_OP_ALLTOALL) {
        if (size > 0 && sent > std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(size))
            sent = std::numeric_limits<std::uint64_t>::max(); // refused just below
        else
            sent *= static_cast<std::uint64_t>(size);
    }
    if (sent > std::numeric_limits<std::uint64_t>::max() - bytes) {
        c.refusal = "location " + std::to_string(location) + " (rank " + std::to_string(from->second)
            + "): the bytes its " + operationName(op) + " calls sent add up past 2^64 - 1";
        return OTF2_CALLBACK_INTERRUPT;
    }
    ++calls;
    bytes += sent;
    return OTF2_CALLBACK_SUCCESS;
}

/// Keeps OTF2's own error messages off the terminal: the first becomes the reason given to the user.
OTF2_ErrorCode onError(void* data, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char* format,
                       va_list arguments)
{
    auto* problem = static_cast<std::string*>(data);
    if (problem && problem->empty()) {
        char text[512];
        std::vsnprintf(text, sizeof text, format, arguments);
        *problem = text;
    }
    return code;
}

struct ReaderCloser {
    void operator()(OTF2_Reader* reader) const { OTF2_Reader_Close(reader); }
};
using Reader = std::unique_ptr<OTF2_Reader, ReaderCloser>;

Status readDefinitions(OTF2_Reader* reader, Counting& c)
{
    OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader);
    if (!defs)
        return makeError(ErrorCode::Parse, "no global definitions");
    OTF2_GlobalDefReaderCallbacks* callbacks = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(callbacks, onGroup);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(callbacks, onComm);
    OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, callbacks, &c);
    OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
    uint64_t read = 0;
    if (OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &read) != OTF2_SUCCESS)
        return makeError(ErrorCode::Parse, "its definitions cannot be read");
    if (c.definitions.worldLocations.empty())
        return makeError(ErrorCode::Parse, "it defines no MPI world (no COMM_LOCATIONS group of the MPI paradigm)");
    for (std::size_t r = 0; r < c.definitions.worldLocations.size(); ++r)
        c.definitions.rankOfLocation[c.definitions.worldLocations[r]] = static_cast<int>(r);
    return {};
}

Status readEvents(OTF2_Reader* reader, Counting& c)
{
    for (std::uint64_t location : c.definitions.worldLocations)
        OTF2_Reader_SelectLocation(reader, location);
    if (OTF2_Reader_OpenEvtFiles(reader) != OTF2_SUCCESS)
        return makeError(ErrorCode::Parse, "its event files cannot be opened");
    for (std::uint64_t location : c.definitions.worldLocations)
        if (!OTF2_Reader_GetEvtReader(reader, location))
            return makeError(ErrorCode::Parse, "the events of location " + std::to_string(location) + " are missing");
    OTF2_GlobalEvtReader* events = OTF2_Reader_GetGlobalEvtReader(reader);
    OTF2_GlobalEvtReaderCallbacks* callbacks = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(callbacks, onSend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(callbacks, onIsend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(callbacks, onCollectiveEnd);
    OTF2_Reader_RegisterGlobalEvtCallbacks(reader, events, callbacks, &c);
    OTF2_GlobalEvtReaderCallbacks_Delete(callbacks);
    uint64_t read = 0;
    const OTF2_ErrorCode status = OTF2_Reader_ReadAllGlobalEvents(reader, events, &read);
    OTF2_Reader_CloseGlobalEvtReader(reader, events);
    OTF2_Reader_CloseEvtFiles(reader);
    if (!c.refusal.empty())
        return makeError(ErrorCode::Parse, c.refusal);
    if (status != OTF2_SUCCESS)
        return makeError(ErrorCode::Parse, "its events cannot be read");
    c.events = read;
    return {};
}

std::vector<CollectiveRecord> collectiveRecords(const Counting& c)
{
    std::vector<CollectiveRecord> records;
    for (const auto& [key, perRank] : c.collectives) {
        CollectiveRecord r;
        r.operation = operationName(std::get<0>(key));
        r.communicatorSize = std::get<1>(key);
        r.root = std::get<2>(key);
        r.ranks = perRank.size();
        for (const auto& [rank, callsAndBytes] : perRank) {
            r.calls = std::max(r.calls, callsAndBytes.first);
            r.bytes += callsAndBytes.second;
        }
        records.push_back(std::move(r));
    }
    return records;
}

// The OTF2 library opens the archive's files itself, blocking: every file it may open (the anchor, NAME.def and the
// NAME/ folder's) must be a regular file, so that a FIFO or a device put there cannot make the reader wait forever.
Status checkArchiveFiles(const std::string& archive)
{
    namespace fs = std::filesystem;
    const fs::path anchor(archive);
    const fs::path stem = anchor.parent_path() / anchor.stem();
    std::vector<fs::path> files{anchor, fs::path(stem.string() + ".def")};
    std::error_code ec;
    if (fs::is_directory(stem, ec))
        for (fs::recursive_directory_iterator it(stem, ec), end; !ec && it != end; it.increment(ec))
            if (!it->is_directory(ec))
                files.push_back(it->path());
    for (const auto& file : files) {
        if (!fs::exists(fs::symlink_status(file, ec)))
            continue; // the library says what is missing
        auto fd = openRegularFile(file.string(), kMaxGraphFileBytes);
        if (!fd)
            return fd.error();
        ::close(*fd);
    }
    return {};
}

} // namespace

Expected<Otf2Capture> readOtf2Trace(const std::string& archive)
{
    std::error_code error;
    const bool anchor = archive.size() > 5 && archive.compare(archive.size() - 5, 5, ".otf2") == 0;
    if (!anchor || !std::filesystem::is_regular_file(archive, error))
        return makeError(ErrorCode::Io, archive + " is not an OTF2 archive (give its anchor file, NAME.otf2)");
    if (auto files = checkArchiveFiles(archive); !files)
        return files.error();
    Counting c;
    OTF2_Error_RegisterCallback(onError, &c.problem);
    const auto failed = [&](const Error& e) {
        OTF2_Error_RegisterCallback(onError, nullptr);
        return makeError(e.code,
                         archive + " is not a readable OTF2 archive: " + e.message
                             + (c.problem.empty() ? "" : " (" + c.problem + ")"));
    };
    Reader reader(OTF2_Reader_Open(archive.c_str()));
    if (!reader)
        return failed(makeError(ErrorCode::Parse, "it cannot be opened"));
    OTF2_Reader_SetSerialCollectiveCallbacks(reader.get());
    if (auto ok = readDefinitions(reader.get(), c); !ok)
        return failed(ok.error());
    if (auto ok = readEvents(reader.get(), c); !ok) {
        if (c.refusal.empty())
            return failed(ok.error());
        OTF2_Error_RegisterCallback(onError, nullptr);
        return makeError(ErrorCode::Parse, c.refusal, {archive, 0, 0});
    }
    OTF2_Error_RegisterCallback(onError, nullptr);
    auto comm = model::CommMatrix::fromEntries(static_cast<int>(c.definitions.worldLocations.size()), c.entries, true);
    if (!comm)
        return comm.error();
    Otf2Capture capture;
    capture.pointToPoint = std::move(*comm);
    capture.collectives = collectiveRecords(c);
    capture.events = c.events;
    return capture;
}

std::string collectivesJson(int processes, const std::vector<CollectiveRecord>& records, const std::string& source)
{
    nlohmann::ordered_json json;
    json["format"] = "meridian-collectives";
    json["version"] = 2;
    json["source"] = source;
    json["processes"] = processes;
    json["bytes"] = kCollectiveBytesDefinition;
    auto& list = json["collectives"] = nlohmann::ordered_json::array();
    for (const auto& r : records)
        list.push_back({{"phase", r.phase},
                        {"operation", r.operation},
                        {"communicator_size", r.communicatorSize},
                        {"root", r.root},
                        {"ranks", r.ranks},
                        {"calls", r.calls},
                        {"bytes", r.bytes}});
    // A name from a file may hold bytes that are not UTF-8: written as U+FFFD rather than refused.
    return json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

} // namespace meridian::io
