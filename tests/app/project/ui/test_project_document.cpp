#include "app/project/project_edits.h"
#include "app/project/project_file.h"
#include "app/project/ui/project_document.h"
#include "core/io/probe_results.h"
#include "test_support.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <csignal>
#include <memory>
#include <sys/wait.h>
#include <unistd.h>

using namespace meridian;
using meridian::test::sampleProject;

namespace {

document::Run runOf(const document::ProjectDocument& doc, const std::string& application)
{
    document::Run run;
    run.algorithm = "random";
    run.application = application;
    run.inputFingerprint = doc.fingerprint(application);
    return run;
}

} // namespace

class TestProjectDocument : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void startsEmptyAndLoadsAProject()
    {
        document::ProjectDocument doc;
        QCOMPARE(doc.project()->topology.siteCount(), 0);
        QVERIFY(!doc.isModified());
        QSignalSpy changed(&doc, &document::ProjectDocument::projectChanged);
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(doc.project()->topology.siteCount(), 4);
        QVERIFY(doc.completeNetwork().isComplete());
        QVERIFY(!doc.networkModelText().isEmpty());
        QVERIFY(!doc.isModified());
    }

    void keepsTheProjectWhenAFileIsBroken()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        const auto before = doc.project();
        const auto s = doc.load(meridian::test::qdata("sites.csv"));
        QVERIFY(!s);
        QVERIFY(!s.error().where.file.empty());
        QCOMPARE(doc.project(), before);
    }

    void undoesAndRedoesEveryEdit()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        const auto original = doc.project();
        QVERIFY(
            doc.edit("Move", [](const document::Project& p) { return document::withSitePosition(p, 0, 10.0, 20.0); }));
        QVERIFY(doc.edit("Rename", [](const document::Project& p) {
            return document::withSiteField(p, 1, document::SiteField::Name, "oregon");
        }));
        QVERIFY(doc.isModified());
        QCOMPARE(doc.project()->topology.site(0).latitude, 10.0);
        QCOMPARE(doc.project()->topology.site(1).name, std::string("oregon"));
        // Default host names follow the site's name.
        QCOMPARE(doc.project()->topology.host(doc.project()->topology.firstHost(1)).name, std::string("oregon-00"));
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(doc.project(), original);
        QVERIFY(!doc.isModified());
        doc.undoStack()->redo();
        QCOMPARE(doc.project()->topology.site(0).longitude, 20.0);
    }

    void rejectsABadEditAndChangesNothing()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        const auto before = doc.project();
        auto s = doc.edit("Bad", [](const document::Project& p) {
            return document::withSiteField(p, 0, document::SiteField::Latitude, "north");
        });
        QVERIFY(!s);
        QVERIFY(s.error().message.find("north") != std::string::npos);
        s = doc.edit("Bad", [](const document::Project& p) {
            return document::withSiteField(p, 0, document::SiteField::Latitude, "95");
        });
        QVERIFY(!s);
        s = doc.edit("Dup", [](const document::Project& p) { return document::withAddedSite(p, "us-west", 0, 0); });
        QVERIFY(!s);
        s = doc.edit("Bad bandwidth", [](const document::Project& p) {
            return document::withNetworkEntry(p, model::NetworkQuantity::Bandwidth, 0, 1, "-3");
        });
        QVERIFY(!s);
        QCOMPARE(doc.project(), before);
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    void addsAndRemovesSitesKeepingTheNetworkAndPins()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        const auto before = doc.project();
        const double lat01 = before->network.latencyMs(0, 1);
        QVERIFY(doc.edit("Add", [](const document::Project& p) {
            return document::withAddedSite(p, "frankfurt", 50.1, 8.7);
        }));
        auto p = doc.project();
        QCOMPARE(p->topology.siteCount(), 5);
        QCOMPARE(p->network.latencyMs(0, 1), lat01);
        QCOMPARE(p->network.provenance(model::NetworkQuantity::Latency, 4, 0), model::Provenance::Missing);
        QCOMPARE(doc.completeNetwork().provenance(model::NetworkQuantity::Latency, 4, 0), model::Provenance::Estimated);
        // Removing site 0 drops its pins and shifts the network.
        const double lat12 = p->network.latencyMs(1, 2);
        QVERIFY(doc.edit("Remove", [](const document::Project& p) { return document::withoutSite(p, 0); }));
        p = doc.project();
        QCOMPARE(p->topology.siteCount(), 4);
        QCOMPARE(p->network.latencyMs(0, 1), lat12);
        for (const auto& app : p->applications)
            for (const auto& pin : app.pins.pins())
                QVERIFY(pin.site < 4);
    }

    void marksRunsStaleWhenTheirInputsChangeAndUndoRestoresThem()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        const auto lu = doc.project()->applications[0].name;
        const auto other = doc.project()->applications[1].name;
        doc.addRuns({runOf(doc, lu), runOf(doc, other)}, "runs");
        QCOMPARE(doc.runs().size(), std::size_t(2));
        QVERIFY(doc.staleRuns().empty());
        // A pin of one application makes only its runs stale.
        QVERIFY(doc.edit("Pin", [](const document::Project& p) { return document::withPin(p, 0, 5, 2); }));
        QCOMPARE(doc.staleRuns(), std::vector<int>{doc.runs()[0]->id});
        doc.undoStack()->undo();
        QVERIFY(doc.staleRuns().empty());
        // A bandwidth, a capacity or a site position affects every application.
        for (auto change : std::vector<std::function<Expected<document::Project>(const document::Project&)>>{
                 [](const document::Project& p) {
                     return document::withNetworkEntry(p, model::NetworkQuantity::Bandwidth, 0, 1, "55");
                 },
                 [](const document::Project& p) {
                     return document::withSiteField(p, 2, document::SiteField::Nodes, "20");
                 },
                 [](const document::Project& p) { return document::withSitePosition(p, 3, 0.0, 0.0); }}) {
            QVERIFY(doc.edit("What-if", change));
            QCOMPARE(doc.staleRuns().size(), std::size_t(2));
            doc.undoStack()->undo();
            QVERIFY(doc.staleRuns().empty());
        }
    }

    // A newer measurement makes runs on the older one stale, even when it measured the same values; the
    // probe's pairs are dated, and what it did not measure keeps its value.
    void aNewerMeasurementMakesRunsStale()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        auto probe = io::readProbeResults(MERIDIAN_TEST_DATA "/probe/localhost");
        QVERIFY(probe);
        const double tokyo = doc.project()->network.latencyMs(1, 2);
        const auto first = document::withProbeResults(*doc.project(), *probe);
        QVERIFY(first && first->bySite);
        QCOMPARE(first->siteEntries, 4);
        QVERIFY(doc.edit("Import",
                         [&](const document::Project&) -> Expected<document::Project> { return first->project; }));
        const auto p = doc.project();
        QCOMPARE(p->network.latencyMs(0, 3), 0.002649);
        QCOMPARE(p->network.measuredAt(model::NetworkQuantity::Bandwidth, 3, 0), probe->measuredAt);
        QCOMPARE(p->network.latencyMs(1, 2), tokyo);
        QVERIFY(p->sources.back().find("meridian-probe on 2026-11-23T14:43:23Z") != std::string::npos);
        doc.addRuns({runOf(doc, p->applications[0].name)}, "run");
        QVERIFY(doc.staleRuns().empty());
        // The same values, measured a day later.
        probe->measuredAt += 86400;
        QVERIFY(doc.edit("Import again", [&](const document::Project& q) -> Expected<document::Project> {
            auto imported = document::withProbeResults(q, *probe);
            if (!imported)
                return imported.error();
            return imported->project;
        }));
        QCOMPARE(doc.staleRuns().size(), std::size_t(1));
        doc.undoStack()->undo();
        QVERIFY(doc.staleRuns().empty());
        // Names the project does not have are refused, naming them.
        probe->names = {"us-east", "mars"};
        const auto refused = document::withProbeResults(*doc.project(), *probe);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.find("'mars', which the project has neither as a site nor as a host")
                     != std::string::npos,
                 refused.error().message.c_str());
    }

    // A probe between hosts: each host pair becomes a host link, each site pair the median of its host pairs.
    void aProbeBetweenHostsSetsHostLinksAndSiteMedians()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        const auto& topo = doc.project()->topology;
        io::ProbeResults probe;
        probe.prefix = "hosts";
        probe.measuredAt = 1795444988;
        const int a0 = topo.firstHost(0), a1 = a0 + 1, b0 = topo.firstHost(3);
        probe.names = {topo.host(a0).name, topo.host(a1).name, topo.host(b0).name};
        probe.latencyMs = Eigen::MatrixXd::Constant(3, 3, std::nan(""));
        probe.bandwidthMBps = probe.latencyMs;
        const auto set = [&](int i, int j, double l, double b) {
            probe.latencyMs(i, j) = probe.latencyMs(j, i) = l;
            probe.bandwidthMBps(i, j) = probe.bandwidthMBps(j, i) = b;
        };
        set(0, 1, 0.1, 1000);
        set(0, 2, 40, 50);
        set(1, 2, 44, 70);
        auto imported = document::withProbeResults(*doc.project(), probe);
        QVERIFY2(imported, imported ? "" : imported.error().message.c_str());
        QVERIFY(!imported->bySite);
        QCOMPARE(imported->hostLinks, 6);
        const auto& n = imported->project.network;
        QCOMPARE(n.hostLink(a1, b0)->latencyMs, 44.0);
        QCOMPARE(n.hostLink(b0, a0)->measuredAt, probe.measuredAt);
        QCOMPARE(n.latencyMs(0, 3), 42.0); // median of 40 and 44
        QCOMPARE(n.bandwidthMBps(3, 0), 60.0);
        QCOMPARE(n.latencyMs(0, 0), 0.1);
        QCOMPARE(n.measuredAt(model::NetworkQuantity::Latency, 0, 0), probe.measuredAt);
    }

    void deletesRunsUndoably()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        const auto app = doc.project()->applications[0].name;
        const auto ids = doc.addRuns({runOf(doc, app), runOf(doc, app), runOf(doc, app)}, "three");
        QCOMPARE(ids, (std::vector<int>{1, 2, 3}));
        doc.setCurrentRun(2);
        doc.removeRuns({2, 3});
        QCOMPARE(doc.runs().size(), std::size_t(1));
        QCOMPARE(doc.currentRun(), -1);
        doc.undoStack()->undo();
        QCOMPARE(doc.runs().size(), std::size_t(3));
        QVERIFY(doc.run(3));
        // Ids are never reused.
        QCOMPARE(doc.addRuns({runOf(doc, app)}, "one"), std::vector<int>{4});
    }

    void handlesAnEmptyProjectAndASingleSite()
    {
        document::ProjectDocument doc;
        QCOMPARE(doc.fingerprint("none"), doc.fingerprint("none"));
        QVERIFY(doc.edit("Add", [](const document::Project& p) { return document::withAddedSite(p, "solo", 0, 0); }));
        QCOMPARE(doc.project()->topology.siteCount(), 1);
        QVERIFY(doc.completeNetwork().isComplete());
        QVERIFY(doc.edit("Remove", [](const document::Project& p) { return document::withoutSite(p, 0); }));
        QCOMPARE(doc.project()->topology.siteCount(), 0);
    }

    void savesAndMarksClean()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("azure-3-regions")));
        QVERIFY(doc.edit("Move", [](const document::Project& p) { return document::withSitePosition(p, 0, 1.0, 2.0); }));
        QSignalSpy title(&doc, &document::ProjectDocument::titleChanged);
        QTemporaryDir dir;
        const QString path = dir.filePath("copy.meridian");
        QVERIFY(doc.save(path));
        QVERIFY(!doc.isModified());
        QVERIFY(title.count() >= 1);
        document::ProjectDocument reloaded;
        QVERIFY(reloaded.load(path));
        QCOMPARE(reloaded.project()->topology.site(0).latitude, 1.0);
        QCOMPARE(reloaded.fingerprint(doc.project()->applications[0].name),
                 doc.fingerprint(doc.project()->applications[0].name));
    }

    // Issue 31.2: the workbench holds the project's lock while it has the project open, so that a command line edit
    // is refused (naming the workbench) instead of being overwritten by the workbench's next save.
    void holdsTheProjectsLockWhileOpen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.meridian");
        {
            document::ProjectDocument source;
            QVERIFY(source.load(sampleProject("azure-3-regions")));
            QVERIFY(source.save(path));
        }
        auto doc = std::make_unique<document::ProjectDocument>();
        QVERIFY(doc->load(path));
        QVERIFY(!doc->isReadOnly());
        const auto cliAdd = [&](const char* name) {
            QProcess p;
            auto env = QProcessEnvironment::systemEnvironment();
            env.insert("MERIDIAN_LOCK_WAIT_S", "0.3");
            p.setProcessEnvironment(env);
            p.start(MERIDIAN_CLI,
                    {"project", "add-application", path, "--name", name, "--pattern", "lu", "--processes", "4"});
            p.waitForFinished(60000);
            return std::pair{p.exitCode(), p.readAllStandardError()};
        };
        const auto [code, err] = cliAdd("lu");
        QCOMPARE(code, 2);
        QVERIFY2(err.contains("Meridian workbench")
                     && err.contains(QByteArray::number(QCoreApplication::applicationPid())),
                 err.constData());
        QVERIFY(doc->save());
        // Closed, the project is free for the command line.
        doc.reset();
        const auto [after, errAfter] = cliAdd("lu");
        QVERIFY2(after == 0, errAfter.constData());

        // Opened while another program holds the lock: read-only, saving to it refused naming the holder, Save As works.
        const pid_t child = ::fork();
        if (child == 0) {
            auto held = document::ProjectFile::lock(path, "meridian-cli project set-pins", 0);
            ::sleep(held ? 5 : 0);
            ::_exit(0);
        }
        QTest::qWait(300);
        document::ProjectDocument readOnly;
        QVERIFY(readOnly.load(path));
        QVERIFY(readOnly.isReadOnly());
        QVERIFY2(readOnly.readOnlyReason().contains("meridian-cli project set-pins"),
                 qPrintable(readOnly.readOnlyReason()));
        qputenv("MERIDIAN_LOCK_WAIT_S", "0.2");
        const auto refused = readOnly.save();
        qunsetenv("MERIDIAN_LOCK_WAIT_S");
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::Busy);
        QVERIFY(readOnly.save(dir.filePath("elsewhere.meridian")));
        QVERIFY(!readOnly.isReadOnly());
        ::kill(child, SIGKILL);
        ::waitpid(child, nullptr, 0);
        // Review of issue 31: a project opened read-only, then changed by the other program once it let go, is not
        // saved over that change.
        const pid_t holder = ::fork();
        if (holder == 0) {
            auto held = document::ProjectFile::lock(path, "meridian-cli project add-application", 0);
            ::usleep(held ? 600000 : 0);
            ::_exit(0);
        }
        QTest::qWait(200);
        document::ProjectDocument stale;
        QVERIFY(stale.load(path));
        QVERIFY(stale.isReadOnly());
        ::waitpid(holder, nullptr, 0);
        const auto [added, addErr] = cliAdd("lu-2");
        QVERIFY2(added == 0, addErr.constData());
        QVERIFY(
            stale.edit("Move", [](const document::Project& p) { return document::withSitePosition(p, 0, 1.0, 2.0); }));
        const auto overwrite = stale.save();
        QVERIFY(!overwrite);
        QVERIFY2(overwrite.error().message.find("another program changed the project") != std::string::npos,
                 overwrite.error().toString().c_str());
        QVERIFY(document::ProjectFile::load(path)->applicationIndex("lu-2") >= 0);
        // A Save As that fails keeps the open project locked.
        document::ProjectDocument open;
        QVERIFY(open.load(path));
        QVERIFY(!open.isReadOnly());
        QVERIFY(!open.save("/nonexistent-folder/x.meridian"));
        QVERIFY(io::FileLock::heldHere(document::ProjectFile::lockPath(path).toStdString()));
        // A file that is not a project leaves no lock file behind.
        document::ProjectDocument broken;
        QVERIFY(!broken.load(test::qdata("sites.csv")));
        QVERIFY(!QFile::exists(test::qdata("sites.csv") + ".lock"));
    }
};

QTEST_GUILESS_MAIN(TestProjectDocument)
#include "test_project_document.moc"
