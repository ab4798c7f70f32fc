#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/cost/alpha_beta_cost.h"
#include "core/model/comm_matrix.h"
#include "core/model/constraints.h"
#include "core/model/network.h"
#include "core/model/placement.h"
#include "core/model/topology.h"

#include <functional>
#include <memory>
#include <vector>

namespace meridian::mapping {

/// An undirected weighted graph in CSR form (both directions stored, no self-loops).
struct Adjacency {
    std::vector<int> ptr; ///< size n + 1
    std::vector<int> idx;
    std::vector<double> weight;

    int vertexCount() const { return static_cast<int>(ptr.size()) - 1; }
    /// Returns the sum of the weights of every edge of v.
    double degree(int v) const;
};

/// Returns the symmetric graph w(i,j) = M(i,j) + M(j,i) of a square sparse matrix, self-loops dropped.
Adjacency symmetrize(const model::CommMatrix::Sparse& matrix);

/// One mapping problem: where processes can run (topology, complete network), what they exchange
/// (communication matrix) and which of them are pinned. Immutable and cheap to copy (shared state), so
/// a snapshot can be handed to a background thread.
///
/// create() checks everything a mapper relies on, so mappers never see an infeasible problem: the
/// network is complete and matches the sites, there are enough slots, pins fit their sites, and the traffic's
/// alpha-beta time at the network's slowest bandwidth and longest latency is a finite number of seconds.
class MappingProblem {
public:
    static Expected<MappingProblem> create(model::Topology topology, model::Network network, model::CommMatrix comm,
                                           model::Constraints constraints = {});

    const model::Topology& topology() const { return m_data->topology; }
    const model::Network& network() const { return m_data->network; }
    const model::CommMatrix& comm() const { return m_data->comm; }
    const model::Constraints& constraints() const { return m_data->constraints; }
    /// The site-level alpha-beta evaluator (shared, read-only, thread-safe).
    const cost::AlphaBetaCost& cost() const { return *m_data->cost; }

    int processCount() const { return m_data->comm.processCount(); }
    int siteCount() const { return m_data->topology.siteCount(); }
    /// Returns the pinned site of each process, -1 for free processes.
    const std::vector<int>& pinnedSite() const { return m_data->pinnedSite; }
    bool isPinned(int process) const { return m_data->pinnedSite[process] >= 0; }
    /// Returns the free processes in increasing order.
    const std::vector<int>& freeProcesses() const { return m_data->freeProcesses; }
    /// Returns each site's slots minus the processes pinned to it.
    const std::vector<int>& residualCapacity() const { return m_data->residual; }
    /// Returns the symmetrised byte volume between processes ("communication quantity").
    const Adjacency& traffic() const { return m_data->traffic; }
    /// Returns each process's total bytes sent plus received.
    const std::vector<double>& trafficVolume() const { return m_data->trafficVolume; }
    /// Returns true when the network has host-level links (instance matrices, as CloudMap measures).
    bool hasHostLinks() const { return !m_data->network.hostLinks().empty(); }

    /// Returns a site-level assignment with only the pins set (-1 elsewhere).
    std::vector<int> pinnedAssignment() const { return m_data->pinnedSite; }

    /// Returns a copy of this problem carrying a start placement (for `refine` with start=input).
    /// The placement must be valid for this problem (checkPlacement finds nothing).
    Expected<MappingProblem> withStart(model::Placement start) const;
    /// Returns the start placement, or nullptr when there is none.
    const model::Placement* start() const { return m_start.get(); }

    /// A slow, faithful measure of a placement (with hosts) in seconds: the predicted run time by replay, which
    /// refine uses to choose among its last candidates where its fast estimate cannot tell them apart. It must be
    /// callable from any thread; the range carries cancellation.
    using Judge = std::function<Expected<double>(const model::Placement&, const FeedbackRange&)>;
    /// Returns a copy of this problem carrying a judge.
    MappingProblem withJudge(Judge judge) const;
    /// Returns the judge, or nullptr when there is none.
    const Judge* judge() const { return m_judge.get(); }

private:
    struct Data {
        model::Topology topology;
        model::Network network;
        model::CommMatrix comm;
        model::Constraints constraints;
        std::unique_ptr<cost::AlphaBetaCost> cost;
        std::vector<int> pinnedSite;
        std::vector<int> freeProcesses;
        std::vector<int> residual;
        Adjacency traffic;
        std::vector<double> trafficVolume;
    };
    std::shared_ptr<const Data> m_data;
    std::shared_ptr<const model::Placement> m_start;
    std::shared_ptr<const Judge> m_judge;
};

} // namespace meridian::mapping
