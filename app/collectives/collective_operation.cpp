#include "app/collectives/collective_operation.h"

#include "app/collectives/collective_input.h"
#include "core/collectives/coll_tuned_rules.h"
#include "core/collectives/schedule.h"
#include "core/io/text_file.h"
#include "core/sim/platform.h"
#include "core/sim/simulator.h"

#include <QJsonArray>

namespace meridian::ops {

namespace {

using namespace collectives;

Status canceled(const Feedback& feedback)
{
    if (feedback.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    return {};
}

/// Each ranked algorithm's schedule at the ranking's size, simulated with SimGrid.
Expected<std::vector<double>> simulateRanking(const PlanRequest& request, const Ranking& ranking, const Layout& layout,
                                              const model::Placement& placement, const model::Topology& topology,
                                              const model::Network& network, const Feedback& feedback)
{
    auto platform = sim::buildPlatform(topology, network);
    if (!platform)
        return platform.error();
    std::vector<double> out;
    for (const AlgorithmTime& t : ranking.results) {
        const CollectiveSpec spec{request.operation, t.algorithm, request.root,
                                  request.bytes,     t.chunks,    request.shuffle};
        auto schedule = buildSchedule(spec, layout, &network);
        if (!schedule)
            return schedule.error();
        auto simulated = sim::simulate(*platform, sim::scheduleTransfers(*schedule, placement), {},
                                       FeedbackRange(feedback, 0.0, 1.0));
        if (!simulated)
            return simulated.error();
        out.push_back(simulated->meanIterationSeconds);
    }
    return out;
}

/// The stages of a plan and of a query, in order: the ranking at the size (and its simulation, which needs the
/// placement), the size sweep, the process sweep.
Expected<CollectiveAnswer> answer(const CollectiveQuery& query, const Layout& layout, const model::Placement* placement,
                                  const model::Topology& topology, const model::Network& network,
                                  const Feedback& feedback)
{
    const PlanContext context{layout, topology, network};
    CollectiveAnswer out;
    if (query.rankAtSize) {
        feedback.setProgress(0.05, "chosen size");
        auto ranking = rankAlgorithms(query.request, context);
        if (!ranking)
            return ranking.error();
        out.atSize = std::move(*ranking);
        if (query.simulate) {
            if (!placement)
                return makeError(ErrorCode::Internal, "a collective's simulation needs the placement");
            auto simulated = simulateRanking(query.request, *out.atSize, layout, *placement, topology, network,
                                             feedback);
            if (!simulated)
                return simulated.error();
            out.simulatedSeconds = std::move(*simulated);
        }
    }
    if (auto s = canceled(feedback); !s)
        return s.error();
    if (query.sweepBytes) {
        feedback.setProgress(0.3, "sizes");
        auto sweep = sweepSizes(query.request, context, query.sweepBytes->first, query.sweepBytes->second);
        if (!sweep)
            return sweep.error();
        out.sweep = std::move(*sweep);
    }
    if (auto s = canceled(feedback); !s)
        return s.error();
    if (query.sweepProcesses) {
        feedback.setProgress(0.8, "process counts");
        PlanRequest at = query.request;
        at.bytes = query.sweepProcessesBytes;
        auto byCount = sweepProcesses(at, context);
        if (!byCount)
            return byCount.error();
        out.byCount = std::move(*byCount);
    }
    return out;
}

QJsonObject timeJson(Operation op, const AlgorithmTime& t)
{
    QJsonObject out{
        {"algorithm", algorithmId(t.algorithm)}, {"time_s", t.seconds}, {"chunks", t.chunks}, {"bytes_sent", t.bytes},
        {"cross_site_bytes", t.crossSiteBytes},
    };
    const auto id = openMpiAlgorithm(op, t.algorithm);
    out["openmpi_algorithm"] = id ? QJsonValue(*id) : QJsonValue();
    return out;
}

void appendRanking(QJsonArray& results, QJsonArray& skipped, QJsonArray& notes, Operation op, const Ranking& ranking,
                   double bytes, const std::vector<double>& simulated = {})
{
    for (std::size_t i = 0; i < ranking.results.size(); ++i) {
        QJsonObject o = timeJson(op, ranking.results[i]);
        o["bytes"] = bytes;
        if (i < simulated.size())
            o["simulated_s"] = simulated[i];
        results.append(o);
    }
    for (const Skipped& s : ranking.skipped)
        skipped.append(QJsonObject{{"algorithm", algorithmId(s.algorithm)},
                                   {"reason", QString::fromStdString(s.reason)},
                                   {"bytes", bytes}});
    for (const std::string& n : ranking.notes)
        if (!notes.contains(QString::fromStdString(n)))
            notes.append(QString::fromStdString(n));
}

} // namespace

Expected<CollectiveAnswer> answerCollective(const CollectiveQuery& query, const model::Placement& placement,
                                            const model::Topology& topology, const model::Network& network,
                                            const Feedback& feedback)
{
    return answer(query, layoutOf(placement), &placement, topology, network, feedback);
}

QJsonObject collectiveJson(const CollectiveQuery& query, const CollectiveAnswer& answer, int processes, bool listSweep)
{
    const Operation op = query.request.operation;
    QJsonObject out{{"operation", operationId(op)},
                    {"processes", processes},
                    {"root", query.request.root},
                    {"model", costModelId(query.request.model)}};
    QJsonArray results, skipped, notes;
    if (answer.atSize)
        appendRanking(results, skipped, notes, op, *answer.atSize, query.request.bytes, answer.simulatedSeconds);
    if (answer.sweep) {
        if (listSweep)
            for (std::size_t i = 0; i < answer.sweep->sizes.size(); ++i)
                appendRanking(results, skipped, notes, op, answer.sweep->rankings[i], answer.sweep->sizes[i]);
        QJsonArray bands;
        for (const SizeBand& b : answer.sweep->bands)
            bands.append(QJsonObject{{"from_bytes", b.fromBytes},
                                     {"to_bytes", b.toBytes},
                                     {"algorithm", algorithmId(b.algorithm)}});
        out["bands"] = bands;
    }
    if (query.sweepProcesses) {
        QJsonArray list;
        for (const auto& [count, ranking] : answer.byCount) {
            QJsonArray r, s, n;
            appendRanking(r, s, n, op, ranking, query.sweepProcessesBytes);
            list.append(QJsonObject{{"processes", count}, {"results", r}, {"skipped", s}, {"notes", n}});
        }
        out["by_processes"] = list;
    }
    out["results"] = results;
    out["skipped"] = skipped;
    out["notes"] = notes;
    return out;
}

Expected<QJsonObject> writeTunedRules(const std::string& path, Operation operation, const SizeSweep& sweep,
                                      int processes)
{
    std::vector<std::string> notes;
    auto rules = tunedRules(operation, sweep, processes, notes);
    if (!rules)
        return rules.error();
    auto text = collTunedRulesText({*rules});
    if (!text)
        return text.error();
    if (auto written = io::writeTextFileAtomically(path, *text); !written)
        return written.error();
    QJsonArray ruleNotes;
    for (const std::string& n : notes)
        ruleNotes.append(QString::fromStdString(n));
    const QString file = QString::fromStdString(path);
    return QJsonObject{{"file", file},
                       {"communicator_size", processes},
                       {"notes", ruleNotes},
                       {"mpirun",
                        "mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename " + file}};
}

Expected<std::shared_ptr<const CollectivePlan>> planCollective(CollectivePlan plan, const model::Topology& topology,
                                                               const model::Network& network, const Feedback& feedback)
{
    CollectiveQuery query;
    query.request = plan.request;
    query.sweepBytes = std::pair(kCollectiveSweepMin, kCollectiveSweepMax);
    query.sweepProcesses = true;
    query.sweepProcessesBytes = plan.request.bytes;
    auto answered = answer(query, plan.layout, nullptr, topology, network, feedback);
    if (!answered)
        return answered.error();
    plan.atSize = std::move(*answered->atSize);
    plan.sweep = std::move(*answered->sweep);
    plan.byCount = std::move(answered->byCount);
    const AlgorithmTime& best = plan.atSize.results.front();
    const CollectiveSpec spec{plan.request.operation, best.algorithm, plan.request.root,
                              plan.request.bytes,     best.chunks,    plan.request.shuffle};
    auto schedule = buildSchedule(spec, plan.layout, &network);
    if (!schedule)
        return schedule.error();
    plan.bestSchedule = std::move(*schedule);
    return std::make_shared<const CollectivePlan>(std::move(plan));
}

} // namespace meridian::ops
