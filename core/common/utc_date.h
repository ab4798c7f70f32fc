#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace meridian {

/// Parses an ISO 8601 UTC date and time as "YYYY-MM-DDTHH:MM:SSZ" (what meridian-probe and project files
/// write) into seconds since 1970-01-01 UTC; nullopt for anything else, including dates before 1970 and
/// fields out of range (month 13, February 30).
std::optional<std::int64_t> parseUtcDate(std::string_view text);

/// Formats seconds since 1970-01-01 UTC as "YYYY-MM-DDTHH:MM:SSZ".
std::string formatUtcDate(std::int64_t seconds);

} // namespace meridian
