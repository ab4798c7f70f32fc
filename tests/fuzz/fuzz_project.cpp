// Project files (JSON; sidecars referenced by the input are looked up beside it and are absent here), and the
// project's save journal: the input is also written as the journal of a small valid project, beside temporaries of
// its own files and of a file outside its folder. Whatever the journal says, loading must never change the file
// outside (a defect aborts), and must give the project or a refusal.
#include "app/project/project_file.h"
#include "fuzz_input.h"

#include <QString>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr const char* kProject = R"({"format": "meridian-project", "version": 1, "name": "fuzz",
"sites": [{"name": "a", "lat": 0, "lon": 0, "nodes": 2}],
"applications": [{"name": "x", "volume": "x.volume.mtx"}]})";
constexpr const char* kVolume = "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 5\n";
constexpr const char* kOutside = "a file of the user's, outside the project";

void writeFile(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

struct Folders {
    std::string root, project, outside;
};

const Folders& folders()
{
    static const Folders f = [] {
        char pattern[] = "/tmp/meridian-fuzz-journal-XXXXXX";
        if (!::mkdtemp(pattern))
            std::abort();
        Folders made{pattern, std::string(pattern) + "/project", std::string(pattern) + "/outside"};
        if (::mkdir(made.project.c_str(), 0700) != 0 || ::mkdir(made.outside.c_str(), 0700) != 0)
            std::abort();
        return made;
    }();
    return f;
}

// Lays the project, its volume, temporaries of both (as an interrupted save leaves them) and a file outside with a
// temporary beside it, anew for each input.
void layFiles()
{
    const auto& f = folders();
    writeFile(f.project + "/p.meridian", kProject);
    writeFile(f.project + "/x.volume.mtx", kVolume);
    writeFile(f.project + "/p.meridian.part-1-0-0000beef", kProject);
    writeFile(f.project + "/x.volume.mtx.part-1-0-0000beef", kVolume);
    writeFile(f.outside + "/victim", kOutside);
    writeFile(f.outside + "/victim.part-1-0-0000beef", "replaced");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static meridian::fuzz::InputFile file;
    const auto& path = file.write(data, size);
    (void)meridian::document::ProjectFile::load(QString::fromStdString(path));

    layFiles();
    const auto& f = folders();
    const QString project = QString::fromStdString(f.project + "/p.meridian");
    writeFile(meridian::document::ProjectFile::journalPath(project).toStdString(),
              std::string(reinterpret_cast<const char*>(data), size));
    (void)meridian::document::ProjectFile::load(project);
    if (readFile(f.outside + "/victim") != kOutside || ::access((f.outside + "/victim.part-1-0-0000beef").c_str(), F_OK))
        std::abort(); // the journal changed a file outside the project's folder
    return 0;
}
