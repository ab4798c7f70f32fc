#include "core/mapping/geo_mapper.h"

#include "core/cluster/kmeans.h"
#include "core/mapping/site_filler.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>

namespace meridian::mapping {

namespace {

/// The automatic work budget of one run, in adjacency entries visited: each order costed is one complete fill,
/// which visits every process and every entry of the traffic graph once. Small instances never reach it; at
/// 65,536 processes with a million entries it allows about 20 orders (about half a second on two cores).
constexpr double kWorkBudget = 4e7;

double factorial(int k)
{
    double f = 1.0;
    for (int i = 2; i <= k; ++i)
        f *= i;
    return f;
}

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

/// How many orders the search costs on this tree: every order of every inner node's children.
double ordersOf(const Group& g)
{
    double orders = g.children.size() > 1 ? factorial(static_cast<int>(g.children.size())) : 0.0;
    for (const Group& c : g.children)
        orders += ordersOf(c);
    return orders;
}

/// Fills the sites of a leaf group, the one with most room first (Algorithm 1 lines 7-15).
void fillLeaf(const Group& leaf, SiteFiller& filler, std::vector<int>& available)
{
    std::vector<bool> selected(available.size(), false);
    for (std::size_t j = 0; j < leaf.sites.size() && filler.unselected() > 0; ++j) {
        int site = -1;
        for (int s : leaf.sites)
            if (!selected[s] && available[s] > 0 && (site < 0 || available[s] > available[site]))
                site = s;
        if (site < 0)
            break;
        selected[site] = true;
        available[site] -= filler.fill(site, available[site]);
    }
}

/// The leaves below `g` in the order they are filled (each inner group in its current order).
void leavesOf(const Group& g, std::vector<const Group*>& out)
{
    if (g.children.empty()) {
        out.push_back(&g);
        return;
    }
    for (int c : g.order)
        leavesOf(g.children[c], out);
}

/// The leaves filled before and after `target`'s subtree; returns whether `target` is below `g`.
bool leavesAround(const Group& g, const Group* target, std::vector<const Group*>& before,
                  std::vector<const Group*>& after, bool seen = false)
{
    if (&g == target)
        return true;
    if (g.children.empty()) {
        (seen ? after : before).push_back(&g);
        return false;
    }
    for (int c : g.order)
        seen = leavesAround(g.children[c], target, before, after, seen) || seen;
    return seen;
}

/// The best of every order of a group's children, with the rest of the tree as it is; ties go to the first
/// order in lexicographic order.
struct OrderTrial {
    double cost = std::numeric_limits<double>::infinity();
    std::size_t index = 0;       // in lexicographic order
    std::vector<int> order;      // of the children
    std::vector<int> assignment; // the placement it gives
    int orders = 0;              // how many orders were costed
};

/// Costs every order of `g`'s children: the sites before `g` are filled once, and the orders are shared by the
/// executor's workers. Returns the best (lowest cost, then first), or nothing when canceled.
std::optional<OrderTrial> bestOrder(const MappingProblem& problem, const Group& root, const Group& g,
                                    const std::vector<int>& byWeight, const FeedbackRange& range)
{
    std::vector<const Group*> before;
    std::vector<const Group*> after;
    leavesAround(root, &g, before, after);
    // A leaf (the root of a one-site tree) is its own single child.
    std::vector<std::vector<const Group*>> childLeaves(std::max<std::size_t>(1, g.children.size()));
    if (g.children.empty())
        childLeaves[0].push_back(&g);
    for (std::size_t c = 0; c < g.children.size(); ++c)
        leavesOf(g.children[c], childLeaves[c]);

    SiteFiller prefix(problem.traffic(), byWeight, problem.pinnedAssignment());
    std::vector<int> prefixAvailable = problem.residualCapacity();
    for (const Group* leaf : before)
        fillLeaf(*leaf, prefix, prefixAvailable);

    std::vector<std::vector<int>> orders;
    std::vector<int> perm(childLeaves.size());
    std::iota(perm.begin(), perm.end(), 0);
    do
        orders.push_back(perm);
    while (std::next_permutation(perm.begin(), perm.end()));

    const int workers = std::max(1, std::min(range.executor().concurrency(), static_cast<int>(orders.size())));
    std::vector<OrderTrial> best(workers);
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    range.executor().shareWork(workers, [&](int w) {
        for (std::size_t k = next.fetch_add(1); k < orders.size() && !range.isCanceled(); k = next.fetch_add(1)) {
            SiteFiller filler = prefix;
            std::vector<int> available = prefixAvailable;
            for (int c : orders[k])
                for (const Group* leaf : childLeaves[c])
                    fillLeaf(*leaf, filler, available);
            for (const Group* leaf : after)
                fillLeaf(*leaf, filler, available);
            std::vector<int> assignment = filler.takeAssignment();
            const double c = problem.cost().evaluate(assignment);
            if (c < best[w].cost || (c == best[w].cost && k < best[w].index))
                best[w] = {c, k, {}, std::move(assignment), 0};
            range.setProgress(static_cast<double>(done.fetch_add(1) + 1) / static_cast<double>(orders.size()),
                              "trying group orders");
        }
    });
    if (range.isCanceled())
        return std::nullopt;
    OrderTrial winner;
    for (auto& trial : best)
        if (trial.cost < winner.cost || (trial.cost == winner.cost && trial.index < winner.index))
            winner = std::move(trial);
    if (!winner.assignment.empty())
        winner.order = orders[winner.index];
    winner.orders = static_cast<int>(orders.size());
    return winner;
}

/// The K-means tree of the sites for `kappa` (0 = automatic, set to the kappa chosen). SC17 bounds its search by
/// kappa ("we can limit the number of groups ... and largely reduce the optimization overhead"); the automatic kappa
/// does so on very large graphs, where this tree's orders (each a complete fill of `fillWork` entries) would exceed
/// the budget: the largest kappa whose whole tree fits; when none does, 3 with its inner groups tried while the
/// budget lasts (on the 65,536-process K-means and random patterns 3 came 2-8% closer to the full search than 2).
/// `note` says why kappa is not the usual one.
Group siteTree(const model::Topology& topo, int& kappa, std::uint64_t seed, double fillWork, std::string& note)
{
    const int m = topo.siteCount();
    const bool automatic = kappa == 0;
    kappa = std::min(automatic ? 5 : kappa, m);
    std::vector<int> allSites(m);
    std::iota(allSites.begin(), allSites.end(), 0);
    Group root = buildGroup(topo, allSites, kappa, seed, true);
    const double wantedOrders = ordersOf(root);
    if (!automatic || wantedOrders * fillWork <= kWorkBudget)
        return root;
    const int wanted = kappa;
    int fits = 0;
    for (int k = kappa - 1; k >= 2 && fits == 0; --k) {
        root = buildGroup(topo, allSites, k, seed, true);
        if (ordersOf(root) * fillWork <= kWorkBudget)
            fits = k;
    }
    kappa = fits > 0 ? fits : std::min(wanted, 3);
    if (fits == 0)
        root = buildGroup(topo, allSites, kappa, seed, true);
    note = " (not " + std::to_string(wanted) + ": its " + std::to_string(static_cast<long long>(wantedOrders))
        + " orders, each a complete fill of " + std::to_string(static_cast<long long>(fillWork))
        + " processes and traffic entries, exceed the work budget of 4e7)";
    return root;
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
                               "Number of K-means site groups; 0 = min(number of sites, 5), fewer on graphs so large "
                               "that the orders (each a complete fill) would exceed the work budget (4e7 processes "
                               "and traffic entries visited). "
                               "Every order of the groups is tried (kappa! orders); the orders inside the groups "
                               "are tried while the budget lasts.")};
}

Expected<MappingResult> GeoMapper::mapImpl(const MappingProblem& problem, const ParamValues& values, std::uint64_t seed,
                                           const FeedbackRange& range) const
{
    const auto& topo = problem.topology();
    const int n = problem.processCount();
    const double fillWork = static_cast<double>(n) + static_cast<double>(problem.traffic().ptr[n]);
    int kappa = static_cast<int>(values.integer("kappa"));
    const bool automatic = kappa == 0;
    std::string kappaNote;
    Group root = siteTree(topo, kappa, seed, fillWork, kappaNote);
    // The parameter's 0 means "chosen here": the note says what it became (a note of its own explains a cut).
    if (automatic && kappaNote.empty())
        kappaNote = " (kappa=0: as many groups as sites, at most 5)";

    const std::vector<int> byWeight = SiteFiller::byWeight(problem.trafficVolume());
    std::vector<int> best;
    double bestCost = std::numeric_limits<double>::infinity();
    int tried = 0;
    int leftInOrder = 0; // inner groups whose orders the budget did not allow
    // Every order of the children of `g`, keeping the best; the rest of the tree stays as it is.
    const auto tryOrders = [&](Group& g, const FeedbackRange& part) -> bool {
        if (g.children.size() <= 1 && !best.empty())
            return true;
        // The root's orders are always tried (kappa bounds them); an inner group's only within the budget.
        if (!best.empty() && (tried + factorial(static_cast<int>(g.children.size()))) * fillWork > kWorkBudget) {
            ++leftInOrder;
            return true;
        }
        auto trial = bestOrder(problem, root, g, byWeight, part);
        if (!trial)
            return false;
        tried += trial->orders;
        if (trial->cost < bestCost) {
            bestCost = trial->cost;
            best = std::move(trial->assignment);
            if (g.children.size() > 1)
                g.order = std::move(trial->order);
        }
        return true;
    };
    if (!tryOrders(root, range.sub(0.0, 0.8)))
        return makeError(ErrorCode::Canceled, "canceled");
    std::function<bool(Group&)> refineInner = [&](Group& g) {
        for (auto& child : g.children) {
            if (!child.children.empty()) {
                if (!tryOrders(child, range.sub(0.8, 1.0)) || !refineInner(child))
                    return false;
            }
        }
        return true;
    };
    if (!refineInner(root))
        return makeError(ErrorCode::Canceled, "canceled");

    MappingResult result;
    result.placement = model::Placement::fromSites(std::move(best));
    result.notes.push_back("kappa " + std::to_string(kappa) + kappaNote + ", " + std::to_string(tried)
                           + " orders costed; best order " + describeOrder(root, topo));
    if (leftInOrder > 0)
        result.notes.push_back(std::to_string(leftInOrder) + " inner group" + (leftInOrder == 1 ? "" : "s")
                               + " kept in K-means order: trying their orders would exceed the work budget");
    return result;
}

} // namespace meridian::mapping
