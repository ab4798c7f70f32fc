#include "app/collectives/collective_input.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>

namespace meridian::ops {

namespace {

std::string trimmed(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

} // namespace

Expected<double> parseByteSize(const std::string& text, const std::string& what)
{
    const std::string t = trimmed(text);
    std::size_t digits = 0;
    while (digits < t.size() && std::isdigit(static_cast<unsigned char>(t[digits])))
        ++digits;
    std::string unit = trimmed(t.substr(digits));
    std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::tolower(c); });
    struct Unit {
        const char* name;
        double factor;
    };
    static constexpr Unit kUnits[] = {
        {"", 1.0},    {"b", 1.0},      {"kb", 1e3},        {"mb", 1e6},           {"gb", 1e9},
        {"tb", 1e12}, {"kib", 1024.0}, {"mib", 1048576.0}, {"gib", 1073741824.0}, {"tib", 1099511627776.0},
    };
    const Unit* found = nullptr;
    for (const Unit& u : kUnits)
        if (unit == u.name)
            found = &u;
    if (digits == 0 || !found)
        return makeError(ErrorCode::InvalidInput,
                         what
                             + " needs a whole number of bytes, optionally with KB, MB, GB, TB or KiB, MiB, GiB, TiB, "
                               "not '"
                             + text + "'");
    // Leading zeros do not count; a number of more than 13 digits is above the limit in any unit (and would
    // lose digits as a double), so it is refused before it is converted.
    const std::size_t first = std::min(t.find_first_not_of('0'), digits);
    const std::string number = t.substr(first, digits - first);
    const double value = number.size() > 13 ? kMaxMessageBytes * 2.0
        : number.empty()                    ? 0.0
                                            : std::stod(number) * found->factor;
    if (value <= 0.0)
        return makeError(ErrorCode::InvalidInput, what + " must be a positive number of bytes, not '" + text + "'");
    if (value > kMaxMessageBytes)
        return makeError(ErrorCode::InvalidInput,
                         what + " '" + trimmed(text) + "' is above the largest message Meridian plans, 1 TiB ("
                             + std::to_string(static_cast<std::uint64_t>(kMaxMessageBytes)) + " bytes)");
    return value;
}

Expected<std::pair<double, double>> parseByteRange(const std::string& text)
{
    const auto colon = text.find(':');
    if (colon == std::string::npos)
        return makeError(ErrorCode::InvalidInput, "--sweep-bytes needs MIN:MAX, not '" + text + "'");
    auto low = parseByteSize(text.substr(0, colon), "--sweep-bytes MIN");
    if (!low)
        return low.error();
    auto high = parseByteSize(text.substr(colon + 1), "--sweep-bytes MAX");
    if (!high)
        return high.error();
    if (*high < *low)
        return makeError(ErrorCode::InvalidInput, "--sweep-bytes: MAX is below MIN in '" + text + "'");
    return std::pair{*low, *high};
}

Expected<std::vector<collectives::Algorithm>> parseAlgorithmList(const std::string& text)
{
    std::vector<collectives::Algorithm> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto comma = text.find(',', start);
        const std::string id = trimmed(
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        const auto a = collectives::parseAlgorithm(id);
        if (!a)
            return makeError(ErrorCode::InvalidInput,
                             "unknown algorithm '" + id
                                 + "'; the algorithms are flat, mst, bucket, chain, topology-chain, ring, "
                                   "recursive-doubling, rabenseifner, hierarchical, hypercube");
        if (std::find(out.begin(), out.end(), *a) == out.end())
            out.push_back(*a);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return out;
}

collectives::Layout layoutOf(const model::Placement& placement)
{
    collectives::Layout layout;
    layout.site = placement.site;
    const int hosts = placement.host.empty() ? 0 : *std::max_element(placement.host.begin(), placement.host.end()) + 1;
    layout.node.resize(placement.site.size());
    for (std::size_t r = 0; r < placement.site.size(); ++r) {
        const int h = r < placement.host.size() ? placement.host[r] : -1;
        // A process without a host is a node of its own.
        layout.node[r] = h >= 0 ? h : hosts + static_cast<int>(r);
    }
    return layout;
}

} // namespace meridian::ops
