#include "app/document/project_document.h"
#include "app/document/project_edits.h"
#include "test_support.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

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
};

QTEST_GUILESS_MAIN(TestProjectDocument)
#include "test_project_document.moc"
