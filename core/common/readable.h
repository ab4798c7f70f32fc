#pragma once

#include <string>

namespace meridian {

/// Numbers in notes a person reads (a run's notes, shown in the workbench and printed in the report): three
/// significant digits with a unit prefix, thousands grouped; an exponent only from 10^15 on ("1.23e+20"), where
/// grouped digits would run to hundreds.

/// "26.1 µs", "845 ms", "1.27 s", "3,673 s".
std::string readableSeconds(double seconds);
/// "$0.00000738", "$0.0123", "$1.20", "$1,234".
std::string readableUsd(double usd);
/// A ratio or other unitless number: "0.850", "1.20", "1,234".
std::string readableNumber(double value);
/// A count with thousands grouped: "4,750,000".
std::string readableCount(double count);

} // namespace meridian
