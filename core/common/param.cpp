#include "core/common/param.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <sstream>

namespace meridian {

std::string_view paramTypeId(ParamType type)
{
    switch (type) {
    case ParamType::Int:
        return "int";
    case ParamType::Double:
        return "double";
    case ParamType::Bool:
        return "bool";
    case ParamType::Choice:
        return "choice";
    }
    return "int";
}

std::string paramValueToString(const ParamValue& value)
{
    if (const auto* i = std::get_if<std::int64_t>(&value))
        return std::to_string(*i);
    if (const auto* d = std::get_if<double>(&value)) {
        std::ostringstream out;
        out.precision(12);
        out << *d;
        return out.str();
    }
    if (const auto* b = std::get_if<bool>(&value))
        return *b ? "true" : "false";
    return std::get<std::string>(value);
}

ParamSpec ParamSpec::integer(std::string name, std::int64_t value, std::int64_t minimum, std::int64_t maximum,
                             std::string help)
{
    ParamSpec s;
    s.name = std::move(name);
    s.type = ParamType::Int;
    s.defaultValue = value;
    s.minimum = static_cast<double>(minimum);
    s.maximum = static_cast<double>(maximum);
    s.help = std::move(help);
    return s;
}

ParamSpec ParamSpec::real(std::string name, double value, double minimum, double maximum, std::string help)
{
    ParamSpec s;
    s.name = std::move(name);
    s.type = ParamType::Double;
    s.defaultValue = value;
    s.minimum = minimum;
    s.maximum = maximum;
    s.help = std::move(help);
    return s;
}

ParamSpec ParamSpec::flag(std::string name, bool value, std::string help)
{
    ParamSpec s;
    s.name = std::move(name);
    s.type = ParamType::Bool;
    s.defaultValue = value;
    s.help = std::move(help);
    return s;
}

ParamSpec ParamSpec::choice(std::string name, std::string value, std::vector<std::string> choices, std::string help)
{
    ParamSpec s;
    s.name = std::move(name);
    s.type = ParamType::Choice;
    s.defaultValue = std::move(value);
    s.choices = std::move(choices);
    s.help = std::move(help);
    return s;
}

Status ParamSpec::check(const ParamValue& value) const
{
    const auto range = [&] {
        return " (expected " + std::string(paramTypeId(type)) + " in [" + paramValueToString(ParamValue(minimum)) + ", "
            + paramValueToString(ParamValue(maximum)) + "])";
    };
    switch (type) {
    case ParamType::Int: {
        const auto* v = std::get_if<std::int64_t>(&value);
        if (!v)
            return makeError(ErrorCode::InvalidInput, "parameter '" + name + "' must be an integer");
        if (static_cast<double>(*v) < minimum || static_cast<double>(*v) > maximum)
            return makeError(ErrorCode::InvalidInput,
                             "parameter '" + name + "' is " + std::to_string(*v) + ", out of range" + range());
        return {};
    }
    case ParamType::Double: {
        const auto* v = std::get_if<double>(&value);
        if (!v || !std::isfinite(*v))
            return makeError(ErrorCode::InvalidInput, "parameter '" + name + "' must be a finite number");
        if (*v < minimum || *v > maximum)
            return makeError(ErrorCode::InvalidInput,
                             "parameter '" + name + "' is " + paramValueToString(value) + ", out of range" + range());
        return {};
    }
    case ParamType::Bool:
        if (!std::holds_alternative<bool>(value))
            return makeError(ErrorCode::InvalidInput, "parameter '" + name + "' must be true or false");
        return {};
    case ParamType::Choice: {
        const auto* v = std::get_if<std::string>(&value);
        if (v) {
            for (const auto& c : choices) {
                if (c == *v)
                    return {};
            }
        }
        std::string list;
        for (const auto& c : choices)
            list += (list.empty() ? "" : ", ") + c;
        return makeError(ErrorCode::InvalidInput, "parameter '" + name + "' must be one of: " + list);
    }
    }
    return {};
}

Expected<ParamValue> ParamSpec::parse(std::string_view text) const
{
    ParamValue value;
    const auto bad = [&](const char* expected) {
        return makeError(ErrorCode::InvalidInput,
                         "parameter '" + name + "': '" + std::string(text) + "' is not " + expected);
    };
    switch (type) {
    case ParamType::Int: {
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size() || text.empty())
            return bad("an integer");
        value = v;
        break;
    }
    case ParamType::Double: {
        double v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size() || text.empty())
            return bad("a number");
        value = v;
        break;
    }
    case ParamType::Bool:
        if (text == "true" || text == "1" || text == "yes" || text == "on")
            value = true;
        else if (text == "false" || text == "0" || text == "no" || text == "off")
            value = false;
        else
            return bad("true or false");
        break;
    case ParamType::Choice:
        value = std::string(text);
        break;
    }
    if (auto ok = check(value); !ok)
        return ok.error();
    return value;
}

ParamValues ParamValues::defaults(const std::vector<ParamSpec>& specs)
{
    ParamValues values;
    for (const auto& spec : specs)
        values.m_values[spec.name] = spec.defaultValue;
    return values;
}

Expected<ParamValues> ParamValues::parse(const std::vector<ParamSpec>& specs,
                                         const std::vector<std::string>& assignments)
{
    ParamValues values = defaults(specs);
    std::map<std::string, bool> seen;
    for (const auto& assignment : assignments) {
        const auto eq = assignment.find('=');
        if (eq == std::string::npos || eq == 0)
            return makeError(ErrorCode::InvalidInput, "parameter '" + assignment + "' is not of the form key=value");
        const std::string key = assignment.substr(0, eq);
        const ParamSpec* spec = nullptr;
        for (const auto& s : specs) {
            if (s.name == key)
                spec = &s;
        }
        if (!spec) {
            std::string known;
            for (const auto& s : specs)
                known += (known.empty() ? "" : ", ") + s.name;
            return makeError(ErrorCode::InvalidInput,
                             "unknown parameter '" + key + "'"
                                 + (known.empty() ? std::string(" (this algorithm has none)")
                                                  : " (known: " + known + ")"));
        }
        if (seen[key])
            return makeError(ErrorCode::InvalidInput, "parameter '" + key + "' is given twice");
        seen[key] = true;
        auto value = spec->parse(std::string_view(assignment).substr(eq + 1));
        if (!value)
            return value.error();
        values.m_values[key] = std::move(*value);
    }
    return values;
}

Expected<ParamValues> ParamValues::with(const std::vector<ParamSpec>& specs, ParamValues values,
                                        const std::string& name, const ParamValue& value)
{
    for (const auto& spec : specs) {
        if (spec.name != name)
            continue;
        if (auto ok = spec.check(value); !ok)
            return ok.error();
        values.m_values[name] = value;
        return values;
    }
    return makeError(ErrorCode::InvalidInput, "unknown parameter '" + name + "'");
}

ParamValues ParamValues::completed(const std::vector<ParamSpec>& specs) const
{
    ParamValues out = *this;
    for (const auto& spec : specs)
        out.m_values.try_emplace(spec.name, spec.defaultValue);
    return out;
}

Status ParamValues::validate(const std::vector<ParamSpec>& specs) const
{
    for (const auto& spec : specs) {
        const auto it = m_values.find(spec.name);
        if (it == m_values.end())
            return makeError(ErrorCode::InvalidInput, "parameter '" + spec.name + "' has no value");
        if (auto ok = spec.check(it->second); !ok)
            return ok.error();
    }
    return {};
}

std::int64_t ParamValues::integer(const std::string& name) const
{
    const auto it = m_values.find(name);
    assert(it != m_values.end() && std::holds_alternative<std::int64_t>(it->second));
    return std::get<std::int64_t>(it->second);
}

double ParamValues::real(const std::string& name) const
{
    const auto it = m_values.find(name);
    assert(it != m_values.end() && std::holds_alternative<double>(it->second));
    return std::get<double>(it->second);
}

bool ParamValues::flag(const std::string& name) const
{
    const auto it = m_values.find(name);
    assert(it != m_values.end() && std::holds_alternative<bool>(it->second));
    return std::get<bool>(it->second);
}

const std::string& ParamValues::choice(const std::string& name) const
{
    const auto it = m_values.find(name);
    assert(it != m_values.end() && std::holds_alternative<std::string>(it->second));
    return std::get<std::string>(it->second);
}

ParamValues ParamValues::fromStored(std::map<std::string, ParamValue> values)
{
    ParamValues out;
    out.m_values = std::move(values);
    return out;
}

std::string ParamValues::toString() const
{
    std::string out;
    for (const auto& [name, value] : m_values)
        out += (out.empty() ? "" : ", ") + name + "=" + paramValueToString(value);
    return out;
}

} // namespace meridian
