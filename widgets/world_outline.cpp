#include "widgets/world_outline.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace meridian::widgets {

namespace {

Error badTopology(const QString& source, const QString& what)
{
    return makeError(ErrorCode::Parse, ("not a TopoJSON land outline: " + what).toStdString(),
                     {source.toStdString(), 0, 0});
}

} // namespace

Expected<WorldOutline> WorldOutline::fromTopoJson(const QByteArray& json, const QString& source)
{
    QJsonParseError parseError;
    const auto doc = QJsonDocument::fromJson(json, &parseError);
    if (doc.isNull()) {
        const int line = static_cast<int>(std::count(json.begin(), json.begin() + parseError.offset, '\n')) + 1;
        return makeError(ErrorCode::Parse, parseError.errorString().toStdString(), {source.toStdString(), line, 0});
    }
    const auto root = doc.object();
    if (root.value("type").toString() != "Topology")
        return badTopology(source, "\"type\" is not \"Topology\"");
    const auto transform = root.value("transform").toObject();
    const auto scale = transform.value("scale").toArray();
    const auto translate = transform.value("translate").toArray();
    const bool quantized = scale.size() == 2 && translate.size() == 2;

    WorldOutline out;
    // Decode every arc: quantized positions are deltas from the previous point, starting at (0, 0).
    std::vector<std::vector<QPointF>> arcs;
    for (const auto& arcValue : root.value("arcs").toArray()) {
        std::vector<QPointF> arc;
        double x = 0, y = 0;
        for (const auto& p : arcValue.toArray()) {
            const auto xy = p.toArray();
            if (xy.size() < 2)
                return badTopology(source, "an arc point has fewer than two coordinates");
            if (quantized) {
                x += xy[0].toDouble();
                y += xy[1].toDouble();
                arc.emplace_back(x * scale[0].toDouble() + translate[0].toDouble(),
                                 y * scale[1].toDouble() + translate[1].toDouble());
            } else {
                arc.emplace_back(xy[0].toDouble(), xy[1].toDouble());
            }
        }
        out.pointCount += static_cast<int>(arc.size());
        arcs.push_back(std::move(arc));
    }
    out.arcCount = static_cast<int>(arcs.size());

    const auto objects = root.value("objects").toObject();
    if (objects.isEmpty())
        return badTopology(source, "no objects");
    const auto object = objects.begin().value().toObject();
    QJsonArray geometries = object.value("type").toString() == "GeometryCollection"
        ? object.value("geometries").toArray()
        : QJsonArray{object};

    auto buildRing = [&](const QJsonArray& arcIndices) -> Expected<QPolygonF> {
        QPolygonF ring;
        for (const auto& v : arcIndices) {
            const int i = v.toInt();
            const int index = i < 0 ? ~i : i;
            if (index >= static_cast<int>(arcs.size()))
                return badTopology(source, QString("arc %1 does not exist").arg(index));
            const auto& arc = arcs[index];
            std::vector<QPointF> points(arc.begin(), arc.end());
            if (i < 0)
                std::reverse(points.begin(), points.end());
            // Consecutive arcs share an endpoint: drop it.
            for (std::size_t k = ring.isEmpty() ? 0 : 1; k < points.size(); ++k)
                ring << points[k];
        }
        // Unwrap longitudes so that no step jumps across the antimeridian.
        bool unwrapped = false;
        for (int k = 1; k < ring.size(); ++k) {
            double dx = ring[k].x() - ring[k - 1].x();
            if (std::abs(dx) > 180.0) {
                const double shift = -360.0 * std::round(dx / 360.0);
                for (int j = k; j < ring.size(); ++j)
                    ring[j].rx() += shift;
                unwrapped = true;
            }
        }
        if (unwrapped)
            ++out.unwrappedRings;
        const double net = ring.isEmpty() ? 0.0 : ring.back().x() - ring.front().x();
        if (std::abs(net) > 180.0) {
            // The ring goes round a pole: close it along that pole's parallel.
            double meanLat = 0;
            for (const auto& p : ring)
                meanLat += p.y();
            const double pole = meanLat < 0 ? -90.0 : 90.0;
            ring << QPointF(ring.back().x(), pole) << QPointF(ring.front().x(), pole);
            ++out.poleClosedRings;
        }
        return ring;
    };

    for (const auto& g : geometries) {
        const auto geometry = g.toObject();
        const QString type = geometry.value("type").toString();
        QJsonArray polygons;
        if (type == "Polygon")
            polygons = QJsonArray{geometry.value("arcs")};
        else if (type == "MultiPolygon")
            polygons = geometry.value("arcs").toArray();
        else
            continue;
        for (const auto& polygon : polygons) {
            ++out.polygonCount;
            for (const auto& ringArcs : polygon.toArray()) {
                auto ring = buildRing(ringArcs.toArray());
                if (!ring)
                    return ring.error();
                out.rings.push_back(std::move(*ring));
            }
        }
    }
    if (out.rings.empty())
        return badTopology(source, "no polygons");
    return out;
}

const WorldOutline& WorldOutline::builtin()
{
    static const WorldOutline outline = [] {
        QFile file(":/world/land-110m.json");
        if (!file.open(QIODevice::ReadOnly))
            return WorldOutline{};
        auto decoded = fromTopoJson(file.readAll(), file.fileName());
        return decoded ? std::move(*decoded) : WorldOutline{};
    }();
    return outline;
}

QPainterPath WorldOutline::path() const
{
    QPainterPath path;
    path.setFillRule(Qt::OddEvenFill);
    for (const auto& ring : rings) {
        QPolygonF flipped;
        flipped.reserve(ring.size());
        for (const auto& p : ring)
            flipped << QPointF(p.x(), -p.y());
        path.addPolygon(flipped);
        path.closeSubpath();
    }
    return path;
}

} // namespace meridian::widgets
