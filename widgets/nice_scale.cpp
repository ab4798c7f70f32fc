#include "widgets/nice_scale.h"

#include <algorithm>
#include <cmath>

namespace meridian::widgets {

namespace {

/// The round number (1, 2, 2.5, 5 times a power of ten) nearest above `x`.
double niceStep(double x)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(x)));
    const double fraction = x / magnitude;
    double nice = 10.0;
    for (double candidate : {1.0, 2.0, 2.5, 5.0})
        if (fraction <= candidate * (1.0 + 1e-9)) {
            nice = candidate;
            break;
        }
    return nice * magnitude;
}

} // namespace

NiceScale niceScale(double minimum, double maximum, int targetTicks)
{
    if (!std::isfinite(minimum) || !std::isfinite(maximum))
        return {};
    if (minimum > maximum)
        std::swap(minimum, maximum);
    if (maximum == minimum) {
        const double half = minimum == 0.0 ? 1.0 : 0.1 * std::abs(minimum);
        const bool nonNegative = minimum >= 0.0;
        minimum = nonNegative ? std::max(0.0, minimum - half) : minimum - half;
        maximum += half;
    }
    const double step = niceStep((maximum - minimum) / std::max(1, targetTicks - 1));
    NiceScale scale;
    scale.step = step;
    scale.low = std::floor(minimum / step + 1e-9) * step;
    scale.high = std::ceil(maximum / step - 1e-9) * step;
    if (minimum >= 0.0 && scale.low < 0.0)
        scale.low = 0.0;
    // Decimals: enough for the step's last significant digit (2.5 needs one more than 2 or 5).
    const double digits = -std::floor(std::log10(step) + 1e-9);
    const double mantissa = step / std::pow(10.0, -digits);
    scale.decimals = std::max(0, static_cast<int>(digits) + (std::abs(mantissa - 2.5) < 1e-6 ? 1 : 0));
    return scale;
}

} // namespace meridian::widgets
