// The report as a user makes it: `meridian-cli report` from the project file to the PDF (or HTML), wall clock of
// the whole command, the mapping runs it makes first included. One RESULT line per case, with the pages printed.

#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cstdio>

namespace {

struct Case {
    const char* name;
    const char* project;
    QStringList extra;
    const char* suffix;
};

int pages(const QString& pdf)
{
    QProcess p;
    p.start("pdfinfo", {pdf});
    p.waitForFinished(60000);
    return QRegularExpression("Pages:\\s+(\\d+)").match(QString::fromUtf8(p.readAllStandardOutput())).captured(1).toInt();
}

} // namespace

int main()
{
    const QString samples = QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/";
    const Case cases[] = {
        {"ec2_lu_pdf", "ec2-4-regions/ec2-4-regions.meridian", {"--application", "LU"}, "pdf"},
        {"ec2_lu_html", "ec2-4-regions/ec2-4-regions.meridian", {"--application", "LU"}, "html"},
        {"ec2_all_applications_pdf", "ec2-4-regions/ec2-4-regions.meridian", {}, "pdf"},
        {"cloudmap_a7_pdf", "cloudmap-a7/cloudmap-a7.meridian", {}, "pdf"},
        {"geo_cut_inputs_only_pdf", "geo-cut-ec2-8-regions/geo-cut-ec2-8-regions.meridian", {}, "pdf"},
    };
    QTemporaryDir dir;
    int failures = 0;
    for (const auto& c : cases) {
        const QString out = dir.filePath(QString(c.name) + "." + c.suffix);
        QStringList args{"report", "--project", samples + c.project, "--out", out};
        args += c.extra;
        QProcess p;
        QElapsedTimer timer;
        timer.start();
        p.start(MERIDIAN_CLI, args);
        p.waitForFinished(-1);
        const double seconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
        if (p.exitCode() != 0) {
            std::fprintf(stderr, "%s failed: %s\n", c.name, p.readAllStandardError().constData());
            ++failures;
            continue;
        }
        const int runs = QRegularExpression("\"runs\": (\\d+)")
                             .match(QString::fromUtf8(p.readAllStandardOutput()))
                             .captured(1)
                             .toInt();
        std::printf("RESULT case=%s runs=%d wall_s=%.2f bytes=%lld pages=%d\n", c.name, runs, seconds,
                    static_cast<long long>(QFileInfo(out).size()), QString(c.suffix) == "pdf" ? pages(out) : 0);
        std::fflush(stdout);
    }
    return failures == 0 ? 0 : 1;
}
