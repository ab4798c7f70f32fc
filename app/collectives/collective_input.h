#pragma once

#include "core/collectives/schedule.h"
#include "core/common/expected.h"
#include "core/model/placement.h"

#include <string>
#include <utility>
#include <vector>

namespace meridian::ops {

/// The largest message (or buffer) a collective is planned for: 1 TiB. Above it a schedule's times and the simulated
/// transfers mean nothing (and take minutes to simulate); the size sweep's limit is the same 2^40 bytes.
inline constexpr double kMaxMessageBytes = 1099511627776.0;

/// A byte count as a user types it: a whole number, optionally followed by KB, MB, GB, TB (powers of 10^3) or KiB,
/// MiB, GiB, TiB (powers of 2^10), any case, with or without a space, at most kMaxMessageBytes (an error quotes
/// the text as written). `what` names the option or field in errors.
Expected<double> parseByteSize(const std::string& text, const std::string& what);
/// MIN:MAX with sizes as parseByteSize reads them.
Expected<std::pair<double, double>> parseByteRange(const std::string& text);
/// Comma-separated algorithm ids (flat, mst, ...); an unknown id is an error listing the known ones.
Expected<std::vector<collectives::Algorithm>> parseAlgorithmList(const std::string& text);
/// The collectives' layout of a placement completed to hosts: each process at its site, on its host.
collectives::Layout layoutOf(const model::Placement& placement);

} // namespace meridian::ops
