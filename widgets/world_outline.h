#pragma once

#include "core/common/expected.h"

#include <QByteArray>
#include <QPainterPath>
#include <QPolygonF>
#include <QString>

#include <vector>

namespace meridian::widgets {

/// The land outline of the world, decoded from a TopoJSON topology (Natural Earth's land-110m from the
/// world-atlas package; resources/world/land-110m.json is compiled in as ":/world/land-110m.json").
///
/// Rings are in degrees with x = longitude and y = latitude. Rings that cross the antimeridian are
/// unwrapped so that consecutive points differ by at most 180 degrees of longitude (their longitudes
/// may then leave [-180, 180]); a ring whose longitudes net 360 degrees (it goes round a pole, like
/// Antarctica) is closed through that pole. Drawing the path at -360, 0 and +360 degrees clipped to the
/// map therefore covers every piece of land exactly once, with no horizontal bands.
struct WorldOutline {
    std::vector<QPolygonF> rings; ///< outer rings and holes, unwrapped
    int polygonCount = 0;
    int arcCount = 0;
    int pointCount = 0;      ///< decoded arc points (before rings share endpoints)
    int unwrappedRings = 0;  ///< rings that crossed the antimeridian
    int poleClosedRings = 0; ///< rings closed through a pole

    /// Decodes TopoJSON text; errors name `source`. Uses the first object of the topology.
    static Expected<WorldOutline> fromTopoJson(const QByteArray& json, const QString& source);
    /// Returns the built-in land outline (decoded once, then shared).
    static const WorldOutline& builtin();

    /// Returns all rings as one path (odd-even fill) with y = -latitude, ready for an equirectangular
    /// transform.
    QPainterPath path() const;
};

} // namespace meridian::widgets
