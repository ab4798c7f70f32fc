#include "widgets/heatmap_binning.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace meridian::widgets;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

HeatmapData dense(const Eigen::MatrixXd& m)
{
    HeatmapData d;
    d.dense = m;
    return d;
}

HeatmapData sparseOf(const Eigen::MatrixXd& m)
{
    HeatmapData d;
    d.isSparse = true;
    d.sparse = m.sparseView();
    return d;
}

QColor grey(double t)
{
    const int v = static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * 255));
    return QColor(v, v, v);
}
QColor redBlue(double t) { return t < 0 ? QColor(0, 0, 255) : t > 0 ? QColor(255, 0, 0) : QColor(255, 255, 255); }
const HeatmapColours kColours{QColor(1, 2, 3), QColor(4, 5, 6), &grey, &redBlue};

} // namespace

class TestHeatmapBinning : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void statisticsSumRowsAndColumnsAndSkipMissingCells()
    {
        Eigen::MatrixXd m(2, 3);
        m << 1, 2, kNaN, 4, 0, 6;
        const MatrixStatistics s = matrixStatistics(dense(m));
        QCOMPARE(s.rowSums, (std::vector<double>{3, 10}));
        QCOMPARE(s.columnSums, (std::vector<double>{5, 2, 6}));
        QCOMPARE(s.min, 0.0);
        QCOMPARE(s.max, 6.0);
        QCOMPARE(s.minPositive, 1.0);
        QVERIFY(!s.isSigned());
    }

    void aSparseMatrixWithAbsentCellsRangesDownToZero()
    {
        Eigen::MatrixXd m = Eigen::MatrixXd::Zero(3, 3);
        m(0, 1) = 5;
        m(2, 0) = 7;
        const MatrixStatistics s = matrixStatistics(sparseOf(m));
        QCOMPARE(s.min, 0.0);
        QCOMPARE(s.max, 7.0);
        QCOMPARE(s.minPositive, 5.0);
        Eigen::MatrixXd negative(1, 2);
        negative << -2, 3;
        QVERIFY(matrixStatistics(dense(negative)).isSigned());
    }

    void fourByFourIntoTwoByTwoTakesTheMaxAndTheSumOfEachQuarter()
    {
        Eigen::MatrixXd m(4, 4);
        m << 1, 2, 3, 4,   //
            5, 6, 7, 8,    //
            9, 10, 11, 12, //
            13, 14, 15, 16;
        const PixelBins bins = binCells(dense(m), QRect(0, 0, 4, 4), QSize(2, 2), BlockLevel{}, 1 << 20);
        QCOMPARE(bins.width, 2);
        QCOMPARE(bins.height, 2);
        QCOMPARE(bins.max, (std::vector<double>{6, 8, 14, 16}));
        QCOMPARE(bins.sum, (std::vector<double>{1 + 2 + 5 + 6, 3 + 4 + 7 + 8, 9 + 10 + 13 + 14, 11 + 12 + 15 + 16}));
    }

    void neverMorePixelsThanCellsAndAViewBinsOnlyItsCells()
    {
        Eigen::MatrixXd m(4, 4);
        m << 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16;
        const PixelBins bins = binCells(dense(m), QRect(1, 2, 2, 1), QSize(400, 300), BlockLevel{}, 1 << 20);
        QCOMPARE(bins.width, 2);
        QCOMPARE(bins.height, 1);
        QCOMPARE(bins.max, (std::vector<double>{10, 11}));
        QVERIFY(binCells(dense(m), QRect(), QSize(10, 10), BlockLevel{}, 1 << 20).max.empty());
    }

    void aMissingCellIsMarkedWithoutAValue()
    {
        Eigen::MatrixXd m(2, 2);
        m << kNaN, 1, 2, 3;
        const PixelBins bins = binCells(dense(m), QRect(0, 0, 2, 2), QSize(2, 2), BlockLevel{}, 1 << 20);
        QVERIFY(bins.hasMissing(0));
        QVERIFY(!bins.hasValue(0));
        QVERIFY(bins.hasValue(3) && !bins.hasMissing(3));
        const QImage image = colourBins(bins, false, ColourScale{1, 3}, false, kColours);
        QCOMPARE(image.pixelColor(0, 0), QColor(4, 5, 6));
        QCOMPARE(image.pixelColor(1, 0), grey(0.0)); // 1 is the minimum
        QCOMPARE(image.pixelColor(1, 1), grey(1.0)); // 3 is the maximum
    }

    void sparseAndDenseBinTheSameValues()
    {
        Eigen::MatrixXd m = Eigen::MatrixXd::Zero(50, 70);
        for (int k = 0; k < 200; ++k)
            m((k * 37) % 50, (k * 53) % 70) = 1 + k;
        for (const QSize pixels : {QSize(7, 5), QSize(70, 50), QSize(33, 21)}) {
            const PixelBins a = binCells(dense(m), QRect(0, 0, 70, 50), pixels, BlockLevel{}, 1 << 20);
            const PixelBins b = binCells(sparseOf(m), QRect(0, 0, 70, 50), pixels, BlockLevel{}, 1 << 20);
            QCOMPARE(a.sum, b.sum);
            for (std::size_t i = 0; i < a.max.size(); ++i)
                if (b.hasValue(i))
                    QCOMPARE(a.max[i], b.max[i]);
        }
    }

    void theBlockLevelGivesTheMaxOfItsBlocksAndKeepsMissingCells()
    {
        Eigen::MatrixXd m = Eigen::MatrixXd::Constant(64, 64, 1.0);
        m(10, 20) = 9.0;
        m(40, 50) = kNaN;
        const HeatmapData d = dense(m);
        const BlockLevel level = buildBlockLevel(d, 1000, 8);
        QCOMPARE(level.block, 8);
        QCOMPARE(level.rows, 8);
        QCOMPARE(level.columns, 8);
        QCOMPARE(level.max[1 * 8 + 2], 9.0f);
        QCOMPARE(level.sum[0], 64.0f);
        QCOMPARE(level.missing[5 * 8 + 6], std::uint8_t(1));
        QCOMPARE(buildBlockLevel(d, 64 * 64, 8).block, 0); // not above the threshold: no block level
        // Read through the blocks, the maximum still shows, and the missing cell's pixel is marked.
        const PixelBins direct = binCells(d, QRect(0, 0, 64, 64), QSize(8, 8), BlockLevel{}, 1 << 20);
        const PixelBins blocks = binCells(d, QRect(0, 0, 64, 64), QSize(8, 8), level, 100);
        QCOMPARE(blocks.max, direct.max);
        QVERIFY(blocks.hasMissing(5 * 8 + 6));
    }

    void sumBinningScalesToTheSumsAndALogScaleToThePositiveFloor()
    {
        Eigen::MatrixXd m(2, 2);
        m << 1, 2, 3, 100;
        const HeatmapData d = dense(m);
        const MatrixStatistics stats = matrixStatistics(d);
        const PixelBins bins = binCells(d, QRect(0, 0, 2, 2), QSize(1, 2), BlockLevel{}, 1 << 20);
        const ColourScale sum = colourScale(bins, stats, true, false);
        QCOMPARE(sum.min, 3.0);
        QCOMPARE(sum.max, 103.0);
        const ColourScale max = colourScale(bins, stats, false, false);
        QCOMPARE(max.min, 1.0);
        QCOMPARE(max.max, 100.0);
        const ColourScale log = colourScale(bins, stats, false, true);
        QVERIFY(log.log);
        QCOMPARE(log.min, 1.0);
        // On a log scale 10 sits half way between 1 and 100.
        PixelBins one;
        one.width = one.height = 1;
        one.max = {10.0};
        one.sum = {10.0};
        one.state = {1};
        QCOMPARE(colourBins(one, false, log, false, kColours).pixelColor(0, 0), grey(0.5));
    }

    void signedDataUsesTheDivergingPaletteAroundZero()
    {
        Eigen::MatrixXd m(1, 3);
        m << -4, 0, 2;
        const HeatmapData d = dense(m);
        const PixelBins bins = binCells(d, QRect(0, 0, 3, 1), QSize(3, 1), BlockLevel{}, 1 << 20);
        const ColourScale scale = colourScale(bins, matrixStatistics(d), false, true);
        QVERIFY(scale.diverging);
        QVERIFY(!scale.log); // a difference cannot be log-scaled
        const QImage image = colourBins(bins, false, scale, true, kColours);
        QCOMPARE(image.pixelColor(0, 0), QColor(0, 0, 255));
        QCOMPARE(image.pixelColor(1, 0), QColor(255, 255, 255)); // zero stays a colour, not background
        QCOMPARE(image.pixelColor(2, 0), QColor(255, 0, 0));
    }

    void zeroIsBackgroundInASparseMatrix()
    {
        Eigen::MatrixXd m(1, 2);
        m << 0, 5;
        PixelBins bins = binCells(dense(m), QRect(0, 0, 2, 1), QSize(2, 1), BlockLevel{}, 1 << 20);
        const ColourScale scale{0, 5};
        QCOMPARE(colourBins(bins, false, scale, true, kColours).pixelColor(0, 0), QColor(1, 2, 3));
        QCOMPARE(colourBins(bins, false, scale, false, kColours).pixelColor(0, 0), grey(0.0));
    }
};

QTEST_GUILESS_MAIN(TestHeatmapBinning)
#include "test_heatmap_binning.moc"
