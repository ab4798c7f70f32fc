#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace meridian {

/// Parses an ISO 8601 UTC date and time as "YYYY-MM-DDTHH:MM:SSZ" into seconds since 1970-01-01 UTC; nullopt for
/// anything else, including dates before 1970 and fields out of range (month 13, February 30).
std::optional<std::int64_t> parseUtcDateText(std::string_view text);

/// The earliest date a measurement may carry, 2000-01-01T00:00:00Z: an earlier one is a clock that was never set
/// (1970-01-01 is also 0, the model's "date unknown", so it could not be kept apart from no date at all).
inline constexpr std::int64_t kEarliestMeasurementDate = 946684800;
/// How far past the current time a measurement's date may be: a day (clocks of the measuring hosts drift).
inline constexpr std::int64_t kMeasurementDateSlackSeconds = 86400;

/// Returns nullopt when `seconds` is a plausible measurement date (from kEarliestMeasurementDate to a day after
/// now), else what was expected and found, e.g. "expected a date from 2000-01-01T00:00:00Z to
/// 2026-11-27T09:00:00Z (a day after now), found 2999-01-01T00:00:00Z".
std::optional<std::string> measurementDateProblem(std::int64_t seconds);

/// Parses a measurement's date (what meridian-probe and project files write): parseUtcDateText, then
/// nullopt as well for a date measurementDateProblem refuses, so no real date is ever read as 0 ("unknown").
std::optional<std::int64_t> parseUtcDate(std::string_view text);

/// Formats seconds since 1970-01-01 UTC as "YYYY-MM-DDTHH:MM:SSZ".
std::string formatUtcDate(std::int64_t seconds);

} // namespace meridian
