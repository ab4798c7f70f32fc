#include "core/io/network_io.h"

#include "core/io/matrix_csv.h"
#include "core/io/matrix_market.h"
#include "core/io/text_file.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace meridian::io {

namespace {

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string quotedList(const std::vector<std::string>& names)
{
    std::string out;
    for (std::size_t k = 0; k < names.size(); ++k)
        out += (k ? ", " : "") + shown(names[k]);
    return out;
}

// Maps the names of a CSV axis to site indices. Names the project does not have are reported all at once,
// with the project's sites the file leaves out, so that a renamed or misspelt site is easy to spot.
Expected<std::vector<int>> matchSites(const std::vector<std::string>& names, const model::Topology& topology,
                                      const std::string& path, const std::vector<int>& lines, const std::string& axis)
{
    std::vector<int> index;
    std::set<int> seen;
    std::vector<std::string> extra;
    int firstExtraLine = 0;
    for (std::size_t k = 0; k < names.size(); ++k) {
        const auto& name = names[k];
        const int line = lines[std::min(k, lines.size() - 1)];
        const auto site = topology.siteIndex(name);
        if (!site) {
            if (extra.empty())
                firstExtraLine = line;
            extra.push_back(name);
            continue;
        }
        if (!seen.insert(*site).second)
            return parseError(path, line, 0, axis + " names site " + shown(name) + " twice");
        index.push_back(*site);
    }
    if (!extra.empty()) {
        std::vector<std::string> missing;
        for (int s = 0; s < topology.siteCount(); ++s)
            if (!seen.count(s))
                missing.push_back(topology.site(s).name);
        std::string message = axis + " names " + (extra.size() == 1 ? "a site" : "sites")
            + " the project does not have: " + quotedList(extra);
        if (!missing.empty())
            message += "; the project's sites not in the file: " + quotedList(missing);
        return parseError(path, firstExtraLine, 0, message);
    }
    return index;
}

} // namespace

Status readNetworkMatrix(const std::string& path, model::NetworkQuantity quantity, const model::Topology& topology,
                         model::Network& network)
{
    // The cells are checked against the quantity's physical range while read, so an error names its cell.
    const CellRule rule = quantity == model::NetworkQuantity::Latency ? CellRule::Latency : CellRule::Bandwidth;
    const int sites = topology.siteCount();
    model::Network updated = network;
    if (endsWith(path, ".mtx")) {
        auto m = readMatrixMarket(path, rule);
        if (!m)
            return m.error();
        if (m->rows != sites || m->columns != sites)
            return parseError(path, 2, 1,
                              "the matrix is " + std::to_string(m->rows) + " x " + std::to_string(m->columns)
                                  + " but the project has " + std::to_string(sites) + " sites");
        std::set<std::pair<int, int>> seen;
        for (const auto& e : m->entries) {
            if (!seen.insert({e.row, e.column}).second)
                return parseError(path, e.line, 1,
                                  "entry (" + std::to_string(e.row + 1) + ", " + std::to_string(e.column + 1)
                                      + ") is given twice");
            updated.set(quantity, e.row, e.column, e.value, model::Provenance::Measured);
        }
        network = std::move(updated);
        return {};
    }
    auto m = readMatrixCsv(path, rule, true);
    if (!m)
        return m.error();
    std::vector<int> rowSite, colSite;
    if (!m->rowNames.empty()) {
        auto r = matchSites(m->rowNames, topology, path, m->rowLines, "the first column");
        if (!r)
            return r.error();
        rowSite = std::move(*r);
    }
    if (!m->columnNames.empty()) {
        auto c = matchSites(m->columnNames, topology, path, {m->headerLine}, "the header");
        if (!c)
            return c.error();
        colSite = std::move(*c);
    }
    if (rowSite.empty() && colSite.empty()) {
        if (m->size != sites)
            return parseError(path, m->rowLines.back(), 1,
                              "the matrix is " + std::to_string(m->size) + " x " + std::to_string(m->size)
                                  + " but the project has " + std::to_string(sites)
                                  + " sites (add site names to match a subset)");
        for (int i = 0; i < sites; ++i)
            rowSite.push_back(i);
    }
    if (rowSite.empty())
        rowSite = colSite;
    if (colSite.empty())
        colSite = rowSite;
    if (std::set<int>(rowSite.begin(), rowSite.end()) != std::set<int>(colSite.begin(), colSite.end()))
        return parseError(path, m->headerLine ? m->headerLine : 1, 1,
                          "the header and the first column name different sites");
    for (int r = 0; r < m->size; ++r)
        for (int c = 0; c < m->size; ++c) {
            const double v = m->values[static_cast<std::size_t>(r) * m->size + c];
            if (!std::isnan(v))
                updated.set(quantity, rowSite[r], colSite[c], v, model::Provenance::Measured);
        }
    network = std::move(updated);
    return {};
}

Status writeNetworkMatrixCsv(const std::string& path, model::NetworkQuantity quantity, const model::Topology& topology,
                             const model::Network& network)
{
    std::vector<std::string> names;
    for (const auto& s : topology.sites())
        names.push_back(s.name);
    return writeMatrixCsv(path, names,
                          quantity == model::NetworkQuantity::Latency ? network.latencyMs() : network.bandwidthMBps());
}

} // namespace meridian::io
