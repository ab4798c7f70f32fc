#include "core/io/netpipe.h"

#include "core/common/utc_date.h"
#include "core/io/text_file.h"
#include "core/model/network.h"

#include <sys/stat.h>

#include <limits>
#include <vector>

namespace meridian::io {

namespace {

/// The blank-separated fields of a line with the column each starts at.
std::vector<std::pair<std::string_view, int>> splitBlanks(std::string_view line)
{
    std::vector<std::pair<std::string_view, int>> fields;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            ++i;
        if (i > start)
            fields.emplace_back(line.substr(start, i - start), static_cast<int>(start) + 1);
    }
    return fields;
}

} // namespace

Expected<NetpipeLink> readNetpipe(const std::string& path)
{
    auto text = readTextFile(path);
    if (!text)
        return text.error();
    NetpipeLink link;
    link.latencyBytes = std::numeric_limits<std::int64_t>::max();
    int latencyLine = 0, latencyColumn = 0; // where the latency's time was read
    LineReader lines(*text);
    while (lines.next()) {
        if (isBlankOrComment(lines.line()))
            continue;
        const auto fields = splitBlanks(lines.line());
        if (fields.size() != 3)
            return parseError(path, lines.number(), fields.empty() ? 1 : fields.front().second,
                              "expected 'bytes Mbps seconds' (NetPIPE's -o output), found " + shown(lines.line()));
        const auto bytes = parseInteger(fields[0].first);
        const auto mbps = parseNumber(fields[1].first);
        const auto seconds = parseNumber(fields[2].first);
        if (!bytes || *bytes < 1)
            return parseError(path, lines.number(), fields[0].second,
                              "expected a message size in bytes (a whole number >= 1), found " + shown(fields[0].first));
        if (!mbps || !model::isValidNetworkValue(model::NetworkQuantity::Bandwidth, *mbps * kNetpipeMbpsInMBps))
            return parseError(path, lines.number(), fields[1].second,
                              "expected a throughput in Mbps from 1e-06 (1 bit/s) to 1e+07 (10 Tbit/s), found "
                                  + shown(fields[1].first));
        if (!seconds || *seconds <= 0)
            return parseError(path, lines.number(), fields[2].second,
                              "expected a one-way time in seconds (> 0), found " + shown(fields[2].first));
        // The latency: the fastest of the small messages (the first, smallest one is often slowed by warm-up), or
        // the smallest message's time when none is small.
        const bool small = *bytes <= kNetpipeLatencyBytes;
        const bool latencySmall = link.latencyBytes <= kNetpipeLatencyBytes;
        if ((small && (!latencySmall || *seconds * 1e3 < link.latencyMs))
            || (!small && !latencySmall && *bytes < link.latencyBytes)) {
            link.latencyBytes = *bytes;
            link.latencyMs = *seconds * 1e3;
            latencyLine = lines.number();
            latencyColumn = fields[2].second;
        }
        if (*mbps * kNetpipeMbpsInMBps > link.bandwidthMBps) {
            link.bandwidthMBps = *mbps * kNetpipeMbpsInMBps;
            link.peakBytes = *bytes;
        }
        ++link.points;
    }
    if (link.points == 0)
        return parseError(path, lines.number(), 1, "no measurement: expected NetPIPE's 'bytes Mbps seconds' lines");
    if (!model::isValidNetworkValue(model::NetworkQuantity::Latency, link.latencyMs))
        return parseError(path, latencyLine, latencyColumn,
                          "the small messages' one-way time is a latency of " + std::to_string(link.latencyMs)
                              + " ms; expected " + model::networkValueRange(model::NetworkQuantity::Latency));
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0)
        link.measuredAt = static_cast<std::int64_t>(info.st_mtime);
    // The file's modification time dates the measurement: one of 1970 (a clock never set, and 0 is "unknown") or
    // in the future is refused rather than kept wrong.
    if (const auto problem = measurementDateProblem(link.measuredAt))
        return makeError(ErrorCode::InvalidInput,
                         "the file's modification time dates the measurement, and it is not plausible: " + *problem
                             + " (set it with touch -d YYYY-MM-DDTHH:MM:SSZ)",
                         {path, 0, 0});
    return link;
}

} // namespace meridian::io
