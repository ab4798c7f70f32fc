#include "widgets/map_checks.h"
#include "widgets/world_map_view.h"

#include <QApplication>
#include <QDir>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

#include <cmath>

using namespace meridian::widgets;

namespace {

QVector<MapSite> twoSites() { return {{"sydney", -33.9, 151.2, "", ""}, {"us-west", 37.4, -121.9, "", ""}}; }

// Shows the whole world at 2 px per degree with two sites.
void showTwoSites(WorldMapView& view)
{
    view.resize(720, 400);
    view.setView(0, 0, 2.0);
    view.setSites(twoSites());
    view.show();
}

// Counts land-coloured pixels in a row band of an image.
int landPixels(const QImage& image, int y0, int y1, int x0, int x1)
{
    int n = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            n += image.pixelColor(x, y) == QColor(243, 240, 230);
    return n;
}

// The ten IBM Cloud regions a user planned with (issue 34): Tokyo/Osaka, London/Frankfurt and Toronto/Washington DC
// are a few hundred km apart, a few pixels at the whole world's zoom.
QVector<MapSite> ibmRegions(bool withRun)
{
    QVector<MapSite> sites{{"Dallas", 32.8, -96.8, "", ""},  {"Washington DC", 38.9, -77.0, "", ""},
                           {"Toronto", 43.7, -79.4, "", ""}, {"Sao Paulo", -23.5, -46.6, "", ""},
                           {"London", 51.5, -0.13, "", ""},  {"Frankfurt", 50.1, 8.7, "", ""},
                           {"Madrid", 40.4, -3.7, "", ""},   {"Tokyo", 35.7, 139.7, "", ""},
                           {"Osaka", 34.7, 135.5, "", ""},   {"Sydney", -33.9, 151.2, "", ""}};
    if (withRun)
        for (int i = 0; i < sites.size(); ++i) {
            sites[i].processes = 4 + i;
            sites[i].slots = 8;
            sites[i].pinned = i % 3 == 0 ? 1 : 0;
            sites[i].badge = QString("up %1 MB, down %2 MB").arg(10 * i + 3).arg(7 * i + 1);
        }
    return sites;
}

} // namespace

class TestWorldMapView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void projectsAndInvertsPositions()
    {
        WorldMapView view;
        view.resize(720, 400);
        view.setView(0, 0, 2.0);
        const QPointF p = view.toWidget(45.0, 90.0);
        QCOMPARE(p, QPointF(360 + 180, 200 - 90));
        const QPointF geo = view.toGeo(p);
        QCOMPARE(geo.x(), 45.0);
        QCOMPARE(geo.y(), 90.0);
        // The copy nearest the centre is used: centred on the Pacific, -170 is just right of +170.
        view.setView(0, 180, 2.0);
        QVERIFY(view.toWidget(0, -170).x() > view.toWidget(0, 170).x());
        QCOMPARE(view.toGeo(view.toWidget(10, -170)).y(), -170.0);
    }

    void drawsTheWorldAcrossTheAntimeridianWithoutBands()
    {
        WorldMapView view;
        view.resize(800, 400);
        view.setView(0, 180, 2.2);
        const QImage image = view.renderImage(view.size());
        // Siberia and Alaska face each other across the antimeridian at ~65 N.
        const int y = static_cast<int>(view.toWidget(65, 180).y());
        const int x = static_cast<int>(view.toWidget(65, 180).x());
        QVERIFY(landPixels(image, y - 3, y + 3, x - 60, x - 10) > 50); // Chukotka
        QVERIFY(landPixels(image, y - 3, y + 3, x + 40, x + 90) > 50); // Alaska
        // A row across the open Pacific at 30 N has no land: a wrongly wrapped ring would draw a band.
        const int pacific = static_cast<int>(view.toWidget(30, 180).y());
        QCOMPARE(landPixels(image, pacific, pacific + 1, x - 100, x + 100), 0);
        // Antarctica, closed through the pole, spans the whole width south of its ice shelves.
        const int south = static_cast<int>(view.toWidget(-87, 0).y());
        QVERIFY(landPixels(image, south, south + 1, 0, image.width()) > image.width() * 9 / 10);
    }

    void dragsASiteAndReportsItsNewPosition()
    {
        WorldMapView view;
        showTwoSites(view);
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy moved(&view, &WorldMapView::siteMoved);
        QSignalSpy selected(&view, &WorldMapView::siteSelected);
        const QPoint from = view.toWidget(37.4, -121.9).toPoint();
        const QPoint to = view.toWidget(40.0, -100.0).toPoint();
        QTest::mousePress(&view, Qt::LeftButton, {}, from);
        QTest::mouseMove(&view, from + QPoint(10, 0));
        QTest::mouseMove(&view, to);
        QTest::mouseRelease(&view, Qt::LeftButton, {}, to);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.first().first().toInt(), 1);
        QCOMPARE(moved.count(), 1);
        QCOMPARE(moved.first().at(0).toInt(), 1);
        QVERIFY(std::abs(moved.first().at(1).toDouble() - 40.0) < 0.6);
        QVERIFY(std::abs(moved.first().at(2).toDouble() + 100.0) < 0.6);
    }

    void asksForANewSiteOnDoubleClickAndDeletesWithTheKey()
    {
        WorldMapView view;
        showTwoSites(view);
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy add(&view, &WorldMapView::siteAddRequested);
        QSignalSpy rename(&view, &WorldMapView::siteRenameRequested);
        QSignalSpy remove(&view, &WorldMapView::siteDeleteRequested);
        QTest::mouseDClick(&view, Qt::LeftButton, {}, view.toWidget(48.0, 2.0).toPoint());
        QCOMPARE(add.count(), 1);
        QVERIFY(std::abs(add.first().at(0).toDouble() - 48.0) < 0.6);
        QTest::mouseDClick(&view, Qt::LeftButton, {}, view.toWidget(-33.9, 151.2).toPoint());
        QCOMPARE(rename.count(), 1);
        QCOMPARE(rename.first().first().toInt(), 0);
        view.setSelectedSite(0);
        QTest::keyClick(&view, Qt::Key_Delete);
        QCOMPARE(remove.count(), 1);
        QCOMPARE(remove.first().first().toInt(), 0);
    }

    void zoomsAroundTheCursor()
    {
        WorldMapView view;
        view.resize(720, 400);
        view.setView(0, 0, 2.0);
        const QPointF cursor(500, 120);
        const QPointF before = view.toGeo(cursor);
        QWheelEvent wheel(cursor, view.mapToGlobal(cursor), {}, QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QVERIFY(view.zoom() > 2.5);
        const QPointF after = view.toGeo(cursor);
        QVERIFY(std::abs(after.x() - before.x()) < 0.01);
        QVERIFY(std::abs(after.y() - before.y()) < 0.01);
    }

    // Issue 34: nearby sites hid each other's markers, process counts and badges. Markers that would overlap are
    // pushed apart (a leader line joins each to its site) and every name and badge finds a place, at the whole
    // world's zoom and framed on the sites, in the window's sizes and the report's, with and without a run; and
    // for sites 300 km apart, and several at one place.
    void nearbySitesHideNothing_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("withRun");
        QTest::addColumn<bool>("framed");
        for (const QSize size : {QSize(1280, 800), QSize(1920, 1080), QSize(720, 400)})
            for (bool withRun : {false, true})
                for (bool framed : {false, true})
                    QTest::addRow("%dx%d%s%s", size.width(), size.height(), withRun ? ", a run" : "",
                                  framed ? ", framed" : ", whole world")
                        << size << withRun << framed;
    }

    void nearbySitesHideNothing()
    {
        QFETCH(QSize, size);
        QFETCH(bool, withRun);
        QFETCH(bool, framed);
        WorldMapView view;
        view.resize(size);
        for (const QVector<MapSite>& sites : {ibmRegions(withRun),
                                              // Three sites 300 km apart in a row, and two at one place.
                                              QVector<MapSite>{{"a", 48.0, 2.0, "", ""},
                                                               {"b", 48.0, 6.0, "", ""},
                                                               {"c", 48.0, 10.0, "", ""},
                                                               {"d", 40.0, -74.0, "", ""},
                                                               {"e", 40.0, -74.0, "", ""}}}) {
            QVector<MapSite> shown = sites;
            if (withRun)
                for (auto& s : shown)
                    if (s.processes < 0) {
                        s.processes = 12;
                        s.slots = 16;
                        s.badge = "up 1 GB";
                    }
            view.setSites(shown);
            if (framed)
                view.fitToSites();
            else
                view.resetView();
            const QString found = overlaps(view);
            QVERIFY2(found.isEmpty(), qPrintable(found));
            if (shown.size() == 10) { // to look at: build/screenshots/map-nearby-*.png
                QDir().mkpath(QString(MERIDIAN_BINARY_DIR) + "/screenshots");
                QVERIFY(view.renderImage(view.size())
                            .save(QString(MERIDIAN_BINARY_DIR) + "/screenshots/map-nearby-"
                                  + QString(QTest::currentDataTag()).replace(QRegularExpression("[^a-z0-9]+"), "-")
                                  + ".png"));
            }
            // A moved marker stays near its site: within a few markers' width.
            const QVector<QRectF> markers = view.markerRects();
            for (int i = 0; i < shown.size(); ++i) {
                const QPointF site = view.toWidget(shown[i].latitude, shown[i].longitude);
                QVERIFY(std::hypot((markers[i].center() - site).x(), (markers[i].center() - site).y()) < 80);
            }
        }
    }

    void colorsLinksByValueWithALegend()
    {
        WorldMapView view;
        view.resize(720, 400);
        view.setView(0, 0, 2.0);
        view.setSites(twoSites());
        view.setLinks({{0, 1, 100.0, "100 MB/s"}}, "Bandwidth", "MB/s");
        QCOMPARE(view.links().size(), 1);
        const QImage image = view.renderImage(view.size());
        // The legend's bar shows the palette's ends.
        int yellow = 0;
        for (int y = image.height() - 70; y < image.height(); ++y)
            for (int x = 0; x < 270; ++x)
                yellow += image.pixelColor(x, y).red() > 240 && image.pixelColor(x, y).green() > 220
                    && image.pixelColor(x, y).blue() < 60;
        QVERIFY(yellow > 5);
    }
};

QTEST_MAIN(TestWorldMapView)
#include "test_world_map_view.moc"
