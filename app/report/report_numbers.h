#pragma once

#include <QString>

namespace meridian::report {

/// Formats a quantity for a report table or sentence with three significant digits, keeping trailing zeros so
/// that a column reads evenly ("1.20 s", "845 ms", "91.0 µs"; "31.5 MB"; "$0.0123", "$1,234"; "2.41×").
/// `unit` is a run metric's unit: "s", "bytes", "USD", "USD/h", "USD/GB", "x" (a ratio), "%" (a share 0..1) or any other
/// text, appended after a space. NaN gives an em dash.
QString formatQuantity(double value, const QString& unit);
/// Three significant digits, trailing zeros kept, thousands grouped above 999 ("0.0123", "1.20", "1,234").
QString significant(double value);
/// A latitude or longitude with two decimals and a degree sign ("38.90°", "−122.40°"); NaN gives an em dash.
QString formatCoordinate(double degrees);

} // namespace meridian::report
