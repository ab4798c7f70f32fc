#pragma once

#include <QFontMetrics>
#include <QFontMetricsF>
#include <QPainterPath>
#include <QPointF>
#include <QString>
#include <QVector>
#include <QWidget>

class QMenu;

namespace meridian::widgets {

/// A site as the map draws it.
struct MapSite {
    QString name;
    double latitude = 0.0;
    double longitude = 0.0;
    QString detail;     ///< tooltip text (slots, bandwidths, price)
    QString badge;      ///< short text drawn after the name (e.g. "3 pinned"); empty for none
    int processes = -1; ///< processes a run placed here, drawn on the marker; -1: no run shown
    int slots = 0;      ///< the site's slots: the ring around the marker fills as processes / slots
    int pinned = 0;     ///< processes pinned here, marked by a red dot on the marker
};

/// A link between two sites with the value that sets its colour and width.
struct MapLink {
    int from = 0;
    int to = 0;
    double value = 0.0;
    QString detail; ///< tooltip text
};

/// A world map in the equirectangular projection with the land outline (WorldOutline), the sites as
/// markers and the links between them coloured (viridis) and sized by a value, with a legend.
///
/// Interaction: the wheel zooms around the cursor, dragging empty space pans, dragging a marker moves
/// the site (siteMoved is emitted on release, with latitude and longitude), double-clicking empty land
/// or sea asks for a new site there, the context menu of a marker asks to rename or delete it, Delete
/// removes the selected site and Home resets the view. The view never edits anything itself: the
/// owner applies what the signals ask for and calls setSites again.
class WorldMapView : public QWidget {
    Q_OBJECT
public:
    explicit WorldMapView(QWidget* parent = nullptr);

    void setSites(QVector<MapSite> sites);
    const QVector<MapSite>& sites() const { return m_sites; }
    /// Sets the links and what their value is ("bandwidth", "MB/s"). With `logScale` the colour follows
    /// log10 of the value. An empty list hides links and the legend.
    void setLinks(QVector<MapLink> links, const QString& quantity, const QString& unit, bool logScale = false);
    const QVector<MapLink>& links() const { return m_links; }
    void setSelectedSite(int index);
    int selectedSite() const { return m_selected; }

    /// Shows the whole world.
    void resetView();
    /// Frames every site with a margin (the shorter way round the antimeridian); the whole world when
    /// there are no sites.
    void fitToSites();
    /// Centres on a position with `zoom` pixels per degree (clamped to the allowed range).
    void setView(double centerLatitude, double centerLongitude, double zoom);
    double zoom() const { return m_zoom; }
    QPointF center() const { return m_center; }

    /// Returns the widget position of a latitude/longitude (the copy nearest the view centre).
    QPointF toWidget(double latitude, double longitude) const;
    /// Returns (latitude, longitude) of a widget position; longitude wrapped into [-180, 180].
    QPointF toGeo(const QPointF& pos) const;
    /// Returns the index of the site whose marker is under `pos`, or -1.
    int siteAt(const QPointF& pos) const;
    /// Where each site's marker is drawn in the current view (its ring or edge included). Markers that would
    /// overlap are pushed apart, and a leader line joins a moved marker to its site's position.
    QVector<QRectF> markerRects() const;
    /// Where each site's name (and the badge under it) is drawn in the current view; an empty rectangle when it
    /// fits nowhere inside the view (the tooltip still names the site).
    QVector<QRectF> labelRects() const;

    /// Draws the map into an image of the given size (for reports and PNG export).
    QImage renderImage(const QSize& size) const;
    /// Draws the map with a painter (for SVG export).
    void renderTo(QPainter& painter, const QRect& target) const;
    /// The smallest text the map draws, in points (0: a fifth under the widget's font, as on screen). A printed
    /// map sets the smallest size readable on paper.
    void setMinimumTextPoints(double points) { m_minimumTextPoints = points; }

    QSize sizeHint() const override { return {720, 420}; }

Q_SIGNALS:
    void siteSelected(int index);
    void siteMoved(int index, double latitude, double longitude);
    void siteAddRequested(double latitude, double longitude);
    void siteRenameRequested(int index);
    void siteDeleteRequested(int index);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct View {
        QPointF center; // (longitude, latitude)
        double zoom;    // pixels per degree
        QSizeF size;
    };
    static QPointF project(const View& v, double latitude, double longitude);
    View currentView() const { return {m_center, m_zoom, QSizeF(size())}; }
    /// The view of `size` that frames every site with a margin (the shorter way round the antimeridian).
    View fittedView(const QSizeF& size) const;
    void paint(QPainter& painter, const View& view) const;
    void paintSites(QPainter& painter, const View& view, const QRectF& legend) const;
    /// Where the links' legend goes: the bottom-left corner, or the first other corner that covers no marker;
    /// empty when no legend is shown.
    QRectF legendPlace(const View& view, const QVector<QPointF>& markers, const QFontMetrics& metrics) const;
    /// Where each site's marker goes: its position, pushed apart from the markers it would overlap.
    QVector<QPointF> markerPlaces(const View& view) const;
    /// Where each site's name and badge go: beside its marker where they overlap no other name or marker (right,
    /// left, above, below, the corners, then a step further out), the selected site and the busiest first; an
    /// empty rectangle when they fit nowhere (the tooltip still names the site).
    QVector<QRectF> labelPlaces(const View& view, const QVector<QPointF>& markers, const QFontMetricsF& metrics,
                                const QRectF& legend) const;
    double minimumZoom() const;
    void clampView();
    int linkAt(const QPointF& pos) const;
    double normalised(double value) const;

    QVector<MapSite> m_sites;
    QVector<MapLink> m_links;
    QString m_quantity;
    QString m_unit;
    bool m_logScale = false;
    double m_min = 0.0;
    double m_max = 0.0;
    int m_selected = -1;
    double m_minimumTextPoints = 0.0;
    QPointF m_center{10.0, 20.0};
    double m_zoom = 2.0;
    bool m_viewSet = false;
    bool m_fitPending = false;
    QPainterPath m_land;

    int m_dragSite = -1;
    bool m_panning = false;
    QPointF m_pressPos;
    QPointF m_lastPos;
    bool m_moved = false;
};

} // namespace meridian::widgets
