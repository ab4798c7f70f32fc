#pragma once

#include "app/document/project.h"
#include "core/common/expected.h"

#include <cstdint>
#include <string>
#include <vector>

namespace meridian::document {

/// Edits of a project's inputs as plain functions: each takes a project, returns the edited copy or an
/// error naming what is wrong, and never leaves a half-edited project behind. The document wraps them
/// in undo commands.

/// Site fields that can be edited one at a time (the site table's columns).
enum class SiteField { Name, Latitude, Longitude, Nodes, SlotsPerNode, Uplink, Downlink, Egress };

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
/// Renames a host or changes its slot count (`field` 0 = name, 1 = slots).
Expected<Project> withHostField(const Project& project, int host, int field, const std::string& text);
/// Sets one network entry as edited; an empty text clears it (it is then estimated).
Expected<Project> withNetworkEntry(const Project& project, model::NetworkQuantity quantity, int from, int to,
                                   const std::string& text);
/// Sets a communication matrix entry (bytes or messages) of an application; 0 removes the pair.
Expected<Project> withCommEntry(const Project& project, int application, bool messages, int from, int to, double value);
/// Pins a process to a site, or unpins it with site = -1.
Expected<Project> withPin(const Project& project, int application, int process, int site);
/// Replaces the pins of an application.
Expected<Project> withPins(const Project& project, int application, model::Constraints pins);

/// Returns a 64-bit fingerprint of everything a mapping run of an application depends on: the sites and
/// hosts (positions included, since they drive estimated network entries), the network with provenance,
/// the application's matrices and its pins. Equal inputs give equal fingerprints; O(size of inputs).
std::uint64_t inputFingerprint(const Project& project, const std::string& application);

} // namespace meridian::document
