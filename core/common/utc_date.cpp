#include "core/common/utc_date.h"

#include <array>
#include <cstdio>
#include <ctime>

namespace meridian {

namespace {

// Days from 1970-01-01 to the given civil date (proleptic Gregorian), H. Hinnant's days_from_civil.
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2 ? 1 : 0;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool isLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int daysInMonth(int y, int m)
{
    static constexpr std::array<int, 12> days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && isLeap(y) ? 29 : days[static_cast<std::size_t>(m - 1)];
}

// Reads `count` digits at `pos` into `out`; false if any is not a digit.
bool digits(std::string_view text, std::size_t pos, std::size_t count, int& out)
{
    out = 0;
    for (std::size_t k = pos; k < pos + count; ++k) {
        if (text[k] < '0' || text[k] > '9')
            return false;
        out = out * 10 + (text[k] - '0');
    }
    return true;
}

} // namespace

std::optional<std::int64_t> parseUtcDateText(std::string_view text)
{
    // YYYY-MM-DDTHH:MM:SSZ
    if (text.size() != 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' || text[16] != ':'
        || text[19] != 'Z')
        return std::nullopt;
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
    if (!digits(text, 0, 4, y) || !digits(text, 5, 2, mo) || !digits(text, 8, 2, d) || !digits(text, 11, 2, h)
        || !digits(text, 14, 2, mi) || !digits(text, 17, 2, s))
        return std::nullopt;
    if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 60)
        return std::nullopt;
    const std::int64_t days = daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
    return days * 86400 + std::int64_t{h} * 3600 + std::int64_t{mi} * 60 + s;
}

std::optional<std::string> measurementDateProblem(std::int64_t seconds)
{
    const std::int64_t latest = static_cast<std::int64_t>(std::time(nullptr)) + kMeasurementDateSlackSeconds;
    if (seconds >= kEarliestMeasurementDate && seconds <= latest)
        return std::nullopt;
    return "expected a date from " + formatUtcDate(kEarliestMeasurementDate) + " to " + formatUtcDate(latest)
        + " (a day after now), found " + formatUtcDate(seconds);
}

std::optional<std::int64_t> parseUtcDate(std::string_view text)
{
    const auto seconds = parseUtcDateText(text);
    if (!seconds || measurementDateProblem(*seconds))
        return std::nullopt;
    return seconds;
}

std::string formatUtcDate(std::int64_t seconds)
{
    const auto t = static_cast<std::time_t>(seconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::array<char, 32> buffer{};
    std::strftime(buffer.data(), buffer.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer.data();
}

} // namespace meridian
