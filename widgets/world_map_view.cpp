#include "widgets/world_map_view.h"

#include "widgets/heatmap_view.h"
#include "widgets/world_outline.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QLinearGradient>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace meridian::widgets {

namespace {

const QColor kOcean(220, 233, 244);
const QColor kLand(243, 240, 230);
const QColor kCoast(170, 164, 150);
const QColor kGraticule(200, 214, 228);
constexpr double kMarkerRadius = 7.0;
constexpr double kMaxZoom = 200.0;

double wrapLongitude(double lon)
{
    double w = std::remainder(lon, 360.0);
    return w < -180.0 ? w + 360.0 : w;
}

double distanceToSegment(const QPointF& p, const QPointF& a, const QPointF& b)
{
    const QPointF ab = b - a;
    const double len2 = QPointF::dotProduct(ab, ab);
    const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    const QPointF d = p - (a + t * ab);
    return std::hypot(d.x(), d.y());
}

double markerRadius(const MapSite& site) { return site.processes >= 0 ? 11.0 : kMarkerRadius; }

/// The radius a marker covers with its ring (a run's markers) or its white edge.
double outerRadius(const MapSite& site) { return markerRadius(site) + (site.processes >= 0 ? 5.5 : 1.5); }

} // namespace

WorldMapView::WorldMapView(QWidget* parent)
    : QWidget(parent)
    , m_land(WorldOutline::builtin().path())
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 200);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void WorldMapView::setSites(QVector<MapSite> sites)
{
    m_sites = std::move(sites);
    if (m_selected >= m_sites.size())
        m_selected = -1;
    m_dragSite = -1;
    update();
}

void WorldMapView::setLinks(QVector<MapLink> links, const QString& quantity, const QString& unit, bool logScale)
{
    m_links = std::move(links);
    m_quantity = quantity;
    m_unit = unit;
    m_logScale = logScale;
    m_min = std::numeric_limits<double>::infinity();
    m_max = 0.0;
    for (const auto& l : m_links)
        if (std::isfinite(l.value) && (!m_logScale || l.value > 0)) {
            m_min = std::min(m_min, l.value);
            m_max = std::max(m_max, l.value);
        }
    if (!std::isfinite(m_min))
        m_min = m_max = 0.0;
    update();
}

void WorldMapView::setSelectedSite(int index)
{
    if (index == m_selected)
        return;
    m_selected = index >= 0 && index < m_sites.size() ? index : -1;
    update();
}

double WorldMapView::minimumZoom() const { return std::max(0.5, std::min(width() / 360.0, height() / 180.0)); }

void WorldMapView::clampView()
{
    m_zoom = std::clamp(m_zoom, minimumZoom(), kMaxZoom);
    const double halfHeight = height() / (2.0 * m_zoom);
    const double maxLat = std::max(0.0, 90.0 - halfHeight);
    m_center.ry() = std::clamp(m_center.y(), -maxLat, maxLat);
    m_center.rx() = wrapLongitude(m_center.x());
}

void WorldMapView::resetView()
{
    m_viewSet = true;
    m_zoom = minimumZoom();
    m_center = QPointF(10.0, 0.0);
    clampView();
    update();
}

WorldMapView::View WorldMapView::fittedView(const QSizeF& size) const
{
    // Longitudes as given and shifted into [0, 360): the smaller span is the shorter way round.
    auto span = [&](bool shifted) {
        double lo = 1e9, hi = -1e9;
        for (const auto& s : m_sites) {
            const double lon = shifted && s.longitude < 0 ? s.longitude + 360.0 : s.longitude;
            lo = std::min(lo, lon);
            hi = std::max(hi, lon);
        }
        return std::make_pair(lo, hi);
    };
    auto plain = span(false), shifted = span(true);
    const auto lon = shifted.second - shifted.first < plain.second - plain.first ? shifted : plain;
    double latLo = 90, latHi = -90;
    for (const auto& s : m_sites) {
        latLo = std::min(latLo, s.latitude);
        latHi = std::max(latHi, s.latitude);
    }
    const double zoom = std::min(
        {size.width() / (lon.second - lon.first + 60.0), size.height() / (latHi - latLo + 40.0), 12.0});
    double centre = (lon.first + lon.second) / 2;
    if (centre > 180.0)
        centre -= 360.0;
    return {QPointF(centre, (latLo + latHi) / 2), zoom, size};
}

void WorldMapView::fitToSites()
{
    if (!isVisible() || width() < 100) {
        m_fitPending = true; // framed on the first real resize
        return;
    }
    m_fitPending = false;
    if (m_sites.isEmpty()) {
        resetView();
        return;
    }
    const View v = fittedView(QSizeF(size()));
    setView(v.center.y(), v.center.x(), v.zoom);
}

void WorldMapView::setView(double centerLatitude, double centerLongitude, double zoom)
{
    m_viewSet = true;
    m_center = QPointF(centerLongitude, centerLatitude);
    m_zoom = zoom;
    clampView();
    update();
}

QPointF WorldMapView::project(const View& v, double latitude, double longitude)
{
    double lon = longitude;
    while (lon - v.center.x() > 180.0)
        lon -= 360.0;
    while (lon - v.center.x() < -180.0)
        lon += 360.0;
    return {(lon - v.center.x()) * v.zoom + v.size.width() / 2.0,
            (v.center.y() - latitude) * v.zoom + v.size.height() / 2.0};
}

QPointF WorldMapView::toWidget(double latitude, double longitude) const
{
    return project(currentView(), latitude, longitude);
}

QPointF WorldMapView::toGeo(const QPointF& pos) const
{
    const double lon = m_center.x() + (pos.x() - width() / 2.0) / m_zoom;
    const double lat = m_center.y() - (pos.y() - height() / 2.0) / m_zoom;
    return {std::clamp(lat, -90.0, 90.0), wrapLongitude(lon)};
}

int WorldMapView::siteAt(const QPointF& pos) const
{
    int best = -1;
    double bestDistance = kMarkerRadius + 3.0;
    if (std::any_of(m_sites.begin(), m_sites.end(), [](const MapSite& s) { return s.processes >= 0; }))
        bestDistance = 14.0;
    const QVector<QPointF> markers = markerPlaces(currentView());
    for (int i = 0; i < m_sites.size(); ++i) {
        const QPointF p = markers[i];
        const double d = std::hypot(p.x() - pos.x(), p.y() - pos.y());
        if (d <= bestDistance) {
            best = i;
            bestDistance = d;
        }
    }
    return best;
}

int WorldMapView::linkAt(const QPointF& pos) const
{
    const View v = currentView();
    const QVector<QPointF> markers = markerPlaces(v);
    for (int k = 0; k < m_links.size(); ++k) {
        const auto& l = m_links[k];
        if (l.from < 0 || l.to < 0 || l.from >= m_sites.size() || l.to >= m_sites.size())
            continue;
        const QPointF a = markers[l.from];
        QPointF b = markers[l.to];
        if (std::abs(b.x() - a.x()) > 180.0 * v.zoom)
            b.rx() += b.x() > a.x() ? -360.0 * v.zoom : 360.0 * v.zoom;
        if (distanceToSegment(pos, a, b) < 4.0)
            return k;
    }
    return -1;
}

double WorldMapView::normalised(double value) const
{
    if (m_logScale) {
        if (value <= 0 || m_min <= 0)
            return 0.0;
        const double lo = std::log10(m_min), hi = std::log10(m_max);
        return hi > lo ? (std::log10(value) - lo) / (hi - lo) : 1.0;
    }
    return m_max > m_min ? (value - m_min) / (m_max - m_min) : 1.0;
}

QVector<QPointF> WorldMapView::markerPlaces(const View& v) const
{
    const int n = static_cast<int>(m_sites.size());
    QVector<QPointF> places(n);
    for (int i = 0; i < n; ++i)
        places[i] = project(v, m_sites[i].latitude, m_sites[i].longitude);
    // Markers that would overlap are pushed apart, half each, until none does (a few rounds for a cluster).
    // Coincident sites part along a direction set by their index, so the layout does not depend on the paint.
    constexpr double kGap = 3.0;
    const int rounds = n <= 1 ? 0 : std::clamp(static_cast<int>(2e7 / (static_cast<double>(n) * n)), 1, 200);
    for (int round = 0; round < rounds; ++round) {
        bool moved = false;
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) {
                const double need = outerRadius(m_sites[i]) + outerRadius(m_sites[j]) + kGap;
                const QPointF d = places[j] - places[i];
                const double distance = std::hypot(d.x(), d.y());
                if (distance >= need - 1e-6)
                    continue;
                const double angle = 2.399963 * (j + 1); // the golden angle
                const QPointF unit = distance < 1e-6 ? QPointF(std::cos(angle), std::sin(angle)) : d / distance;
                const double push = (need - distance) / 2;
                places[i] -= unit * push;
                places[j] += unit * push;
                moved = true;
            }
        if (!moved)
            break;
    }
    return places;
}

QRectF WorldMapView::legendPlace(const View& v, const QVector<QPointF>& markers, const QFontMetrics& fm) const
{
    if (m_links.isEmpty() || m_max <= 0)
        return {};
    const QString title = m_quantity + (m_logScale ? tr(" (log)") : QString());
    const QSizeF size(std::max(250, fm.horizontalAdvance(title) + 24), 52);
    // The bottom-left corner, or the first other corner where it covers no marker.
    const QRectF corners[] = {QRectF(QPointF(10, v.size.height() - 62), size),
                              QRectF(QPointF(v.size.width() - size.width() - 10, v.size.height() - 62), size),
                              QRectF(QPointF(10, 10), size),
                              QRectF(QPointF(v.size.width() - size.width() - 10, 10), size)};
    for (const QRectF& corner : corners) {
        const bool clear = std::none_of(markers.begin(), markers.end(), [&](const QPointF& p) {
            return corner.adjusted(-kMarkerRadius - 6, -kMarkerRadius - 6, kMarkerRadius + 6, kMarkerRadius + 6)
                .contains(p);
        });
        if (clear)
            return corner;
    }
    return corners[0];
}

QVector<QRectF> WorldMapView::markerRects() const
{
    const QVector<QPointF> places = markerPlaces(currentView());
    QVector<QRectF> rects;
    for (int i = 0; i < places.size(); ++i) {
        const double r = outerRadius(m_sites[i]);
        rects.push_back(QRectF(places[i].x() - r, places[i].y() - r, 2 * r, 2 * r));
    }
    return rects;
}

QVector<QRectF> WorldMapView::labelRects() const
{
    QFont labelFont = font();
    labelFont.setBold(true);
    const View v = currentView();
    const QVector<QPointF> markers = markerPlaces(v);
    return labelPlaces(v, markers, QFontMetricsF(labelFont), legendPlace(v, markers, QFontMetrics(font())));
}

QVector<QRectF> WorldMapView::labelPlaces(const View& v, const QVector<QPointF>& markers, const QFontMetricsF& fm,
                                          const QRectF& legend) const
{
    QVector<QRectF> places(m_sites.size());
    std::vector<int> order(m_sites.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [this](int a, int b) {
        if ((a == m_selected) != (b == m_selected))
            return a == m_selected;
        return m_sites[a].processes > m_sites[b].processes;
    });
    std::vector<QRectF> taken;
    if (!legend.isEmpty())
        taken.push_back(legend);
    for (int i = 0; i < m_sites.size(); ++i) {
        const double r = outerRadius(m_sites[i]);
        taken.emplace_back(markers[i].x() - r, markers[i].y() - r, 2 * r, 2 * r);
    }
    const QRectF area(QPointF(0, 0), v.size);
    for (int i : order) {
        const QPointF p = markers[i];
        const QSizeF size(std::max(fm.horizontalAdvance(m_sites[i].name),
                                   m_sites[i].badge.isEmpty() ? 0.0 : fm.horizontalAdvance(m_sites[i].badge) + 10)
                              + 4,
                          fm.height() + (m_sites[i].badge.isEmpty() ? 0 : fm.height() + 3));
        // Right, left, above, below, then the four corners, close to the marker and then a step further out.
        std::vector<QRectF> candidates;
        for (double extra :
             {0.0, 0.6 * fm.height(), 1.6 * fm.height(), 3.0 * fm.height(), 5.0 * fm.height(), 7.5 * fm.height()}) {
            const double r = outerRadius(m_sites[i]) + 2 + extra;
            candidates.insert(candidates.end(),
                              {QRectF(QPointF(p.x() + r, p.y() - fm.height() / 2 - 1), size),
                               QRectF(QPointF(p.x() - r - size.width(), p.y() - fm.height() / 2 - 1), size),
                               QRectF(QPointF(p.x() - size.width() / 2, p.y() - r - size.height()), size),
                               QRectF(QPointF(p.x() - size.width() / 2, p.y() + r), size),
                               QRectF(QPointF(p.x() + r * 0.7, p.y() - r * 0.7 - size.height()), size),
                               QRectF(QPointF(p.x() - r * 0.7 - size.width(), p.y() - r * 0.7 - size.height()), size),
                               QRectF(QPointF(p.x() + r * 0.7, p.y() + r * 0.7), size),
                               QRectF(QPointF(p.x() - r * 0.7 - size.width(), p.y() + r * 0.7), size)});
        }
        for (const QRectF& c : candidates) {
            // Inside the view, and over no other name or marker (its own marker is beside it).
            const bool clear = area.contains(c)
                && std::none_of(taken.begin(), taken.end(), [&](const QRectF& t) { return t.intersects(c); });
            if (clear) {
                places[i] = c;
                taken.push_back(c);
                break;
            }
        }
    }
    return places;
}

void WorldMapView::paintSites(QPainter& painter, const View& v, const QRectF& legend) const
{
    const QFont entryFont = painter.font();
    QFont labelFont = entryFont;
    labelFont.setBold(true);
    painter.setFont(labelFont);
    const QFontMetricsF fm(labelFont);
    const QVector<QPointF> markers = markerPlaces(v);
    const QVector<QRectF> places = labelPlaces(v, markers, fm, legend);
    // A marker moved off its site (another was there) is joined to the site's position by a leader line.
    for (int i = 0; i < m_sites.size(); ++i) {
        const QPointF site = project(v, m_sites[i].latitude, m_sites[i].longitude);
        if (std::hypot((markers[i] - site).x(), (markers[i] - site).y()) < 1.0)
            continue;
        painter.setPen(QPen(QColor(60, 60, 60), 1.2));
        painter.drawLine(site, markers[i]);
        painter.setPen(QPen(Qt::white, 1));
        painter.setBrush(QColor(60, 60, 60));
        painter.drawEllipse(site, 2.5, 2.5);
    }
    // A name placed away from its marker (nearer places were taken) is joined to it by a thin line.
    for (int i = 0; i < m_sites.size(); ++i) {
        if (places[i].isEmpty())
            continue;
        const QPointF p = markers[i];
        const QPointF nearest(std::clamp(p.x(), places[i].left(), places[i].right()),
                              std::clamp(p.y(), places[i].top(), places[i].bottom()));
        if (std::hypot((nearest - p).x(), (nearest - p).y()) > outerRadius(m_sites[i]) + 1.2 * fm.height()) {
            painter.setPen(QPen(QColor(90, 90, 90), 1.0));
            painter.drawLine(p, nearest);
        }
    }
    for (int i = 0; i < m_sites.size(); ++i) {
        const MapSite& site = m_sites[i];
        const QPointF p = markers[i];
        const bool selected = i == m_selected;
        const double radius = markerRadius(site) + (selected ? 2 : 0);
        painter.setPen(QPen(Qt::white, 2));
        painter.setBrush(selected ? QColor(213, 94, 0) : QColor(0, 90, 181));
        painter.drawEllipse(p, radius, radius);
        if (site.processes >= 0) {
            // How full the site is: a ring that fills clockwise from twelve o'clock, red when over capacity.
            const QRectF ring(p.x() - radius - 3.5, p.y() - radius - 3.5, 2 * radius + 7, 2 * radius + 7);
            painter.setBrush(Qt::NoBrush);
            painter.setPen(QPen(QColor(255, 255, 255, 220), 4));
            painter.drawEllipse(ring);
            const double full = site.slots > 0 ? static_cast<double>(site.processes) / site.slots : 0.0;
            painter.setPen(
                QPen(full > 1.0 ? QColor(200, 30, 30) : QColor(0, 158, 115), 3.5, Qt::SolidLine, Qt::FlatCap));
            painter.drawArc(ring, 90 * 16, -static_cast<int>(std::min(1.0, full) * 360 * 16));
            // A fifth smaller than the labels, never below the smallest readable size (a printed map sets one);
            // thousands as "1.2k", so that four digits fit the marker too.
            QFont small = labelFont;
            small.setPointSizeF(std::max(labelFont.pointSizeF() * 0.8, m_minimumTextPoints));
            painter.setFont(small);
            painter.setPen(Qt::white);
            const QString count = site.processes < 1000 ? QString::number(site.processes)
                : site.processes < 10000                ? QString::number(site.processes / 1000.0, 'f', 1) + 'k'
                                                        : QString::number(std::lround(site.processes / 1000.0)) + 'k';
            painter.drawText(QRectF(p.x() - radius - 4, p.y() - radius, 2 * radius + 8, 2 * radius), Qt::AlignCenter,
                             count);
            painter.setFont(labelFont);
        }
        if (site.pinned > 0) {
            painter.setPen(QPen(Qt::white, 1.5));
            painter.setBrush(QColor(204, 0, 0));
            painter.drawEllipse(QPointF(p.x() - radius * 0.75, p.y() - radius * 0.75), 4, 4);
        }
        const QRectF& place = places[i];
        if (place.isEmpty())
            continue;
        const QRectF textRect(place.topLeft(), QSizeF(place.width(), fm.height()));
        painter.setPen(QColor(255, 255, 255, 200));
        for (int dx : {-1, 1})
            for (int dy : {-1, 1})
                painter.drawText(textRect.translated(dx, dy), Qt::AlignLeft | Qt::AlignVCenter, site.name);
        painter.setPen(QColor(30, 30, 30));
        painter.drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter, site.name);
        if (!site.badge.isEmpty()) {
            // A small tag under the name, e.g. how many processes are pinned to the site.
            const QRectF tag(place.left(), textRect.bottom() + 2, fm.horizontalAdvance(site.badge) + 10, fm.height());
            painter.setPen(Qt::NoPen);
            painter.setBrush(QColor(213, 94, 0, 225));
            painter.drawRoundedRect(tag, 4, 4);
            painter.setPen(Qt::white);
            painter.drawText(tag, Qt::AlignCenter, site.badge);
        }
    }
    painter.setFont(entryFont); // the legend's text after the sites is in the map's own font
}

void WorldMapView::paint(QPainter& painter, const View& v) const
{
    const QRectF area(QPointF(0, 0), v.size);
    painter.fillRect(area, kOcean);
    painter.setRenderHint(QPainter::Antialiasing, true);

    // The world repeats every 360 degrees; each visible copy draws the (unwrapped) outline at -360, 0
    // and +360 degrees clipped to its own [-180, 180] strip, so land that crosses the antimeridian
    // appears once, on both sides of it.
    const double leftLon = v.center.x() - v.size.width() / (2.0 * v.zoom);
    const double rightLon = v.center.x() + v.size.width() / (2.0 * v.zoom);
    const int firstTile = static_cast<int>(std::floor((leftLon + 180.0) / 360.0));
    const int lastTile = static_cast<int>(std::floor((rightLon + 180.0) / 360.0));
    for (int tile = firstTile; tile <= lastTile; ++tile) {
        const double base = 360.0 * tile;
        painter.save();
        painter.translate(v.size.width() / 2.0 - v.center.x() * v.zoom, v.size.height() / 2.0 + v.center.y() * v.zoom);
        painter.scale(v.zoom, v.zoom);
        painter.setClipRect(QRectF(base - 180.0, -90.0, 360.0, 180.0));
        QPen grid(kGraticule, 0);
        painter.setPen(grid);
        for (int lon = -180; lon <= 180; lon += 30)
            painter.drawLine(QPointF(base + lon, -90), QPointF(base + lon, 90));
        for (int lat = -60; lat <= 60; lat += 30)
            painter.drawLine(QPointF(base - 180, -lat), QPointF(base + 180, -lat));
        painter.setPen(QPen(kCoast, 0));
        painter.setBrush(kLand);
        for (double offset : {-360.0, 0.0, 360.0})
            painter.drawPath(m_land.translated(base + offset, 0));
        painter.restore();
    }

    // Links: the shorter way round, drawn on both sides when they cross the view's edge, between the markers.
    const QVector<QPointF> markers = markerPlaces(v);
    for (const auto& l : m_links) {
        if (l.from < 0 || l.to < 0 || l.from >= m_sites.size() || l.to >= m_sites.size() || l.from == l.to)
            continue;
        const double t = std::clamp(normalised(l.value), 0.0, 1.0);
        QColor c = HeatmapView::paletteColor(t);
        c.setAlpha(220);
        painter.setPen(QPen(c, 1.5 + 4.5 * t, Qt::SolidLine, Qt::RoundCap));
        const QPointF a = markers[l.from];
        QPointF b = markers[l.to];
        if (std::abs(b.x() - a.x()) > 180.0 * v.zoom) {
            const double shift = 360.0 * v.zoom;
            const double s = b.x() > a.x() ? -shift : shift;
            painter.drawLine(a, QPointF(b.x() + s, b.y()));
            painter.drawLine(QPointF(a.x() - s, a.y()), b);
        } else {
            painter.drawLine(a, b);
        }
    }

    const QRectF legend = legendPlace(v, markers, painter.fontMetrics());
    paintSites(painter, v, legend);

    // Legend.
    if (!legend.isEmpty()) {
        const QString title = m_quantity + (m_logScale ? tr(" (log)") : QString());
        const QRectF box = legend;
        painter.setPen(QColor(160, 160, 160));
        painter.setBrush(QColor(255, 255, 255, 225));
        painter.drawRoundedRect(box, 4, 4);
        const QRectF bar(box.left() + 10, box.top() + 22, box.width() - 20, 10);
        QLinearGradient gradient(bar.topLeft(), bar.topRight());
        for (int k = 0; k <= 8; ++k)
            gradient.setColorAt(k / 8.0, HeatmapView::paletteColor(k / 8.0));
        painter.setPen(Qt::NoPen);
        painter.setBrush(gradient);
        painter.drawRect(bar);
        painter.setPen(QColor(30, 30, 30));
        painter.drawText(QRectF(box.left() + 10, box.top() + 3, box.width() - 20, 16), Qt::AlignLeft, title);
        painter.drawText(QRectF(bar.left(), bar.bottom() + 1, bar.width(), 14), Qt::AlignLeft,
                         formatValue(m_min, m_unit));
        painter.drawText(QRectF(bar.left(), bar.bottom() + 1, bar.width(), 14), Qt::AlignRight,
                         formatValue(m_max, m_unit));
    }
    if (m_sites.isEmpty()) {
        painter.setPen(QColor(90, 90, 90));
        painter.drawText(area.adjusted(0, 0, 0, -20), Qt::AlignHCenter | Qt::AlignBottom,
                         tr("Double-click the map to add a site, or drop a sites CSV or GeoJSON file here."));
    }
}

void WorldMapView::paintEvent(QPaintEvent*)
{
    if (!m_viewSet)
        resetView();
    QPainter painter(this);
    paint(painter, currentView());
    if (hasFocus()) {
        painter.setPen(QPen(palette().highlight().color(), 1));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(rect().adjusted(0, 0, -1, -1));
    }
}

QImage WorldMapView::renderImage(const QSize& size) const
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    renderTo(painter, QRect(QPoint(0, 0), size));
    return image;
}

void WorldMapView::renderTo(QPainter& painter, const QRect& target) const
{
    // Fit the current view's centre, and at least the whole visible area, into the target; a map never shown
    // (a report written without a window) is framed on its sites.
    View v = currentView();
    const double scale = std::min(target.width() / std::max(1.0, v.size.width()),
                                  target.height() / std::max(1.0, v.size.height()));
    v.zoom = std::max(m_zoom * scale, std::min(target.width() / 360.0, target.height() / 180.0));
    v.size = QSizeF(target.size());
    if (m_fitPending && !m_sites.isEmpty()) {
        v = fittedView(QSizeF(target.size()));
        v.zoom = std::max({v.zoom, 0.5, std::min(target.width() / 360.0, target.height() / 180.0)});
    }
    painter.save();
    painter.setFont(font());
    painter.translate(target.topLeft());
    painter.setClipRect(QRect(QPoint(0, 0), target.size()));
    paint(painter, v);
    painter.restore();
}

void WorldMapView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (m_fitPending && isVisible() && width() >= 100)
        fitToSites();
}

void WorldMapView::wheelEvent(QWheelEvent* event)
{
    const QPointF pos = event->position();
    const QPointF before = toGeo(pos);
    const double factor = std::pow(1.0015, event->angleDelta().y());
    m_zoom = std::clamp(m_zoom * factor, minimumZoom(), kMaxZoom);
    // Keep the point under the cursor where it was.
    m_center.rx() = before.y() - (pos.x() - width() / 2.0) / m_zoom;
    m_center.ry() = before.x() + (pos.y() - height() / 2.0) / m_zoom;
    clampView();
    update();
    event->accept();
}

void WorldMapView::mousePressEvent(QMouseEvent* event)
{
    setFocus();
    m_pressPos = m_lastPos = event->position();
    m_moved = false;
    if (event->button() != Qt::LeftButton)
        return;
    const int site = siteAt(event->position());
    if (site >= 0) {
        m_dragSite = site;
        setSelectedSite(site);
        Q_EMIT siteSelected(site);
    } else {
        m_panning = true;
        setCursor(Qt::ClosedHandCursor);
    }
}

void WorldMapView::mouseMoveEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    if ((pos - m_pressPos).manhattanLength() > 3)
        m_moved = true;
    if (m_dragSite >= 0 && m_moved) {
        const QPointF geo = toGeo(pos);
        m_sites[m_dragSite].latitude = geo.x();
        m_sites[m_dragSite].longitude = geo.y();
        update();
    } else if (m_panning) {
        const QPointF delta = pos - m_lastPos;
        m_center -= QPointF(delta.x() / m_zoom, -delta.y() / m_zoom);
        clampView();
        update();
    } else {
        setCursor(siteAt(pos) >= 0 ? Qt::OpenHandCursor : Qt::ArrowCursor);
    }
    m_lastPos = pos;
}

void WorldMapView::mouseReleaseEvent(QMouseEvent*)
{
    if (m_dragSite >= 0 && m_moved) {
        const int site = m_dragSite;
        m_dragSite = -1;
        Q_EMIT siteMoved(site, m_sites[site].latitude, m_sites[site].longitude);
    }
    m_dragSite = -1;
    m_panning = false;
    unsetCursor();
}

void WorldMapView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const int site = siteAt(event->position());
    if (site >= 0) {
        Q_EMIT siteRenameRequested(site);
        return;
    }
    const QPointF geo = toGeo(event->position());
    Q_EMIT siteAddRequested(geo.x(), geo.y());
}

void WorldMapView::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    const int site = siteAt(event->pos());
    if (site >= 0) {
        setSelectedSite(site);
        Q_EMIT siteSelected(site);
        menu.addAction(tr("Rename %1\u2026").arg(m_sites[site].name), this,
                       [this, site] { Q_EMIT siteRenameRequested(site); });
        menu.addAction(tr("Delete %1").arg(m_sites[site].name), this,
                       [this, site] { Q_EMIT siteDeleteRequested(site); });
        menu.addSeparator();
    } else {
        const QPointF geo = toGeo(event->pos());
        menu.addAction(tr("Add a site here"), this, [this, geo] { Q_EMIT siteAddRequested(geo.x(), geo.y()); });
    }
    menu.addAction(tr("Show the whole world"), this, &WorldMapView::resetView);
    menu.exec(event->globalPos());
}

void WorldMapView::keyPressEvent(QKeyEvent* event)
{
    if ((event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) && m_selected >= 0) {
        Q_EMIT siteDeleteRequested(m_selected);
        return;
    }
    if (event->key() == Qt::Key_Home) {
        resetView();
        return;
    }
    QWidget::keyPressEvent(event);
}

bool WorldMapView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int site = siteAt(help->pos());
        if (site >= 0) {
            QToolTip::showText(help->globalPos(),
                               QString("<b>%1</b><br>%2").arg(m_sites[site].name.toHtmlEscaped(), m_sites[site].detail),
                               this);
            return true;
        }
        const int link = linkAt(help->pos());
        if (link >= 0) {
            const auto& l = m_links[link];
            QToolTip::showText(help->globalPos(),
                               QString("<b>%1 \u2194 %2</b><br>%3")
                                   .arg(m_sites[l.from].name.toHtmlEscaped(), m_sites[l.to].name.toHtmlEscaped(),
                                        l.detail),
                               this);
            return true;
        }
        const QPointF geo = toGeo(help->pos());
        QToolTip::showText(help->globalPos(), tr("%1\u00b0, %2\u00b0").arg(geo.x(), 0, 'f', 2).arg(geo.y(), 0, 'f', 2),
                           this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace meridian::widgets
