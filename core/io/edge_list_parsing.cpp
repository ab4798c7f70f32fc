#include "core/io/edge_list_parsing.h"

#include <algorithm>

#include "core/io/text_file.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace meridian::io::detail {

Error ioError(const std::string& path, const std::string& what)
{
    return makeError(ErrorCode::Io, what + ": " + std::strerror(errno), SourceLocation{path, 0, 0});
}

/// Calls `onLine(line, number)` for every line of a file read in blocks (LF or CRLF; the CR is kept for the
/// parser to treat as white space). Stops at the first error the callback returns.
Status forEachLine(const std::string& path, const std::function<Status(std::string_view, std::int64_t)>& onLine,
                   std::uint64_t* fileSize)
{
    std::uint64_t size = 0;
    auto opened = openRegularFile(path, kMaxGraphFileBytes, &size);
    if (!opened)
        return opened.error();
    File f(::fdopen(*opened, "rb"));
    if (!f) {
        ::close(*opened);
        return ioError(path, "cannot open");
    }
    std::uint64_t total = 0;
    if (fileSize)
        *fileSize = size;
    // A block, or the whole file when it is smaller (a longer line grows the buffer below).
    std::vector<char> buffer(static_cast<std::size_t>(std::clamp<std::uint64_t>(size + 1, 4096, kBlock)));
    std::size_t carried = 0;
    std::int64_t line = 0;
    while (true) {
        const std::size_t got = std::fread(buffer.data() + carried, 1, buffer.size() - carried, f.get());
        if (got == 0 && std::ferror(f.get()))
            return ioError(path, "cannot read");
        // No line-based input holds a NUL byte; a file that grew past what was opened stops at the limit.
        if (const auto nul = findNulByte(std::string_view(buffer.data() + carried, got)); nul != std::string_view::npos)
            return nulByteError(path, {}, total + nul);
        total += got;
        if (total > kMaxGraphFileBytes)
            return makeError(ErrorCode::Io, "the file grew past the largest input read while it was read", {path});
        const std::size_t size = carried + got;
        const bool last = got == 0 || std::feof(f.get());
        std::size_t start = 0;
        while (true) {
            const void* nl = std::memchr(buffer.data() + start, '\n', size - start);
            if (!nl)
                break;
            const std::size_t end = static_cast<const char*>(nl) - buffer.data();
            // A UTF-8 byte-order mark is no part of the first line.
            const std::string_view text(buffer.data() + start, end - start);
            const bool first = line++ == 0;
            if (auto ok = onLine(first ? withoutByteOrderMark(text) : text, line); !ok)
                return ok;
            start = end + 1;
        }
        carried = size - start;
        if (last) {
            if (carried > 0) {
                const std::string_view text(buffer.data() + start, carried);
                const bool first = line++ == 0;
                if (auto ok = onLine(first ? withoutByteOrderMark(text) : text, line); !ok)
                    return ok;
            }
            return {};
        }
        if (carried == buffer.size())
            buffer.resize(buffer.size() * 2); // a single line longer than a block
        std::memmove(buffer.data(), buffer.data() + start, carried);
    }
}

/// Parses a non-negative id at line[pos]; on success advances pos past it.

Expected<int> parseSiteName(const std::string& path, std::int64_t number, std::string_view line, std::size_t& pos,
                            const model::Topology& topology)
{
    skipSpaces(line, pos);
    std::size_t end = pos;
    while (end < line.size() && !isSpace(line[end]))
        ++end;
    const std::string_view name = line.substr(pos, end - pos);
    if (name.empty())
        return parseError(path, static_cast<int>(number), static_cast<int>(pos) + 1, "expected a site name");
    const auto site = topology.siteIndex(name);
    if (!site)
        return parseError(path, static_cast<int>(number), static_cast<int>(pos) + 1,
                          "unknown site '" + std::string(name) + "'");
    pos = end;
    return *site;
}

} // namespace meridian::io::detail
