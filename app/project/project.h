#pragma once

#include "app/project/graph_input.h"
#include "core/io/ti_trace.h"
#include "core/model/comm_matrix.h"
#include "core/model/constraints.h"
#include "core/model/network.h"
#include "core/model/network_estimator.h"
#include "core/model/topology.h"

#include <memory>
#include <string>
#include <vector>

namespace meridian::document {

/// One application of a project: its communication matrices and its pins.
struct Application {
    std::string name;
    std::string description;
    model::CommMatrix comm;
    model::Constraints pins;
    /// The sidecar files the application was read from or first saved to, relative to the project file
    /// ("kmeans.volume.mtx"); empty for an application not saved yet, which gets a name derived from its
    /// own when saved (ProjectFile::sidecarName). Kept so that saving never renames a user's files.
    std::string volumeFile;
    std::string messagesFile;
    std::string pinsFile;
    /// The application's captured behaviour: SimGrid's time-independent trace (`capture --trace`), checked
    /// against the volume matrix when attached, replayed for the predicted run time. Null when the application
    /// is known by its matrices only (then the prediction is the bulk-synchronous model). Shared: it can be large
    /// and never changes; an edit of the matrices drops it.
    std::shared_ptr<const io::StoredTrace> trace;
    std::string traceFile; ///< its sidecar file, as the others ("kmeans.trace.ti")
};

/// Everything a user plans with: the sites, the measured network (missing entries stay missing here;
/// the estimated completion is derived on demand), and the applications. Plain data, no Qt; the project
/// file (ProjectFile) reads and writes it.
struct Project {
    std::string name;
    std::string description;
    /// Where the numbers come from (tables of the seed papers, measurements, estimates), one line each.
    std::vector<std::string> sources;
    model::Topology topology;
    model::Network network;
    std::vector<Application> applications;
    /// Graphs for the partitioners; a graph's name is never an application's (runs name either).
    std::vector<GraphInput> graphs;

    /// Returns the network with every missing entry estimated (NetworkEstimator), and the model used.
    model::Network completeNetwork(model::DistanceModel* model = nullptr) const;
    /// Returns the index of the application with that name, or -1.
    int applicationIndex(const std::string& name) const;
    /// Returns the index of the graph with that name, or -1.
    int graphIndex(const std::string& name) const;
};

} // namespace meridian::document
