#include "core/io/text_file.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <utility>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace meridian::io {

namespace {

Error ioError(const std::string& path, const std::string& what, int error)
{
    return makeError(ErrorCode::Io, what + (error ? std::string(": ") + std::strerror(error) : std::string()), {path});
}

std::string byteCount(std::uint64_t bytes)
{
    char text[64];
    if (bytes >= (std::uint64_t{1} << 30))
        std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1 << 30));
    else if (bytes >= (1 << 20))
        std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
    else
        std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    return text;
}

} // namespace

Expected<int> openRegularFile(const std::string& path, std::uint64_t maxBytes, std::uint64_t* size)
{
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return ioError(path, "cannot open the file", errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int error = errno;
        ::close(fd);
        return ioError(path, "cannot read the file", error);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return ioError(path,
                       S_ISDIR(st.st_mode) ? "this is a folder, not a file"
                                           : "this is not a regular file (a device or a pipe)",
                       0);
    }
    if (static_cast<std::uint64_t>(st.st_size) > maxBytes) {
        ::close(fd);
        return ioError(path,
                       "the file is " + byteCount(static_cast<std::uint64_t>(st.st_size)) + "; at most "
                           + byteCount(maxBytes) + " are read for this kind of input",
                       0);
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        const int error = errno;
        ::close(fd);
        return ioError(path, "cannot read the file", error);
    }
    if (size)
        *size = static_cast<std::uint64_t>(st.st_size);
    return fd;
}

std::size_t findNulByte(std::string_view data)
{
    const void* at = std::memchr(data.data(), 0, data.size());
    return at ? static_cast<std::size_t>(static_cast<const char*>(at) - data.data()) : std::string_view::npos;
}

Error nulByteError(const std::string& path, std::string_view before, std::uint64_t offset)
{
    const auto line = std::count(before.begin(), before.end(), '\n') + 1;
    const auto lineStart = before.rfind('\n');
    const auto column = static_cast<int>(before.size() - (lineStart == std::string_view::npos ? 0 : lineStart + 1)) + 1;
    return makeError(ErrorCode::Parse,
                     "a NUL byte (at byte " + std::to_string(offset)
                         + "): this is a binary file, not a text file Meridian reads",
                     {path, static_cast<int>(std::min<std::int64_t>(line, INT32_MAX)), column});
}

Expected<std::string> readTextFile(const std::string& path, std::uint64_t maxBytes)
{
    std::uint64_t size = 0;
    auto opened = openRegularFile(path, maxBytes, &size);
    if (!opened)
        return opened.error();
    const int fd = *opened;
    std::string data;
    data.reserve(static_cast<std::size_t>(size));
    char buffer[1 << 16];
    while (true) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int error = errno;
            ::close(fd);
            return ioError(path, "cannot read the file", error);
        }
        if (n == 0)
            break;
        if (data.size() + static_cast<std::size_t>(n) > maxBytes) {
            ::close(fd);
            return ioError(path, "the file grew past " + byteCount(maxBytes) + " while it was read", 0);
        }
        if (const auto nul = findNulByte(std::string_view(buffer, static_cast<std::size_t>(n)));
            nul != std::string_view::npos) {
            ::close(fd);
            data.append(buffer, nul);
            return nulByteError(path, data, data.size());
        }
        data.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return data;
}

std::string uniqueTemporaryName(const std::string& path)
{
    static std::atomic<unsigned> counter{0};
    static const unsigned salt = std::random_device{}();
    char suffix[64];
    std::snprintf(suffix, sizeof suffix, ".part-%ld-%u-%08x", static_cast<long>(::getpid()), counter.fetch_add(1),
                  salt ^ static_cast<unsigned>(std::chrono::steady_clock::now().time_since_epoch().count()));
    return path + suffix;
}

bool syncFile(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::fsync(fd) == 0;
    const int error = errno;
    ::close(fd);
    errno = error;
    return ok;
}

void syncParentFolder(const std::string& path)
{
    const auto parent = std::filesystem::path(path).parent_path();
    const int fd = ::open(parent.empty() ? "." : parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)::fsync(fd);
        ::close(fd);
    }
}

void writeRecordsInParallel(std::ostream& out, std::size_t count, std::size_t blockSize,
                            const std::function<void(std::size_t begin, std::size_t end, std::string& buffer)>& format,
                            Executor& executor)
{
    const std::size_t blocks = (count + blockSize - 1) / blockSize;
    const int workers = std::max(1, executor.concurrency());
    // Two blocks per worker per batch, in two sets of buffers: while a batch is formatted, the calling thread
    // first writes the batch before it (the kernel's copy overlaps the formatting).
    const std::size_t batch = 2 * static_cast<std::size_t>(workers);
    std::vector<std::string> buffers[2] = {std::vector<std::string>(batch), std::vector<std::string>(batch)};
    std::size_t pending = 0; // blocks of the previous batch not yet written
    const auto writeOut = [&](const std::vector<std::string>& set, std::size_t n) {
        for (std::size_t k = 0; k < n; ++k)
            out.write(set[k].data(), static_cast<std::streamsize>(set[k].size()));
    };
    std::size_t round = 0;
    for (std::size_t first = 0; first < blocks; first += batch, ++round) {
        const std::size_t inBatch = std::min(batch, blocks - first);
        auto& current = buffers[round % 2];
        const auto& previous = buffers[(round + 1) % 2];
        std::atomic<std::size_t> next{0};
        executor.shareWork(workers, [&](int worker) {
            if (worker == 0)
                writeOut(previous, pending);
            for (std::size_t k = next++; k < inBatch; k = next++) {
                const std::size_t begin = (first + k) * blockSize;
                current[k].clear();
                format(begin, std::min(count, begin + blockSize), current[k]);
            }
        });
        pending = inBatch;
    }
    writeOut(buffers[(round + 1) % 2], pending);
}

StreamedFile::StreamedFile(std::string path, std::string temporary, int fd)
    : m_path(std::move(path))
    , m_temporary(std::move(temporary))
    , m_fd(fd)
{}

StreamedFile::StreamedFile(StreamedFile&& other) noexcept
    : m_path(std::move(other.m_path))
    , m_temporary(std::move(other.m_temporary))
    , m_fd(std::exchange(other.m_fd, -1))
    , m_size(other.m_size)
    , m_handedBack(other.m_handedBack)
    , m_committed(std::exchange(other.m_committed, true))
{}

StreamedFile::~StreamedFile()
{
    if (m_fd >= 0)
        ::close(m_fd);
    if (!m_committed && !m_temporary.empty()) {
        std::error_code ignored;
        std::filesystem::remove(m_temporary, ignored);
    }
}

Expected<StreamedFile> StreamedFile::create(const std::string& path)
{
    std::string temporary = uniqueTemporaryName(path);
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return ioError(path, "cannot create the file", errno);
    return StreamedFile(path, std::move(temporary), fd);
}

Expected<StreamedFile> StreamedFile::openPiece(const std::string& path, const std::string& temporary)
{
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return ioError(path,
                       "cannot open the file that rank 0 is writing (" + temporary
                           + "): every rank must see the output's folder",
                       errno);
    StreamedFile piece(path, temporary, fd);
    piece.markCommitted(); // rank 0's to rename or remove
    return piece;
}

Status StreamedFile::writeAt(std::uint64_t offset, std::string_view data)
{
    const std::uint64_t first = offset;
    while (!data.empty()) {
        const ssize_t n = ::pwrite(m_fd, data.data(), data.size(), static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return ioError(m_path, "cannot write the file", errno);
        data.remove_prefix(static_cast<std::size_t>(n));
        offset += static_cast<std::uint64_t>(n);
    }
#ifdef __linux__
    (void)::sync_file_range(m_fd, static_cast<off_t>(first), static_cast<off_t>(offset - first), SYNC_FILE_RANGE_WRITE);
#endif
    m_size = std::max(m_size, offset);
    return {};
}

Status StreamedFile::append(std::string_view data)
{
    while (!data.empty()) {
        const ssize_t n = ::write(m_fd, data.data(), data.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return ioError(m_path, "cannot write the file", errno);
        data.remove_prefix(static_cast<std::size_t>(n));
        m_size += static_cast<std::uint64_t>(n);
    }
    // Start writing back what is complete now, so that the final sync has little left to wait for (without it the
    // kernel holds the pages until memory or a timer asks, and the sync pays for all of them at once).
    constexpr std::uint64_t kWriteback = 4u << 20;
    if (m_size - m_handedBack >= kWriteback) {
#ifdef __linux__
        (void)::sync_file_range(m_fd, static_cast<off_t>(m_handedBack), static_cast<off_t>(m_size - m_handedBack),
                                SYNC_FILE_RANGE_WRITE);
#endif
        m_handedBack = m_size;
    }
    return {};
}

Status StreamedFile::finish()
{
    if (::fsync(m_fd) != 0)
        return ioError(m_path, "cannot flush the file to disk", errno);
    const int fd = std::exchange(m_fd, -1);
    if (::close(fd) != 0)
        return ioError(m_path, "cannot write the file", errno);
    return {};
}

Status writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& produce)
{
    return writeFilesTogether({PendingFile{path, produce}});
}

Status writeTextFileAtomically(const std::string& path, std::string_view content)
{
    return writeFileAtomically(path, [&](std::ostream& out) {
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
    });
}

bool LineReader::next()
{
    if (m_pos >= m_text.size())
        return false;
    const std::size_t end = m_text.find('\n', m_pos);
    const std::size_t stop = end == std::string_view::npos ? m_text.size() : end;
    m_line = m_text.substr(m_pos, stop - m_pos);
    if (!m_line.empty() && m_line.back() == '\r')
        m_line.remove_suffix(1);
    m_pos = end == std::string_view::npos ? m_text.size() : end + 1;
    ++m_number;
    return true;
}

std::string_view trim(std::string_view text)
{
    std::size_t b = 0, e = text.size();
    while (b < e && (text[b] == ' ' || text[b] == '\t' || text[b] == '\r'))
        ++b;
    while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\r'))
        --e;
    return text.substr(b, e - b);
}

bool isBlankOrComment(std::string_view line, char comment)
{
    const auto t = trim(line);
    return t.empty() || t.front() == comment;
}

std::string shown(std::string_view text)
{
    constexpr std::size_t kMaxCharacters = 60;
    std::string out = "'";
    std::size_t characters = 0, i = 0;
    const auto hex = [&](unsigned char c) {
        char code[8];
        std::snprintf(code, sizeof code, "\\x%02X", c);
        out += code;
    };
    while (i < text.size() && characters < kMaxCharacters) {
        const auto c = static_cast<unsigned char>(text[i]);
        // The length of a well-formed UTF-8 sequence starting here, 0 if it is not one.
        std::size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        for (std::size_t k = 1; k < length; ++k)
            if (i + k >= text.size() || (static_cast<unsigned char>(text[i + k]) >> 6) != 0x2)
                length = 0;
        if (length == 1 && (c < 0x20 || c == 0x7F))
            length = 0;
        if (length == 0) {
            hex(c);
            ++i;
        } else {
            out.append(text.substr(i, length));
            i += length;
        }
        ++characters;
    }
    out += "'";
    if (i < text.size())
        out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

Error parseError(const std::string& path, int line, int column, std::string message)
{
    return makeError(ErrorCode::Parse, std::move(message), {path, line, column});
}

Expected<std::vector<Field>> splitCsvLine(std::string_view line, const std::string& path, int lineNumber)
{
    std::vector<Field> fields;
    std::size_t i = 0;
    while (true) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        Field field;
        field.column = static_cast<int>(i) + 1;
        if (i < line.size() && line[i] == '"') {
            const int quoteColumn = static_cast<int>(i) + 1;
            ++i;
            bool closed = false;
            while (i < line.size()) {
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field.text += '"';
                        i += 2;
                        continue;
                    }
                    closed = true;
                    ++i;
                    break;
                }
                field.text += line[i++];
            }
            if (!closed)
                return parseError(path, lineNumber, quoteColumn, "a quoted field is not closed");
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
                ++i;
            if (i < line.size() && line[i] != ',')
                return parseError(path, lineNumber, static_cast<int>(i) + 1, "expected ',' after a quoted field");
        } else {
            const std::size_t start = i;
            while (i < line.size() && line[i] != ',')
                ++i;
            field.text = std::string(trim(line.substr(start, i - start)));
        }
        fields.push_back(std::move(field));
        if (i >= line.size())
            break;
        ++i; // the comma
    }
    return fields;
}

bool CsvRecords::next()
{
    while (m_lines.next()) {
        if (isBlankOrComment(m_lines.line()))
            continue;
        m_line = m_lines.number();
        auto fields = splitCsvLine(m_lines.line(), m_path, m_line);
        if (!fields) {
            m_error = fields.error();
            return false;
        }
        m_fields = std::move(*fields);
        ++m_count;
        return true;
    }
    return false;
}

std::string toLower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string quoteCsvField(const std::string& text)
{
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::optional<double> parseNumber(std::string_view text)
{
    text = trim(text);
    if (text.empty())
        return std::nullopt;
    if (text.front() == '+')
        text.remove_prefix(1);
    double value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::optional<long long> parseInteger(std::string_view text)
{
    text = trim(text);
    if (text.empty())
        return std::nullopt;
    if (text.front() == '+')
        text.remove_prefix(1);
    long long value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size())
        return std::nullopt;
    return value;
}

} // namespace meridian::io
