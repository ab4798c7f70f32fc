#include "core/io/journal.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <set>
#include <streambuf>
#include <thread>

#include <csignal>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace meridian::io {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kHeaderV1 = "meridian-journal 1\n"; // absolute paths (Meridian before journals were checked)
constexpr std::string_view kHeaderV2 = "meridian-journal 2\n"; // paths relative to the journal's folder when inside it
constexpr std::uint64_t kMaxJournalBytes = 1u << 20;

Error ioError(const std::string& path, const std::string& what, int error = 0)
{
    return makeError(ErrorCode::Io, what + (error ? std::string(": ") + std::strerror(error) : std::string()), {path});
}

fs::path absoluteNormal(const fs::path& path)
{
    std::error_code ec;
    fs::path absolute = fs::absolute(path, ec);
    return (ec ? path : absolute).lexically_normal();
}

// The folder a path names after resolving its symbolic links, as far as they exist; empty when that fails (a
// folder that cannot be resolved is inside nothing).
std::string resolvedFolder(const fs::path& folder)
{
    std::error_code ec;
    const fs::path resolved = fs::weakly_canonical(folder, ec);
    return ec ? std::string() : resolved.string();
}

bool isInside(const std::string& folder, const std::string& candidate)
{
    if (folder.empty() || candidate.empty())
        return false;
    return candidate == folder
        || (candidate.size() > folder.size() && candidate.compare(0, folder.size(), folder) == 0
            && (folder.back() == '/' || candidate[folder.size()] == '/'));
}

// An output stream onto a file descriptor, buffered; the descriptor stays the caller's.
class DescriptorBuffer : public std::streambuf {
public:
    explicit DescriptorBuffer(int fd)
        : m_fd(fd)
    {
        setp(m_buffer, m_buffer + sizeof m_buffer);
    }
    int error() const { return m_error; }

protected:
    int_type overflow(int_type c) override
    {
        if (!flushBuffer())
            return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return flushBuffer() ? 0 : -1; }

private:
    bool flushBuffer()
    {
        const char* data = pbase();
        std::size_t left = static_cast<std::size_t>(pptr() - pbase());
        while (left > 0) {
            const ssize_t n = ::write(m_fd, data, left);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                m_error = errno;
                return false;
            }
            data += n;
            left -= static_cast<std::size_t>(n);
        }
        setp(m_buffer, m_buffer + sizeof m_buffer);
        return true;
    }
    int m_fd;
    int m_error = 0;
    char m_buffer[1 << 16];
};

// Writes one file's content to a fresh temporary beside it and syncs it; returns the temporary's name. The temporary
// is created here (O_EXCL, no link followed) and written through that descriptor, never reopened by name.
Expected<std::string> writeTemporary(const PendingFile& file)
{
    const std::string temp = uniqueTemporaryName(file.path);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return ioError(file.path, "cannot create the file", errno);
    const auto fail = [&](const char* what, int error) {
        ::close(fd);
        std::error_code ignored;
        fs::remove(temp, ignored);
        return ioError(file.path, what, error);
    };
    {
        DescriptorBuffer buffer(fd);
        std::ostream out(&buffer);
        file.produce(out);
        out.flush();
        if (!out || buffer.error())
            return fail("cannot write the file", buffer.error());
    }
    if (::fsync(fd) != 0)
        return fail("cannot flush the file to disk", errno);
    if (::close(fd) != 0) {
        const int error = errno;
        std::error_code ignored;
        fs::remove(temp, ignored);
        return ioError(file.path, "cannot write the file", error);
    }
    return temp;
}

// Refuses a set of files before anything is written: a file named twice, a folder in the way, a file out of scope.
Status checkTargets(const std::vector<std::string>& paths, const JournalScope& scope)
{
    std::set<std::string> seen;
    for (const auto& path : paths) {
        const std::string normal = absoluteNormal(path).string();
        if (!seen.insert(normal).second)
            return makeError(ErrorCode::InvalidInput, "the same file is named twice among the files to write", {path});
        if (path.find_first_of("\t\n\r") != std::string::npos)
            return makeError(ErrorCode::InvalidInput, "a file name with a tab or a line break cannot be written",
                             {path});
        struct stat st {};
        if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
            return ioError(path, "a folder is in the way of this file; nothing was written");
        if (scope)
            if (const std::string why = scope(normal); !why.empty())
                return makeError(ErrorCode::InvalidInput, "cannot write this file: it " + why, {path});
    }
    return {};
}

// A journal line's path: relative to the journal's folder when it is inside it.
std::string journalPathText(const fs::path& folder, const std::string& path)
{
    const fs::path normal = absoluteNormal(path);
    const fs::path relative = normal.lexically_relative(folder);
    if (!relative.empty() && *relative.begin() != ".." && relative.is_relative())
        return relative.string();
    return normal.string();
}

void removeAll(const std::vector<std::string>& paths)
{
    std::error_code ignored;
    for (const auto& p : paths)
        if (!p.empty())
            fs::remove(p, ignored);
}

// Puts back what renames 0..done-1 replaced: first the journal is rewritten to rename the backups back (so that a kill
// meanwhile is finished the same way), then the backups go back, then files that did not exist before are removed.
// A backup that cannot be put back is kept, and named in the error.
Status rollBack(const std::vector<JournalEntry>& entries, const std::vector<std::string>& backups, std::size_t done,
                const std::string& journalPath)
{
    const fs::path folder = absoluteNormal(journalPath).parent_path();
    std::string journal(kHeaderV2);
    for (std::size_t j = 0; j < done; ++j)
        if (!backups[j].empty())
            journal += journalPathText(folder, backups[j]) + '\t' + journalPathText(folder, entries[j].final) + '\n';
    std::error_code ignored;
    if (!writeTextFileAtomically(journalPath, journal))
        fs::remove(journalPath, ignored);
    Status status;
    for (std::size_t j = 0; j < done; ++j) {
        std::error_code ec;
        if (!backups[j].empty())
            fs::rename(backups[j], entries[j].final, ec);
        else
            fs::remove(entries[j].final, ec);
        if (ec && status)
            status = ioError(entries[j].final,
                             "cannot put back the file's old content (" + ec.message() + ")"
                                 + (backups[j].empty() ? "" : "; it is kept in " + shown(backups[j])));
    }
    if (status)
        fs::remove(journalPath, ignored);
    return status;
}

// Keeps the old content of every file the set replaces (a hard link, else a copy), so that a failed rename can put
// the renamed ones back. A file whose content cannot be kept stops the set before any rename.
Expected<std::vector<std::string>> keepOldFiles(const std::vector<JournalEntry>& entries)
{
    std::vector<std::string> backups(entries.size());
    for (std::size_t k = 0; k < entries.size(); ++k) {
        struct stat st {};
        if (::lstat(entries[k].final.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        backups[k] = uniqueTemporaryName(entries[k].final);
        std::error_code ec;
        if (::link(entries[k].final.c_str(), backups[k].c_str()) != 0
            && !fs::copy_file(entries[k].final, backups[k], fs::copy_options::none, ec)) {
            removeAll(backups);
            return ioError(entries[k].final,
                           "cannot keep a copy of the file to put back if the write fails: "
                               + (ec ? ec.message() : std::string(std::strerror(errno))));
        }
    }
    return backups;
}

// Fault injection for the kill tests: MERIDIAN_TEST_RENAME_PAUSE_MS pauses between the renames of a set, so that a
// test's kill -9 lands where a real one rarely does (the renames take microseconds).
void pauseBetweenRenamesForTests()
{
    static const long pause = [] {
        const char* text = std::getenv("MERIDIAN_TEST_RENAME_PAUSE_MS");
        return text ? std::strtol(text, nullptr, 10) : 0L;
    }();
    if (pause > 0 && pause <= 10000)
        std::this_thread::sleep_for(std::chrono::milliseconds(pause));
}

// One journal line, checked: see readJournal.
Expected<JournalEntry> journalEntry(const std::string& journalPath, const fs::path& folder, std::string_view line,
                                    int number, const JournalScope& scope)
{
    const auto refuse = [&](const std::string& why) {
        return makeError(ErrorCode::InvalidInput,
                         "a save journal that " + why
                             + "; nothing was renamed. Move the journal away to open the files as they are",
                         {journalPath, number, 0});
    };
    const auto tab = line.find('\t');
    if (tab == std::string_view::npos || tab == 0 || tab + 1 == line.size())
        return refuse("is damaged (expected a temporary, a tab and a file name)");
    fs::path parts[2] = {fs::path(std::string(line.substr(0, tab))), fs::path(std::string(line.substr(tab + 1)))};
    for (auto& part : parts) {
        if (part.is_relative()) {
            if (std::any_of(part.begin(), part.end(), [](const fs::path& p) { return p == ".."; }))
                return refuse("names " + shown(part.string()) + ", which climbs out of its folder with '..'");
            part = folder / part;
        }
        part = part.lexically_normal();
    }
    JournalEntry entry{parts[0].string(), parts[1].string()};
    if (parts[0].parent_path() != parts[1].parent_path()
        || !isTemporaryNameOf(parts[0].filename().string(), parts[1].filename().string()))
        return refuse("renames " + shown(entry.temporary) + ", which is not a temporary of " + shown(entry.final)
                      + " beside it");
    if (scope)
        if (const std::string why = scope(entry.final); !why.empty())
            return refuse("names " + shown(entry.final) + ", which " + why);
    struct stat st {};
    if (::lstat(entry.temporary.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        return refuse("renames " + shown(entry.temporary) + ", which is not a regular file");
    if (::lstat(entry.final.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        return refuse("names " + shown(entry.final) + ", which is a folder");
    return entry;
}

} // namespace

std::size_t removeStaleTemporaries(const std::string& path)
{
    const fs::path target(path);
    const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    const std::string finalName = target.filename().string();
    std::vector<fs::path> stale;
    std::string journals; // every journal of the folder, whose temporaries must stay
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() > 7 && name.compare(name.size() - 7, 7, ".saving") == 0) {
            if (auto text = readTextFile(it->path().string(), kMaxJournalBytes))
                journals += *text;
            continue;
        }
        if (!isTemporaryNameOf(name, finalName))
            continue;
        // "<name>.part-<pid>-<counter>-<salt>": the writer's process id, which must no longer exist.
        const long pid = std::strtol(name.c_str() + finalName.size() + 6, nullptr, 10);
        if (pid <= 0 || pid == static_cast<long>(::getpid()) || ::kill(static_cast<pid_t>(pid), 0) == 0
            || errno != ESRCH)
            continue; // this process, a live one, or one we cannot tell about
        stale.push_back(it->path());
    }
    std::size_t removed = 0;
    for (const auto& file : stale) {
        if (journals.find(file.filename().string()) != std::string::npos)
            continue;
        std::error_code ignored;
        if (fs::remove(file, ignored))
            ++removed;
    }
    return removed;
}

bool isTemporaryNameOf(std::string_view temporaryName, std::string_view finalName)
{
    const std::string prefix = std::string(finalName) + ".part-";
    if (finalName.empty() || temporaryName.substr(0, prefix.size()) != prefix)
        return false;
    std::string_view rest = temporaryName.substr(prefix.size());
    const auto run = [&](int (*accepts)(int)) {
        std::size_t n = 0;
        while (n < rest.size() && accepts(static_cast<unsigned char>(rest[n])))
            ++n;
        return n;
    };
    // <pid>-<counter>-<8 hex digits>
    for (int field = 0; field < 2; ++field) {
        const std::size_t n = run(std::isdigit);
        if (n == 0 || n >= rest.size() || rest[n] != '-')
            return false;
        rest.remove_prefix(n + 1);
    }
    return run(std::isxdigit) == 8 && rest.size() == 8;
}

Status checkWritable(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        return ioError(path, "this is a folder; expected the name of a file to write");
    const fs::path parent = fs::path(path).parent_path();
    const std::string folder = parent.empty() ? std::string(".") : parent.string();
    if (::stat(folder.c_str(), &st) != 0)
        return ioError(path, "cannot write here: the folder " + shown(folder) + " does not exist");
    if (!S_ISDIR(st.st_mode))
        return ioError(path, "cannot write here: " + shown(folder) + " is not a folder");
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        return ioError(path, "cannot write in the folder " + shown(folder), errno);
    return {};
}

JournalScope filesInFolder(const std::string& folder, std::function<bool(std::string_view)> own, std::string what)
{
    return [root = resolvedFolder(folder), own = std::move(own), what = std::move(what)](const std::string& path) {
        const fs::path file(path);
        if (!isInside(root, resolvedFolder(file.parent_path())))
            return "is outside the folder " + shown(root) + " (only " + what + " are written there)";
        if (!own(file.filename().string()))
            return "is not one of " + what;
        return std::string();
    };
}

JournalScope theseFiles(const std::vector<std::string>& paths)
{
    std::set<std::string> allowed;
    for (const auto& p : paths)
        allowed.insert(absoluteNormal(p).string());
    return [allowed = std::move(allowed)](const std::string& path) {
        return allowed.count(absoluteNormal(path).string())
            ? std::string()
            : std::string("is not among the files this command writes (an interrupted earlier command wrote it; run "
                          "that command again)");
    };
}

JournalScope theseFilesInFolder(const std::string& folder, const std::vector<std::string>& paths,
                                const std::string& what)
{
    std::set<std::string> allowed;
    for (const auto& p : paths)
        allowed.insert(absoluteNormal(p).string());
    return [inside = filesInFolder(
                folder, [](std::string_view) { return true; }, what),
            allowed = std::move(allowed), what](const std::string& path) {
        if (auto why = inside(path); !why.empty())
            return why;
        return allowed.count(absoluteNormal(path).string()) ? std::string() : "is not one of " + what;
    };
}

Expected<std::vector<JournalEntry>> readJournal(const std::string& journalPath, const JournalScope& scope)
{
    struct stat st {};
    if (::lstat(journalPath.c_str(), &st) != 0)
        return std::vector<JournalEntry>{};
    auto text = readTextFile(journalPath, kMaxJournalBytes);
    if (!text)
        return text.error();
    const bool relative = text->rfind(kHeaderV2, 0) == 0;
    if (!relative && text->rfind(kHeaderV1, 0) != 0)
        return makeError(ErrorCode::InvalidInput,
                         "not a Meridian save journal; nothing was renamed. Move it away to open the files as they are",
                         {journalPath, 1, 1});
    const fs::path folder = absoluteNormal(journalPath).parent_path();
    std::vector<JournalEntry> entries;
    LineReader lines(std::string_view(*text).substr(kHeaderV2.size()));
    while (lines.next()) {
        auto entry = journalEntry(journalPath, folder, lines.line(), lines.number() + 1, scope);
        if (!entry)
            return entry.error();
        entries.push_back(std::move(*entry));
    }
    return entries;
}

Status completeJournal(const std::string& journalPath, const JournalScope& scope)
{
    auto entries = readJournal(journalPath, scope);
    if (!entries)
        return entries.error();
    if (entries->empty() && ::access(journalPath.c_str(), F_OK) != 0)
        return {};
    for (const auto& entry : *entries) {
        std::error_code ec;
        if (!fs::exists(fs::symlink_status(entry.temporary, ec)))
            continue; // renamed before the interruption
        fs::rename(entry.temporary, entry.final, ec);
        if (ec)
            return ioError(entry.final, "cannot finish an interrupted save: " + ec.message());
        syncParentFolder(entry.final);
    }
    std::error_code ec;
    fs::remove(journalPath, ec);
    if (ec)
        return ioError(journalPath, "cannot remove the finished save journal: " + ec.message());
    syncParentFolder(journalPath);
    return {};
}

Status detail::renameWithJournal(const std::vector<JournalEntry>& entries, const std::string& journalPath)
{
    std::vector<std::string> temporaries;
    temporaries.reserve(entries.size());
    for (const auto& e : entries)
        temporaries.push_back(e.temporary);
    const bool journaled = entries.size() > 1;
    if (journaled) {
        const fs::path folder = absoluteNormal(journalPath).parent_path();
        std::string journal(kHeaderV2);
        for (const auto& e : entries)
            journal += journalPathText(folder, e.temporary) + '\t' + journalPathText(folder, e.final) + '\n';
        if (auto s = writeTextFileAtomically(journalPath, journal); !s) {
            removeAll(temporaries);
            return s;
        }
    }
    auto kept = keepOldFiles(entries);
    if (!kept) {
        removeAll(temporaries);
        std::error_code ignored;
        fs::remove(journalPath, ignored);
        return kept.error();
    }
    std::vector<std::string>& backups = *kept;
    for (std::size_t k = 0; k < entries.size(); ++k) {
        if (k > 0)
            pauseBetweenRenamesForTests();
        std::error_code ec;
        fs::rename(entries[k].temporary, entries[k].final, ec);
        if (!ec)
            continue;
        removeAll({temporaries.begin() + static_cast<std::ptrdiff_t>(k), temporaries.end()});
        const Status putBack = rollBack(entries, backups, k, journalPath);
        if (putBack)
            removeAll(backups);
        return ioError(entries[k].final,
                       "cannot replace the file: " + ec.message()
                           + (putBack ? std::string("; no file of the set was changed")
                                      : "; " + putBack.error().message));
    }
    for (const auto& e : entries)
        syncParentFolder(e.final);
    if (journaled) {
        std::error_code ignored;
        fs::remove(journalPath, ignored);
        syncParentFolder(journalPath);
    }
    removeAll(backups);
    return {};
}

Status writeFilesWithJournal(const std::vector<PendingFile>& files, const std::string& journalPath,
                             const JournalScope& scope)
{
    std::vector<std::string> paths;
    paths.reserve(files.size());
    for (const auto& f : files)
        paths.push_back(f.path);
    if (auto checked = checkTargets(paths, scope); !checked)
        return checked;
    // An older interrupted transaction is finished first, so that no temporary a journal still names is removed;
    // then the temporaries that killed writers left beside these files go.
    if (auto finished = completeJournal(journalPath, scope); !finished)
        return finished;
    removeStaleTemporaries(journalPath);
    for (const auto& path : paths)
        removeStaleTemporaries(path);
    std::vector<JournalEntry> entries;
    entries.reserve(files.size());
    for (const auto& file : files) {
        auto temp = writeTemporary(file);
        if (!temp) {
            for (const auto& e : entries)
                removeAll({e.temporary});
            return temp.error();
        }
        entries.push_back({*temp, absoluteNormal(file.path).string()});
    }
    return detail::renameWithJournal(entries, journalPath);
}

Status writeFilesTogether(const std::vector<PendingFile>& files)
{
    if (files.empty())
        return {};
    std::vector<std::string> paths;
    paths.reserve(files.size());
    for (const auto& f : files)
        paths.push_back(f.path);
    return writeFilesWithJournal(files, files.front().path + ".saving", theseFiles(paths));
}

Status commitTogether(const std::vector<StreamedFile*>& files)
{
    if (files.empty())
        return {};
    std::vector<std::string> paths;
    std::vector<JournalEntry> entries;
    for (const auto* f : files) {
        paths.push_back(f->path());
        entries.push_back({f->temporary(), absoluteNormal(f->path()).string()});
    }
    const std::string journal = files.front()->path() + ".saving";
    if (auto checked = checkTargets(paths, theseFiles(paths)); !checked)
        return checked;
    if (auto finished = completeJournal(journal, theseFiles(paths)); !finished)
        return finished;
    // As writeFilesWithJournal: what killed writers of these files left goes (this process's temporaries stay).
    removeStaleTemporaries(journal);
    for (const auto& path : paths)
        removeStaleTemporaries(path);
    // The temporaries are renamed (or removed on failure) by the transaction, not by the files' destructors.
    for (auto* f : files)
        f->markCommitted();
    return detail::renameWithJournal(entries, journal);
}

} // namespace meridian::io
