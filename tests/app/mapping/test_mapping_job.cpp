#include "app/mapping/map_operation.h"
#include "app/mapping/sweep_operation.h"
#include "app/project/project_edits.h"
#include "app/project/run_file.h"
#include "app/project/ui/file_actions.h"
#include "app/project/ui/project_document.h"
#include "app/simulation/simulate_operation.h"
#include "core/cost/alpha_beta_cost.h"
#include "core/io/placement_io.h"
#include "core/mapping/builtin_mappers.h"
#include "test_support.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <vector>

using namespace meridian;
using meridian::test::sampleProject;

class TestMappingJob : public QObject {
    Q_OBJECT
    Registry<mapping::Mapper> m_mappers;

    /// A request to map `application`, by default the one the sample opens on (its first).
    ops::MappingRequest request(const document::ProjectDocument& doc, const std::string& algorithm,
                                std::uint64_t seed = 1, const std::string& application = {})
    {
        ops::MappingRequest r;
        r.project = doc.project();
        r.completeNetwork = doc.completeNetwork();
        r.application = application.empty() ? doc.project()->applications[0].name : application;
        r.algorithm = algorithm;
        r.params = ParamValues::defaults(m_mappers.find(algorithm)->parameters());
        r.seed = seed;
        r.fingerprint = doc.fingerprint(r.application);
        return r;
    }

    /// The sample projects with applications. Under a sanitizer, where each run is several times slower, one of
    /// them: the same code runs for each.
    static std::vector<const char*> samplesWithApplications()
    {
        if (meridian::test::kUnderSanitizer)
            return {"ec2-4-regions"};
        return {"azure-3-regions", "cloudmap-a7", "ec2-4-regions"};
    }

private Q_SLOTS:
    void initTestCase() { mapping::registerBuiltinMappers(m_mappers); }

    /// The workbench's runs (RunController submits ops::runMapping) and meridian-cli map give the same placement
    /// and the same measures to the last digit, on every sample with applications.
    void workbenchAndCliAgreeOnEverySample()
    {
        QTemporaryDir dir;
        for (const char* sample : samplesWithApplications()) {
            document::ProjectDocument doc;
            QVERIFY(doc.load(sampleProject(sample)));
            for (const char* algorithm : {"geo", "refine"}) {
                const QString what = QString("%1, %2").arg(sample, algorithm);
                const QString csv = dir.filePath(QString("%1-%2.csv").arg(sample, algorithm));
                QProcess cli;
                cli.start(MERIDIAN_CLI,
                          {"map", "--project", sampleProject(sample), "--algorithm", algorithm, "--seed", "1", "--out",
                           csv});
                QVERIFY(cli.waitForFinished(300000));
                QVERIFY2(cli.exitCode() == 0, qPrintable(what + ": " + cli.readAllStandardError()));
                const QJsonObject printed = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();

                // What is compared is measured before a run is simulated; the simulation and SMPI replay that the
                // workbench adds to small runs would only add time here.
                auto workbench = request(doc, algorithm);
                workbench.simulateSmallRuns = false;
                auto run = ops::runMapping(workbench, m_mappers, Feedback());
                QVERIFY2(run, qPrintable(what + ": " + QString::fromStdString(run ? "" : run.error().toString())));
                QFile written(csv);
                QVERIFY(written.open(QIODevice::ReadOnly));
                QVERIFY2(written.readAll().toStdString() == io::mappingCsvText(run->placement, doc.project()->topology),
                         qPrintable(what + ": the placements differ"));
                for (const char* metric : {"cost_s", "latency_s", "bandwidth_s"})
                    QVERIFY2(printed[metric].toDouble() == *run->metric(metric),
                             qPrintable(QString("%1: %2 %3 against %4")
                                            .arg(what, metric)
                                            .arg(printed[metric].toDouble(), 0, 'g', 17)
                                            .arg(*run->metric(metric), 0, 'g', 17)));
                if (const auto egress = run->metric("wan_usd"))
                    QCOMPARE(printed["dollars"].toObject()["egress_usd"].toDouble(), *egress);
                if (const auto inter = run->metric("inter_bytes"))
                    QCOMPARE(printed["instance"].toObject()["inter_bytes"].toDouble(), *inter);
            }
        }
    }

    /// A workbench run's simulated and predicted times (ops::simulateRun and ops::predictRun, which the run's job
    /// calls) and meridian-cli simulate and predict of the same placement agree to the last digit, on the
    /// application each sample opens on: a captured trace (LAMMPS, MUMPS) or matrices (HPCC).
    void workbenchAndCliAgreeOnSimulationAndPrediction()
    {
        QTemporaryDir dir;
        for (const char* sample : samplesWithApplications()) {
            document::ProjectDocument doc;
            QVERIFY(doc.load(sampleProject(sample)));
            const std::string application = doc.project()->applications[0].name;
            auto run = ops::runMapping(request(doc, "geo", 1, application), m_mappers, Feedback());
            QVERIFY2(run, run ? "" : run.error().toString().c_str());
            const auto simulated = run->metric("simulated_s");
            const auto predicted = run->metric("predicted_s");
            QVERIFY2(simulated && predicted, sample);
            const QString csv = dir.filePath(QString("%1.csv").arg(sample));
            QFile file(csv);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(io::mappingCsvText(run->placement, doc.project()->topology)));
            file.close();
            for (const char* command : {"simulate", "predict"}) {
                QProcess cli;
                cli.start(MERIDIAN_CLI,
                          {command, "--project", sampleProject(sample), "--application",
                           QString::fromStdString(application), "--mapping", csv});
                QVERIFY(cli.waitForFinished(300000));
                const QString what = QString("%1, %2").arg(sample, command);
                QVERIFY2(cli.exitCode() == 0, qPrintable(what + ": " + cli.readAllStandardError()));
                const QJsonObject printed = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
                const double cliSeconds = printed[command == std::string("simulate") ? "time_s" : "predicted_s"]
                                              .toDouble();
                const double workbenchSeconds = command == std::string("simulate") ? *simulated : *predicted;
                QVERIFY2(cliSeconds == workbenchSeconds,
                         qPrintable(QString("%1: %2 against %3")
                                        .arg(what)
                                        .arg(cliSeconds, 0, 'g', 17)
                                        .arg(workbenchSeconds, 0, 'g', 17)));
                QCOMPARE(printed["alpha_beta_s"].toDouble(), *run->metric("cost_s"));
            }
        }
    }

    /// A run is simulated and predicted as it is: an imported mapping that breaks a pin keeps its violations as
    /// notes, and Runs > Simulate still gives its times (only meridian-cli's own --mapping must fit the project).
    void simulatesARunThatBreaksAPin()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        auto plain = request(doc, "geo", 1, "LU");
        plain.simulateSmallRuns = false;
        auto run = ops::runMapping(plain, m_mappers, Feedback());
        QVERIFY2(run, run ? "" : run.error().toString().c_str());
        const auto& app = doc.project()->applications[doc.project()->applicationIndex("LU")];
        const std::vector<int> pinned = app.pins.siteVector(app.comm.processCount());
        // Swap a pinned process with a free one on another site: capacities still hold, the pin does not.
        int p = -1, q = -1;
        for (int i = 0; i < app.comm.processCount() && q < 0; ++i)
            for (int j = 0; j < app.comm.processCount() && pinned[i] >= 0 && q < 0; ++j)
                if (pinned[j] < 0 && run->placement.site[j] != run->placement.site[i]) {
                    p = i;
                    q = j;
                }
        QVERIFY(p >= 0);
        std::swap(run->placement.site[p], run->placement.site[q]);
        // Site level: the simulation gives the processes the first free slots of their sites' hosts.
        std::fill(run->placement.host.begin(), run->placement.host.end(), -1);
        std::fill(run->placement.slot.begin(), run->placement.slot.end(), -1);
        QVERIFY(!model::checkPlacement(run->placement, doc.project()->topology, app.pins).empty());
        auto simulated = *run;
        QVERIFY2(ops::simulateRun(simulated, *doc.project(), doc.completeNetwork(), Feedback()), "simulate");
        QVERIFY(simulated.metric("simulated_s") && *simulated.metric("simulated_s") > 0.0);
        QVERIFY2(ops::predictRun(simulated, *doc.project(), doc.completeNetwork(), Feedback()), "predict");
        QVERIFY(simulated.metric("predicted_s") && *simulated.metric("predicted_s") > 0.0);
    }

    void measuresTheRunItMaps()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        Feedback feedback;
        auto run = ops::runMapping(request(doc, "geo"), m_mappers, feedback);
        QVERIFY2(run, run ? "" : run.error().toString().c_str());
        const auto& app = doc.project()->applications[0];
        const cost::AlphaBetaCost evaluator(doc.completeNetwork(), app.comm);
        QCOMPARE(*run->metric("cost_s"), evaluator.evaluate(run->placement.site));
        QVERIFY(std::abs(*run->metric("latency_s") + *run->metric("bandwidth_s") - *run->metric("cost_s"))
                < 1e-9 * *run->metric("cost_s"));
        QVERIFY(run->metric("comm_time_s"));
        QVERIFY(run->metric("runtime_s"));
        QCOMPARE(run->trafficBytes.rows(), 4);
        QCOMPARE(run->inputFingerprint, doc.fingerprint(app.name));
        QVERIFY(run->placement.hasHosts());
        QVERIFY(model::checkPlacement(run->placement, doc.project()->topology, app.pins).empty());
    }

    void simulatesTheRunsItMapsAndKeepsTheSimulationInTheRunFile()
    {
        // The sample's LU (112,000 messages) is under the automatic limit: the run carries its simulated time and
        // the loads of its site-level links.
        QTemporaryDir dir;
        const QString path = dir.filePath("p.meridian");
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        document::Run none;
        none.application = "no such application";
        QCOMPARE(ops::simulatedMessages(none, *doc.project()), 0.0);
        // The sample opens on LAMMPS melt 32 (a captured trace): LU is chosen by name.
        QVERIFY(doc.project()->applicationIndex("LU") >= 0);
        Feedback feedback;
        auto run = ops::runMapping(request(doc, "geo", 1, "LU"), m_mappers, feedback);
        QVERIFY2(run, run ? "" : run.error().toString().c_str());
        QCOMPARE(run->application, std::string("LU"));
        QCOMPARE(ops::simulatedMessages(*run, *doc.project()), 112000.0);
        const auto simulated = run->metric("simulated_s");
        QVERIFY(simulated && *simulated > 0.0);
        QVERIFY(!run->simulatedLinks.empty());
        // Its predicted time (the SMPI replay of LU as 500 bulk-synchronous steps) comes first, with the model in a
        // note; predicting again replaces it.
        const auto predicted = run->metric("predicted_s");
        QVERIFY(predicted && *predicted > 0.0);
        QCOMPARE(run->metrics.front().id, std::string("predicted_s"));
        QVERIFY(std::any_of(run->notes.begin(), run->notes.end(), [](const std::string& note) {
            return note.starts_with("predicted time: SMPI replay of all 500 bulk-synchronous steps");
        }));
        auto predictedAgain = *run;
        QVERIFY(ops::predictRun(predictedAgain, *doc.project(), doc.completeNetwork(), feedback));
        QCOMPARE(std::count_if(predictedAgain.metrics.begin(), predictedAgain.metrics.end(),
                               [](const document::RunMetric& m) { return m.id == "predicted_s"; }),
                 std::ptrdiff_t(1));
        QCOMPARE(*predictedAgain.metric("predicted_s"), *predicted);
        // Every WAN byte the alpha-beta breakdown counts crosses a site-pair link of the simulation.
        double pairBytes = 0.0;
        for (const auto& l : run->simulatedLinks) {
            QVERIFY(l.busyFraction >= 0.0 && l.busyFraction <= 1.0 + 1e-9);
            QVERIFY(l.utilisation >= 0.0 && l.utilisation <= 1.0 + 1e-9);
            if (l.from >= 0 && l.to >= 0)
                pairBytes += l.bytes;
        }
        QCOMPARE(pairBytes, *run->metric("wan_bytes"));
        // Link by link beside the alpha-beta cost: the pairs' and insides' parts add up to the whole cost, and the
        // busy times fit in the iteration.
        QVERIFY(!ops::compareWithSimulation(none));
        const auto comparison = ops::compareWithSimulation(*run);
        QVERIFY(comparison);
        QCOMPARE(comparison->simulatedSeconds, *simulated);
        double parts = 0.0;
        int insides = 0;
        for (const auto& l : comparison->links) {
            parts += l.alphaBetaSeconds;
            QVERIFY(l.busySeconds <= *simulated * (1 + 1e-9));
            insides += l.from == l.to ? 1 : 0;
            QCOMPARE(l.simulated, l.from != l.to);
            if (l.from < 0 || l.to < 0)
                QCOMPARE(l.alphaBetaSeconds, 0.0); // uplinks and downlinks: not in the alpha-beta cost
        }
        QVERIFY(std::abs(parts - comparison->alphaBetaSeconds) <= 1e-9 * comparison->alphaBetaSeconds);
        QCOMPARE(insides, 4);
        QVERIFY(comparison->costliest >= 0 && comparison->busiest >= 0);
        for (const auto& l : comparison->links) {
            QVERIFY(l.alphaBetaSeconds <= comparison->links[comparison->costliest].alphaBetaSeconds);
            QVERIFY(!l.simulated || l.busyFraction <= comparison->links[comparison->busiest].busyFraction);
        }
        // Simulating again replaces the metric, it does not add one.
        auto again = *run;
        QVERIFY(ops::simulateRun(again, *doc.project(), doc.completeNetwork(), feedback));
        QCOMPARE(std::count_if(again.metrics.begin(), again.metrics.end(),
                               [](const document::RunMetric& m) { return m.id == "simulated_s"; }),
                 std::ptrdiff_t(1));
        QCOMPARE(again.metrics[2].id, std::string("simulated_s"));
        QCOMPARE(again.metrics.back().id, std::string("runtime_s"));
        doc.addRuns({*run}, "geo");
        QVERIFY(doc.save(path));
        document::ProjectDocument reopened;
        QVERIFY(reopened.load(path));
        const auto& back = *reopened.runs()[0];
        QCOMPARE(*back.metric("simulated_s"), *simulated);
        QCOMPARE(*back.metric("predicted_s"), *predicted);
        QCOMPARE(back.simulatedLinks.size(), run->simulatedLinks.size());
        QCOMPARE(back.simulatedLinks.front().busyFraction, run->simulatedLinks.front().busyFraction);
        // A simulated link naming a site the project does not have is a damaged file, refused with the reason.
        QFile file(document::RunFile::pathFor(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray text = file.readAll();
        file.close();
        const int at = text.indexOf("\"simulated_links\"");
        QVERIFY(at > 0);
        text.insert(text.indexOf('[', at) + 1, "[7, -1, 1, 0.5, 0.5],");
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text);
        file.close();
        const auto damaged = document::RunFile::load(document::RunFile::pathFor(path), *doc.project());
        QVERIFY(!damaged);
        QVERIFY2(damaged.error().toString().find("simulated links do not name the project's 4 sites")
                     != std::string::npos,
                 damaged.error().toString().c_str());
    }

    void countsDollarsFromEgressAndInstancePrices()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        const double hourly[] = {1.5, 2.0, 3.25, 0.5};
        const double egress[] = {0.02, 0.02, 0.09, 0.05};
        for (int s = 0; s < 4; ++s)
            QVERIFY(doc.edit("prices", [&](const document::Project& p) -> Expected<document::Project> {
                auto priced = document::withSiteField(p, s, document::SiteField::InstancePrice,
                                                      std::to_string(hourly[s]));
                if (!priced)
                    return priced;
                return document::withSiteField(*priced, s, document::SiteField::Egress, std::to_string(egress[s]));
            }));
        auto run = ops::runMapping(request(doc, "greedy"), m_mappers, Feedback());
        QVERIFY2(run, run ? "" : run.error().toString().c_str());
        // One slot per node: every process uses its own node.
        double perHour = 0.0;
        for (int site : run->placement.site)
            perHour += hourly[site];
        double wan = 0.0;
        for (int k = 0; k < 4; ++k)
            for (int l = 0; l < 4; ++l)
                if (k != l)
                    wan += run->trafficBytes(k, l) * egress[k] / 1e9;
        QCOMPARE(*run->metric("instance_usd_per_hour"), perHour);
        // The run is predicted as it is mapped: the instances are paid for its predicted run time, not for the
        // traffic cost (eq. 3), which is not a time.
        QVERIFY(run->metric("predicted_s"));
        const double instance = perHour * *run->metric("predicted_s") / 3600.0;
        QVERIFY(std::abs(*run->metric("instance_usd") - instance) <= 1e-12 * instance);
        QVERIFY(std::abs(instance - perHour * *run->metric("cost_s") / 3600.0) > 1e-6 * instance);
        QVERIFY(std::abs(*run->metric("wan_usd") - wan) <= 1e-12 * wan);
        QVERIFY(std::abs(*run->metric("usd") - (wan + instance)) <= 1e-12 * (wan + instance));

        // Without any instance price a run reports no instance dollars (never a silent zero).
        document::ProjectDocument plain;
        QVERIFY(plain.load(sampleProject("ec2-4-regions")));
        for (int s = 0; s < 4; ++s)
            QVERIFY(plain.edit("no price", [&](const document::Project& p) {
                return document::withSiteField(p, s, document::SiteField::InstancePrice, "");
            }));
        auto unpriced = ops::runMapping(request(plain, "greedy"), m_mappers, Feedback());
        QVERIFY(unpriced);
        QVERIFY(!unpriced->metric("instance_usd"));
        QVERIFY(!unpriced->metric("usd"));
        QVERIFY(unpriced->metric("wan_usd"));

        // A used site without an instance price, or a sending site without an egress price, would make a sum
        // too low: that part and the total are not reported.
        QVERIFY(doc.edit("one price gone", [&](const document::Project& p) {
            return document::withSiteField(p, 2, document::SiteField::InstancePrice, "");
        }));
        auto partInstances = ops::runMapping(request(doc, "greedy"), m_mappers, Feedback());
        QVERIFY(partInstances);
        QVERIFY(partInstances->placement.site.end()
                != std::find(partInstances->placement.site.begin(), partInstances->placement.site.end(), 2));
        QVERIFY(!partInstances->metric("instance_usd") && !partInstances->metric("usd"));
        QVERIFY(partInstances->metric("wan_usd"));
        QVERIFY(doc.edit("egress gone", [&](const document::Project& p) -> Expected<document::Project> {
            auto priced = document::withSiteField(p, 2, document::SiteField::InstancePrice, "3.25");
            if (!priced)
                return priced;
            return document::withSiteField(*priced, 2, document::SiteField::Egress, "");
        }));
        auto partEgress = ops::runMapping(request(doc, "greedy"), m_mappers, Feedback());
        QVERIFY(partEgress);
        QVERIFY(!partEgress->metric("wan_usd") && !partEgress->metric("usd"));
        QCOMPARE(*partEgress->metric("instance_usd_per_hour"), perHour);
    }

    void keepsMonteCarloSamplesForTheCdf()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        auto r = request(doc, "monte-carlo");
        auto params = ParamValues::with(m_mappers.find("monte-carlo")->parameters(), r.params, "samples",
                                        std::int64_t(2000));
        QVERIFY(params);
        r.params = *params;
        Feedback feedback;
        auto run = ops::runMapping(r, m_mappers, feedback);
        QVERIFY(run);
        QVERIFY(!run->costSamples.empty());
        QVERIFY(!run->bestCurve.empty());
    }

    void reportsAnInfeasibleApplicationByName()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        auto r = request(doc, "greedy");
        auto project = *doc.project();
        project.topology = *model::Topology::create({project.topology.site(0)});
        model::Network network(1);
        network.set(model::NetworkQuantity::Latency, 0, 0, 0.1);
        network.set(model::NetworkQuantity::Bandwidth, 0, 0, 100);
        r.project = std::make_shared<const document::Project>(project);
        r.completeNetwork = network;
        Feedback feedback;
        auto run = ops::runMapping(r, m_mappers, feedback);
        QVERIFY(!run);
        QVERIFY(run.error().message.find(r.application) != std::string::npos);
    }

    void sweepsTheConstraintRatioAndTheProcessCount()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        ops::SweepRequest s;
        s.project = doc.project();
        s.completeNetwork = doc.completeNetwork();
        s.application = "LU"; // by name: the sample opens on LAMMPS melt 32
        QVERIFY(doc.project()->applicationIndex(s.application) >= 0);
        s.points = {0.0, 0.4};
        s.mappers = {{"greedy", {}}, {"geo", ParamValues::defaults(m_mappers.find("geo")->parameters())}};
        s.seeds = 2;
        Feedback feedback;
        auto result = ops::runSweep(s, m_mappers, feedback);
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        QCOMPARE(result->normalisedCost.size(), std::size_t(2));
        for (const auto& row : result->normalisedCost)
            for (double v : row)
                QVERIFY(v > 0 && v < 1.0); // both beat random on LU
        s.kind = ops::SweepKind::ProcessCount;
        s.pattern = "lu";
        s.points = {16, 64};
        auto counts = ops::runSweep(s, m_mappers, feedback);
        QVERIFY2(counts, counts ? "" : counts.error().toString().c_str());
        QCOMPARE(counts->runtimeSeconds[1].size(), std::size_t(2));
        s.points = {7}; // LU needs a grid: the error names the point
        s.pattern = "bt";
        auto bad = ops::runSweep(s, m_mappers, feedback);
        QVERIFY(!bad);
        QVERIFY(bad.error().message.find("7 processes") != std::string::npos);
    }

    void importsSitesAndMappingsOrSaysWhereTheyAreWrong()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        const auto before = doc.project();
        QTemporaryDir dir;
        const QString csv = dir.filePath("sites.csv");
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("name,lat,lon,nodes\nus-east,38.9,-77.4,16\nparis,48.9,2.3,4\nnot-a-site,abc,1,1\n");
        f.close();
        auto s = actions::importSites(doc, csv);
        QVERIFY(!s);
        QCOMPARE(s.error().where.line, 4);
        QCOMPARE(doc.project(), before);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("name,lat,lon,nodes\nus-east,38.9,-77.4,64\nparis,48.9,2.3,4\n");
        f.close();
        QVERIFY(actions::importSites(doc, csv));
        QCOMPARE(doc.project()->topology.siteCount(), 2);
        // us-east kept its measured intra-site entries.
        QCOMPARE(doc.project()->network.provenance(model::NetworkQuantity::Bandwidth, 0, 0),
                 before->network.provenance(model::NetworkQuantity::Bandwidth, 0, 0));
        doc.undoStack()->undo();
        QCOMPARE(doc.project(), before);

        // A mapping exported from a run comes back as the same placement.
        Feedback feedback;
        auto run = ops::runMapping(request(doc, "greedy"), m_mappers, feedback);
        QVERIFY(run);
        const QString mapping = dir.filePath("map.csv");
        QVERIFY(actions::exportMappingCsv(*run, *doc.project(), mapping));
        QVERIFY(actions::importMapping(doc, run->application, mapping));
        QCOMPARE(doc.runs().back()->placement.site, run->placement.site);
        QCOMPARE(*doc.runs().back()->metric("cost_s"), *run->metric("cost_s"));
        const QString rankfile = dir.filePath("ranks");
        QVERIFY(actions::exportLauncher(*run, *doc.project(), io::LauncherFormat::OpenMpiRankfile, rankfile));
        QFile r(rankfile);
        QVERIFY(r.open(QIODevice::ReadOnly));
        QVERIFY(r.readAll().contains("rank 0="));
    }

    void savesRunsBesideTheProjectAndReopensThemWithTheirStaleMarks()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.meridian");
        {
            document::ProjectDocument doc;
            QVERIFY(doc.load(sampleProject("ec2-4-regions")));
            QVERIFY(doc.save(path));
            Feedback feedback;
            auto mc = request(doc, "monte-carlo");
            mc.params = *ParamValues::with(m_mappers.find("monte-carlo")->parameters(), mc.params, "samples",
                                           std::int64_t(500));
            auto a = ops::runMapping(request(doc, "geo"), m_mappers, feedback);
            auto b = ops::runMapping(mc, m_mappers, feedback);
            QVERIFY(a && b);
            doc.addRuns({*a, *b}, "two");
            QVERIFY(doc.save(path));
            QVERIFY(QFile::exists(document::RunFile::pathFor(path)));
            // Reopened untouched, the runs are current: the fingerprint survives the file round trip.
            document::ProjectDocument same;
            QVERIFY(same.load(path));
            QCOMPARE(same.runs().size(), std::size_t(2));
            QVERIFY(same.staleRuns().empty());
            const auto& app = doc.project()->applications[0];
            const int pinned = app.pins.siteVector(app.comm.processCount())[1];
            QVERIFY(doc.edit("Pin", [&](const document::Project& p) {
                return document::withPin(p, 0, 1, pinned == 0 ? 1 : 0);
            }));
            QCOMPARE(doc.staleRuns().size(), std::size_t(2));
            QVERIFY(doc.save(path));
        }
        document::ProjectDocument reopened;
        QVERIFY(reopened.load(path));
        QCOMPARE(reopened.runs().size(), std::size_t(2));
        QCOMPARE(reopened.staleRuns().size(), std::size_t(2)); // the pin came after both runs
        const auto& geo = *reopened.runs()[0];
        QCOMPARE(geo.algorithm, std::string("geo"));
        QVERIFY(geo.params.validate(m_mappers.find("geo")->parameters()));
        QCOMPARE(geo.trafficBytes.rows(), 4);
        QCOMPARE(reopened.runs()[1]->costSamples.size(), std::size_t(500));
        QVERIFY(!reopened.runs()[1]->bestCurve.empty());
        // New runs get fresh ids.
        QCOMPARE(reopened.addRuns({geo}, "copy"), std::vector<int>{3});

        // A stale run that no longer fits is left out and counted; a broken file is refused.
        QVERIFY(reopened.edit("Drop a site", [](const document::Project& p) { return document::withoutSite(p, 3); }));
        QVERIFY(reopened.save(path));
        document::ProjectDocument third;
        QVERIFY(third.load(path));
        QCOMPARE(third.skippedRuns(), 3);
        QCOMPARE(third.runs().size(), std::size_t(0));
        QVERIFY(!QFile::exists(document::RunFile::pathFor(path)) || third.runs().empty());
        QFile broken(document::RunFile::pathFor(path));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\n\"format\": \"meridian-runs\",\n\"runs\": [ oops ]}");
        broken.close();
        document::ProjectDocument fourth;
        const auto s = fourth.load(path);
        QVERIFY(!s);
        QCOMPARE(s.error().where.line, 3);
        QCOMPARE(fourth.project()->topology.siteCount(), 0);
    }
};

QTEST_MAIN(TestMappingJob)
#include "test_mapping_job.moc"
