#pragma once

#include "core/model/network.h"

#include <QString>

namespace meridian::document {

/// Measurements older than this many days are flagged for re-measuring (cloud networks change; CloudMap
/// measures before every run).
inline constexpr int kOldMeasurementDays = 30;

/// "2026-11-23 14:43 UTC".
QString measurementDateText(model::MeasuredAt date);
/// How long ago `date` was, seen at `now` (both seconds since 1970 UTC): "today", "yesterday", "5 days ago",
/// "3 weeks ago", "4 months ago".
QString measurementAgeText(model::MeasuredAt date, model::MeasuredAt now);
/// Whole days from `date` to `now`.
int measurementAgeDays(model::MeasuredAt date, model::MeasuredAt now);

} // namespace meridian::document
