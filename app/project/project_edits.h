#pragma once

#include "app/project/project.h"
#include "core/common/expected.h"
#include "core/io/probe_results.h"

#include <cstdint>
#include <string>
#include <vector>

namespace meridian::document {

/// Edits of a project's inputs as plain functions: each takes a project, returns the edited copy or an
/// error naming what is wrong, and never leaves a half-edited project behind. The document wraps them
/// in undo commands; `meridian-cli project` calls the same functions, so both refuse the same input with the
/// same message.

/// Site fields that can be edited one at a time (the site table's columns).
enum class SiteField { Name, Latitude, Longitude, Nodes, SlotsPerNode, Uplink, Downlink, Egress, InstancePrice };

/// Replaces the sites. The network keeps its entries for sites kept (matched by position in
/// `oldIndexOf`, -1 for a new site), host links are kept where both hosts still exist (by name), and
/// pins to removed sites are dropped.
Expected<Project> withSites(const Project& project, std::vector<model::Site> sites, const std::vector<int>& oldIndexOf);
/// Sets one field of one site; a value of NaN clears an optional quantity (bandwidths, price).
Expected<Project> withSiteField(const Project& project, int site, SiteField field, const std::string& text);
/// Moves a site to a position (degrees; longitude is wrapped into [-180, 180]).
Expected<Project> withSitePosition(const Project& project, int site, double latitude, double longitude);
/// Adds a site with one node of one slot and unknown bandwidths; the name must be new.
Expected<Project> withAddedSite(const Project& project, const std::string& name, double latitude, double longitude);
/// Removes a site, its network row and column, its host links and the pins to it.
Expected<Project> withoutSite(const Project& project, int site);
/// Replaces all sites by imported ones (positions matched by name keep their network entries).
Expected<Project> withImportedSites(const Project& project, std::vector<model::Site> sites);
/// Replaces the hosts of every site by those of `sites` (the same sites in the same order, as
/// io::readHostsCsv returns them). Network entries and host links between hosts still present are kept;
/// pins must still fit the new capacities.
Expected<Project> withHosts(const Project& project, std::vector<model::Site> sites);
/// Renames a host or changes its slot count (`field` 0 = name, 1 = slots).
Expected<Project> withHostField(const Project& project, int host, int field, const std::string& text);
/// Sets one network entry as edited; an empty text clears it (it is then estimated). With `bothDirections`
/// the reverse entry (to -> from) gets the same value.
Expected<Project> withNetworkEntry(const Project& project, model::NetworkQuantity quantity, int from, int to,
                                   const std::string& text, bool bothDirections = false);
/// Sets the latency (ms) and bandwidth (MB/s) of one site pair as measured on `measuredAt` (one link's
/// measurement, as NetPIPE gives it; 0 when the date is unknown); with `bothDirections` the reverse pair gets
/// the same values.
Expected<Project> withMeasuredLink(const Project& project, int from, int to, double latencyMs, double bandwidthMBps,
                                   bool bothDirections, model::MeasuredAt measuredAt = 0);
/// A probe's results applied to a project, and what they set.
struct ProbeImport {
    Project project;
    bool bySite = false; ///< the probe's groups were the project's sites (else its hosts)
    int siteEntries = 0; ///< site pairs set (latency and bandwidth each)
    int hostLinks = 0;   ///< host links set
};
/// Applies a meridian-probe run: every pair it measured becomes a measured entry dated by the probe; pairs it
/// did not measure keep their values. When the probe's groups are the project's sites the site entries are
/// set; when they are its hosts, each host pair becomes a host link and each site pair the median of its host
/// pairs. Names that are neither are an error naming them, and nothing is applied. Adds a line to the
/// project's sources saying what was measured.
Expected<ProbeImport> withProbeResults(const Project& project, const io::ProbeResults& probe);
/// Sets a block of network entries from text cells (a spreadsheet paste), the top-left cell at (row, column);
/// an empty cell clears its entry. A cell that is not a valid value, or a block that runs past the last site,
/// is an error naming the cell; nothing is applied then.
Expected<Project> withNetworkBlock(const Project& project, model::NetworkQuantity quantity, int row, int column,
                                   const std::vector<std::vector<std::string>>& cells);
/// Replaces one quantity of the network by the entries of `source` (a network over the same sites): entries
/// it has become measured, the others missing (estimated). The other quantity and host links are kept.
Expected<Project> withNetworkQuantity(const Project& project, model::NetworkQuantity quantity,
                                      const model::Network& source);
/// Adds an application; its name must be non-empty and new, and its pins must fit its processes and the sites.
Expected<Project> withApplication(const Project& project, Application application);
/// Renames an application; the new name must be non-empty and not used by another. Its sidecar files keep
/// their names.
Expected<Project> withRenamedApplication(const Project& project, int application, const std::string& name);
/// Adds a copy of an application (matrices and pins) under a new name, with sidecar files of its own.
Expected<Project> withDuplicatedApplication(const Project& project, int application, const std::string& name);
/// Attaches a trace (already checked against the application's matrix: io::readApplicationTrace) to an application,
/// or with null detaches it; its rank count must be the application's process count.
Expected<Project> withTrace(const Project& project, int application, std::shared_ptr<const io::StoredTrace> trace);
/// Removes an application.
Expected<Project> withoutApplication(const Project& project, int application);
/// Returns `base`, or "base (2)", "base (3)", ... : the first name no application of the project has.
std::string unusedApplicationName(const Project& project, const std::string& base);
/// Adds a graph, or replaces the graph of the same name (a re-import); its name must not be an application's.
Expected<Project> withGraph(const Project& project, GraphInput graph);
/// Removes a graph (its files stay where they are).
Expected<Project> withoutGraph(const Project& project, const std::string& name);
/// Sets a communication matrix entry (bytes or messages) of an application; 0 removes the pair. The application's
/// trace is dropped: it no longer describes the matrix.
Expected<Project> withCommEntry(const Project& project, int application, bool messages, int from, int to, double value);
/// Pins a process to a site, or unpins it with site = -1.
Expected<Project> withPin(const Project& project, int application, int process, int site);
/// Replaces the pins of an application.
Expected<Project> withPins(const Project& project, int application, model::Constraints pins);

/// Returns a 64-bit fingerprint of everything a mapping run of an application depends on: the sites (positions,
/// which drive estimated network entries, bandwidths and prices) and hosts, the network with provenance and
/// measurement dates (a newer measurement makes runs on the older one stale even when the values agree), the
/// application's matrices, its pins and its trace. Equal inputs give equal fingerprints; O(size of inputs). A run
/// whose fingerprint differs from the current one is stale.
/// For a graph's name, the fingerprint of a partition run's inputs: the sites' names, WAN bandwidths and
/// prices, and the graph and homes files (by checksum) with the homes seed.
std::uint64_t inputFingerprint(const Project& project, const std::string& application);

} // namespace meridian::document
