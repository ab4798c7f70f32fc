#include "core/mapping/geo_mapper.h"

#include "core/cluster/kmeans.h"
#include "core/mapping/site_filler.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>

namespace meridian::mapping {

namespace {

/// A node of the site-group tree: a leaf holds sites, an inner node holds subgroups in an order.
struct Group {
    std::vector<int> sites;      // every site below this node
    std::vector<Group> children; // empty for a leaf
    std::vector<int> order;      // permutation of children
};

Group buildGroup(const model::Topology& topo, std::vector<int> sites, int kappa, std::uint64_t seed, bool root)
{
    Group g;
    g.sites = std::move(sites);
    const int m = static_cast<int>(g.sites.size());
    // The root is always split into kappa groups (line 1); below it only groups larger than kappa.
    if ((root && m > 1 && kappa < m) || (!root && kappa >= 2 && m > kappa)) {
        Eigen::MatrixXd points(m, 2);
        for (int i = 0; i < m; ++i) {
            points(i, 0) = topo.site(g.sites[i]).latitude;
            points(i, 1) = topo.site(g.sites[i]).longitude;
        }
        const auto km = cluster::kMeans(points, kappa, seed);
        std::vector<std::vector<int>> members(kappa);
        for (int i = 0; i < m; ++i)
            members[km.label[i]].push_back(g.sites[i]);
        for (int c = 0; c < kappa; ++c)
            g.children.push_back(
                buildGroup(topo, std::move(members[c]), kappa, seed + 1 + static_cast<std::uint64_t>(c), false));
    } else if (root && m > 1) {
        // kappa >= M: every site is its own group, so every order of the sites is tried.
        for (int s : g.sites) {
            Group leaf;
            leaf.sites = {s};
            g.children.push_back(std::move(leaf));
        }
    }
    g.order.resize(g.children.size());
    std::iota(g.order.begin(), g.order.end(), 0);
    return g;
}

/// Fills the sites of a group in the group's current order (Algorithm 1 lines 7-15).
void fillGroup(const Group& g, SiteFiller& filler, std::vector<int>& available)
{
    if (!g.children.empty()) {
        for (int c : g.order)
            fillGroup(g.children[c], filler, available);
        return;
    }
    std::vector<bool> selected(available.size(), false);
    for (std::size_t j = 0; j < g.sites.size() && filler.unselected() > 0; ++j) {
        int site = -1;
        for (int s : g.sites)
            if (!selected[s] && available[s] > 0 && (site < 0 || available[s] > available[site]))
                site = s;
        if (site < 0)
            break;
        selected[site] = true;
        available[site] -= filler.fill(site, available[site]);
    }
}

std::string describeOrder(const Group& g, const model::Topology& topo)
{
    if (g.children.empty()) {
        std::string out;
        for (int s : g.sites)
            out += (out.empty() ? "" : "/") + topo.site(s).name;
        return g.sites.size() > 1 ? "{" + out + "}" : out;
    }
    std::string out;
    for (int c : g.order)
        out += (out.empty() ? "" : " > ") + describeOrder(g.children[c], topo);
    return g.children.size() > 1 ? "(" + out + ")" : out;
}

} // namespace

std::vector<ParamSpec> GeoMapper::parameters() const
{
    return {ParamSpec::integer("kappa", 0, 0, 7,
                               "Number of K-means site groups; 0 = min(number of sites, 5). Every order of the groups "
                               "is tried (kappa! orders).")};
}

Expected<MappingResult> GeoMapper::mapImpl(const MappingProblem& problem, const ParamValues& values, std::uint64_t seed,
                                           const FeedbackRange& range) const
{
    const auto& topo = problem.topology();
    const int m = problem.siteCount();
    int kappa = static_cast<int>(values.integer("kappa"));
    if (kappa == 0)
        kappa = std::min(m, 5);
    kappa = std::min(kappa, m);

    std::vector<int> allSites(m);
    std::iota(allSites.begin(), allSites.end(), 0);
    Group root = buildGroup(topo, allSites, kappa, seed, true);

    const std::vector<int> pins = problem.pinnedAssignment();
    std::vector<int> best;
    double bestCost = std::numeric_limits<double>::infinity();
    int tried = 0;
    const std::vector<int> byWeight = SiteFiller::byWeight(problem.trafficVolume());
    const auto evaluate = [&]() {
        SiteFiller filler(problem.traffic(), byWeight, pins);
        std::vector<int> available = problem.residualCapacity();
        fillGroup(root, filler, available);
        std::vector<int> assignment = filler.takeAssignment();
        const double c = problem.cost().evaluate(assignment);
        ++tried;
        if (c < bestCost) {
            bestCost = c;
            best = std::move(assignment);
            return true;
        }
        return false;
    };

    // Every order of the children of `g`, keeping the best; the rest of the tree stays as it is.
    const auto tryOrders = [&](Group& g, double from, double to) -> bool {
        if (g.children.size() <= 1) {
            if (best.empty())
                evaluate();
            return true;
        }
        std::vector<int> perm(g.children.size());
        std::iota(perm.begin(), perm.end(), 0);
        double total = 1;
        for (std::size_t i = 2; i <= perm.size(); ++i)
            total *= static_cast<double>(i);
        std::vector<int> bestOrder = g.order;
        int k = 0;
        do {
            if (range.isCanceled())
                return false;
            range.setProgress(from + (to - from) * k++ / total, "trying group orders");
            g.order = perm;
            if (evaluate())
                bestOrder = perm;
        } while (std::next_permutation(perm.begin(), perm.end()));
        g.order = bestOrder;
        return true;
    };
    if (!tryOrders(root, 0.0, 0.8))
        return makeError(ErrorCode::Canceled, "canceled");
    std::function<bool(Group&)> refineInner = [&](Group& g) {
        for (auto& child : g.children) {
            if (!child.children.empty()) {
                if (!tryOrders(child, 0.8, 1.0) || !refineInner(child))
                    return false;
            }
        }
        return true;
    };
    if (!refineInner(root))
        return makeError(ErrorCode::Canceled, "canceled");

    MappingResult result;
    result.placement = model::Placement::fromSites(std::move(best));
    result.notes.push_back("kappa " + std::to_string(kappa) + ", " + std::to_string(tried)
                           + " orders costed; best order " + describeOrder(root, topo));
    return result;
}

} // namespace meridian::mapping
