#include "app/project/run.h"

namespace meridian::document {

std::optional<double> Run::metric(const std::string& id) const
{
    for (const auto& m : metrics)
        if (m.id == id)
            return m.value;
    return std::nullopt;
}

std::string Run::label() const
{
    // Appended rather than chained with operator+: GCC 12 warns (-Wrestrict, a false positive) on "#" + string.
    std::string text = "#";
    text += std::to_string(id);
    text += ' ';
    text += algorithm;
    text += " on ";
    text += application;
    if (!derivation.empty()) {
        text += ' ';
        text += derivation;
    }
    return text;
}

} // namespace meridian::document
