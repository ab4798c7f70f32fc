#pragma once

// Internal to core/io: nlohmann::json is a private dependency of meridian_core, so only its sources include this.

#include "core/common/expected.h"

#include <nlohmann/json.hpp>

#include <string>

namespace meridian::io {

/// Parses a JSON text read from `path`. A syntax error is a Parse error naming the file, line and column
/// where parsing stopped; a number out of range is one too.
Expected<nlohmann::json> parseJsonText(const std::string& text, const std::string& path);

/// Returns the 1-based line of the first occurrence of `needle` in `text`, or 0 when there is none: used to
/// point an error about a JSON member at the line that holds it.
int lineOf(const std::string& text, const std::string& needle);

} // namespace meridian::io
