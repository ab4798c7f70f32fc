#include "app/report/report_numbers.h"

#include <QLocale>
#include <QRegularExpression>

#include <cmath>

namespace meridian::report {

QString significant(double value)
{
    if (std::isnan(value))
        return QStringLiteral("\u2014");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("\u221e") : QStringLiteral("\u2212\u221e");
    if (value == 0.0)
        return QStringLiteral("0");
    const double magnitude = std::abs(value);
    if (magnitude >= 999.5) {
        QLocale english(QLocale::English);
        english.setNumberOptions(QLocale::DefaultNumberOptions);
        return english.toString(std::round(value), 'f', 0);
    }
    const int decimals = std::max(0, 2 - static_cast<int>(std::floor(std::log10(magnitude))));
    QString text = QString::number(value, 'f', decimals);
    // Rounding up may add a digit (9.996 -> "10.00"): one decimal fewer keeps three significant digits.
    const QString digits = QString(text).remove('-').remove('.');
    if (decimals > 0 && digits.size() - digits.indexOf(QRegularExpression("[1-9]")) > 3)
        text = QString::number(value, 'f', decimals - 1);
    return text;
}

namespace {

QString scaled(double value, const char* const* prefixes, int count, double step, const QString& base)
{
    int p = 0;
    double v = value;
    while (std::abs(v) >= step * 0.9995 && p < count - 1) {
        v /= step;
        ++p;
    }
    return significant(v) + ' ' + QString::fromUtf8(prefixes[p]) + base;
}

QString seconds(double value)
{
    const double magnitude = std::abs(value);
    if (value == 0.0)
        return QStringLiteral("0 s");
    if (magnitude >= 0.9995)
        return magnitude >= 3600 * 0.9995 * 100 ? significant(value / 3600) + QStringLiteral(" h")
                                                : significant(value) + QStringLiteral(" s");
    if (magnitude >= 0.9995e-3)
        return significant(value * 1e3) + QStringLiteral(" ms");
    if (magnitude >= 0.9995e-6)
        return significant(value * 1e6) + QStringLiteral(" \u00b5s");
    return significant(value * 1e9) + QStringLiteral(" ns");
}

QString dollars(double value, const QString& suffix)
{
    const QString sign = value < 0 ? QStringLiteral("\u2212") : QString();
    return sign + '$' + significant(std::abs(value)) + suffix;
}

} // namespace

QString formatQuantity(double value, const QString& unit)
{
    if (std::isnan(value))
        return QStringLiteral("\u2014");
    if (unit == "bytes") {
        static const char* const prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
        return scaled(value, prefixes, 7, 1000.0, "B");
    }
    if (unit == "s")
        return seconds(value);
    if (unit == "USD")
        return dollars(value, {});
    if (unit == "USD/h")
        return dollars(value, QStringLiteral("/h"));
    if (unit == "USD/GB")
        return dollars(value, QStringLiteral("/GB"));
    if (unit == "x")
        return significant(value) + QStringLiteral("\u00d7");
    if (unit == "%")
        return significant(100.0 * value) + QStringLiteral("%");
    return unit.isEmpty() ? significant(value) : significant(value) + ' ' + unit;
}

QString formatCoordinate(double degrees)
{
    // Two decimals of a degree are about a kilometre: as precise as a site's position is known, and the same for
    // every site, so a column of them lines up.
    if (!std::isfinite(degrees))
        return QStringLiteral("\u2014");
    const QString text = QString::number(degrees, 'f', 2);
    return (text.startsWith('-') ? QStringLiteral("\u2212") + text.mid(1) : text) + QStringLiteral("\u00b0");
}

} // namespace meridian::report
