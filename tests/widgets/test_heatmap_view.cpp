#include "widgets/heatmap_view.h"

#include <QTest>

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
        QCOMPARE(formatValue(std::nan(""), "ms"), QString("no value"));
    }
};

QTEST_MAIN(TestHeatmapView)
#include "test_heatmap_view.moc"
