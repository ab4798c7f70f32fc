#pragma once

#include "core/common/expected.h"
#include "core/io/text_file.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

/// Sets of files written as one transaction, recorded in a journal so that a kill between the renames is finished
/// later, and journals read as untrusted input: a journal names only temporaries beside their final files, and only
/// final files its scope allows, or it is refused whole and nothing is renamed. Every command's set of outputs goes
/// through io::writeFilesTogether (the journal "<first file>.saving", the scope theseFiles), and StreamedFiles
/// commit through the same rename step; a project's save uses "<project>.saving" and ProjectFile::journalScope.
namespace meridian::io {

/// A file to write whose content is already in memory (moved in, not copied).
inline PendingFile textFile(std::string path, std::string content)
{
    auto text = std::make_shared<const std::string>(std::move(content));
    return {std::move(path),
            [text](std::ostream& out) { out.write(text->data(), static_cast<std::streamsize>(text->size())); }};
}

/// One line of a journal: a temporary renamed over its final file. Both paths are absolute.
struct JournalEntry {
    std::string temporary;
    std::string final;
};

/// Which final files a journal may replace: returns an empty string for a file it may replace, else why not
/// ("is outside the project's folder"), to be quoted in the refusal.
using JournalScope = std::function<std::string(const std::string& finalPath)>;

/// The files in `folder` or below it, their folders resolved through symbolic links (a link cannot lead out), whose
/// file names `own` accepts; `what` names them in a refusal ("the project's own files").
JournalScope filesInFolder(const std::string& folder, std::function<bool(std::string_view fileName)> own,
                           std::string what);
/// Exactly the files `paths` names (as absolute paths).
JournalScope theseFiles(const std::vector<std::string>& paths);
/// The files `paths` names that are in `folder` or below it (filesInFolder's check first, then the name itself);
/// `what` names them in a refusal.
JournalScope theseFilesInFolder(const std::string& folder, const std::vector<std::string>& paths,
                                const std::string& what);

/// Writes files as one transaction recorded in the journal `journalPath`, all or none:
/// 1. an older interrupted transaction at `journalPath` is finished first (completeJournal with the same scope;
///    a journal it refuses stops the write), and temporaries that killed writers left beside the files go;
/// 2. every file is checked (in scope, not a folder, named once) and written and synced to a unique temporary
///    "<file>.part-<pid>-<n>-<hex>" beside it: a failure removes the temporaries and leaves every file as it was;
/// 3. the journal (temporary and final file a line, relative to the journal's folder when inside it) is written
///    atomically, every existing file is hard-linked to a backup, and the temporaries are renamed in order;
/// 4. a rename that fails puts the renamed files' old content back from the backups; success removes the journal
///    and the backups.
/// A kill before the journal exists leaves the old files; after it, completeJournal() finishes the new set.
Status writeFilesWithJournal(const std::vector<PendingFile>& files, const std::string& journalPath,
                             const JournalScope& scope);

/// Reads a journal and checks every line before anything is done: a temporary must be "<final>.part-<pid>-<n>-<hex>"
/// in its final file's folder and, while it is there, a regular file; a final file must be in `scope` and not a
/// folder; a relative path may not climb out with "..". A journal failing any check is refused whole with its line.
/// No journal at `journalPath`: an empty list.
Expected<std::vector<JournalEntry>> readJournal(const std::string& journalPath, const JournalScope& scope);

/// Finishes a transaction that a kill interrupted: readJournal, then the temporaries still there are renamed over
/// their files, then the journal is removed. Does nothing when there is no journal. A refused journal is left
/// alone and nothing is renamed; the error names the journal's line and says to move it away.
Status completeJournal(const std::string& journalPath, const JournalScope& scope);

/// Checks, before any work, that `path` can be written as an output: its folder exists and this user may write in
/// it, and no folder is in the way. A command that computes for minutes asks first, not at the end.
Status checkWritable(const std::string& path);

/// Returns true for a name that uniqueTemporaryName() gives `finalName`'s file: "<finalName>.part-<pid>-<n>-<hex>".
bool isTemporaryNameOf(std::string_view temporaryName, std::string_view finalName);

namespace detail {
/// Step 3 and 4 of writeFilesWithJournal on temporaries already written and synced (StreamedFile's commit).
Status renameWithJournal(const std::vector<JournalEntry>& entries, const std::string& journalPath);
} // namespace detail

} // namespace meridian::io
