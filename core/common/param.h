#pragma once

#include "core/common/expected.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace meridian {

/// The type of an algorithm parameter.
enum class ParamType { Int, Double, Bool, Choice };

/// Returns the stable id of a parameter type ("int", "double", "bool", "choice").
std::string_view paramTypeId(ParamType type);

/// A parameter value: an integer, a real, a flag or one of a list of strings.
using ParamValue = std::variant<std::int64_t, double, bool, std::string>;

/// Returns a value as it is written on the command line and in project files.
std::string paramValueToString(const ParamValue& value);

/// The typed definition of one algorithm parameter. The GUI builds its form from these and the CLI
/// parses `--param key=value` against them.
struct ParamSpec {
    std::string name; ///< Stable id, lower-case with underscores.
    ParamType type = ParamType::Int;
    ParamValue defaultValue;
    double minimum = 0.0; ///< Inclusive bounds for Int and Double.
    double maximum = 0.0;
    std::vector<std::string> choices; ///< Allowed values of a Choice.
    std::string help;                 ///< One sentence, shown as a tooltip and in `list-algorithms`.

    static ParamSpec integer(std::string name, std::int64_t value, std::int64_t minimum, std::int64_t maximum,
                             std::string help);
    static ParamSpec real(std::string name, double value, double minimum, double maximum, std::string help);
    static ParamSpec flag(std::string name, bool value, std::string help);
    static ParamSpec choice(std::string name, std::string value, std::vector<std::string> choices, std::string help);

    /// Checks a value against the type and range; the error names the parameter and the allowed range.
    Status check(const ParamValue& value) const;
    /// Parses text ("12", "0.5", "true", a choice) into a checked value.
    Expected<ParamValue> parse(std::string_view text) const;
};

/// The values of an algorithm's parameters, complete: every spec has a value (its default unless set).
class ParamValues {
public:
    ParamValues() = default;

    /// Returns the defaults of `specs`.
    static ParamValues defaults(const std::vector<ParamSpec>& specs);
    /// Parses `key=value` assignments against `specs`: unknown keys, bad values and repeated keys are
    /// errors naming the key. Unset keys take their defaults.
    static Expected<ParamValues> parse(const std::vector<ParamSpec>& specs, const std::vector<std::string>& assignments);
    /// Sets one value after checking it against its spec.
    static Expected<ParamValues> with(const std::vector<ParamSpec>& specs, ParamValues values, const std::string& name,
                                      const ParamValue& value);

    /// Returns values as stored elsewhere (a saved run), unchecked: callers validate() them against the
    /// specs before running anything with them.
    static ParamValues fromStored(std::map<std::string, ParamValue> values);

    std::int64_t integer(const std::string& name) const;
    double real(const std::string& name) const;
    bool flag(const std::string& name) const;
    const std::string& choice(const std::string& name) const;

    /// Returns these values with every spec they lack at its default: a saved run's values, saved before a parameter
    /// was added, run as they did (a parameter is added with a default that keeps the earlier behaviour).
    ParamValues completed(const std::vector<ParamSpec>& specs) const;

    /// Checks that every spec has a value of its type and range; the error names the parameter.
    Status validate(const std::vector<ParamSpec>& specs) const;

    bool contains(const std::string& name) const { return m_values.count(name) != 0; }
    const std::map<std::string, ParamValue>& values() const { return m_values; }
    /// Returns "a=1, b=true" in name order.
    std::string toString() const;

private:
    std::map<std::string, ParamValue> m_values;
};

} // namespace meridian
