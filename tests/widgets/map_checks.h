#pragma once
// Checks of what a WorldMapView shows, shared by the widget's test and the workbench's views test.

#include "widgets/world_map_view.h"

#include <QStringList>

#include <cmath>

namespace meridian::widgets {

// What a view shows of its sites overlaps nothing else it shows: markers, and names with their badges.
inline QString overlaps(const WorldMapView& view)
{
    const QVector<QRectF> markers = view.markerRects(), labels = view.labelRects();
    QStringList found;
    const auto name = [&](int i) { return view.sites()[i].name; };
    for (int i = 0; i < markers.size(); ++i) {
        if (labels[i].isEmpty())
            found << name(i) + "'s name has no place";
        for (int j = 0; j < markers.size(); ++j) {
            const QPointF between = markers[i].center() - markers[j].center();
            if (j > i && std::hypot(between.x(), between.y()) < (markers[i].width() + markers[j].width()) / 2)
                found << name(i) + "'s marker over " + name(j) + "'s"; // markers are discs
            if (j > i && !labels[i].isEmpty() && labels[i].intersects(labels[j]))
                found << name(i) + "'s name over " + name(j) + "'s";
            if (!labels[i].isEmpty() && labels[i].intersects(markers[j]))
                found << name(i) + "'s name over " + name(j) + "'s marker";
        }
        if (!labels[i].isEmpty() && !QRectF(QPointF(0, 0), QSizeF(view.size())).contains(labels[i]))
            found << name(i) + "'s name outside the view";
    }
    return found.join("; ");
}

} // namespace meridian::widgets
