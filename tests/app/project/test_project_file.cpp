#include "app/project/project_edits.h"
#include "app/project/project_file.h"
#include "core/common/utc_date.h"
#include "core/io/sites_io.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace meridian;
using namespace meridian::model;
using meridian::test::sampleProject;

namespace {

void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestProjectFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every sample loads; the real applications captured with Meridian's tracer come first (the workbench opens on
    // the first), then the papers' patterns.
    void loadsEverySampleProject_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("sites");
        QTest::addColumn<int>("applications");
        QTest::addColumn<int>("processes");        // of the papers' patterns
        QTest::addColumn<QStringList>("captured"); // "name, processes, trace or not", in order
        QTest::newRow("ec2") << "ec2-4-regions" << 4 << 6 << 64 << QStringList{"LAMMPS melt 32, 32, trace"};
        QTest::newRow("azure") << "azure-3-regions" << 3 << 6 << 48
                               << QStringList{"MUMPS Laplace 16, 16, trace", "HPCC 16, 16, no trace"};
        QTest::newRow("cloudmap") << "cloudmap-a7" << 1 << 7 << 64 << QStringList{"HPCC 16, 16, no trace"};
        QTest::newRow("geo-cut") << "geo-cut-ec2-8-regions" << 8 << 0 << 0 << QStringList{};
    }
    void loadsEverySampleProject()
    {
        QFETCH(QString, name);
        QFETCH(int, sites);
        QFETCH(int, applications);
        QFETCH(int, processes);
        QFETCH(QStringList, captured);
        auto p = document::ProjectFile::load(sampleProject(name));
        QVERIFY2(p, p ? "" : p.error().toString().c_str());
        QCOMPARE(p->topology.siteCount(), sites);
        QCOMPARE(static_cast<int>(p->applications.size()), applications);
        for (std::size_t a = 0; a < p->applications.size(); ++a) {
            const auto& app = p->applications[a];
            const int n = app.comm.processCount();
            if (a < static_cast<std::size_t>(captured.size()))
                QCOMPARE(QString("%1, %2, %3")
                             .arg(QString::fromStdString(app.name))
                             .arg(n)
                             .arg(app.trace ? "trace" : "no trace"),
                         captured[static_cast<qsizetype>(a)]);
            else
                QCOMPARE(n, processes);
            QVERIFY(app.comm.hasMessages());
            QVERIFY(n <= p->topology.totalCapacity());
            QVERIFY(app.pins.validate(n, p->topology));
        }
        QVERIFY(!p->sources.empty());
        QVERIFY(p->completeNetwork().isComplete());
    }

    void ec2SampleCarriesTheSc17Tables()
    {
        auto p = *document::ProjectFile::load(sampleProject("ec2-4-regions"));
        const int east = *p.topology.siteIndex("us-east"), west = *p.topology.siteIndex("us-west");
        const int sin = *p.topology.siteIndex("singapore"), irl = *p.topology.siteIndex("ireland");
        QCOMPARE(p.network.bandwidthMBps(east, west), 21.0); // Table 2
        QCOMPARE(p.network.bandwidthMBps(irl, east), 19.0);
        QCOMPARE(p.network.bandwidthMBps(east, sin), 6.6);
        QCOMPARE(p.network.latencyMs(east, sin), 0.35);
        QCOMPARE(p.network.bandwidthMBps(east, east), 148.0); // Table 1, c3.8xlarge
        QCOMPARE(p.network.bandwidthMBps(sin, sin), 204.0);
        QCOMPARE(p.network.provenance(NetworkQuantity::Bandwidth, west, sin), Provenance::Missing);
        const Network full = p.completeNetwork();
        QCOMPARE(full.provenance(NetworkQuantity::Bandwidth, west, sin), Provenance::Estimated);
        // Farther pairs get less bandwidth: US West - Singapore is farther than US East - Ireland.
        QVERIFY(full.bandwidthMBps(west, sin) < full.bandwidthMBps(east, irl));
        for (int s = 0; s < 4; ++s)
            QCOMPARE(p.topology.capacity(s), 16);
        for (const auto& app : p.applications)             // the SC17 applications' pins; the captured LAMMPS has none
            QCOMPARE(app.pins.size(), app.trace ? 0 : 13); // round(0.2 x 64)
    }

    void sampleSitesFilesAgreeWithTheirProjects()
    {
        for (const QString name : {"ec2-4-regions", "azure-3-regions"}) {
            auto p = *document::ProjectFile::load(sampleProject(name));
            auto t = io::loadTopology(
                (QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/" + name + "/sites.csv").toStdString());
            QVERIFY(t);
            QCOMPARE(t->siteCount(), p.topology.siteCount());
            for (int s = 0; s < t->siteCount(); ++s) {
                QCOMPARE(t->site(s).name, p.topology.site(s).name);
                QCOMPARE(t->site(s).latitude, p.topology.site(s).latitude);
                QCOMPARE(t->site(s).longitude, p.topology.site(s).longitude);
                QCOMPARE(t->capacity(s), p.topology.capacity(s));
            }
        }
    }

    void saveThenLoadGivesTheSameProject()
    {
        auto p = *document::ProjectFile::load(sampleProject("cloudmap-a7"));
        p.network.set(NetworkQuantity::Latency, 0, 0, 0.3, Provenance::Edited);
        auto ec2 = *document::ProjectFile::load(sampleProject("ec2-4-regions"));
        QTemporaryDir dir;
        for (auto* project : {&p, &ec2}) {
            const QString path = dir.filePath(QString::fromStdString(project->name).left(3) + ".meridian");
            QVERIFY(document::ProjectFile::save(*project, path));
            auto back = document::ProjectFile::load(path);
            QVERIFY2(back, back ? "" : back.error().toString().c_str());
            QCOMPARE(back->name, project->name);
            QCOMPARE(back->sources, project->sources);
            QCOMPARE(back->topology.hostCount(), project->topology.hostCount());
            QCOMPARE(back->topology.host(3).name, project->topology.host(3).name);
            QCOMPARE(back->topology.host(3).slots, project->topology.host(3).slots);
            const int m = project->topology.siteCount();
            for (auto q : {NetworkQuantity::Latency, NetworkQuantity::Bandwidth})
                for (int i = 0; i < m; ++i)
                    for (int j = 0; j < m; ++j) {
                        QCOMPARE(back->network.provenance(q, i, j), project->network.provenance(q, i, j));
                        if (back->network.provenance(q, i, j) != Provenance::Missing)
                            QCOMPARE(back->network.value(q, i, j), project->network.value(q, i, j));
                    }
            QCOMPARE(back->network.hostLinks().size(), project->network.hostLinks().size());
            if (!project->network.hostLinks().empty()) {
                const auto& a = project->network.hostLinks().begin()->second;
                const auto& b = back->network.hostLinks().begin()->second;
                QCOMPARE(b.bandwidthMBps, a.bandwidthMBps);
                QCOMPARE(b.provenance, a.provenance);
            }
            QCOMPARE(back->applications.size(), project->applications.size());
            for (std::size_t k = 0; k < back->applications.size(); ++k) {
                const auto& x = project->applications[k];
                const auto& y = back->applications[k];
                QCOMPARE(y.name, x.name);
                QCOMPARE(y.comm.nonZeros(), x.comm.nonZeros());
                QCOMPARE(y.comm.totalBytes(), x.comm.totalBytes());
                QCOMPARE(y.comm.totalMessages(), x.comm.totalMessages());
                QCOMPARE(y.pins.size(), x.pins.size());
            }
        }
        QCOMPARE(p.network.provenance(NetworkQuantity::Latency, 0, 0), Provenance::Edited);
    }

    // Measurement dates survive a save, per entry and per host link; undated and edited entries stay undated.
    void keepsMeasurementDates()
    {
        auto p = *document::ProjectFile::load(sampleProject("ec2-4-regions"));
        const std::int64_t monday = *parseUtcDate("2026-11-23T14:43:23Z"),
                           earlier = *parseUtcDate("2026-10-01T08:00:00Z");
        p.network.set(NetworkQuantity::Latency, 0, 1, 40.5, Provenance::Measured, monday);
        p.network.set(NetworkQuantity::Bandwidth, 0, 1, 90.0, Provenance::Measured, earlier);
        p.network.set(NetworkQuantity::Latency, 1, 0, 41.0, Provenance::Measured);      // measured, date unknown
        p.network.set(NetworkQuantity::Latency, 2, 3, 7.0, Provenance::Edited, monday); // edits carry no date
        model::HostLink link;
        link.latencyMs = 0.5;
        link.bandwidthMBps = 900;
        link.measuredAt = monday;
        p.network.setHostLink(0, 1, link);
        QTemporaryDir dir;
        const QString path = dir.filePath("dated.meridian");
        QVERIFY(document::ProjectFile::save(p, path));
        auto back = document::ProjectFile::load(path);
        QVERIFY2(back, back ? "" : back.error().toString().c_str());
        QCOMPARE(back->network.measuredAt(NetworkQuantity::Latency, 0, 1), monday);
        QCOMPARE(back->network.measuredAt(NetworkQuantity::Bandwidth, 0, 1), earlier);
        QCOMPARE(back->network.measuredAt(NetworkQuantity::Latency, 1, 0), std::int64_t{0});
        QCOMPARE(back->network.measuredAt(NetworkQuantity::Latency, 2, 3), std::int64_t{0});
        QCOMPARE(back->network.provenance(NetworkQuantity::Latency, 2, 3), Provenance::Edited);
        QCOMPARE(back->network.hostLink(0, 1)->measuredAt, monday);
        const auto dates = back->network.measurementDates();
        QCOMPARE(dates.oldest, earlier);
        QCOMPARE(dates.newest, monday);
        QCOMPARE(dates.dated, 3);
        QCOMPARE(document::inputFingerprint(*back, back->applications[0].name),
                 document::inputFingerprint(p, p.applications[0].name));
        // A date on an entry that has no measured value, or a date that is not one, is refused with its path.
        const QByteArray saved = [&] {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        for (const auto& [from, to, where] :
             {std::tuple{QByteArray("\"date\": \"2026-10-01T08:00:00Z\""), QByteArray("\"date\": \"2026-10-01\""),
                         "network.measured_at[0].date"},
              std::tuple{QByteArray("\"measured_at\": \"2026-11-23T14:43:23Z\""),
                         QByteArray("\"measured_at\": \"soon\""), "network.host_links[0].measured_at"}}) {
            QVERIFY(saved.contains(from));
            writeFile(path, QByteArray(saved).replace(from, to));
            const auto bad = document::ProjectFile::load(path);
            QVERIFY(!bad);
            QVERIFY2(bad.error().message.find(where) != std::string::npos, bad.error().toString().c_str());
        }
    }

    void refusesANewerVersion()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("new.meridian");
        writeFile(path, R"({"format": "meridian-project", "version": 2, "sites": []})");
        auto p = document::ProjectFile::load(path);
        QVERIFY(!p);
        QVERIFY(p.error().message.find("newer Meridian (format version 2)") != std::string::npos);
    }

    void namesAMissingSidecar()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.meridian");
        writeFile(path, R"({"format": "meridian-project", "version": 1,
            "sites": [{"name": "a", "lat": 0, "lon": 0, "nodes": 2}],
            "applications": [{"name": "x", "volume": "gone.mtx"}]})");
        auto p = document::ProjectFile::load(path);
        QVERIFY(!p);
        QCOMPARE(p.error().code, ErrorCode::Io);
        QVERIFY(p.error().message.find("gone.mtx' is missing") != std::string::npos);
    }

    void locatesJsonSyntaxErrors()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.meridian");
        writeFile(path, "{\n  \"format\": \"meridian-project\",\n  \"version\": 1,,\n}\n");
        auto p = document::ProjectFile::load(path);
        QVERIFY(!p);
        QCOMPARE(p.error().where.line, 3);
        QVERIFY(p.error().where.column > 1);
    }

    void rejectsInvalidContentWithItsJsonPath()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.meridian");
        writeFile(path, R"({"format": "meridian-project", "version": 1,
            "sites": [{"name": "a", "lat": 0, "lon": 0, "nodes": 2}],
            "network": {"bandwidth_MBps": {"values": [[0]]}}})");
        auto p = document::ProjectFile::load(path);
        QVERIFY(!p);
        QVERIFY(p.error().message.find("network.bandwidth_MBps[0][0]") != std::string::npos);
        writeFile(
            path,
            R"({"format": "meridian-project", "version": 1, "sites": [{"name": "a", "lat": "x", "lon": 0, "nodes": 2}]})");
        QVERIFY(document::ProjectFile::load(path).error().message.find("sites[0].lat") != std::string::npos);
        writeFile(path, R"({"format": "other", "version": 1})");
        QVERIFY(document::ProjectFile::load(path).error().message.find("not a Meridian project") != std::string::npos);
    }

    void namesAnUnknownKeyAndItsLine()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("typo.meridian");
        writeFile(path,
                  "{\n  \"format\": \"meridian-project\",\n  \"version\": 1,\n"
                  "  \"sites\": [{\"name\": \"a\", \"lat\": 0, \"lon\": 0, \"nodes\": 2,\n"
                  "             \"egress_usd_per_gb\": 0.09}]\n}\n");
        auto p = document::ProjectFile::load(path);
        QVERIFY(!p);
        QCOMPARE(p.error().where.line, 5);
        QCOMPARE(p.error().where.column, 14);
        QVERIFY2(p.error().message.find("sites[0]: unknown key 'egress_usd_per_gb'; expected one of")
                     != std::string::npos,
                 p.error().message.c_str());
        writeFile(path,
                  "{\"format\": \"meridian-project\", \"version\": 1, \"sites\": [{\"name\": \"a\", \"lat\": 0, "
                  "\"lon\": 0, \"nodes\": 2}],\n"
                  " \"aplications\": []}");
        auto top = document::ProjectFile::load(path);
        QVERIFY(!top);
        QCOMPARE(top.error().where.line, 2);
        QVERIFY(top.error().message.find("unknown key 'aplications'") != std::string::npos);
    }

    void graphsKeepTheirFileChecksumHomesAndStatistics()
    {
        // The Geo-Cut sample refers to Wiki-Vote beside it; saved elsewhere, the reference follows the file.
        auto p = document::ProjectFile::load(sampleProject("geo-cut-ec2-8-regions"));
        QVERIFY2(p, p ? "" : p.error().toString().c_str());
        QCOMPARE(p->graphs.size(), std::size_t(1));
        const auto& g = p->graphs.front();
        QCOMPARE(g.name, std::string("wiki-vote"));
        QVERIFY(QFileInfo(QString::fromStdString(g.path)).isAbsolute());
        QCOMPARE(g.stats.edges, std::uint64_t(103689));
        QCOMPARE(g.stats.vertices, std::uint64_t(7115));
        QCOMPARE(g.stats.homesFromFile, std::uint64_t(7115));
        QCOMPARE(document::graphChangeOnDisk(g), std::string());
        QTemporaryDir dir;
        const QString path = dir.filePath("sub/elsewhere.meridian");
        QVERIFY(QDir().mkpath(dir.filePath("sub")));
        QVERIFY(document::ProjectFile::save(*p, path));
        auto back = document::ProjectFile::load(path);
        QVERIFY2(back, back ? "" : back.error().toString().c_str());
        const auto& b = back->graphs.front();
        QCOMPARE(b.path, g.path);
        QCOMPARE(b.homesPath, g.homesPath);
        QCOMPARE(b.checksum, g.checksum);
        QCOMPARE(b.homesChecksum, g.homesChecksum);
        QCOMPARE(b.format, g.format);
        QCOMPARE(b.stats.degreeHistogram, g.stats.degreeHistogram);
        QCOMPARE(b.stats.maxDegree, g.stats.maxDegree);
        QCOMPARE(document::inputFingerprint(*back, "wiki-vote"), document::inputFingerprint(*p, "wiki-vote"));
    }

    void refusesBadGraphEntries()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("g.meridian");
        const QByteArray head = "{\"format\": \"meridian-project\", \"version\": 1, \"sites\": [{\"name\": \"a\", "
                                "\"lat\": 0, \"lon\": 0, \"nodes\": 2, \"up_MBps\": 1, \"down_MBps\": 1, "
                                "\"egress_usd_per_GB\": 0.1}],\n"
                                " \"applications\": [],\n \"graphs\": [{\"name\": \"g\", \"file\": \"g.txt\", "
                                "\"format\": \"snap\", \"checksum\": \"12ab\", \"homes_seed\": 1, \"vertices\": 2, "
                                "\"edges\": 1, \"self_loops_dropped\": 0, \"max_degree\": 1, \"homes_from_file\": 0";
        writeFile(path, head + ",\n \"colour\": 1}]}");
        auto unknown = document::ProjectFile::load(path);
        QVERIFY(!unknown);
        QCOMPARE(unknown.error().where.line, 4);
        QVERIFY(unknown.error().message.find("graphs[0]: unknown key 'colour'") != std::string::npos);
        writeFile(path, QByteArray(head).replace("\"12ab\"", "12") + "}]}");
        auto checksum = document::ProjectFile::load(path);
        QVERIFY(!checksum);
        QVERIFY(checksum.error().message.find("graphs[0].checksum") != std::string::npos);
        writeFile(path, QByteArray(head).replace("\"edges\": 1", "\"edges\": -1") + "}]}");
        auto edges = document::ProjectFile::load(path);
        QVERIFY(!edges);
        QVERIFY(edges.error().message.find("graphs[0].edges: expected a whole number") != std::string::npos);
        writeFile(path, head + "}, " + QByteArray(head).mid(head.indexOf("{\"name\": \"g\"")) + "}]}");
        auto twice = document::ProjectFile::load(path);
        QVERIFY(!twice);
        QVERIFY(twice.error().message.find("graphs[1].name: another graph or application has the same name")
                != std::string::npos);
        writeFile(path, head + "}]}");
        QVERIFY(document::ProjectFile::load(path));
    }

    void sidecarsKeepTheirNamesAcrossRenames()
    {
        QTemporaryDir dir;
        auto p = *document::ProjectFile::load(sampleProject("ec2-4-regions"));
        const int k = p.applicationIndex("K-means");
        QVERIFY(k >= 0);
        QCOMPARE(p.applications[k].volumeFile, std::string("kmeans.volume.mtx"));
        p.applications[k].name = "Clustering";
        // A new application gets a name of its own, unique even when its slug collides.
        document::Application copy = p.applications[k];
        copy.name = "kmeans";
        copy.volumeFile = copy.messagesFile = copy.pinsFile = {};
        p.applications.push_back(copy);
        const QString path = dir.filePath("p.meridian");
        QVERIFY(document::ProjectFile::save(p, path));
        QVERIFY(QFile::exists(dir.filePath("kmeans.volume.mtx")));
        QVERIFY(QFile::exists(dir.filePath("kmeans-2.volume.mtx")));
        QVERIFY(!QFile::exists(dir.filePath("clustering.volume.mtx")));
        auto back = document::ProjectFile::load(path);
        QVERIFY(back);
        QCOMPARE(back->applications[k].name, std::string("Clustering"));
        QCOMPARE(back->applications[k].comm.totalBytes(), p.applications[k].comm.totalBytes());
        QCOMPARE(back->applications.back().volumeFile, std::string("kmeans-2.volume.mtx"));
    }

    // An application's trace is a sidecar of its own (merged: every rank's lines), checked against the volume when
    // loaded, carried over by a save to another folder; one of other traffic or outside the folder is refused.
    void keepsAnApplicationsTraceAndRefusesAnotherProgramsTrace()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("a.mtx"), "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 5\n");
        const QByteArray trace = "0 init\n1 init\n0 send 1 0 5\n1 recv 0 0 5\n0 finalize\n1 finalize\n";
        writeFile(dir.filePath("x.trace.ti"), trace);
        const auto project = [&](const QByteArray& traceFile) {
            return "{\"format\": \"meridian-project\", \"version\": 1,\n"
                   "\"sites\": [{\"name\": \"a\", \"lat\": 0, \"lon\": 0, \"nodes\": 2}],\n"
                   "\"applications\": [{\"name\": \"x\", \"volume\": \"a.mtx\", \"trace\": \""
                + traceFile + "\"}]}";
        };
        const QString path = dir.filePath("t.meridian");
        writeFile(path, project("x.trace.ti"));
        auto p = document::ProjectFile::load(path);
        QVERIFY2(p, p ? "" : p.error().toString().c_str());
        QVERIFY(p->applications[0].trace);
        QCOMPARE(p->applications[0].trace->ranks, 2);
        QCOMPARE(p->applications[0].trace->lines, std::int64_t(6));
        QTemporaryDir other;
        QVERIFY(document::ProjectFile::save(*p, other.filePath("copy.meridian")));
        auto copy = document::ProjectFile::load(other.filePath("copy.meridian"));
        QVERIFY2(copy, copy ? "" : copy.error().toString().c_str());
        QCOMPARE(copy->applications[0].trace->text, p->applications[0].trace->text);
        QVERIFY(QFile::exists(other.filePath("x.trace.ti")));

        writeFile(dir.filePath("x.trace.ti"), QByteArray(trace).replace("1 0 5", "1 0 6"));
        auto tampered = document::ProjectFile::load(path);
        QVERIFY(!tampered);
        QVERIFY2(tampered.error().message.find("a trace of another program or run") != std::string::npos,
                 tampered.error().toString().c_str());
        writeFile(dir.filePath("x.trace.ti"), "0 init\n1 init\n0 send 1 0 5\n1 recv 0 0 5\n0 finalize\n");
        auto cut = document::ProjectFile::load(path);
        QVERIFY(!cut);
        QCOMPARE(QString::fromStdString(cut.error().where.file), dir.filePath("x.trace.ti"));
        QCOMPARE(cut.error().where.line, 4);
        writeFile(path, project("../x.trace.ti"));
        QVERIFY(!document::ProjectFile::load(path));
    }

    // Regressions: inline pins [1.5, "a"] and [1e12, "a"] pinned process 0; "hosts": [] dropped a site's nodes.
    void refusesInlinePinsThatAreNotProcessIdsAndSitesWithoutHosts()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("v.mtx"), "%%MatrixMarket matrix coordinate real general\n4 4 1\n1 2 5\n");
        const QString path = dir.filePath("p.meridian");
        const QByteArray head = R"({"format": "meridian-project", "version": 1,
            "sites": [{"name": "a", "lat": 0, "lon": 0, "nodes": 4}],
            "applications": [{"name": "x", "volume": "v.mtx", "pins": )";
        for (const QByteArray& pins :
             {QByteArray(R"([[1.5, "a"]])"), QByteArray(R"([[1e12, "a"]])"), QByteArray(R"([[4, "a"]])"),
              QByteArray(R"([[1, 2]])"), QByteArray(R"([[-1, "a"]])")}) {
            writeFile(path, head + pins + "}]}");
            auto p = document::ProjectFile::load(path);
            QVERIFY2(!p, pins.constData());
            QVERIFY2(p.error().message.find(
                         "applications[0].pins[0]: expected [process, \"site\"]: a whole process id from 0 to 3")
                         != std::string::npos,
                     p.error().message.c_str());
        }
        writeFile(path, head + R"([[3, "a"]])" + "}]}");
        auto good = document::ProjectFile::load(path);
        QVERIFY2(good, good ? "" : good.error().toString().c_str());
        QCOMPARE(good->applications[0].pins.pins()[0].process, 3);
        writeFile(
            path,
            R"({"format": "meridian-project", "version": 1, "sites": [{"name": "a", "lat": 0, "lon": 0, "hosts": []}]})");
        auto empty = document::ProjectFile::load(path);
        QVERIFY(!empty);
        QVERIFY(empty.error().message.find("sites[0].hosts: expected at least one host") != std::string::npos);
    }

    // Issue 31.3: a key of the wrong JSON type was read as empty, and the next save deleted the data.
    void refusesKeysOfTheWrongJsonTypeWithTheirLine()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("typed.meridian");
        writeFile(dir.filePath("a.mtx"), "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 5\n");
        const QByteArray head = "{\"format\": \"meridian-project\", \"version\": 1,\n"
                                "\"sites\": [{\"name\": \"a\", \"lat\": 0, \"lon\": 0, \"nodes\": 2}],\n";
        const struct {
            QByteArray rest;
            int line;
            const char* fragment;
        } cases[] = {
            {"\"applications\": {\"name\": \"x\"}}", 3, "applications: expected an array [...], found an object {...}"},
            {"\"applications\": [{\"name\": \"x\", \"volume\": \"a.mtx\",\n \"pins\": 2}]}", 4,
             "applications[0].pins: expected the path of the pins file or an array"},
            {"\"applications\": [\"x\"]}", 0, "applications[0]: expected an object"},
            {"\"applications\": [{\"name\": \"x\", \"volume\": \"a.mtx\", \"messages\": 7}]}", 3,
             "applications[0].messages: expected a string, found a number"},
            {"\"applications\": [{\"name\": \"x\", \"volume\": \"a.mtx\", \"trace\": 3}]}", 3,
             "applications[0].trace: expected a string, found a number"},
            {"\"graphs\": \"g\"}", 3, "graphs: expected an array [...], found a string"},
            {"\"network\": []}", 3, "network: expected an object {...}, found an array"},
            {"\"network\": {\"latency_ms\": [[0]]}}", 3, "network.latency_ms: expected {\"values\""},
            {"\"network\": {\"host_links\": {}}}", 3, "network.host_links: expected an array"},
            {"\"sources\": \"sites.csv\"}", 3, "sources: expected an array"},
            {"\"sources\": [1]}", 0, "sources[0]: expected a string"},
            {"\"name\": 5}", 3, "name: expected a string, found a number"},
        };
        for (const auto& c : cases) {
            writeFile(path, head + c.rest);
            auto p = document::ProjectFile::load(path);
            QVERIFY2(!p, c.rest.constData());
            QVERIFY2(p.error().message.find(c.fragment) != std::string::npos, p.error().toString().c_str());
            if (c.line > 0)
                QVERIFY2(p.error().where.line == c.line, p.error().toString().c_str());
        }
    }

    // Issue 31.1: sidecar paths are names inside the project's folder; an absolute path or one climbing out with
    // ".." is refused, so that a later save cannot write outside the folder.
    void refusesSidecarsOutsideTheProjectsFolder()
    {
        QTemporaryDir outside, dir;
        const QString victim = outside.filePath("victim.mtx");
        writeFile(victim, "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 5\n");
        QVERIFY(QFile::link(outside.path(), dir.filePath("linked")));
        const QString path = dir.filePath("p.meridian");
        const QString relative = "../" + QFileInfo(outside.path()).fileName() + "/victim.mtx";
        for (const QString& volume : {victim, relative, QString("linked/victim.mtx")}) {
            writeFile(path,
                      ("{\"format\": \"meridian-project\", \"version\": 1, \"sites\": [{\"name\": \"a\", "
                       "\"lat\": 0, \"lon\": 0, \"nodes\": 2}],\n\"applications\": [{\"name\": \"x\", "
                       "\"volume\": \""
                       + volume + "\"}]}")
                          .toUtf8());
            auto p = document::ProjectFile::load(path);
            QVERIFY2(!p, qPrintable(volume));
            QVERIFY2(p.error().message.find("applications[0].volume") != std::string::npos
                         && (p.error().message.find("inside the project's folder") != std::string::npos
                             || p.error().message.find("is outside the folder") != std::string::npos),
                     p.error().toString().c_str());
        }
        // A sidecar of another suffix inside the folder is read (a save gives it a name of Meridian's own).
        writeFile(dir.filePath("lu.txt"), "0,5\n0,0\n");
        writeFile(path,
                  "{\"format\": \"meridian-project\", \"version\": 1, \"sites\": [{\"name\": \"a\", "
                  "\"lat\": 0, \"lon\": 0, \"nodes\": 2}],\n\"applications\": [{\"name\": \"x\", "
                  "\"volume\": \"lu.txt\"}]}");
        auto own = document::ProjectFile::load(path);
        QVERIFY2(own, own ? "" : own.error().toString().c_str());
        // And a save never writes outside it, whatever an application's sidecar name says.
        auto project = *document::ProjectFile::load(sampleProject("azure-3-regions"));
        project.applications.front().volumeFile = relative.toStdString();
        project.applications.front().messagesFile = "linked/victim.mtx";
        const auto before = QFileInfo(victim).lastModified();
        const auto s = document::ProjectFile::save(project, path);
        QVERIFY(!s);
        QVERIFY2(s.error().message.find("is outside the folder") != std::string::npos, s.error().toString().c_str());
        QCOMPARE(QFileInfo(victim).lastModified(), before);
        QCOMPARE(QDir(outside.path()).entryList(QDir::Files), QStringList{"victim.mtx"});
    }

    // Issue 31.1: loading (as `meridian-cli info` does) finished a pending save by renaming whatever its journal
    // listed. Now the journal is checked whole first: a line naming a file outside the folder refuses the load.
    void aHandedOverJournalCannotReplaceFilesOutsideTheProject()
    {
        QTemporaryDir outside, dir;
        const QString path = dir.filePath("p.meridian");
        QVERIFY(document::ProjectFile::save(*document::ProjectFile::load(sampleProject("azure-3-regions")), path));
        const QString victim = outside.filePath(".bashrc");
        writeFile(victim, "the user's own");
        writeFile(victim + ".part-1-0-0000beef", "rm -rf ~");
        writeFile(document::ProjectFile::journalPath(path),
                  ("meridian-journal 1\n" + victim + ".part-1-0-0000beef\t" + victim + "\n").toUtf8());
        auto p = document::ProjectFile::load(path);
        QVERIFY(!p);
        QCOMPARE(p.error().where.line, 2);
        QVERIFY2(p.error().message.find("is outside the folder") != std::string::npos, p.error().toString().c_str());
        QVERIFY(p.error().message.find("nothing was renamed") != std::string::npos);
        QFile f(victim);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("the user's own"));
        QVERIFY(QFile::exists(document::ProjectFile::journalPath(path)));
    }

    // Issue 31.1: inside the folder, a journal replaces only the project's own files: a user's file beside the
    // project that the project does not name is not one of them, whatever its suffix.
    void aHandedOverJournalCannotReplaceAFileBesideTheProjectThatItDoesNotName()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.meridian");
        QVERIFY(document::ProjectFile::save(*document::ProjectFile::load(sampleProject("azure-3-regions")), path));
        const QString victim = dir.filePath("measurements.csv");
        writeFile(victim, "the user's own");
        writeFile(victim + ".part-1-0-0000beef", "replaced");
        writeFile(document::ProjectFile::journalPath(path),
                  "meridian-journal 2\nmeasurements.csv.part-1-0-0000beef\tmeasurements.csv\n");
        auto p = document::ProjectFile::load(path);
        QVERIFY(!p);
        QCOMPARE(p.error().where.line, 2);
        QVERIFY2(p.error().message.find("is not one of the project's own files") != std::string::npos,
                 p.error().toString().c_str());
        QFile f(victim);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("the user's own"));

        // A journal naming a sidecar the project names is finished.
        QVERIFY(QFile::remove(document::ProjectFile::journalPath(path)));
        const auto saved = document::ProjectFile::withSidecarNames(*document::ProjectFile::load(path));
        const QString sidecar = dir.filePath(QString::fromStdString(saved.applications.front().volumeFile));
        QVERIFY(QFile::exists(sidecar));
        QVERIFY(QFile::copy(sidecar, sidecar + ".part-1-0-0000cafe"));
        const auto inode = [](const QString& file) {
            struct stat st {};
            return ::stat(QFile::encodeName(file).constData(), &st) == 0 ? st.st_ino : ino_t{0};
        };
        const ino_t temporary = inode(sidecar + ".part-1-0-0000cafe");
        writeFile(document::ProjectFile::journalPath(path),
                  ("meridian-journal 2\n" + QFileInfo(sidecar).fileName() + ".part-1-0-0000cafe\t"
                   + QFileInfo(sidecar).fileName() + "\n")
                      .toUtf8());
        auto finished = document::ProjectFile::load(path);
        QVERIFY2(finished, finished ? "" : finished.error().toString().c_str());
        QVERIFY(!QFile::exists(document::ProjectFile::journalPath(path)));
        QVERIFY(!QFile::exists(sidecar + ".part-1-0-0000cafe"));
        QCOMPARE(inode(sidecar), temporary);
    }

    // Issue 31.16: without the project's lock (another writer holds it, or the user may not write the folder) a
    // pending save is not finished but read as it will be: the new files from their temporaries.
    void aPendingSaveIsReadWithoutTheLockAsItWillBe()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.meridian");
        auto project = *document::ProjectFile::load(sampleProject("azure-3-regions"));
        QVERIFY(document::ProjectFile::save(project, path));
        // A save killed after its journal: the project file's new content waits in its temporary.
        auto renamed = project;
        renamed.name = "renamed by the interrupted save";
        const QString other = dir.filePath("other/p.meridian");
        QVERIFY(QDir(dir.path()).mkdir("other"));
        QVERIFY(document::ProjectFile::save(renamed, other));
        const QString temp = path + ".part-1-0-0000beef";
        QVERIFY(QFile::copy(other, temp));
        writeFile(document::ProjectFile::journalPath(path),
                  "meridian-journal 2\np.meridian.part-1-0-0000beef\tp.meridian\n");
        {
            auto held = document::ProjectFile::lock(path, "another writer", 0);
            QVERIFY(held);
            // This process holds it: load finishes the save. Release it and take it again from a child's view:
            // the registry says this process holds it, so simulate another holder with a forked process instead.
        }
        const pid_t child = ::fork();
        if (child == 0) {
            auto held = document::ProjectFile::lock(path, "another writer", 0);
            ::sleep(held ? 3 : 0);
            ::_exit(0);
        }
        QTest::qWait(300);
        auto p = document::ProjectFile::load(path);
        QVERIFY2(p, p ? "" : p.error().toString().c_str());
        QCOMPARE(p->name, std::string("renamed by the interrupted save"));
        QVERIFY(QFile::exists(temp)); // left for the lock's holder to finish
        QVERIFY(QFile::exists(document::ProjectFile::journalPath(path)));
        int status = 0;
        ::waitpid(child, &status, 0);
        // With the lock free, the load finishes the save.
        auto finished = document::ProjectFile::load(path);
        QVERIFY(finished);
        QCOMPARE(finished->name, std::string("renamed by the interrupted save"));
        QVERIFY(!QFile::exists(temp));
        QVERIFY(!QFile::exists(document::ProjectFile::journalPath(path)));
    }

    // Issue 31.2: a writer waits a bounded time for another's lock, then is refused with who holds it.
    void aSecondWriterIsRefusedWithWhoHoldsTheLock()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.meridian");
        const auto project = *document::ProjectFile::load(sampleProject("azure-3-regions"));
        QVERIFY(document::ProjectFile::save(project, path));
        const pid_t child = ::fork();
        if (child == 0) {
            auto held = document::ProjectFile::lock(path, "meridian-cli project set-pins", 0);
            ::sleep(held ? 3 : 0);
            ::_exit(0);
        }
        QTest::qWait(300);
        qputenv("MERIDIAN_LOCK_WAIT_S", "0.2");
        const auto s = document::ProjectFile::save(project, path);
        qunsetenv("MERIDIAN_LOCK_WAIT_S");
        QVERIFY(!s);
        QCOMPARE(s.error().code, ErrorCode::Busy);
        QVERIFY2(s.error().message.find("process " + std::to_string(child)) != std::string::npos
                     && s.error().message.find("meridian-cli project set-pins") != std::string::npos,
                 s.error().toString().c_str());
        ::kill(child, SIGKILL); // a killed holder's lock goes with it
        ::waitpid(child, nullptr, 0);
        QVERIFY(document::ProjectFile::save(project, path));
    }

    // Issue 31.16: temporaries of killed saves are removed by the next save, also of files no longer saved.
    void aSaveRemovesTemporariesThatKilledSavesLeft()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.meridian");
        const auto project = *document::ProjectFile::load(sampleProject("azure-3-regions"));
        const pid_t child = ::fork();
        if (child == 0)
            ::_exit(0);
        ::waitpid(child, nullptr, 0);
        const QString dead = QString(".part-%1-0-0000beef").arg(child);
        for (const char* name : {"p.meridian", "gone.volume.mtx", "p.meridian.saving", "notes.txt"})
            writeFile(dir.filePath(name + dead), "left by a killed save");
        QVERIFY(document::ProjectFile::save(project, path));
        QVERIFY(!QFile::exists(dir.filePath("p.meridian" + dead)));
        QVERIFY(!QFile::exists(dir.filePath("gone.volume.mtx" + dead)));
        QVERIFY(!QFile::exists(dir.filePath("p.meridian.saving" + dead)));
        QVERIFY(QFile::exists(dir.filePath("notes.txt" + dead))); // not the project's
    }

    // Issue 31.13: a measurement dated 1970 was read as "unknown", one in 2999 was kept; both are refused, with the
    // range expected.
    void refusesImplausibleMeasurementDates()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("dated.meridian");
        for (const char* date : {"1970-01-01T00:00:00Z", "2999-01-01T00:00:00Z"}) {
            writeFile(path,
                      QByteArray("{\"format\": \"meridian-project\", \"version\": 1,\n"
                                 "\"sites\": [{\"name\": \"a\", \"lat\": 0, \"lon\": 0, \"nodes\": 2}],\n"
                                 "\"network\": {\"latency_ms\": {\"values\": [[0.2]]},\n"
                                 "  \"measured_at\": [{\"date\": \"")
                          + date + "\", \"latency_ms\": [[0, 0]]}]}}");
            auto p = document::ProjectFile::load(path);
            QVERIFY(!p);
            QCOMPARE(p.error().where.line, 4);
            QVERIFY2(p.error().message.find("network.measured_at[0].date: expected a date from 2000-01-01T00:00:00Z")
                         != std::string::npos,
                     p.error().toString().c_str());
        }
    }

    void leavesNoPartialFileWhenSavingFails()
    {
        auto p = *document::ProjectFile::load(sampleProject("ec2-4-regions"));
        const auto s = document::ProjectFile::save(p, "/nonexistent-dir/x.meridian");
        QVERIFY(!s);
        QCOMPARE(s.error().code, ErrorCode::Io);
        QVERIFY(!QFile::exists("/nonexistent-dir/x.meridian"));
    }
};

QTEST_GUILESS_MAIN(TestProjectFile)
#include "test_project_file.moc"
