#include "app/document/run.h"

namespace meridian::document {

std::optional<double> Run::metric(const std::string& id) const
{
    for (const auto& m : metrics)
        if (m.id == id)
            return m.value;
    return std::nullopt;
}

std::string Run::label() const { return "#" + std::to_string(id) + " " + algorithm + " on " + application; }

} // namespace meridian::document
