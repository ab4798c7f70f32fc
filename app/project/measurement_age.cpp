#include "app/project/measurement_age.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTimeZone>

namespace meridian::document {

namespace {

QString tr(const char* text, int n = -1) { return QCoreApplication::translate("MeasurementAge", text, nullptr, n); }

} // namespace

QString measurementDateText(model::MeasuredAt date)
{
    return QDateTime::fromSecsSinceEpoch(date, QTimeZone::utc()).toString("yyyy-MM-dd HH:mm 'UTC'");
}

int measurementAgeDays(model::MeasuredAt date, model::MeasuredAt now)
{
    return now > date ? static_cast<int>((now - date) / 86400) : 0;
}

QString measurementAgeText(model::MeasuredAt date, model::MeasuredAt now)
{
    const int days = measurementAgeDays(date, now);
    if (days == 0)
        return tr("today");
    if (days == 1)
        return tr("yesterday");
    if (days < 14)
        return tr("%n days ago", days);
    if (days < 60)
        return tr("%n weeks ago", days / 7);
    return tr("%n months ago", days / 30);
}

} // namespace meridian::document
