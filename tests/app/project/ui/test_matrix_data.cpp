#include "app/project/ui/matrix_data.h"
#include "test_support.h"

#include <QTest>

using namespace meridian;
using workbench::MatrixArrangement;
using workbench::MatrixSource;

namespace {

using Sparse = widgets::HeatmapData::Sparse;

/// A run of the project's first application that puts process p on site p % sites.
int addRoundRobinRun(document::ProjectDocument& doc)
{
    const auto& app = doc.project()->applications.front();
    const int n = app.comm.processCount();
    const int sites = doc.project()->topology.siteCount();
    std::vector<int> site(n);
    for (int p = 0; p < n; ++p)
        site[p] = p % sites;
    document::Run run;
    run.algorithm = "round-robin";
    run.application = app.name;
    run.placement = model::Placement::fromSites(site);
    run.inputFingerprint = doc.fingerprint(app.name);
    const int id = doc.addRuns({run}, "run").front();
    doc.setCurrentRun(id);
    return id;
}

} // namespace

class TestMatrixData : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void networkMatricesCarryTheSitesAndEachCellsProvenance()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(test::sampleProject("ec2-4-regions")));
        const auto data = workbench::matrixHeatmapData(doc, MatrixSource::Latency, -1, MatrixArrangement::AsIs);
        QCOMPARE(data.rows(), 4);
        QCOMPARE(data.rowLabels.size(), 4);
        QCOMPARE(data.unit, QString("ms"));
        QCOMPARE(data.value(0, 1), doc.completeNetwork().latencyMs()(0, 1));
        QVERIFY(!data.cellNote(0, 1).isEmpty());
        QVERIFY(
            workbench::matrixHeatmapData(doc, MatrixSource::RunTraffic, -1, MatrixArrangement::AsIs).title.isEmpty());
        QVERIFY(workbench::matrixHeatmapData(doc, MatrixSource::Volume, 99, MatrixArrangement::AsIs).title.isEmpty());
    }

    void anApplicationShowsItsVolumeWithItsPinsMarked()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(test::sampleProject("ec2-4-regions")));
        // The sample opens on LAMMPS melt 32, which has no pins: LU, which has, is chosen by name.
        const int lu = doc.project()->applicationIndex("LU");
        QVERIFY(lu >= 0);
        const auto& app = doc.project()->applications[static_cast<std::size_t>(lu)];
        QVERIFY(!app.pins.empty());
        const auto data = workbench::matrixHeatmapData(doc, MatrixSource::Volume, lu, MatrixArrangement::AsIs);
        QVERIFY(data.isSparse);
        QCOMPARE(data.sparse.nonZeros(), app.comm.volume().nonZeros());
        QCOMPARE(data.markedRows.size(), app.pins.pins().size());
        const int pinned = app.pins.pins().front().process;
        QVERIFY(data.rowLabels.at(pinned).contains("pinned to"));
    }

    void aggregatingByTheRunsSitesSumsEachPairOfSites()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(test::sampleProject("ec2-4-regions")));
        addRoundRobinRun(doc);
        const auto& comm = doc.project()->applications.front().comm;
        const auto data = workbench::matrixHeatmapData(doc, MatrixSource::Volume, 0, MatrixArrangement::AggregateBySite);
        QVERIFY(!data.isSparse);
        QCOMPARE(data.rows(), 4);
        Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(4, 4);
        const Sparse& v = comm.volume();
        for (int r = 0; r < v.outerSize(); ++r)
            for (Sparse::InnerIterator it(v, r); it; ++it)
                expected(r % 4, it.col() % 4) += it.value();
        QVERIFY((data.dense - expected).cwiseAbs().maxCoeff() <= 1e-9 * expected.maxCoeff());
        // No hosts in the run: by host falls back to by site.
        QCOMPARE(workbench::matrixHeatmapData(doc, MatrixSource::Volume, 0, MatrixArrangement::AggregateByHost).rows(),
                 4);
    }

    void anAggregatedAverageIsBytesOverMessagesNotASumOfAverages()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(test::sampleProject("ec2-4-regions")));
        addRoundRobinRun(doc);
        const auto& comm = doc.project()->applications.front().comm;
        const auto bytes = workbench::matrixHeatmapData(doc, MatrixSource::Volume, 0,
                                                        MatrixArrangement::AggregateBySite);
        const auto count = workbench::matrixHeatmapData(doc, MatrixSource::Messages, 0,
                                                        MatrixArrangement::AggregateBySite);
        const auto average = workbench::matrixHeatmapData(doc, MatrixSource::AverageSize, 0,
                                                          MatrixArrangement::AggregateBySite);
        QVERIFY(comm.messages().nonZeros() > 0);
        for (int a = 0; a < 4; ++a)
            for (int b = 0; b < 4; ++b) {
                const double want = count.dense(a, b) > 0 ? bytes.dense(a, b) / count.dense(a, b) : 0.0;
                QVERIFY(std::abs(average.dense(a, b) - want) <= 1e-9 * std::max(1.0, want));
            }
    }

    void reorderingBySiteGroupsTheProcessesAndKeepsEveryEntry()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(test::sampleProject("ec2-4-regions")));
        const int id = addRoundRobinRun(doc);
        const auto& comm = doc.project()->applications.front().comm;
        const int n = comm.processCount();
        const auto data = workbench::matrixHeatmapData(doc, MatrixSource::Volume, 0, MatrixArrangement::ReorderBySite);
        QVERIFY(data.title.contains(QString("ordered by the sites of run %1").arg(id)));
        QCOMPARE(data.groupStarts.size(), std::size_t(3)); // four sites, three boundaries
        QCOMPARE(data.groupStarts.front(), (n + 3) / 4);
        QVERIFY(data.rowLabels.front().startsWith("p0 @ "));
        QVERIFY(data.rowLabels.at(1).startsWith("p4 @ "));
        // Row i is process order[i]: the entry (p0, p4) of the volume is at (0, 1).
        QCOMPARE(data.value(0, 1), comm.volume().coeff(0, 4));
        QCOMPARE(data.sparse.sum(), comm.volume().sum());
    }
};

QTEST_MAIN(TestMatrixData)
#include "test_matrix_data.moc"
