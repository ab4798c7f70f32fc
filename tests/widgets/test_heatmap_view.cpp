#include "widgets/heatmap_view.h"

#include <QSignalSpy>
#include <QTest>
#include <QTextStream>

#include <cmath>

using namespace meridian::widgets;

namespace {

QColor colorAtCell(HeatmapView& view, int row, int column)
{
    const QImage image = view.grab().toImage();
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (view.cellAt({x, y}) == QPoint(column, row))
                return image.pixelColor(x + 2, y + 2);
    return {};
}

} // namespace

class TestHeatmapView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void paletteRunsFromDarkPurpleToYellow()
    {
        QCOMPARE(HeatmapView::paletteColor(0.0), QColor(68, 1, 84));
        QCOMPARE(HeatmapView::paletteColor(1.0), QColor(253, 231, 37));
        QCOMPARE(HeatmapView::paletteColor(2.0), QColor(253, 231, 37));
        QVERIFY(HeatmapView::paletteColor(0.5).green() > HeatmapView::paletteColor(0.25).green());
    }

    void drawsTheLargestCellYellowAndTheSmallestPurple()
    {
        HeatmapView view;
        view.resize(500, 400);
        HeatmapData d;
        d.dense = Eigen::MatrixXd(2, 2);
        d.dense << 1, 2, 3, 10;
        d.unit = "ms";
        view.setData(d);
        QCOMPARE(view.valueRange(), std::make_pair(1.0, 10.0));
        QCOMPARE(colorAtCell(view, 1, 1), QColor(253, 231, 37));
        QCOMPARE(colorAtCell(view, 0, 0), QColor(68, 1, 84));
    }

    void logScaleUsesTheSmallestPositiveValue()
    {
        HeatmapView view;
        HeatmapData d;
        d.dense = Eigen::MatrixXd(2, 2);
        d.dense << 0, 10, 1000, std::nan("");
        view.setData(d);
        QCOMPARE(view.valueRange(), std::make_pair(0.0, 1000.0));
        view.setLogScale(true);
        QCOMPARE(view.valueRange(), std::make_pair(10.0, 1000.0));
    }

    void keepsASingleHeavyPairVisibleInALargeSparseMatrix()
    {
        HeatmapView view;
        view.resize(400, 300);
        HeatmapData d;
        d.isSparse = true;
        d.sparse.resize(8192, 8192);
        std::vector<Eigen::Triplet<double, int>> t = {{5000, 7000, 1e9}, {1, 1, 1.0}};
        d.sparse.setFromTriplets(t.begin(), t.end());
        view.setData(d);
        QCOMPARE(view.data().value(5000, 7000), 1e9);
        QCOMPARE(view.data().value(5000, 7001), 0.0);
        // Binned by maximum: the pixel holding (5000, 7000) shows the top of the palette.
        const QImage image = view.grab().toImage();
        int yellow = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                if (image.pixelColor(x, y) != QColor(253, 231, 37) || view.cellAt({x, y}).x() < 0)
                    continue;
                ++yellow;
                // Each pixel covers about 8192 / 250 cells; the yellow one must sit over the heavy pair.
                QVERIFY(std::abs(view.cellAt({x, y}).y() - 5000) < 100);
                QVERIFY(std::abs(view.cellAt({x, y}).x() - 7000) < 100);
            }
        QVERIFY(yellow > 0);
    }

    void mapsPositionsToCells()
    {
        HeatmapView view;
        view.resize(400, 300);
        HeatmapData d;
        d.dense = Eigen::MatrixXd::Ones(4, 4);
        view.setData(d);
        QCOMPARE(view.cellAt({0, 0}), QPoint(-1, -1));
        int hits = 0;
        for (int y = 0; y < 300; ++y)
            for (int x = 0; x < 400; ++x)
                hits += view.cellAt({x, y}).x() >= 0;
        QVERIFY(hits > 1000);
    }

    void formatsValuesWithUnits()
    {
        QCOMPARE(formatValue(43000, "bytes"), QString("43 kB"));
        QCOMPARE(formatValue(0.16, "ms"), QString("0.16 ms"));
        QCOMPARE(formatValue(0.25, "s"), QString("250 ms"));
        QCOMPARE(formatValue(4.47e-5, "s"), QString("44.7 \u00b5s"));
        QCOMPARE(formatValue(2.5, "s"), QString("2.5 s"));
        QCOMPARE(formatValue(std::nan(""), "ms"), QString("no value"));
        // The colour bar's values between its ends are round: 1-2-5 per decade on a log scale, a nice linear step.
        QCOMPARE(HeatmapView::legendTicks(16.8e6, 189.4e6, true), (std::vector<double>{20e6, 50e6, 100e6}));
        QCOMPARE(HeatmapView::legendTicks(8, 74420, true), (std::vector<double>{10, 100, 1000, 10000}));
        const auto linear = HeatmapView::legendTicks(0.08722, 0.35, false);
        QCOMPARE(linear.size(), std::size_t(3));
        for (std::size_t i = 0; i < linear.size(); ++i)
            QCOMPARE(formatValue(linear[i], "ms"), QString("0.%1 ms").arg(i + 1));
        QVERIFY(HeatmapView::legendTicks(5, 5, false).empty());
        // Never in powers of ten: a large time with grouped thousands, a small price with its leading zeros.
        QCOMPARE(formatValue(14930.4, "s"), QString("14,930 s"));
        QCOMPARE(formatValue(1.096e-5, "USD"), QString("0.00001096 USD"));
        QCOMPARE(formatValue(4.975e8, "bytes"), QString("497.5 MB"));
    }

    void zoomsToARectangleAndBackAndKeepsCellsConsistent()
    {
        HeatmapView view;
        view.resize(600, 500);
        HeatmapData data;
        data.dense = Eigen::MatrixXd::Zero(100, 100);
        data.dense(60, 70) = 5.0;
        view.setData(data);
        QSignalSpy changed(&view, &HeatmapView::viewChanged);
        view.zoomTo(QRect(QPoint(65, 55), QPoint(74, 64)));
        QCOMPARE(view.visibleCells(), QRect(QPoint(65, 55), QPoint(74, 64)));
        QCOMPARE(changed.count(), 1);
        // Every position of the plot now maps into the visible block.
        bool sawCell = false;
        for (int y = 0; y < view.height(); y += 3)
            for (int x = 0; x < view.width(); x += 3) {
                const QPoint c = view.cellAt({x, y});
                if (c.x() < 0)
                    continue;
                QVERIFY(view.visibleCells().contains(c));
                sawCell = sawCell || c == QPoint(70, 60);
            }
        QVERIFY(sawCell);
        QCOMPARE(colorAtCell(view, 60, 70), QColor(253, 231, 37));
        view.zoomTo(QRect(200, 200, 10, 10)); // outside: ignored
        QCOMPARE(view.visibleCells(), QRect(QPoint(65, 55), QPoint(74, 64)));
        view.resetZoom();
        QCOMPARE(view.visibleCells(), QRect(0, 0, 100, 100));
    }

    void dragsARectangleToZoom()
    {
        HeatmapView view;
        view.resize(600, 500);
        HeatmapData data;
        data.dense = Eigen::MatrixXd::Constant(50, 50, 1.0);
        view.setData(data);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QPoint a(-1, -1), b;
        for (int y = 0; y < view.height() && a.x() < 0; ++y)
            for (int x = 0; x < view.width(); ++x)
                if (view.cellAt({x, y}) == QPoint(10, 10)) {
                    a = QPoint(x + 1, y + 1);
                    break;
                }
        for (int y = 0; y < view.height(); ++y)
            for (int x = 0; x < view.width(); ++x)
                if (view.cellAt({x, y}) == QPoint(19, 19))
                    b = QPoint(x, y);
        QVERIFY(a.x() >= 0);
        QTest::mousePress(&view, Qt::LeftButton, {}, a);
        QTest::mouseMove(&view, b);
        QTest::mouseRelease(&view, Qt::LeftButton, {}, b);
        QCOMPARE(view.visibleCells(), QRect(QPoint(10, 10), QPoint(19, 19)));
    }

    void sumsRowsAndColumnsOverTheWholeMatrix()
    {
        HeatmapView view;
        HeatmapData data;
        data.isSparse = true;
        data.sparse.resize(4, 4);
        data.sparse.insert(0, 1) = 2.0;
        data.sparse.insert(0, 3) = 3.0;
        data.sparse.insert(2, 1) = 4.0;
        data.sparse.makeCompressed();
        view.setData(data);
        QCOMPARE(view.rowSum(0), 5.0);
        QCOMPARE(view.rowSum(1), 0.0);
        QCOMPARE(view.columnSum(1), 6.0);
        QCOMPARE(view.columnSum(3), 3.0);
    }

    void binsBySumWhenAsked()
    {
        HeatmapView view;
        view.resize(300, 260); // far fewer pixels than the 4000 x 4000 cells
        HeatmapData data;
        data.isSparse = true;
        data.sparse.resize(4000, 4000);
        for (int k = 0; k < 4; ++k)
            data.sparse.insert(k, k) = 1.0; // four cells that share one pixel
        data.sparse.makeCompressed();
        view.setData(data);
        view.setBinning(HeatmapView::Binning::Sum);
        view.grab();
        QCOMPARE(view.valueRange().second, 4.0);
        view.setBinning(HeatmapView::Binning::Max);
        QCOMPARE(view.valueRange().second, 1.0);
    }

    void usesTheDivergingPaletteForSignedValues()
    {
        HeatmapView view;
        view.resize(500, 400);
        HeatmapData data;
        data.dense.resize(2, 2);
        data.dense << -4.0, 0.0, 2.0, 4.0;
        view.setData(data);
        QCOMPARE(colorAtCell(view, 1, 1), HeatmapView::divergingColor(1.0));
        QCOMPARE(colorAtCell(view, 0, 0), HeatmapView::divergingColor(-1.0));
        QCOMPARE(colorAtCell(view, 0, 1), HeatmapView::divergingColor(0.0));
        QCOMPARE(HeatmapView::divergingColor(0.0), QColor(247, 247, 247));
    }

    void readsLargeDenseMatricesThroughTheBlockLevel()
    {
        HeatmapView view;
        view.resize(700, 600);
        HeatmapData data;
        data.dense = Eigen::MatrixXd::Constant(2048, 2048, 1.0);
        data.dense(1500, 300) = 9.0;
        data.dense(10, 10) = std::nan("");
        view.setData(data);
        // The heavy cell survives binning through the block level.
        const QImage image = view.grab().toImage();
        int yellow = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                yellow += image.pixelColor(x, y) == QColor(253, 231, 37) && view.cellAt({x, y}).x() >= 0;
        QVERIFY(yellow > 0);
        QCOMPARE(view.valueRange(), std::make_pair(1.0, 9.0));
    }

    void writesCsvForDenseAndSparseMatrices()
    {
        HeatmapData dense;
        dense.title = "Latency";
        dense.unit = "ms";
        dense.dense.resize(2, 2);
        dense.dense << 0.1, 2.5, std::nan(""), 0.2;
        dense.rowLabels = dense.columnLabels = QStringList{"a", "b,c"};
        dense.rowAxis = "from";
        dense.columnAxis = "to";
        QString text;
        QTextStream out(&text);
        writeHeatmapCsv(dense, out);
        out.flush();
        QCOMPARE(
            text,
            QString("# Latency (ms)\nfrom \\ to,a,\"b,c\"\na,0.10000000000000001,2.5\n\"b,c\",,0.20000000000000001\n"));
        HeatmapData sparse;
        sparse.isSparse = true;
        sparse.unit = "bytes";
        sparse.sparse.resize(3, 3);
        sparse.sparse.insert(2, 0) = 64;
        sparse.sparse.makeCompressed();
        text.clear();
        writeHeatmapCsv(sparse, out);
        out.flush();
        QVERIFY(text.endsWith("row,column,value\n2,0,64\n"));
    }

    void rendersIntoAnyPainterSize()
    {
        HeatmapView view;
        HeatmapData data;
        data.title = "t";
        data.dense = Eigen::MatrixXd::Constant(3, 3, 2.0);
        view.setData(data);
        const QImage image = view.renderImage(QSize(400, 300));
        QCOMPARE(image.size(), QSize(400, 300));
        int colored = 0;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                colored += image.pixelColor(x, y) == HeatmapView::paletteColor(1.0);
        QVERIFY(colored > 100);
    }
};

QTEST_MAIN(TestHeatmapView)
#include "test_heatmap_view.moc"
