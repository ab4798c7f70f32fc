#include "app/capture/capture.h"
#include "app/capture/record_import.h"

#include "core/io/comm_io.h"
#include "core/io/journal.h"
#include "core/io/text_file.h"
#include "core/io/ti_trace.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <ostream>

#ifndef MERIDIAN_TRACE_INSTALLED
#    define MERIDIAN_TRACE_INSTALLED "../lib/meridian"
#endif

namespace meridian::capture {

namespace {

constexpr const char* kLibraryName = "libmeridian-trace.so";

std::string local(const QString& text) { return text.toLocal8Bit().toStdString(); }

/// The tracer's files in `folder` (named `trace.*`), as (file there, suffix after "trace").
std::vector<std::pair<QString, QString>> tracerFiles(const QString& folder)
{
    std::vector<std::pair<QString, QString>> files;
    const QDir dir(folder);
    for (const QString& name : dir.entryList({"trace.*"}, QDir::Files, QDir::Name))
        if (!name.contains(".part-"))
            files.emplace_back(dir.filePath(name), name.mid(5));
    return files;
}

/// Reads back and checks what the tracer wrote: every volume/messages pair, and the collectives summary.
Status checkTracerFiles(const QString& folder, CaptureOutcome& outcome)
{
    const QDir dir(folder);
    if (!QFile::exists(dir.filePath("trace.volume.mtx")))
        return makeError(ErrorCode::InvalidInput,
                         "the command finished but the tracer wrote nothing: is it an MPI program linked "
                         "dynamically against Open MPI (or another MPI), and did every rank call MPI_Finalize?");
    std::vector<QString> prefixes{dir.filePath("trace")};
    const auto phases = capturedPhases(dir.filePath("trace"));
    if (!phases)
        return makeError(ErrorCode::Internal, "the tracer wrote an unexpected phase file: " + phases.error().toString());
    for (const auto& [number, phasePrefix] : *phases) {
        outcome.phases.push_back(number);
        prefixes.push_back(phasePrefix);
    }
    for (const QString& prefix : prefixes) {
        auto comm = io::readCommMatrix(local(prefix + ".volume.mtx"), local(prefix + ".messages.mtx"));
        if (!comm)
            return makeError(ErrorCode::Internal, "the tracer wrote an unreadable matrix: " + comm.error().toString());
        outcome.processes = comm->processCount();
    }
    auto json = io::readTextFile(local(dir.filePath("trace.collectives.json")));
    if (!json)
        return json.error();
    QJsonParseError parse;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(*json), &parse);
    if (parse.error != QJsonParseError::NoError || !document.isObject())
        return makeError(ErrorCode::Internal,
                         "the tracer wrote an unreadable collectives summary: " + local(parse.errorString()));
    return {};
}

/// Writes the list of the ranks' trace files (trace.ti, naming trace.ti.RANK) and checks the trace against the
/// captured matrix.
Status checkTrace(const QString& folder, const CaptureOutcome& outcome)
{
    const QDir dir(folder);
    std::string list;
    for (int r = 0; r < outcome.processes; ++r) {
        if (!QFile::exists(dir.filePath(QString("trace.ti.%1").arg(r))))
            return makeError(ErrorCode::InvalidInput,
                             "the tracer wrote no time-independent trace for rank " + std::to_string(r)
                                 + " (its standard error says why: a program that calls MPI from several threads "
                                   "cannot be traced)");
        list += "trace.ti." + std::to_string(r) + "\n";
    }
    const std::string listPath = local(dir.filePath("trace.ti"));
    if (auto written = io::writeTextFileAtomically(listPath, list); !written)
        return written;
    auto trace = io::readTiTrace(listPath);
    if (!trace)
        return makeError(trace.error().code,
                         "--trace: " + trace.error().toString()
                             + "; nothing was written (capture without --trace for the matrices alone)");
    auto comm = io::readCommMatrix(local(dir.filePath("trace.volume.mtx")), local(dir.filePath("trace.messages.mtx")));
    if (!comm)
        return comm.error();
    return io::checkTraceMatchesMatrix(*trace, *comm);
}

/// Writes the tracer's files at `prefix` together (the trace's list naming the final files), then removes phase
/// and trace files an earlier capture left there.
Status moveInPlace(const QString& folder, const QString& prefix, CaptureOutcome& outcome)
{
    std::vector<io::PendingFile> pending;
    const QString base = QFileInfo(prefix).fileName();
    for (const auto& [file, suffix] : tracerFiles(folder)) {
        auto content = io::readTextFile(local(file));
        if (!content)
            return content.error();
        if (suffix == ".ti") {
            std::string list;
            for (int r = 0; r < outcome.processes; ++r)
                list += local(base) + ".ti." + std::to_string(r) + "\n";
            content = std::move(list);
        }
        pending.push_back({local(prefix + suffix), [text = std::move(*content)](std::ostream& out) { out << text; }});
        outcome.written.push_back(local(prefix + suffix));
    }
    if (auto written = io::writeFilesTogether(pending); !written) {
        outcome.written.clear();
        return written;
    }
    const QFileInfo info(prefix);
    const QDir dir = info.absoluteDir();
    for (const QString& name :
         dir.entryList({info.fileName() + ".phase*.mtx", info.fileName() + ".ti", info.fileName() + ".ti.*"},
                       QDir::Files)) {
        const std::string path = local(dir.filePath(name));
        if (std::find(outcome.written.begin(), outcome.written.end(), path) == outcome.written.end())
            QFile::remove(dir.filePath(name));
    }
    return {};
}

/// True when a 64-bit ELF file is a position-independent executable (DF_1_PIE in its dynamic section), which
/// is of type ET_DYN like a library but which the loader refuses to preload.
bool isPieExecutable(int fd, const Elf64_Ehdr& header)
{
    if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_phentsize != sizeof(Elf64_Phdr))
        return false;
    for (int k = 0; k < header.e_phnum && k < 4096; ++k) {
        Elf64_Phdr segment{};
        const auto at = static_cast<off_t>(header.e_phoff + static_cast<std::uint64_t>(k) * sizeof segment);
        if (::pread(fd, &segment, sizeof segment, at) != static_cast<ssize_t>(sizeof segment))
            return false;
        if (segment.p_type != PT_DYNAMIC)
            continue;
        for (std::uint64_t d = 0; d + sizeof(Elf64_Dyn) <= segment.p_filesz && d < (1u << 20); d += sizeof(Elf64_Dyn)) {
            Elf64_Dyn entry{};
            if (::pread(fd, &entry, sizeof entry, static_cast<off_t>(segment.p_offset + d))
                    != static_cast<ssize_t>(sizeof entry)
                || entry.d_tag == DT_NULL)
                return false;
            if (entry.d_tag == DT_FLAGS_1)
                return (entry.d_un.d_val & DF_1_PIE) != 0;
        }
        return false;
    }
    return false;
}

/// True when a 64-bit ELF file's dynamic symbol table defines `symbol` (read through its section headers, each
/// read bounded; a file without them defines nothing).
bool definesDynamicSymbol(int fd, const Elf64_Ehdr& header, std::string_view symbol)
{
    if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_shentsize != sizeof(Elf64_Shdr))
        return false;
    const auto section = [&](std::uint64_t k, Elf64_Shdr& out) {
        return k < header.e_shnum
            && ::pread(fd, &out, sizeof out, static_cast<off_t>(header.e_shoff + k * sizeof out))
            == static_cast<ssize_t>(sizeof out);
    };
    for (std::uint64_t k = 0; k < header.e_shnum && k < 4096; ++k) {
        Elf64_Shdr symbols{}, names{};
        if (!section(k, symbols) || symbols.sh_type != SHT_DYNSYM || !section(symbols.sh_link, names))
            continue;
        std::vector<char> text(std::min<std::uint64_t>(names.sh_size, std::uint64_t{16} << 20));
        if (::pread(fd, text.data(), text.size(), static_cast<off_t>(names.sh_offset))
            != static_cast<ssize_t>(text.size()))
            return false;
        for (std::uint64_t s = 0; s + sizeof(Elf64_Sym) <= symbols.sh_size && s < (std::uint64_t{64} << 20);
             s += sizeof(Elf64_Sym)) {
            Elf64_Sym entry{};
            if (::pread(fd, &entry, sizeof entry, static_cast<off_t>(symbols.sh_offset + s))
                != static_cast<ssize_t>(sizeof entry))
                return false;
            if (entry.st_shndx == SHN_UNDEF || entry.st_name >= text.size())
                continue;
            const char* name = text.data() + entry.st_name;
            if (std::string_view(name, strnlen(name, text.size() - entry.st_name)) == symbol)
                return true;
        }
    }
    return false;
}

/// Checks that `path` is a library the dynamic loader can preload here: a regular file that can be read and is
/// an ELF shared object of this machine's class and architecture, and that it is Meridian's tracer (it defines
/// meridian_trace_library). Without this check a wrong file is skipped by the loader with a warning, or
/// another library is preloaded, and the run ends with "the tracer wrote nothing". `what` says where the path
/// came from.
Status checkLoadable(const QString& path, const std::string& what)
{
    const std::string file = local(path);
    const auto refuse = [&](const std::string& why) {
        return makeError(ErrorCode::Io, what + " " + file + ", which " + why);
    };
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0)
        return refuse(errno == ENOENT ? "does not exist" : "cannot be examined: " + std::string(std::strerror(errno)));
    if (!S_ISREG(info.st_mode))
        return refuse(S_ISDIR(info.st_mode) ? "is a folder, not a library" : "is not a regular file");
    const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return refuse("cannot be read: " + std::string(std::strerror(errno)));
    Elf64_Ehdr header{}; // e_ident, e_type and e_machine lie at the same offsets in 32-bit files
    const ssize_t got = ::pread(fd, &header, sizeof header, 0);
    const bool pie = got == static_cast<ssize_t>(sizeof header) && isPieExecutable(fd, header);
    const bool tracer = got == static_cast<ssize_t>(sizeof header)
        && definesDynamicSymbol(fd, header, "meridian_trace_library");
    ::close(fd);
    if (got != static_cast<ssize_t>(sizeof header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
        return refuse("is not a shared library (it has no ELF header)");
    if (pie)
        return refuse("is a program (a position-independent executable), not a shared library");
#if defined(__x86_64__)
    constexpr int kMachine = EM_X86_64;
#elif defined(__aarch64__)
    constexpr int kMachine = EM_AARCH64;
#else
    constexpr int kMachine = -1;
#endif
    const bool sameClass = header.e_ident[EI_CLASS] == (sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32);
    if (header.e_type != ET_DYN || !sameClass || (kMachine >= 0 && header.e_machine != kMachine))
        return refuse("is an ELF file but not a shared library the loader can preload on this machine");
    if (!tracer)
        return refuse("is a shared library but not Meridian's tracer (libmeridian-trace.so defines "
                      "meridian_trace_library)");
    return {};
}

/// The start of the temporary folders of captures: ".meridian-capture-<pid>@<host>-XXXXXX".
const QString kFolderPrefix = ".meridian-capture-";

QString hostName()
{
    char name[256] = {};
    return ::gethostname(name, sizeof name - 1) == 0 ? QString::fromLocal8Bit(name) : QString("localhost");
}

/// Removes the temporary folders in `folder` that captures of this host left when they were killed (kill -9):
/// those whose process no longer exists. Those of live processes, of other hosts and unnamed ones stay.
void removeStaleFolders(const QDir& folder)
{
    const QString host = hostName();
    for (const QString& name : folder.entryList({kFolderPrefix + "*"}, QDir::Dirs | QDir::Hidden)) {
        const QString rest = name.mid(kFolderPrefix.size());
        const qsizetype at = rest.indexOf('@'), dash = rest.lastIndexOf('-');
        if (at <= 0 || dash <= at || rest.mid(at + 1, dash - at - 1) != host)
            continue;
        const std::string digits = rest.left(at).toStdString();
        long pid = 0;
        const auto [stop, parsed] = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
        if (parsed != std::errc() || stop != digits.data() + digits.size() || pid <= 0)
            continue;
        if (pid == static_cast<long>(::getpid()) || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH)
            continue; // this process, a live one, or one we cannot tell about
        QDir(folder.filePath(name)).removeRecursively();
    }
}

} // namespace

Expected<std::vector<std::pair<int, QString>>> capturedPhases(const QString& prefix)
{
    const QFileInfo info(prefix);
    const QDir dir = info.absoluteDir();
    const QRegularExpression pattern("^" + QRegularExpression::escape(info.fileName())
                                     + R"(\.phase([-+]?[0-9]+)\.volume\.mtx$)");
    std::vector<std::pair<int, QString>> phases;
    for (const QString& name : dir.entryList({info.fileName() + ".phase*.volume.mtx"}, QDir::Files)) {
        const auto match = pattern.match(name);
        if (!match.hasMatch())
            continue;
        const QString text = match.captured(1);
        bool fits = false;
        const int number = text.toInt(&fits);
        const QString canonical = info.fileName() + ".phase" + QString::number(number) + ".volume.mtx";
        if (!fits || QString::number(number) != text)
            return makeError(ErrorCode::InvalidInput,
                             "the phase number '" + text.toStdString() + "' is not one the capture writes: expected "
                                 + (fits ? canonical.toStdString() + " (no leading zero or sign"
                                            + (dir.exists(canonical) ? std::string(", and that file is there too: "
                                                                                   "both would be phase ")
                                                       + std::to_string(number)
                                                                     : std::string())
                                            + ")"
                                         : std::string("a whole number from -2147483648 to 2147483647 (MPI_Pcontrol "
                                                       "takes an int)")),
                             {dir.filePath(name).toStdString()});
        phases.emplace_back(number, dir.filePath(name.chopped(QString(".volume.mtx").size())));
    }
    std::sort(phases.begin(), phases.end());
    return phases;
}

Status runToEnd(QProcess& process, const PreparedCommand& prepared,
                const std::function<void(const QByteArray&)>& output, const Feedback& feedback)
{
    process.setProgram(prepared.program);
    process.setArguments(prepared.arguments);
    process.setProcessEnvironment(prepared.environment);
    process.setProcessChannelMode(output ? QProcess::MergedChannels : QProcess::ForwardedChannels);
    // Standard input: this process's own when the output goes to its own too (meridian-cli capture -- mpirun ...
    // < input: Open MPI passes it to rank 0); otherwise at its end, so a program that reads it does not wait.
    if (!output)
        process.setInputChannelMode(QProcess::ForwardedInputChannel);
    process.start();
    if (!process.waitForStarted(30000))
        return makeError(ErrorCode::Io,
                         "cannot start '" + local(prepared.program) + "': " + local(process.errorString()));
    if (output)
        process.closeWriteChannel();
    while (!process.waitForFinished(50)) {
        if (process.state() == QProcess::NotRunning)
            break;
        if (output)
            if (const QByteArray out = process.readAll(); !out.isEmpty())
                output(out);
        if (feedback.isCanceled()) {
            process.terminate();
            if (!process.waitForFinished(3000)) {
                process.kill();
                process.waitForFinished(3000);
            }
            return makeError(ErrorCode::Canceled, "canceled");
        }
    }
    if (output)
        if (const QByteArray out = process.readAll(); !out.isEmpty())
            output(out);
    return {};
}

Expected<QString> traceLibrary()
{
    const QString fromEnvironment = qEnvironmentVariable("MERIDIAN_TRACE_LIBRARY");
    if (!fromEnvironment.isEmpty()) {
        if (auto loadable = checkLoadable(fromEnvironment, "MERIDIAN_TRACE_LIBRARY names"); !loadable)
            return loadable.error();
        return QFileInfo(fromEnvironment).absoluteFilePath();
    }
    const QDir here(QCoreApplication::applicationDirPath());
    const QStringList candidates{here.filePath(kLibraryName),
                                 QDir::cleanPath(here.filePath(QString(MERIDIAN_TRACE_INSTALLED) + "/" + kLibraryName))};
    for (const QString& candidate : candidates)
        if (QFileInfo(candidate).isFile())
            return candidate;
    return makeError(ErrorCode::Io,
                     "cannot find the tracer " + std::string(kLibraryName) + " (looked at "
                         + local(candidates.join(" and ")) + "; set MERIDIAN_TRACE_LIBRARY to its path)");
}

Launcher detectLauncher(const QStringList& command)
{
    if (command.isEmpty())
        return Launcher::Environment;
    const QString name = QFileInfo(command.front()).fileName();
    static const QStringList launchers{"mpirun", "mpiexec", "orterun", "mpirun.openmpi", "mpiexec.openmpi"};
    if (!launchers.contains(name))
        return Launcher::Environment;
    QProcess version;
    version.setProcessChannelMode(QProcess::MergedChannels);
    version.start(command.front(), {"--version"});
    if (!version.waitForFinished(10000)) {
        version.kill();
        version.waitForFinished(1000);
        return Launcher::Environment;
    }
    const QString text = QString::fromLocal8Bit(version.readAll());
    return text.contains("Open MPI") || text.contains("OpenRTE") ? Launcher::OpenMpi : Launcher::Environment;
}

PreparedCommand prepareCommand(const QStringList& command, Launcher launcher, const QString& library,
                               const QString& tracePrefix, QProcessEnvironment environment, bool trace)
{
    PreparedCommand prepared;
    prepared.program = command.value(0);
    prepared.arguments = command.mid(1);
    const QString userPreload = environment.value("LD_PRELOAD");
    const QString preload = userPreload.isEmpty() ? library : library + ":" + userPreload;
    environment.insert("MERIDIAN_TRACE_PREFIX", tracePrefix);
    if (trace)
        environment.insert("MERIDIAN_TRACE_TI", "1");
    else
        environment.remove("MERIDIAN_TRACE_TI");
    if (launcher == Launcher::OpenMpi)
        prepared.arguments = QStringList{"-x", "LD_PRELOAD=" + preload, "-x", "MERIDIAN_TRACE_PREFIX"}
            + (trace ? QStringList{"-x", "MERIDIAN_TRACE_TI"} : QStringList()) + prepared.arguments;
    else
        environment.insert("LD_PRELOAD", preload);
    prepared.environment = environment;
    return prepared;
}

Expected<CaptureOutcome> runCapture(const QStringList& command, const QString& prefix, const CaptureOptions& options,
                                    const Feedback& feedback)
{
    if (command.isEmpty())
        return makeError(ErrorCode::InvalidInput, "no command to capture");
    const QFileInfo target(prefix);
    if (target.fileName().isEmpty() || !target.absoluteDir().exists())
        return makeError(ErrorCode::Io, "the output prefix " + local(prefix) + " is not in an existing folder");
    QString library = options.library;
    if (library.isEmpty()) {
        auto found = traceLibrary();
        if (!found)
            return found.error();
        library = *found;
    }
    if (auto loadable = checkLoadable(library, "the tracer is"); !loadable)
        return loadable.error();
    // The files every capture writes are checked before the program runs, not after a run of hours.
    std::vector<const char*> outputs{".volume.mtx", ".messages.mtx", ".collectives.json"};
    if (options.trace)
        outputs.push_back(".ti");
    for (const char* suffix : outputs)
        if (auto writable = io::checkWritable(local(target.absoluteFilePath() + suffix)); !writable)
            return writable.error();
    removeStaleFolders(target.absoluteDir());
    // The folder names this process and host, so that a later capture can tell a killed capture's folder.
    QTemporaryDir folder(
        target.absoluteDir().filePath(QString("%1%2@%3-XXXXXX").arg(kFolderPrefix).arg(::getpid()).arg(hostName())));
    if (!folder.isValid())
        return makeError(ErrorCode::Io,
                         "cannot create a temporary folder beside " + local(prefix) + ": "
                             + local(folder.errorString()));
    const PreparedCommand prepared = prepareCommand(command, detectLauncher(command), library, folder.filePath("trace"),
                                                    QProcessEnvironment::systemEnvironment(), options.trace);
    QProcess process;
    if (auto ran = runToEnd(process, prepared, options.output, feedback); !ran)
        return ran.error();
    CaptureOutcome outcome;
    outcome.crashed = process.exitStatus() == QProcess::CrashExit;
    // Qt gives a killed process's signal as its exit code.
    outcome.exitStatus = outcome.crashed ? 0 : process.exitCode();
    outcome.signal = outcome.crashed ? process.exitCode() : 0;
    if (outcome.crashed || outcome.exitStatus != 0)
        return outcome;
    if (auto checked = checkTracerFiles(folder.path(), outcome); !checked)
        return checked.error();
    if (options.trace)
        if (auto traced = checkTrace(folder.path(), outcome); !traced)
            return traced.error();
    if (auto moved = moveInPlace(folder.path(), target.absoluteFilePath(), outcome); !moved)
        return moved.error();
    return outcome;
}

Expected<model::CommMatrix> readCapture(const QString& path, std::string& described)
{
    const QFileInfo info(path);
    const std::string file = local(info.fileName());
    if (path.endsWith(".otf2")) {
        auto record = importOtf2(local(path));
        if (!record)
            return record.error();
        described = "captured in the OTF2 trace " + file;
        return std::move(record->comm);
    }
    static const QRegularExpression prof(R"(^(.+)\.\d+\.prof$)");
    if (const auto match = prof.match(info.fileName()); match.hasMatch()) {
        auto record = importOpenMpiMonitoring(local(info.absolutePath()), local(match.captured(1)));
        if (!record)
            return record.error();
        described = "captured by Open MPI's monitoring (" + record->from + ")";
        return std::move(record->comm);
    }
    if (path.endsWith(".volume.mtx")) {
        const QString messages = path.chopped(QString("volume.mtx").size()) + "messages.mtx";
        auto comm = io::readCommMatrix(local(path), QFile::exists(messages) ? local(messages) : std::string());
        if (!comm)
            return comm.error();
        described = "captured by meridian-cli capture (" + file + ")";
        return comm;
    }
    return makeError(ErrorCode::InvalidInput,
                     local(path)
                         + " is not a capture: expected PREFIX.volume.mtx (from "
                           "meridian-cli capture), NAME.RANK.prof (Open MPI's "
                           "monitoring) or NAME.otf2 (an OTF2 trace)");
}

} // namespace meridian::capture
