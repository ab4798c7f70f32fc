#pragma once

#include "core/common/executor.h"
#include "core/common/expected.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

// How every reader and writer touches files. A reader opens its input through openRegularFile (no FIFO, device or
// oversize file), reads it whole (readTextFile) or in blocks (forEachLine, SNAP chunks), and a text reader refuses a
// NUL byte at the first block that holds one; it checks every count a header claims against what the rest of the
// file can hold before allocating, and quotes file text in messages through shown(). A writer writes a unique
// temporary beside its target, syncs it and renames it over the target; sets of files go through journal.h.

namespace meridian::io {

/// The most a whole-file read takes by default (1 GiB): sites, matrices, pins, mappings, projects.
inline constexpr std::uint64_t kMaxTextFileBytes = std::uint64_t{1} << 30;
/// The most a graph file read whole may be (64 GiB: graphs are big, and memory bounds them anyway).
inline constexpr std::uint64_t kMaxGraphFileBytes = std::uint64_t{1} << 36;

/// Opens a file for reading, the one way every reader opens its input: without blocking (a FIFO or a device
/// never makes a reader wait), then refuses anything but a regular file (a folder, a pipe, /dev/zero) and a file
/// larger than `maxBytes`, from its size alone. Returns the open descriptor (blocking again, close-on-exec) and
/// sets `size` to the file's size. Errors are Io errors naming the file and the reason.
Expected<int> openRegularFile(const std::string& path, std::uint64_t maxBytes, std::uint64_t* size = nullptr);

/// Returns the offset of the first NUL byte of `data`, or npos. Text inputs never hold one: a reader refuses a
/// binary file at its first block instead of parsing gigabytes of it (refuseNulByte says so with the line).
std::size_t findNulByte(std::string_view data);
/// The error for a NUL byte at `offset` of a file whose first `offset` bytes are `before` (its line is counted).
Error nulByteError(const std::string& path, std::string_view before, std::uint64_t offset);

/// Reads a whole file into memory through openRegularFile (regular files only, at most `maxBytes`). A NUL byte
/// is refused as soon as its block is read, with its line: no Meridian input is binary.
Expected<std::string> readTextFile(const std::string& path, std::uint64_t maxBytes = kMaxTextFileBytes);

/// Writes `content` to `path` through a temporary file in the same folder renamed over the target, so
/// that a failure never leaves a half-written file behind.
Status writeTextFileAtomically(const std::string& path, std::string_view content);

/// Writes what `produce` streams into a temporary file beside `path` (a unique name, so concurrent writers
/// of one path never collide), flushes it to disk (fsync), then renames it over `path` and syncs the
/// folder; on any error the temporary file is removed, `path` is left as it was, and the error says why.
/// For outputs too large to build in memory first.
Status writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& produce);

/// Writes records 0..count-1 to `out` in order. Blocks of `blockSize` records are formatted by the executor's
/// workers at once, a few blocks per worker at a time, each worker appending block [begin, end) to a buffer of
/// its own through `format`; the calling thread writes the buffers in order. For outputs of millions of lines.
void writeRecordsInParallel(std::ostream& out, std::size_t count, std::size_t blockSize,
                            const std::function<void(std::size_t begin, std::size_t end, std::string& buffer)>& format,
                            Executor& executor = Executor::standard());

/// A file still to be written: its path and what writes its content.
struct PendingFile {
    std::string path;
    std::function<void(std::ostream&)> produce;
};
/// Writes several files that belong together (a partition and its masters, a mapping and its launcher
/// files) all or none; see io::writeFilesWithJournal (journal.h), which this calls with the set's own
/// journal, "<first file>.saving".
Status writeFilesTogether(const std::vector<PendingFile>& files);

/// A file written in pieces, for outputs produced as a computation goes: appended to a unique temporary beside its
/// path, each piece handed to the kernel's writeback at once (so little is left to flush at the end), then synced
/// and renamed over the path by commitTogether. A temporary never committed is removed when the object goes.
class StreamedFile {
public:
    static Expected<StreamedFile> create(const std::string& path);
    /// Opens the temporary another process created for `path` (the rank that commits), to write pieces of it at
    /// their offsets: this object never renames or removes it. An error names the path and says that every rank
    /// must see the output's folder.
    static Expected<StreamedFile> openPiece(const std::string& path, const std::string& temporary);
    StreamedFile(StreamedFile&& other) noexcept;
    StreamedFile& operator=(StreamedFile&&) = delete;
    StreamedFile(const StreamedFile&) = delete;
    ~StreamedFile();

    /// Appends all of `data`; an error names the file.
    Status append(std::string_view data);
    /// Writes all of `data` at `offset` (pwrite), as the ranks write their parts of one file; an error names it.
    Status writeAt(std::uint64_t offset, std::string_view data);
    /// Flushes what was appended to disk (fsync) and closes the temporary.
    Status finish();
    const std::string& path() const { return m_path; }
    const std::string& temporary() const { return m_temporary; }
    std::uint64_t size() const { return m_size; }

private:
    StreamedFile(std::string path, std::string temporary, int fd);
    friend Status commitTogether(const std::vector<StreamedFile*>& files);
    void markCommitted() { m_committed = true; }
    std::string m_path, m_temporary;
    int m_fd = -1;
    std::uint64_t m_size = 0, m_handedBack = 0;
    bool m_committed = false;
};
/// Renames finished StreamedFiles over their paths as one transaction (the set's journal, as writeFilesTogether),
/// all or none: if a rename fails, the files renamed before it get their old content back.
Status commitTogether(const std::vector<StreamedFile*>& files);

/// Returns a temporary name beside `path` that no other writer uses: "<path>.part-<pid>-<counter>-<random>".
std::string uniqueTemporaryName(const std::string& path);
/// Removes the temporaries of `path` (see uniqueTemporaryName) whose writing process no longer exists, as a
/// kill -9 during a write leaves them; those of this or another live process stay, and so do those a journal
/// ("*.saving") in the folder still names (an interrupted transaction that is yet to be finished). Returns how
/// many went.
std::size_t removeStaleTemporaries(const std::string& path);
/// Flushes a written file's data to disk (fsync); returns false with errno set on failure.
bool syncFile(const std::string& path);
/// Syncs the folder holding `path`, so that a rename into it survives a power cut (best effort).
void syncParentFolder(const std::string& path);

/// Returns text without a leading UTF-8 byte-order mark (EF BB BF), which Windows editors write at the start of a
/// CSV saved as "UTF-8": it is no part of the first line's first field. Every line-based reader (LineReader,
/// CsvRecords) skips it; JSON readers skip it in the JSON parser.
inline std::string_view withoutByteOrderMark(std::string_view text)
{
    return text.substr(0, 3) == "\xEF\xBB\xBF" ? text.substr(3) : text;
}

/// Iterates over the lines of a text, numbering them from 1 and dropping the line ending (LF or CRLF).
class LineReader {
public:
    /// A UTF-8 byte-order mark at the start of the text is skipped (see withoutByteOrderMark).
    explicit LineReader(std::string_view text)
        : m_text(withoutByteOrderMark(text))
    {}
    /// Moves to the next line; returns false at the end of the text.
    bool next();
    std::string_view line() const { return m_line; }
    int number() const { return m_number; }
    /// Returns the number of bytes not yet read.
    std::size_t remaining() const { return m_text.size() - m_pos; }

private:
    std::string_view m_text;
    std::string_view m_line;
    std::size_t m_pos = 0;
    int m_number = 0;
};

/// Returns true for a line that is empty, white space only, or whose first non-blank character is `comment`.
bool isBlankOrComment(std::string_view line, char comment = '#');

/// One field of a delimited line, unquoted and trimmed; `column` is the 1-based character position
/// where the field starts.
struct Field {
    std::string text;
    int column = 1;
};

/// Splits a CSV line on commas. Fields may be double-quoted (a quote inside is written twice); blanks
/// around fields are trimmed. An unterminated quote is a Parse error at that line and column.
Expected<std::vector<Field>> splitCsvLine(std::string_view line, const std::string& path, int lineNumber);

/// Returns text in ASCII lower case.
std::string toLower(std::string_view text);

/// Returns a field ready for a CSV line: quoted (inner quotes doubled) when it holds a comma or quote.
std::string quoteCsvField(const std::string& text);

/// Walks the CSV records of a text: lines that are not blank or `#` comments, split into fields.
/// After the loop, error() tells whether it stopped on a malformed line rather than at the end.
///
///     CsvRecords records(text, path);
///     while (records.next()) { use(records.fields(), records.line()); }
///     if (records.error()) return *records.error();
class CsvRecords {
public:
    CsvRecords(std::string_view text, std::string path)
        : m_lines(text)
        , m_path(std::move(path))
    {}
    /// Moves to the next record; returns false at the end of the text or on a malformed line.
    bool next();
    const std::vector<Field>& fields() const { return m_fields; }
    /// Returns the line of the current record, or of the last one read after the end (1 if none).
    int line() const { return m_line; }
    /// Returns true for the first record of the text.
    bool isFirst() const { return m_count == 1; }
    const std::optional<Error>& error() const { return m_error; }

private:
    LineReader m_lines;
    std::string m_path;
    std::vector<Field> m_fields;
    std::optional<Error> m_error;
    int m_line = 1;
    int m_count = 0;
};

/// Parses a finite decimal number (leading and trailing blanks allowed). Returns nullopt for anything
/// else, including "nan" and "inf".
std::optional<double> parseNumber(std::string_view text);
/// Parses a whole number that fits in 64 bits (leading and trailing blanks allowed).
std::optional<long long> parseInteger(std::string_view text);

/// Returns text with leading and trailing blanks (space, tab, CR) removed.
std::string_view trim(std::string_view text);

/// Returns text from a file quoted for an error message: in single quotes, bytes that are not printable
/// UTF-8 written as \xNN, and cut after 60 characters with the full length given, so binary garbage never
/// reaches a terminal or a dialog raw or at length.
std::string shown(std::string_view text);

/// Builds a Parse error at a file position.
Error parseError(const std::string& path, int line, int column, std::string message);

} // namespace meridian::io
