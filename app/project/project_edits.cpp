#include "app/project/project_edits.h"

#include "core/common/utc_date.h"
#include "core/io/text_file.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace meridian::document {

namespace {

Error invalid(std::string message) { return makeError(ErrorCode::InvalidInput, std::move(message)); }

// Parses a whole string as a finite double (leading/trailing blanks allowed).
std::optional<double> parseNumber(const std::string& text)
{
    std::size_t b = text.find_first_not_of(" \t");
    std::size_t e = text.find_last_not_of(" \t");
    if (b == std::string::npos)
        return std::nullopt;
    double v = 0.0;
    const char* first = text.data() + b;
    const char* last = text.data() + e + 1;
    auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr != last || !std::isfinite(v))
        return std::nullopt;
    return v;
}

bool isBlank(const std::string& text) { return text.find_first_not_of(" \t") == std::string::npos; }

std::vector<model::Site> sitesWithHosts(const model::Topology& topology)
{
    // Topology::create fills in default hosts; keep them explicit only where the input listed them, which
    // we cannot tell apart afterwards, so hosts are always carried explicitly from here on.
    std::vector<model::Site> sites = topology.sites();
    for (int s = 0; s < topology.siteCount(); ++s) {
        sites[s].hosts.clear();
        for (int h = topology.firstHost(s); h < topology.firstHost(s) + topology.hostCountOf(s); ++h)
            sites[s].hosts.push_back(topology.host(h));
    }
    return sites;
}

// Regenerates the default hosts of a site after its node or slot count changed.
void resetHosts(model::Site& site)
{
    site.hosts.clear();
    for (int k = 0; k < site.nodes; ++k)
        site.hosts.push_back({model::Topology::defaultHostName(site.name, k, site.nodes), site.slotsPerNode});
}

} // namespace

Expected<Project> withSites(const Project& project, std::vector<model::Site> sites, const std::vector<int>& oldIndexOf)
{
    auto topology = model::Topology::create(std::move(sites));
    if (!topology)
        return topology.error();
    Project out = project;
    const int n = topology->siteCount();
    model::Network network(n);
    for (auto q : {model::NetworkQuantity::Latency, model::NetworkQuantity::Bandwidth})
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                const int oi = oldIndexOf[i], oj = oldIndexOf[j];
                if (oi < 0 || oj < 0)
                    continue;
                const auto p = project.network.provenance(q, oi, oj);
                if (p != model::Provenance::Missing && p != model::Provenance::Estimated)
                    network.set(q, i, j, project.network.value(q, oi, oj), p, project.network.measuredAt(q, oi, oj));
            }
    for (const auto& [pair, link] : project.network.hostLinks()) {
        const auto a = topology->hostIndex(project.topology.host(pair.first).name);
        const auto b = topology->hostIndex(project.topology.host(pair.second).name);
        if (a && b)
            network.setHostLink(*a, *b, link);
    }
    std::vector<int> newIndexOf(project.topology.siteCount(), -1);
    for (int i = 0; i < n; ++i)
        if (oldIndexOf[i] >= 0)
            newIndexOf[oldIndexOf[i]] = i;
    for (auto& app : out.applications) {
        std::vector<model::Pin> pins;
        for (const auto& pin : app.pins.pins())
            if (newIndexOf[pin.site] >= 0)
                pins.push_back({pin.process, newIndexOf[pin.site]});
        auto constraints = model::Constraints::fromPins(std::move(pins));
        if (!constraints)
            return constraints.error();
        if (auto s = constraints->validate(app.comm.processCount(), *topology); !s)
            return prefixedBy("application '" + app.name + "'")(s.error());
        app.pins = std::move(*constraints);
    }
    out.topology = std::move(*topology);
    out.network = std::move(network);
    return out;
}

namespace {

std::vector<int> identity(int n)
{
    std::vector<int> v(n);
    for (int i = 0; i < n; ++i)
        v[i] = i;
    return v;
}

} // namespace

Expected<Project> withSiteField(const Project& project, int site, SiteField field, const std::string& text)
{
    if (site < 0 || site >= project.topology.siteCount())
        return invalid("no site " + std::to_string(site));
    auto sites = sitesWithHosts(project.topology);
    auto& s = sites[site];
    if (field == SiteField::Name) {
        if (isBlank(text))
            return invalid("a site needs a name");
        const std::string oldName = s.name;
        s.name = text;
        // Hosts that carry the default names follow the site's new name.
        for (int k = 0; k < static_cast<int>(s.hosts.size()); ++k)
            if (s.hosts[k].name == model::Topology::defaultHostName(oldName, k, static_cast<int>(s.hosts.size())))
                s.hosts[k].name = model::Topology::defaultHostName(s.name, k, static_cast<int>(s.hosts.size()));
        return withSites(project, std::move(sites), identity(project.topology.siteCount()));
    }
    const bool optional = field == SiteField::Uplink || field == SiteField::Downlink || field == SiteField::Egress
        || field == SiteField::InstancePrice;
    double value = model::Site::kUnknown;
    if (!(optional && isBlank(text))) {
        auto v = parseNumber(text);
        if (!v)
            return invalid("'" + text + "' is not a number");
        value = *v;
    }
    switch (field) {
    case SiteField::Latitude:
        s.latitude = value;
        break;
    case SiteField::Longitude:
        s.longitude = value;
        break;
    case SiteField::Nodes:
    case SiteField::SlotsPerNode: {
        if (value != std::floor(value) || value < 1 || value > 1e6)
            return invalid("'" + text + "' is not a whole number between 1 and 1000000");
        // The table shows the first host's slots and the host count: start from what is shown.
        if (!s.hosts.empty()) {
            s.slotsPerNode = s.hosts.front().slots;
            s.nodes = static_cast<int>(s.hosts.size());
        }
        (field == SiteField::Nodes ? s.nodes : s.slotsPerNode) = static_cast<int>(value);
        resetHosts(s);
        break;
    }
    case SiteField::Uplink:
        s.uplinkMBps = value;
        break;
    case SiteField::Downlink:
        s.downlinkMBps = value;
        break;
    case SiteField::Egress:
        s.egressUsdPerGB = value;
        break;
    case SiteField::InstancePrice:
        s.instanceUsdPerHour = value;
        break;
    case SiteField::Name:
        break;
    }
    return withSites(project, std::move(sites), identity(project.topology.siteCount()));
}

Expected<Project> withSitePosition(const Project& project, int site, double latitude, double longitude)
{
    if (site < 0 || site >= project.topology.siteCount())
        return invalid("no site " + std::to_string(site));
    if (!std::isfinite(latitude) || !std::isfinite(longitude))
        return invalid("the position is not a number");
    auto sites = sitesWithHosts(project.topology);
    sites[site].latitude = std::clamp(latitude, -90.0, 90.0);
    sites[site].longitude = std::remainder(longitude, 360.0);
    if (sites[site].longitude < -180.0)
        sites[site].longitude = -180.0;
    return withSites(project, std::move(sites), identity(project.topology.siteCount()));
}

Expected<Project> withAddedSite(const Project& project, const std::string& name, double latitude, double longitude)
{
    if (project.topology.siteIndex(name))
        return invalid("a site named '" + name + "' already exists");
    auto sites = sitesWithHosts(project.topology);
    model::Site site;
    site.name = name;
    site.latitude = std::clamp(latitude, -90.0, 90.0);
    site.longitude = std::clamp(std::remainder(longitude, 360.0), -180.0, 180.0);
    resetHosts(site);
    sites.push_back(std::move(site));
    auto map = identity(project.topology.siteCount());
    map.push_back(-1);
    return withSites(project, std::move(sites), map);
}

Expected<Project> withoutSite(const Project& project, int site)
{
    if (site < 0 || site >= project.topology.siteCount())
        return invalid("no site " + std::to_string(site));
    auto sites = sitesWithHosts(project.topology);
    sites.erase(sites.begin() + site);
    auto map = identity(project.topology.siteCount());
    map.erase(map.begin() + site);
    return withSites(project, std::move(sites), map);
}

Expected<Project> withImportedSites(const Project& project, std::vector<model::Site> sites)
{
    std::vector<int> map;
    map.reserve(sites.size());
    for (const auto& s : sites)
        map.push_back(project.topology.siteIndex(s.name).value_or(-1));
    return withSites(project, std::move(sites), map);
}

Expected<Project> withHosts(const Project& project, std::vector<model::Site> sites)
{
    if (static_cast<int>(sites.size()) != project.topology.siteCount())
        return invalid("expected " + std::to_string(project.topology.siteCount()) + " sites, got "
                       + std::to_string(sites.size()));
    for (int s = 0; s < project.topology.siteCount(); ++s)
        if (sites[s].name != project.topology.site(s).name)
            return invalid("site " + std::to_string(s) + " is '" + sites[s].name + "', expected '"
                           + project.topology.site(s).name + "'");
    return withSites(project, std::move(sites), identity(project.topology.siteCount()));
}

Expected<Project> withHostField(const Project& project, int host, int field, const std::string& text)
{
    if (host < 0 || host >= project.topology.hostCount())
        return invalid("no host " + std::to_string(host));
    auto sites = sitesWithHosts(project.topology);
    const int site = project.topology.siteOfHost(host);
    auto& h = sites[site].hosts[host - project.topology.firstHost(site)];
    if (field == 0) {
        if (isBlank(text))
            return invalid("a host needs a name");
        h.name = text;
    } else {
        auto v = parseNumber(text);
        if (!v || *v != std::floor(*v) || *v < 1 || *v > 1e6)
            return invalid("'" + text + "' is not a whole number of slots between 1 and 1000000");
        h.slots = static_cast<int>(*v);
    }
    // Keep the site's summary counts consistent with its hosts.
    sites[site].nodes = static_cast<int>(sites[site].hosts.size());
    auto out = withSites(project, std::move(sites), identity(project.topology.siteCount()));
    if (!out)
        return out;
    // Host indices did not move, so host links survive even through a rename.
    out->network = project.network;
    return out;
}

Expected<Project> withMeasuredLink(const Project& project, int from, int to, double latencyMs, double bandwidthMBps,
                                   bool bothDirections, model::MeasuredAt measuredAt)
{
    const int n = project.topology.siteCount();
    if (from < 0 || to < 0 || from >= n || to >= n)
        return invalid("no site pair (" + std::to_string(from) + ", " + std::to_string(to) + ")");
    if (!model::isValidNetworkValue(model::NetworkQuantity::Latency, latencyMs)
        || !model::isValidNetworkValue(model::NetworkQuantity::Bandwidth, bandwidthMBps))
        return invalid("a measured link needs " + model::networkValueRange(model::NetworkQuantity::Latency) + " and "
                       + model::networkValueRange(model::NetworkQuantity::Bandwidth));
    Project out = project;
    for (const auto& [a, b] : {std::pair{from, to}, std::pair{to, from}}) {
        out.network.set(model::NetworkQuantity::Latency, a, b, latencyMs, model::Provenance::Measured, measuredAt);
        out.network.set(model::NetworkQuantity::Bandwidth, a, b, bandwidthMBps, model::Provenance::Measured, measuredAt);
        if (!bothDirections)
            break;
    }
    return out;
}

Expected<Project> withNetworkEntry(const Project& project, model::NetworkQuantity quantity, int from, int to,
                                   const std::string& text, bool bothDirections)
{
    const int n = project.topology.siteCount();
    if (from < 0 || to < 0 || from >= n || to >= n)
        return invalid("no site pair (" + std::to_string(from) + ", " + std::to_string(to) + ")");
    Project out = project;
    if (isBlank(text)) {
        out.network.clear(quantity, from, to);
        if (bothDirections)
            out.network.clear(quantity, to, from);
        return out;
    }
    auto v = parseNumber(text);
    if (!v || !model::isValidNetworkValue(quantity, *v))
        return invalid("'" + text + "' is not " + model::networkValueRange(quantity));
    out.network.set(quantity, from, to, *v, model::Provenance::Edited);
    if (bothDirections)
        out.network.set(quantity, to, from, *v, model::Provenance::Edited);
    return out;
}

Expected<Project> withNetworkBlock(const Project& project, model::NetworkQuantity quantity, int row, int column,
                                   const std::vector<std::vector<std::string>>& cells)
{
    const int n = project.topology.siteCount();
    Project out = project;
    for (std::size_t r = 0; r < cells.size(); ++r)
        for (std::size_t c = 0; c < cells[r].size(); ++c) {
            const int from = row + static_cast<int>(r), to = column + static_cast<int>(c);
            if (from >= n || to >= n)
                return invalid("the pasted block is " + std::to_string(cells.size()) + " rows by "
                               + std::to_string(cells[r].size()) + " columns and runs past the last site ("
                               + std::to_string(n) + " sites)");
            auto edited = withNetworkEntry(out, quantity, from, to, cells[r][c]);
            if (!edited)
                return invalid("pasted row " + std::to_string(r + 1) + ", column " + std::to_string(c + 1) + " ("
                               + project.topology.site(from).name + " -> " + project.topology.site(to).name
                               + "): " + edited.error().message);
            out = std::move(*edited);
        }
    return out;
}

Expected<Project> withNetworkQuantity(const Project& project, model::NetworkQuantity quantity,
                                      const model::Network& source)
{
    const int n = project.topology.siteCount();
    if (source.siteCount() != n)
        return invalid("the matrix has " + std::to_string(source.siteCount()) + " sites but the project has "
                       + std::to_string(n));
    Project out = project;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            if (source.provenance(quantity, i, j) == model::Provenance::Missing)
                out.network.clear(quantity, i, j);
            else
                out.network.set(quantity, i, j, source.value(quantity, i, j), model::Provenance::Measured,
                                source.measuredAt(quantity, i, j));
        }
    return out;
}

namespace {

double median(std::vector<double> values)
{
    const auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), mid, values.end());
    if (values.size() % 2 == 1)
        return *mid;
    return (*mid + *std::max_element(values.begin(), mid)) / 2;
}

std::string probeSource(const io::ProbeResults& probe)
{
    return "network measured by meridian-probe on " + formatUtcDate(probe.measuredAt) + ": "
        + std::to_string(probe.participants) + (probe.perRank ? " ranks" : " hosts") + ", latency of "
        + std::to_string(probe.smallBytes) + " B x " + std::to_string(probe.smallRepetitions) + ", bandwidth of "
        + std::to_string(probe.largeBytes) + " B x " + std::to_string(probe.largeRepetitions) + " (medians)";
}

} // namespace

Expected<ProbeImport> withProbeResults(const Project& project, const io::ProbeResults& probe)
{
    const auto& topo = project.topology;
    const int m = static_cast<int>(probe.names.size());
    std::vector<int> sites(m, -1), hosts(m, -1);
    std::vector<std::string> unknown;
    bool allSites = true, allHosts = true;
    for (int k = 0; k < m; ++k) {
        if (auto s = topo.siteIndex(probe.names[k]))
            sites[k] = *s;
        else
            allSites = false;
        if (auto h = topo.hostIndex(probe.names[k]))
            hosts[k] = *h;
        else
            allHosts = false;
        if (sites[k] < 0 && hosts[k] < 0)
            unknown.push_back(probe.names[k]);
    }
    if (!allSites && !allHosts) {
        std::string names;
        for (std::size_t k = 0; k < unknown.size() && k < 5; ++k)
            names += (k ? ", " : "") + io::shown(unknown[k]);
        if (unknown.size() > 5)
            names += " and " + std::to_string(unknown.size() - 5) + " more";
        return invalid(probe.prefix + ": the probe measured " + names
                       + (unknown.empty() ? ", a mix of site and host names"
                                          : ", which the project has neither as a site nor as a host")
                       + "; give meridian-probe --sites with a host,site line for each host to measure between the "
                         "project's sites");
    }
    ProbeImport out;
    out.project = project;
    auto& network = out.project.network;
    const auto setSite = [&](int a, int b, double latency, double bandwidth) {
        network.set(model::NetworkQuantity::Latency, a, b, latency, model::Provenance::Measured, probe.measuredAt);
        network.set(model::NetworkQuantity::Bandwidth, a, b, bandwidth, model::Provenance::Measured, probe.measuredAt);
        ++out.siteEntries;
    };
    if (allSites) {
        out.bySite = true;
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < m; ++j)
                if (!std::isnan(probe.latencyMs(i, j)))
                    setSite(sites[i], sites[j], probe.latencyMs(i, j), probe.bandwidthMBps(i, j));
    } else {
        // Host pairs become host links; each site pair gets the median of its host pairs, as the probe's
        // own --sites aggregation does.
        const int n = topo.siteCount();
        std::vector<std::vector<double>> latency(static_cast<std::size_t>(n) * n), bandwidth(latency.size());
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < m; ++j) {
                if (i == j || std::isnan(probe.latencyMs(i, j)))
                    continue;
                model::HostLink link;
                link.latencyMs = probe.latencyMs(i, j);
                link.bandwidthMBps = probe.bandwidthMBps(i, j);
                link.provenance = model::Provenance::Measured;
                link.measuredAt = probe.measuredAt;
                network.setHostLink(hosts[i], hosts[j], link);
                ++out.hostLinks;
                const auto cell = static_cast<std::size_t>(topo.siteOfHost(hosts[i])) * n + topo.siteOfHost(hosts[j]);
                latency[cell].push_back(link.latencyMs);
                bandwidth[cell].push_back(link.bandwidthMBps);
            }
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b) {
                const auto cell = static_cast<std::size_t>(a) * n + b;
                if (!latency[cell].empty())
                    setSite(a, b, median(latency[cell]), median(bandwidth[cell]));
            }
    }
    if (out.siteEntries == 0 && out.hostLinks == 0)
        return invalid(probe.prefix + ": the probe measured no pair");
    out.project.sources.push_back(probeSource(probe));
    return out;
}

namespace {

Status checkApplicationName(const Project& project, const std::string& name, int except)
{
    if (isBlank(name))
        return invalid("an application needs a name");
    const int existing = project.applicationIndex(name);
    if (existing >= 0 && existing != except)
        return invalid("the project already has an application named '" + name + "'");
    if (project.graphIndex(name) >= 0)
        return invalid("the project already has a graph named '" + name + "'");
    return {};
}

} // namespace

Expected<Project> withApplication(const Project& project, Application application)
{
    if (auto s = checkApplicationName(project, application.name, -1); !s)
        return s.error();
    if (application.comm.processCount() < 1)
        return invalid("application '" + application.name + "' has no process");
    if (auto s = application.pins.validate(application.comm.processCount(), project.topology); !s)
        return invalid("application '" + application.name + "': " + s.error().message);
    Project out = project;
    out.applications.push_back(std::move(application));
    return out;
}

Expected<Project> withRenamedApplication(const Project& project, int application, const std::string& name)
{
    if (application < 0 || application >= static_cast<int>(project.applications.size()))
        return invalid("no application " + std::to_string(application));
    if (auto s = checkApplicationName(project, name, application); !s)
        return s.error();
    Project out = project;
    out.applications[application].name = name;
    return out;
}

Expected<Project> withDuplicatedApplication(const Project& project, int application, const std::string& name)
{
    if (application < 0 || application >= static_cast<int>(project.applications.size()))
        return invalid("no application " + std::to_string(application));
    Application copy = project.applications[application];
    copy.name = name;
    copy.volumeFile.clear();
    copy.messagesFile.clear();
    copy.pinsFile.clear();
    copy.traceFile.clear();
    return withApplication(project, std::move(copy));
}

Expected<Project> withTrace(const Project& project, int application, std::shared_ptr<const io::StoredTrace> trace)
{
    if (application < 0 || application >= static_cast<int>(project.applications.size()))
        return invalid("no application " + std::to_string(application));
    const auto& app = project.applications[application];
    if (trace && trace->ranks != app.comm.processCount())
        return invalid("the trace has " + std::to_string(trace->ranks) + " ranks and the application '" + app.name
                       + "' " + std::to_string(app.comm.processCount()) + " processes");
    Project out = project;
    out.applications[application].trace = std::move(trace);
    return out;
}

Expected<Project> withoutApplication(const Project& project, int application)
{
    if (application < 0 || application >= static_cast<int>(project.applications.size()))
        return invalid("no application " + std::to_string(application));
    Project out = project;
    out.applications.erase(out.applications.begin() + application);
    return out;
}

std::string unusedApplicationName(const Project& project, const std::string& base)
{
    std::string name = base;
    for (int k = 2; project.applicationIndex(name) >= 0 || project.graphIndex(name) >= 0; ++k)
        name = base + " (" + std::to_string(k) + ")";
    return name;
}

Expected<Project> withGraph(const Project& project, GraphInput graph)
{
    if (isBlank(graph.name))
        return invalid("a graph needs a name");
    if (project.applicationIndex(graph.name) >= 0)
        return invalid("the project already has an application named '" + graph.name + "'");
    Project out = project;
    const int existing = out.graphIndex(graph.name);
    if (existing >= 0)
        out.graphs[existing] = std::move(graph);
    else
        out.graphs.push_back(std::move(graph));
    return out;
}

Expected<Project> withoutGraph(const Project& project, const std::string& name)
{
    const int g = project.graphIndex(name);
    if (g < 0)
        return invalid("the project has no graph '" + name + "'");
    Project out = project;
    out.graphs.erase(out.graphs.begin() + g);
    return out;
}

Expected<Project> withCommEntry(const Project& project, int application, bool messages, int from, int to, double value)
{
    if (application < 0 || application >= static_cast<int>(project.applications.size()))
        return invalid("no application " + std::to_string(application));
    if (!std::isfinite(value) || value < 0)
        return invalid("a communication entry must be a finite number >= 0");
    const auto& comm = project.applications[application].comm;
    auto entries = comm.entries();
    bool found = false;
    for (auto& e : entries)
        if (e.from == from && e.to == to) {
            (messages ? e.messages : e.bytes) = value;
            found = true;
        }
    if (!found) {
        model::CommEntry e{from, to, 0.0, 0.0};
        (messages ? e.messages : e.bytes) = value;
        entries.push_back(e);
    }
    std::erase_if(entries, [](const model::CommEntry& e) { return e.bytes == 0 && e.messages == 0; });
    auto matrix = model::CommMatrix::fromEntries(comm.processCount(), entries, comm.hasMessages() || messages);
    if (!matrix)
        return matrix.error();
    Project out = project;
    out.applications[application].comm = std::move(*matrix);
    // The trace no longer describes the edited matrix: the prediction falls back to the bulk-synchronous model.
    out.applications[application].trace.reset();
    out.applications[application].traceFile.clear();
    return out;
}

Expected<Project> withPins(const Project& project, int application, model::Constraints pins)
{
    if (application < 0 || application >= static_cast<int>(project.applications.size()))
        return invalid("no application " + std::to_string(application));
    const auto& app = project.applications[application];
    if (auto s = pins.validate(app.comm.processCount(), project.topology); !s)
        return s.error();
    Project out = project;
    out.applications[application].pins = std::move(pins);
    return out;
}

Expected<Project> withPin(const Project& project, int application, int process, int site)
{
    if (application < 0 || application >= static_cast<int>(project.applications.size()))
        return invalid("no application " + std::to_string(application));
    std::vector<model::Pin> pins;
    for (const auto& pin : project.applications[application].pins.pins())
        if (pin.process != process)
            pins.push_back(pin);
    if (site >= 0)
        pins.push_back({process, site});
    return model::Constraints::fromPins(std::move(pins)).and_then([&](model::Constraints&& constraints) {
        return withPins(project, application, std::move(constraints));
    });
}

namespace {

class Fnv {
public:
    void bytes(const void* data, std::size_t size)
    {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < size; ++i) {
            m_hash ^= p[i];
            m_hash *= 1099511628211ull;
        }
    }
    template <typename T>
    void value(const T& v)
    {
        bytes(&v, sizeof v);
    }
    void text(const std::string& s)
    {
        value(s.size());
        bytes(s.data(), s.size());
    }
    std::uint64_t hash() const { return m_hash; }

private:
    std::uint64_t m_hash = 1469598103934665603ull;
};

// A partition run depends on the sites' names, WAN bandwidths and prices (Geo-Cut's model has no latency and
// no hosts) and on the graph and homes files as imported.
std::uint64_t graphFingerprint(const Project& project, const GraphInput& graph)
{
    Fnv h;
    h.text("graph");
    for (const auto& s : project.topology.sites()) {
        h.text(s.name);
        for (double v : {s.uplinkMBps, s.downlinkMBps, s.egressUsdPerGB})
            h.value(v);
    }
    h.text(graph.path);
    h.value(graph.format);
    h.value(graph.checksum);
    h.text(graph.homesPath);
    h.value(graph.homesChecksum);
    h.value(graph.homesSeed);
    return h.hash();
}

} // namespace

std::uint64_t inputFingerprint(const Project& project, const std::string& application)
{
    if (const int g = project.graphIndex(application); g >= 0)
        return graphFingerprint(project, project.graphs[g]);
    Fnv h;
    const auto& t = project.topology;
    for (const auto& s : t.sites()) {
        h.text(s.name);
        for (double v : {s.latitude, s.longitude, s.uplinkMBps, s.downlinkMBps, s.egressUsdPerGB, s.instanceUsdPerHour})
            h.value(v);
    }
    for (int k = 0; k < t.hostCount(); ++k) {
        h.text(t.host(k).name);
        h.value(t.host(k).slots);
        h.value(t.siteOfHost(k));
    }
    const auto& n = project.network;
    for (auto q : {model::NetworkQuantity::Latency, model::NetworkQuantity::Bandwidth})
        for (int i = 0; i < n.siteCount(); ++i)
            for (int j = 0; j < n.siteCount(); ++j) {
                const auto p = n.provenance(q, i, j);
                h.value(p);
                if (p != model::Provenance::Missing)
                    h.value(n.value(q, i, j));
                // A newer measurement makes runs on the older one stale even when the values agree.
                h.value(n.measuredAt(q, i, j));
            }
    for (const auto& [pair, link] : n.hostLinks()) {
        h.value(pair);
        h.value(link.latencyMs);
        h.value(link.bandwidthMBps);
        h.value(link.provenance);
        h.value(link.measuredAt);
    }
    const int a = project.applicationIndex(application);
    h.value(a);
    if (a >= 0) {
        const auto& app = project.applications[a];
        const auto& v = app.comm.volume();
        h.value(app.comm.processCount());
        h.bytes(v.outerIndexPtr(), sizeof(int) * (v.outerSize() + 1));
        h.bytes(v.innerIndexPtr(), sizeof(int) * v.nonZeros());
        h.bytes(v.valuePtr(), sizeof(double) * v.nonZeros());
        h.bytes(app.comm.messages().valuePtr(), sizeof(double) * app.comm.messages().nonZeros());
        for (const auto& pin : app.pins.pins()) {
            h.value(pin.process);
            h.value(pin.site);
        }
        // A trace changes the predicted time; an application without one keeps the fingerprint it had before
        // traces existed.
        if (app.trace)
            h.text(app.trace->text);
    }
    return h.hash();
}

} // namespace meridian::document
