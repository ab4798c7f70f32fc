// Reading a user's files for a project: what detectFileKind tells from content, and the readers' errors.
#include "app/project/project_imports.h"
#include "core/io/sites_io.h"
#include "test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace meridian;
using document::FileKind;
using meridian::test::data;

class TestProjectImports : public QObject {
    Q_OBJECT
private:
    model::Topology m_topology;
    QTemporaryDir m_dir;

    std::string write(const QString& name, const QByteArray& text)
    {
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(text);
        return m_dir.filePath(name).toStdString();
    }

private Q_SLOTS:
    void initTestCase() { m_topology = *io::loadTopology(data("sites.csv")); }

    void tellsKindsFromContent_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("because");
        QTest::newRow("project") << "p.json" << QByteArray(R"({"format": "meridian-project", "version": 1})")
                                 << int(FileKind::Project) << "Meridian project";
        QTest::newRow("geojson") << "s.json" << QByteArray(R"({"type": "FeatureCollection", "features": []})")
                                 << int(FileKind::Sites) << "GeoJSON";
        QTest::newRow("other json") << "x.json" << QByteArray(R"({"hello": 1})") << int(FileKind::Unknown) << "neither";
        QTest::newRow("sites csv") << "s.csv" << QByteArray("# sites\nNAME,Lat,Lon,nodes\na,0,0,1\n")
                                   << int(FileKind::Sites) << "sites CSV";
        QTest::newRow("named network") << "l.csv" << QByteArray("site,alpha,gamma\nalpha,1,2\ngamma,2,1\n")
                                       << int(FileKind::NetworkMatrix) << "project's sites";
        QTest::newRow("unnamed, one row per site")
            << "l.csv" << QByteArray("1,2,3\n2,1,3\n3,3,1\n") << int(FileKind::NetworkMatrix) << "site order";
        QTest::newRow("process matrix") << "v.csv" << QByteArray(",p0,p1\np0,0,5\np1,5,0\n")
                                        << int(FileKind::Application) << "processes";
        QTest::newRow("unnamed, not per site")
            << "v.csv" << QByteArray("0,5\n5,0\n") << int(FileKind::Application) << "volume";
        QTest::newRow("foreign names") << "v.csv" << QByteArray(",x,y\nx,0,5\ny,5,0\n") << int(FileKind::Unknown)
                                       << "neither the project's sites";
        QTest::newRow("matrix market") << "v.mtx"
                                       << QByteArray("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 3\n")
                                       << int(FileKind::Application) << "Matrix Market";
        QTest::newRow("pins") << "p.csv" << QByteArray("process,site\n0,alpha\n") << int(FileKind::ProcessSites)
                              << "pins";
        QTest::newRow("pins without header")
            << "p.csv" << QByteArray("0,alpha\n1,gamma\n") << int(FileKind::ProcessSites) << "process,site";
        QTest::newRow("hosts") << "h.csv" << QByteArray("host,site,slots\nnode01,alpha,4\n") << int(FileKind::Hosts)
                               << "hosts CSV";
        QTest::newRow("mapping") << "m.csv" << QByteArray("0,alpha,alpha-00,0\n") << int(FileKind::Mapping)
                                 << "mapping";
        QTest::newRow("text") << "n.txt" << QByteArray("these are notes\nnot data\n") << int(FileKind::Unknown)
                              << "not a sites";
        QTest::newRow("empty") << "e.csv" << QByteArray("\n# nothing\n") << int(FileKind::Unknown) << "no CSV record";
    }

    void tellsKindsFromContent()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, text);
        QFETCH(int, kind);
        QFETCH(QString, because);
        std::string why;
        QCOMPARE(int(document::detectFileKind(write(file, text), m_topology, &why)), kind);
        QVERIFY2(QString::fromStdString(why).contains(because), why.c_str());
    }

    void missingFileIsUnknownWithTheReason()
    {
        std::string why;
        QCOMPARE(document::detectFileKind(m_dir.filePath("absent.csv").toStdString(), m_topology, &why),
                 FileKind::Unknown);
        QVERIFY2(why.find("absent.csv") != std::string::npos, why.c_str());
    }

    void readsANetworkQuantityAlone()
    {
        auto n = document::readNetworkQuantity(data("latency_named.csv"), model::NetworkQuantity::Latency, m_topology);
        QVERIFY2(n, n ? "" : n.error().toString().c_str());
        QCOMPARE(n->latencyMs(0, 2), 10.0);
        QCOMPARE(n->count(model::NetworkQuantity::Latency, model::Provenance::Measured), 7);
        QCOMPARE(n->count(model::NetworkQuantity::Bandwidth, model::Provenance::Measured), 0);
    }

    void readsAnApplicationAndChecksItsPins()
    {
        const auto volume = write("v.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 100\n2 3 50\n");
        const auto messages = write("m.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n2 3 1\n");
        const auto pins = write("pins.csv", "0,alpha\n2,gamma\n");
        auto app = document::readApplication("three", {volume, messages, pins, {}}, m_topology);
        QVERIFY2(app, app ? "" : app.error().toString().c_str());
        QCOMPARE(app->comm.processCount(), 3);
        QCOMPARE(app->pins.size(), 2);
        const auto tooFar = write("far.csv", "0,alpha\n3,gamma\n");
        MERIDIAN_VERIFY_ERROR(document::readApplication("three", {volume, {}, tooFar, {}}, m_topology), "far.csv", 2, 1,
                              "process 3 does not exist: the application has 3 processes");
        const auto wrongSize = write("m4.mtx", "%%MatrixMarket matrix coordinate real general\n4 4 1\n1 2 1\n");
        auto mismatch = document::readApplication("three", {volume, wrongSize, {}, {}}, m_topology);
        QVERIFY(!mismatch);
        QVERIFY(mismatch.error().message.find("4 x 4 but the volume is 3 x 3") != std::string::npos);
        QVERIFY(!document::readApplication("none", {}, m_topology));
    }
};

QTEST_GUILESS_MAIN(TestProjectImports)
#include "test_project_imports.moc"
