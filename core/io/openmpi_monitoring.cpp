#include "core/io/openmpi_monitoring.h"

#include "core/io/text_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

namespace meridian::io {

namespace {

namespace fs = std::filesystem;

/// More ranks than any monitoring run writes files for; a claim above it is refused before allocating.
constexpr long long kMaxRanks = 1 << 22;

struct ProfFile {
    int rank = 0;
    std::string path;
    /// The rank as the file's name writes it ("00" for app.00.prof); Open MPI writes "%d", without leading zeros.
    std::string rankText;
};

/// The ranks of the files of one communicator's members (its procs list), each as often as its file lists one
/// with these members: every member lists every communicator it belongs to, so the counts agree unless a file is
/// cut short. Keyed by the members, not the name (a name is local to a process).
using Memberships = std::map<std::vector<int>, std::map<int, int>>;

/// The NAME.RANK.prof files of `folder`, grouped by NAME.
Expected<std::map<std::string, std::vector<ProfFile>>> listProfFiles(const std::string& folder)
{
    std::error_code error;
    if (!fs::is_directory(folder, error))
        return makeError(ErrorCode::Io, folder + " is not a folder (give the folder of the .prof files)");
    std::map<std::string, std::vector<ProfFile>> runs;
    for (const auto& entry : fs::directory_iterator(folder, error)) {
        const std::string file = entry.path().filename().string();
        if (file.size() < 6 || file.compare(file.size() - 5, 5, ".prof") != 0)
            continue;
        const std::string stem = file.substr(0, file.size() - 5);
        const auto dot = stem.rfind('.');
        if (dot == std::string::npos)
            continue;
        const auto rank = parseInteger(std::string_view(stem).substr(dot + 1));
        if (!rank || *rank < 0 || *rank >= kMaxRanks)
            continue;
        runs[stem.substr(0, dot)].push_back(
            {static_cast<int>(*rank), entry.path().string(), std::string(std::string_view(stem).substr(dot + 1))});
    }
    if (error)
        return makeError(ErrorCode::Io, "cannot list " + folder + ": " + error.message());
    return runs;
}

/// A line split on tabs, with the column where each field starts.
struct Fields {
    std::vector<std::string_view> text;
    std::vector<int> column;
};

Fields splitTabs(std::string_view line)
{
    Fields fields;
    std::size_t start = 0;
    while (true) {
        const auto tab = line.find('\t', start);
        fields.text.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
        fields.column.push_back(static_cast<int>(start) + 1);
        if (tab == std::string_view::npos)
            return fields;
        start = tab + 1;
    }
}

/// Reads one file's lines into the capture.
class ProfParser {
public:
    ProfParser(const ProfFile& file, std::string_view text, MonitoringCapture& capture,
               std::vector<model::CommEntry>& entries, std::map<std::string, std::size_t>& communicatorIndex,
               Memberships& memberships)
        : m_file(file)
        , m_text(text)
        , m_capture(capture)
        , m_entries(entries)
        , m_communicatorIndex(communicatorIndex)
        , m_memberships(memberships)
    {}

    Status parse()
    {
        LineReader lines(m_text);
        bool pointToPoint = false, collectives = false, records = false;
        while (lines.next()) {
            m_line = lines.number();
            const std::string_view line = lines.line();
            if (trim(line).empty())
                continue;
            records = true;
            const Fields fields = splitTabs(line);
            if (auto ok = expectTotal(fields); !ok)
                return ok;
            if (line.front() == '#') {
                pointToPoint = pointToPoint || line.find("POINT TO POINT") != std::string_view::npos;
                collectives = collectives || line.find("COLLECTIVES") != std::string_view::npos;
                continue;
            }
            if (auto ok = parseLine(fields); !ok)
                return ok;
        }
        if (!records)
            return parseError(m_file.path, 1, 1,
                              "the file is empty: expected Open MPI's monitoring records, starting with "
                              "'# POINT TO POINT' (a rank's sends would be missing)");
        if (!m_text.empty() && m_text.back() != '\n')
            return parseError(m_file.path, m_line, 1, "the file is truncated: its last line has no end");
        if (pointToPoint && !collectives)
            return parseError(m_file.path, m_line, 1,
                              "the file is truncated: it ends before its '# COLLECTIVES' section");
        if (m_totals >= 0)
            return parseError(m_file.path, m_line, 1,
                              "the file is truncated: the communicator of line " + std::to_string(m_communicatorLine)
                                  + " lacks its '" + kTotals[m_totals] + "' line (Open MPI writes O2A, A2O and A2A "
                                  + "after each D line)");
        return {};
    }

    int worldSize() const { return m_worldSize; }
    int maxRank() const { return m_maxRank; }
    int lastLine() const { return m_line; }

private:
    static constexpr const char* kTotals[] = {"O2A", "A2O", "A2A"};

    /// After a D line, Open MPI writes its O2A, A2O and A2A lines, in this order: anything else is a cut file.
    Status expectTotal(const Fields& f)
    {
        m_expectedTotal = m_totals >= 0;
        if (m_totals < 0)
            return {};
        if (f.text.front() != kTotals[m_totals])
            return fieldError(f, 0,
                              "the '" + std::string(kTotals[m_totals]) + "' line of the communicator of line "
                                  + std::to_string(m_communicatorLine)
                                  + " (Open MPI writes O2A, A2O and A2A after each D line; is the file cut?)");
        m_totals = m_totals + 1 < 3 ? m_totals + 1 : -1;
        return {};
    }

    Error fieldError(const Fields& f, std::size_t k, const std::string& expected) const
    {
        const int column = k < f.column.size() ? f.column[k] : f.column.back();
        const std::string found = k < f.text.size() ? ", found " + shown(f.text[k]) : ", found the end of the line";
        return parseError(m_file.path, m_line, column, "expected " + expected + found);
    }

    /// A count as Open MPI writes it ("%zu bytes"): a whole number up to 2^64 - 1, then the unit.
    Expected<std::uint64_t> amount(const Fields& f, std::size_t k, std::string_view unit) const
    {
        if (k < f.text.size()) {
            const std::string_view text = trim(f.text[k]);
            if (text.size() > unit.size() && text.substr(text.size() - unit.size()) == unit) {
                const std::string_view digits = trim(text.substr(0, text.size() - unit.size()));
                std::uint64_t value = 0;
                const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
                if (error == std::errc() && end == digits.data() + digits.size() && !digits.empty())
                    return value;
            }
        }
        return fieldError(f, k, "a count followed by '" + std::string(trim(unit)) + "' (at most 2^64 - 1)");
    }

    Expected<int> rank(const Fields& f, std::size_t k) const
    {
        if (k < f.text.size())
            if (const auto value = parseInteger(f.text[k]); value && *value >= 0 && *value < kMaxRanks)
                return static_cast<int>(*value);
        return fieldError(f, k, "a rank (a whole number >= 0)");
    }

    Status parseLine(const Fields& f)
    {
        const std::string_view tag = f.text.front();
        if (tag == "E" || tag == "C" || tag == "I" || tag == "S" || tag == "R")
            return parsePair(f, tag);
        if (tag == "D")
            return parseCommunicator(f);
        if (tag == "O2A" || tag == "A2O" || tag == "A2A")
            return parseCommunicatorTotal(f, tag);
        return fieldError(f, 0, "a monitoring record (E, I, C, D, O2A, A2O, A2A, S or R)");
    }

    Status parsePair(const Fields& f, std::string_view tag)
    {
        auto from = rank(f, 1);
        if (!from)
            return from.error();
        auto to = rank(f, 2);
        if (!to)
            return to.error();
        auto bytes = amount(f, 3, " bytes");
        if (!bytes)
            return bytes.error();
        auto messages = amount(f, 4, " msgs sent");
        if (!messages)
            return messages.error();
        if (*from != m_file.rank)
            return fieldError(f, 1, "the rank of this file (" + std::to_string(m_file.rank) + ")");
        m_maxRank = std::max({m_maxRank, *from, *to});
        if (tag == "E")
            m_entries.push_back({*from, *to, static_cast<double>(*bytes), static_cast<double>(*messages)});
        else if (tag == "C")
            m_capture.collectiveTraffic.push_back({*from, *to, *bytes, *messages});
        return {};
    }

    Status parseCommunicator(const Fields& f)
    {
        const std::string_view procs = f.text.size() > 2 ? trim(f.text[2]) : std::string_view();
        if (f.text.size() < 3 || procs.substr(0, 6) != "procs:")
            return fieldError(f, 2, "'procs: ' and the communicator's ranks");
        MonitoredCommunicator communicator;
        communicator.name = std::string(trim(f.text[1]));
        std::string_view list = trim(procs.substr(6));
        while (!list.empty()) {
            const auto comma = list.find(',');
            const auto value = parseInteger(list.substr(0, comma));
            if (!value || *value < 0 || *value >= kMaxRanks)
                return fieldError(f, 2, "ranks separated by commas");
            communicator.ranks.push_back(static_cast<int>(*value));
            list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        }
        if (communicator.name == "MPI_COMM_WORLD")
            m_worldSize = static_cast<int>(communicator.ranks.size());
        ++m_memberships[communicator.ranks][m_file.rank];
        m_totals = 0;
        m_communicatorLine = m_line;
        std::string key = communicator.name;
        for (int r : communicator.ranks) {
            key += ',';
            key += std::to_string(r);
        }
        auto [it, added] = m_communicatorIndex.emplace(key, m_capture.communicators.size());
        if (added)
            m_capture.communicators.push_back(std::move(communicator));
        m_current = &m_capture.communicators[it->second];
        return {};
    }

    Status parseCommunicatorTotal(const Fields& f, std::string_view tag)
    {
        if (!m_expectedTotal || !m_current)
            return fieldError(f, 0, "a 'D' line describing the communicator first");
        auto bytes = amount(f, 2, " bytes");
        if (!bytes)
            return bytes.error();
        auto messages = amount(f, 3, " msgs sent");
        if (!messages)
            return messages.error();
        auto [b, m] = tag == "O2A" ? std::tie(m_current->oneToAllBytes, m_current->oneToAllMessages)
            : tag == "A2O"         ? std::tie(m_current->allToOneBytes, m_current->allToOneMessages)
                                   : std::tie(m_current->allToAllBytes, m_current->allToAllMessages);
        // The communicator's totals add up over its members' files: checked, never wrapped past 2^64.
        constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
        if (*bytes > kMax - b || *messages > kMax - m)
            return fieldError(f, *bytes > kMax - b ? 2 : 3,
                              "a count that keeps the communicator " + shown(m_current->name) + "'s " + std::string(tag)
                                  + " total within 2^64 - 1 (the files' counts add up past it)");
        b += *bytes;
        m += *messages;
        return {};
    }

    const ProfFile& m_file;
    std::string_view m_text;
    MonitoringCapture& m_capture;
    std::vector<model::CommEntry>& m_entries;
    std::map<std::string, std::size_t>& m_communicatorIndex;
    Memberships& m_memberships;
    MonitoredCommunicator* m_current = nullptr;
    int m_line = 0;
    int m_totals = -1; ///< the total line expected next after a D line (index in kTotals), -1 none
    int m_communicatorLine = 0;
    bool m_expectedTotal = false;
    int m_worldSize = 0;
    int m_maxRank = 0;
};

/// Picks the run to read: the one named, or the only one in the folder.
Expected<std::vector<ProfFile>> chooseRun(const std::string& folder, const std::string& name, std::string& chosen)
{
    auto runs = listProfFiles(folder);
    if (!runs)
        return runs.error();
    if (runs->empty())
        return makeError(ErrorCode::InvalidInput,
                         folder
                             + " holds no NAME.RANK.prof files (written by mpirun --mca pml_monitoring_enable 2 "
                               "--mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "
                             + folder + "/NAME)");
    if (!name.empty()) {
        const auto it = runs->find(name);
        if (it == runs->end())
            return makeError(ErrorCode::InvalidInput, folder + " holds no " + name + ".RANK.prof files");
        chosen = name;
        return it->second;
    }
    if (runs->size() > 1) {
        std::string names;
        for (const auto& [run, files] : *runs)
            names += (names.empty() ? "" : ", ") + run;
        return makeError(ErrorCode::InvalidInput,
                         folder + " holds the files of several runs (" + names + "): name the one to read");
    }
    chosen = runs->begin()->first;
    return runs->begin()->second;
}

/// Every rank below the world size must have its file; names the missing ones (the first few).
Status checkRanks(const std::string& folder, const std::string& name, const std::set<int>& present, int worldSize)
{
    std::string missing;
    int count = 0;
    for (int r = 0; r < worldSize; ++r)
        if (!present.count(r) && ++count <= 8)
            missing += (missing.empty() ? "" : ", ") + std::to_string(r);
    if (count == 0)
        return {};
    return makeError(ErrorCode::InvalidInput,
                     std::to_string(count) + " of " + std::to_string(worldSize) + " ranks have no file in " + folder
                         + ": rank" + (count > 1 ? "s " : " ") + missing + (count > 8 ? ", ..." : "") + " (expected "
                         + name + "." + missing.substr(0, missing.find(',')) + ".prof)");
}

/// Open MPI names rank R's file NAME.R.prof ("%d"): a rank written otherwise (app.00.prof) would be read as a
/// second file of the same rank and its traffic counted twice. `files` are sorted by rank.
Status checkFileNames(const std::vector<ProfFile>& files)
{
    for (std::size_t k = 0; k < files.size(); ++k) {
        const ProfFile& f = files[k];
        const std::string rank = std::to_string(f.rank);
        if (f.rankText != rank) {
            const std::string expected = f.path.substr(0, f.path.size() - 5 - f.rankText.size()) + rank + ".prof";
            const auto twin = std::find_if(files.begin(), files.end(),
                                           [&](const ProfFile& o) { return o.rank == f.rank && &o != &f; });
            return makeError(ErrorCode::InvalidInput,
                             "the rank " + shown(f.rankText)
                                 + " in this name is not written as Open MPI writes it: " + "expected " + expected
                                 + (twin == files.end() ? std::string()
                                                        : " (" + twin->path + " holds rank " + rank
                                            + " too: its traffic would be counted twice)"),
                             {f.path, 0, 0});
        }
        if (k > 0 && files[k - 1].rank == f.rank)
            return makeError(ErrorCode::InvalidInput,
                             "rank " + rank + " is given twice, by " + files[k - 1].path + " and " + f.path,
                             {f.path, 0, 0});
    }
    return {};
}

std::string describeMembers(const std::vector<int>& members)
{
    std::string text;
    for (std::size_t k = 0; k < members.size() && k < 8; ++k) {
        if (k > 0)
            text += ',';
        text += std::to_string(members[k]);
    }
    return members.size() > 8 ? text + ",... (" + std::to_string(members.size()) + " ranks)" : text;
}

/// Where each rank's file is, and its last line.
struct FileEnd {
    std::string path;
    int lastLine = 0;
};

/// Every member of a communicator lists it in its own file: a file that lists fewer of a group's communicators
/// than another member's was cut inside its '# COLLECTIVES' section, between two communicators. Communicators
/// listed only by ranks outside their members (the remote group of an intercommunicator) are not compared.
Status checkMemberships(const Memberships& memberships, const std::map<int, FileEnd>& files)
{
    for (const auto& [members, listedBy] : memberships) {
        int most = 0, mostBy = -1;
        for (const auto& [rank, count] : listedBy)
            if (count > most && std::find(members.begin(), members.end(), rank) != members.end())
                std::tie(most, mostBy) = std::pair(count, rank);
        for (const int r : members) {
            const auto file = files.find(r);
            const auto listed = listedBy.find(r);
            const int count = listed == listedBy.end() ? 0 : listed->second;
            if (most == 0 || file == files.end() || count >= most)
                continue;
            return makeError(ErrorCode::Parse,
                             "the file is truncated in its '# COLLECTIVES' section: it lists " + std::to_string(count)
                                 + " communicator(s) of ranks " + describeMembers(members) + " where "
                                 + files.at(mostBy).path + " lists " + std::to_string(most)
                                 + " (every member's file lists each of its communicators)",
                             {file->second.path, file->second.lastLine, 0});
        }
    }
    return {};
}

} // namespace

Expected<MonitoringCapture> readOpenMpiMonitoring(const std::string& folder, const std::string& name)
{
    MonitoringCapture capture;
    auto files = chooseRun(folder, name, capture.name);
    if (!files)
        return files.error();
    std::sort(files->begin(), files->end(), [](const ProfFile& a, const ProfFile& b) { return a.rank < b.rank; });
    if (auto ok = checkFileNames(*files); !ok)
        return ok.error();
    std::vector<model::CommEntry> entries;
    std::map<std::string, std::size_t> communicatorIndex;
    Memberships memberships;
    std::map<int, FileEnd> ends;
    std::set<int> present;
    int worldSize = 0, maxRank = 0;
    for (const ProfFile& file : *files) {
        auto text = readTextFile(file.path);
        if (!text)
            return text.error();
        ProfParser parser(file, *text, capture, entries, communicatorIndex, memberships);
        if (auto ok = parser.parse(); !ok)
            return ok.error();
        present.insert(file.rank);
        ends[file.rank] = {file.path, parser.lastLine()};
        worldSize = std::max(worldSize, parser.worldSize());
        maxRank = std::max(maxRank, parser.maxRank());
    }
    if (auto ok = checkMemberships(memberships, ends); !ok)
        return ok.error();
    worldSize = std::max({worldSize, maxRank + 1, *present.rbegin() + 1});
    if (auto ok = checkRanks(folder, capture.name, present, worldSize); !ok)
        return ok.error();
    auto comm = model::CommMatrix::fromEntries(worldSize, entries, true);
    if (!comm)
        return comm.error();
    capture.pointToPoint = std::move(*comm);
    std::stable_partition(capture.communicators.begin(), capture.communicators.end(),
                          [](const MonitoredCommunicator& c) { return c.name == "MPI_COMM_WORLD"; });
    return capture;
}

std::string monitoringCollectivesJson(const MonitoringCapture& capture)
{
    nlohmann::ordered_json json;
    json["format"] = "meridian-collectives";
    json["version"] = 2;
    json["source"] = "openmpi-monitoring";
    json["processes"] = capture.pointToPoint.processCount();
    json["traffic"] = kMonitoredTrafficDefinition;
    auto& communicators = json["communicators"] = nlohmann::ordered_json::array();
    for (const auto& c : capture.communicators)
        communicators.push_back({{"name", c.name},
                                 {"ranks", c.ranks},
                                 {"one_to_all", {{"bytes", c.oneToAllBytes}, {"messages", c.oneToAllMessages}}},
                                 {"all_to_one", {{"bytes", c.allToOneBytes}, {"messages", c.allToOneMessages}}},
                                 {"all_to_all", {{"bytes", c.allToAllBytes}, {"messages", c.allToAllMessages}}}});
    auto& traffic = json["collective_traffic"] = nlohmann::ordered_json::array();
    for (const auto& t : capture.collectiveTraffic)
        traffic.push_back({{"from", t.from}, {"to", t.to}, {"bytes", t.bytes}, {"messages", t.messages}});
    // A name from a file may hold bytes that are not UTF-8: written as U+FFFD rather than refused.
    return json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

} // namespace meridian::io
