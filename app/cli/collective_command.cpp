#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/cli/problem_loader.h"
#include "app/collectives/collective_input.h"
#include "app/collectives/collective_operation.h"
#include "app/project/json_util.h"
#include "app/project/project_file.h"
#include "core/collectives/planner.h"
#include "core/io/placement_io.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>

namespace meridian::cli {

namespace {

using namespace collectives;

/// The request the options describe (the size is set by the caller).
Expected<PlanRequest> requestFrom(const QCommandLineParser& parser)
{
    PlanRequest request;
    const auto op = parseOperation(parser.value("op").toStdString());
    if (!op)
        return makeError(ErrorCode::InvalidInput,
                         "--op: unknown operation '" + parser.value("op").toStdString()
                             + "'; one of broadcast, scatter, gather, reduce, allreduce, allgather, alltoall, shuffle");
    request.operation = *op;
    bool good = false;
    request.root = parser.value("root").toInt(&good);
    if (!good)
        return makeError(ErrorCode::InvalidInput,
                         "--root needs a rank, not '" + parser.value("root").toStdString() + "'");
    if (parser.isSet("algorithms")) {
        auto list = ops::parseAlgorithmList(parser.value("algorithms").toStdString());
        if (!list)
            return list.error();
        request.algorithms = std::move(*list);
    }
    if (parser.isSet("chunks")) {
        request.chunks = parser.value("chunks").toInt(&good);
        if (!good || request.chunks < 1)
            return makeError(ErrorCode::InvalidInput,
                             "--chunks needs a whole number of at least 1, not '" + parser.value("chunks").toStdString()
                                 + "'");
    }
    const auto model = parseCostModel(parser.value("model").toStdString());
    if (!model)
        return makeError(ErrorCode::InvalidInput,
                         "--model is network or twister, not '" + parser.value("model").toStdString() + "'");
    request.model = *model;
    if (parser.isSet("map-tasks")) {
        request.shuffle.mapTasks = parser.value("map-tasks").toInt(&good);
        if (!good || request.shuffle.mapTasks < 1)
            return makeError(ErrorCode::InvalidInput, "--map-tasks needs a whole number of at least 1");
    }
    request.shuffle.localReduction = parser.isSet("local-reduction") || parser.isSet("reduced-bytes");
    if (parser.isSet("reduced-bytes")) {
        auto reduced = ops::parseByteSize(parser.value("reduced-bytes").toStdString(), "--reduced-bytes");
        if (!reduced)
            return reduced.error();
        request.shuffle.reducedBytes = *reduced;
    }
    if (request.operation != Operation::Shuffle
        && (parser.isSet("map-tasks") || parser.isSet("local-reduction") || parser.isSet("reduced-bytes")))
        return makeError(ErrorCode::InvalidInput,
                         "--map-tasks, --local-reduction and --reduced-bytes are for --op shuffle");
    return request;
}

struct Loaded {
    document::Project project;
    model::Placement placement;
};

Expected<Loaded> loadInputs(const QCommandLineParser& parser)
{
    Loaded in;
    int expected = -1;
    if (parser.isSet("project")) {
        if (auto ok = refuseRawWithProject(parser, {"sites", "latency", "bandwidth"}); !ok)
            return ok.error();
        auto project = document::ProjectFile::load(parser.value("project"));
        if (!project)
            return project.error();
        in.project = std::move(*project);
        if (parser.isSet("application")) {
            const int a = in.project.applicationIndex(parser.value("application").toStdString());
            if (a < 0)
                return makeError(ErrorCode::InvalidInput,
                                 "no application named '" + parser.value("application").toStdString() + "'",
                                 {parser.value("project").toStdString()});
            expected = in.project.applications[static_cast<std::size_t>(a)].comm.processCount();
        }
    } else if (parser.isSet("sites")) {
        auto project = loadSitesAndNetwork(parser);
        if (!project)
            return project.error();
        in.project = std::move(*project);
    } else {
        return makeError(ErrorCode::InvalidInput,
                         "name the network with --project (and --application), or with --sites, --latency and "
                         "--bandwidth");
    }
    if (!parser.isSet("mapping"))
        return makeError(ErrorCode::InvalidInput, "--mapping is required: where the communicator's processes run");
    auto placement = io::readMappingCsv(parser.value("mapping").toStdString(), in.project.topology, expected);
    if (!placement)
        return placement.error();
    auto full = model::withHosts(*placement, in.project.topology);
    if (!full)
        return inFile(full.error(), parser.value("mapping").toStdString());
    in.placement = std::move(*full);
    return in;
}

int writeCsv(const QJsonArray& results)
{
    std::puts("bytes,algorithm,time_s,chunks,bytes_sent,cross_site_bytes");
    for (const auto& v : results) {
        const QJsonObject o = v.toObject();
        std::printf("%.0f,%s,%.9g,%d,%.0f,%.0f\n", o["bytes"].toDouble(),
                    o["algorithm"].toString().toUtf8().constData(), o["time_s"].toDouble(), o["chunks"].toInt(),
                    o["bytes_sent"].toDouble(), o["cross_site_bytes"].toDouble());
    }
    return kExitOk;
}

void addCollectiveOptions(QCommandLineParser& parser)
{
    parser.setApplicationDescription(
        "Ranks the algorithms of a collective operation for a mapping's processes on the project's network: each "
        "algorithm's schedule evaluated message by message (each hop with its own latency and bandwidth, a node's "
        "and a site's concurrent messages sharing its links), or Twister's Eq. 1-3 for one uniform link "
        "(--model twister, broadcast only). Prints JSON {\"results\": [{\"algorithm\", \"time_s\", \"chunks\", "
        "...}]} fastest first, or CSV. --sweep-bytes ranks every power of two in a range and gives the fastest "
        "algorithm per size band; --rules-out writes Open MPI's coll_tuned dynamic rules for that choice. "
        "Algorithms: flat, mst, bucket, chain, topology-chain, ring, recursive-doubling, rabenseifner, hierarchical, "
        "hypercube.");
    addNetworkOptions(parser);
    parser.addOptions({
        {"application", "The project's application whose processes the mapping places (checks their count).", "name"},
        {"mapping", "Where the communicator's processes run: a mapping CSV process,site[,host,slot].", "file"},
        {"op", "broadcast, scatter, gather, reduce, allreduce, allgather, alltoall or shuffle.", "OP"},
        {"bytes",
         "The message size: the buffer (broadcast, reduce, allreduce), the whole buffer (scatter, gather, allgather), "
         "each process's send buffer (alltoall), one map task's output (shuffle). Plain bytes or with KB, MB, GB "
         "(10^3) or KiB, MiB, GiB (2^10).",
         "N"},
        {"root", "The root rank (default 0).", "R", "0"},
        {"algorithms", "Comma-separated algorithms to compare (default: every one that implements the operation).",
         "a,b"},
        {"chunks", "The chain's chunk count (default: the best around Twister's k_opt).", "K"},
        {"model", "network (default) or twister.", "M", "network"},
        {"sweep-bytes", "Rank every power of two from MIN to MAX bytes (sizes as for --bytes).", "MIN:MAX"},
        {"sweep-processes", "Also rank for the first 2, 4, 8, ... processes of the mapping."},
        {"rules-out",
         "Write Open MPI coll_tuned dynamic rules for the fastest algorithm per size (over --sweep-bytes, "
         "else 1KiB:4GiB).",
         "file"},
        {"format", "json (default) or csv.", "F", "json"},
        {"simulate",
         "Also simulate each algorithm's schedule at --bytes with SimGrid (simulated_s): max-min fair "
         "sharing on the platform `simulate` builds, where a node's interface is not shared."},
        {"map-tasks", "Shuffle: map tasks per process (default 1).", "M"},
        {"local-reduction", "Shuffle: merge a process's map outputs before sending (Twister's local reduction)."},
        {"reduced-bytes", "Shuffle: the bytes a process's merged output keeps (default: one task's output).", "N"},
    });
}

} // namespace

int runCollective(const QStringList& arguments)
{
    QCommandLineParser parser;
    addCollectiveOptions(parser);
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (!parser.isSet("op"))
        return usageError("--op is required");
    if (parser.value("format") != "json" && parser.value("format") != "csv")
        return usageError("--format is json or csv, not '" + parser.value("format") + "'");
    auto request = requestFrom(parser);
    if (!request)
        return report(request.error());
    std::optional<std::pair<double, double>> range;
    if (parser.isSet("sweep-bytes") || parser.isSet("rules-out")) {
        auto parsed = ops::parseByteRange(parser.isSet("sweep-bytes") ? parser.value("sweep-bytes").toStdString()
                                                                      : std::string("1KiB:4GiB"));
        if (!parsed)
            return report(parsed.error());
        range = *parsed;
    } else if (!parser.isSet("bytes")) {
        return usageError("--bytes (or --sweep-bytes) is required");
    }
    if (parser.isSet("bytes")) {
        auto bytes = ops::parseByteSize(parser.value("bytes").toStdString(), "--bytes");
        if (!bytes)
            return report(bytes.error());
        request->bytes = *bytes;
    }
    auto loaded = loadInputs(parser);
    if (!loaded)
        return report(loaded.error());
    ops::CollectiveQuery query;
    query.request = *request;
    query.rankAtSize = parser.isSet("bytes") && !parser.isSet("sweep-bytes");
    query.simulate = query.rankAtSize && parser.isSet("simulate");
    query.sweepBytes = range;
    query.sweepProcesses = parser.isSet("sweep-processes");
    query.sweepProcessesBytes = parser.isSet("bytes") ? request->bytes : range ? range->second : 0.0;
    model::DistanceModel dm;
    const model::Network network = loaded->project.completeNetwork(&dm);
    auto answer = ops::answerCollective(query, loaded->placement, loaded->project.topology, network, Feedback());
    if (!answer)
        return report(answer.error());
    const int processes = static_cast<int>(loaded->placement.site.size());
    QJsonObject out = ops::collectiveJson(query, *answer, processes, parser.isSet("sweep-bytes"));
    if (parser.isSet("rules-out")) {
        auto rules = ops::writeTunedRules(parser.value("rules-out").toStdString(), request->operation, *answer->sweep,
                                          processes);
        if (!rules)
            return report(rules.error());
        out["rules"] = *rules;
    }
    if (parser.value("format") == "csv")
        return writeCsv(out["results"].toArray());
    out["network"] = distanceModelJson(dm, loaded->project.network);
    printJson(out);
    return kExitOk;
}

} // namespace meridian::cli
