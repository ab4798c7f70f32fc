#pragma once

#include <cmath>

namespace meridian::widgets {

/// An axis range whose ticks fall on round numbers (1, 2, 2.5 or 5 times a power of ten), as Heckbert's
/// "nice numbers" choose them, and the decimals that print every tick exactly.
struct NiceScale {
    double low = 0.0;
    double high = 1.0;
    double step = 0.2;
    int decimals = 1; ///< digits after the point that the step needs (0 for whole steps)
    int ticks() const { return static_cast<int>(std::lround((high - low) / step)) + 1; }
};

/// Returns a nice range covering [minimum, maximum] with about `targetTicks` ticks (at least 2). A range that
/// does not go below zero does not start below zero; a single value gets a range around it.
NiceScale niceScale(double minimum, double maximum, int targetTicks = 6);

} // namespace meridian::widgets
