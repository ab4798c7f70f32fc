#include "core/common/readable.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace meridian {

namespace {

/// `value` rounded to a whole number, its thousands grouped with commas; from 10^15 on (more digits than anyone
/// reads, up to 309 for the largest double) three significant digits and an exponent ("1.23e+20").
std::string grouped(double value)
{
    char digits[64];
    if (!(std::abs(value) < 1e15)) {
        std::snprintf(digits, sizeof digits, "%.3g", value);
        return digits;
    }
    const int n = std::snprintf(digits, sizeof digits, "%.0f", std::abs(value));
    std::string text = value < 0 && std::round(std::abs(value)) > 0 ? "-" : "";
    for (int i = 0; i < n; ++i) {
        if (i > 0 && (n - i) % 3 == 0)
            text += ',';
        text += digits[i];
    }
    return text;
}

/// Three significant digits, fixed point, trailing zeros kept ("0.0123", "1.20", "45.1"); 1,000 and above grouped.
std::string significant(double value)
{
    if (value == 0.0 || !std::isfinite(value))
        return value == 0.0 ? "0" : std::to_string(value);
    if (std::abs(value) >= 999.5)
        return grouped(value);
    const int decimals = std::clamp(2 - static_cast<int>(std::floor(std::log10(std::abs(value)))), 0, 15);
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

} // namespace

std::string readableSeconds(double seconds)
{
    const double magnitude = std::abs(seconds);
    if (seconds == 0.0 || !std::isfinite(seconds))
        return significant(seconds) + " s";
    if (magnitude >= 0.9995)
        return significant(seconds) + " s";
    if (magnitude >= 0.9995e-3)
        return significant(seconds * 1e3) + " ms";
    if (magnitude >= 0.9995e-6)
        return significant(seconds * 1e6) + " \u00b5s";
    return significant(seconds * 1e9) + " ns";
}

std::string readableUsd(double usd) { return (usd < 0 ? "-$" : "$") + significant(std::abs(usd)); }

std::string readableNumber(double value) { return significant(value); }

std::string readableCount(double count) { return grouped(count); }

} // namespace meridian
