// The report: numbers formatted with units and even digits, the recommendation, and the PDF that
// `meridian-cli report` prints, read back page by page with pdftotext: no table header or heading ends a page, no
// header word is split, the charts are vector drawings (their text is in the PDF). Each page is also rendered
// with pdftoppm into build/screenshots/report/ for a person to look at.

#include "app/project/run_analysis.h"
#include "app/project/ui/project_document.h"
#include "app/report/report_numbers.h"
#include "app/report/report_writer.h"
#include "cli_run.h"
#include "report_figure_checks.h"
#include "test_support.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextDocumentFragment>
#include <QtTest>

using namespace meridian;
using meridian::test::cli;
using meridian::test::sampleProject;

namespace {

QString run(const QString& program, const QStringList& args)
{
    QProcess p;
    p.start(program, args);
    p.waitForFinished(60000);
    return QString::fromUtf8(p.readAllStandardOutput());
}

QString normalised(QString text) { return text.simplified(); }

/// The texts of every table header row and heading of the report's HTML, whitespace-normalised.
QStringList headerTexts(const QString& html)
{
    QStringList out;
    static const QRegularExpression thead("<thead><tr>(.*?)</tr></thead>");
    static const QRegularExpression heading("<h[23][^>]*>(.*?)</h[23]>");
    static const QRegularExpression tag("<[^>]+>");
    for (const auto* re : {&thead, &heading}) {
        auto it = re->globalMatch(html);
        while (it.hasNext()) {
            QString text = it.next().captured(1);
            text.replace("</th>", " ").remove(tag);
            out << normalised(QTextDocumentFragment::fromHtml(text).toPlainText());
        }
    }
    out.removeDuplicates();
    return out;
}

document::Run mappingRun(int id, const std::string& algorithm, double cost, double usd)
{
    document::Run r;
    r.id = id;
    r.algorithm = algorithm;
    r.application = "lu";
    r.metrics = {{"cost_s", "Mapping cost", "s", cost}, {"usd", "Dollars", "USD", usd}};
    return r;
}

} // namespace

class TestReport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void formatsQuantitiesWithUnitsAndThreeDigits()
    {
        QCOMPARE(report::formatQuantity(9.1e-05, "s"), QString("91.0 \u00b5s"));
        QCOMPARE(report::formatQuantity(0.845, "s"), QString("845 ms"));
        QCOMPARE(report::formatQuantity(1.2, "s"), QString("1.20 s"));
        QCOMPARE(report::formatQuantity(251.476, "USD"), QString("$251"));
        QCOMPARE(report::formatQuantity(0.012345, "USD"), QString("$0.0123"));
        QCOMPARE(report::formatQuantity(1234.4, "USD"), QString("$1,234"));
        QCOMPARE(report::formatQuantity(31.5e6, "bytes"), QString("31.5 MB"));
        QCOMPARE(report::formatQuantity(999.7e3, "bytes"), QString("1.00 MB"));
        QCOMPARE(report::formatQuantity(9.996, "s"), QString("10.0 s"));
        QCOMPARE(report::formatQuantity(2.414, "x"), QString("2.41\u00d7"));
        QCOMPARE(report::formatQuantity(0.4567, "%"), QString("45.7%"));
        QCOMPARE(report::formatQuantity(NAN, "s"), QString("\u2014"));
        QCOMPARE(report::formatQuantity(0.0, "bytes"), QString("0 B"));
    }

    void recommendsTheFastestAgainstTheRandomMean()
    {
        std::vector<std::shared_ptr<const document::Run>> runs;
        for (auto r :
             {mappingRun(1, "random", 4.0, 2.0), mappingRun(2, "random", 6.0, 4.0), mappingRun(3, "greedy", 2.0, 1.5),
              mappingRun(4, "refine", 1.0, 1.0), mappingRun(5, "geo", 1.0, 0.5)})
            runs.push_back(std::make_shared<const document::Run>(r));
        const auto out = document::recommend(runs, [](const document::Run& r) { return r.id == 5 && false; });
        QCOMPARE(out.size(), std::size_t(1));
        QCOMPARE(out[0].best->id, 5); // a tie in cost goes to the cheaper run
        QCOMPARE(out[0].runnerUp->id, 4);
        QCOMPARE(out[0].baselineKind, std::string("random"));
        QCOMPARE(*out[0].baselineCost, 5.0);
        QCOMPARE(*out[0].baselineUsd, 3.0);
        QCOMPARE(out[0].usdMetric, std::string("usd"));
        // A stale run is never recommended.
        const auto fresh = document::recommend(runs, [](const document::Run& r) { return r.id == 5; });
        QCOMPARE(fresh[0].best->id, 4);
    }

    // With a predicted time on every run, the fastest predicted is recommended; eq. 3's favourite, slower, is named
    // with why its steps are slow. Predicted times within 1% are level: the lower traffic cost goes first.
    void recommendsByPredictedTimeAndSaysWhereEq3Disagrees()
    {
        document::Project project;
        project.topology = *model::Topology::create(
            {test::site("sydney", 0, 0, 2, 1), test::site("saopaulo", 0, 0, 2, 1)});
        project.network = model::Network(2);
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) {
                project.network.set(model::NetworkQuantity::Latency, i, j, i == j ? 0.1 : 300.0);
                project.network.set(model::NetworkQuantity::Bandwidth, i, j, i == j ? 1000.0 : 10.0);
            }
        project.applications.emplace_back();
        auto& app = project.applications.back();
        app.name = std::string("lu");
        app.comm = *model::CommMatrix::fromEntries(4, {{0, 1, 1e6, 10}, {2, 3, 1e6, 10}, {1, 2, 1e3, 10}}, true);
        const auto placed = [&](int id, const char* algorithm, std::vector<int> sites, double cost, double predicted) {
            document::Run r = mappingRun(id, algorithm, cost, 1.0);
            r.metrics.push_back({"predicted_s", "Predicted time", "s", predicted});
            r.placement.site = std::move(sites);
            r.trafficBytes = Eigen::MatrixXd::Zero(2, 2);
            const auto& v = app.comm.volume();
            for (int i = 0; i < v.outerSize(); ++i)
                for (model::CommMatrix::Sparse::InnerIterator it(v, i); it; ++it)
                    r.trafficBytes(r.placement.site[i], r.placement.site[it.col()]) += it.value();
            return std::make_shared<const document::Run>(r);
        };
        const std::vector<std::shared_ptr<const document::Run>> runs{placed(1, "random", {0, 1, 0, 1}, 9.0, 9.0),
                                                                     placed(2, "refine", {0, 0, 1, 1}, 2.0, 4.0),
                                                                     placed(3, "greedy", {0, 1, 1, 0}, 3.0, 1.0)};
        const auto out = document::recommend(runs, [](const document::Run&) { return false; });
        QCOMPARE(out.size(), std::size_t(1));
        QCOMPARE(out[0].metric, std::string("predicted_s"));
        QCOMPARE(out[0].best->id, 3);
        QCOMPARE(*out[0].baselineCost, 9.0);
        QVERIFY(out[0].lowestTrafficCost);
        QCOMPARE(out[0].lowestTrafficCost->id, 2);
        const std::string words = document::trafficButSlower(*runs[1], *runs[2], project, project.network);
        QVERIFY2(words.find("#2 refine has the lower traffic cost (2 s against 3 s), but is slower: 4 s against 1 s "
                            "predicted; its steps wait for the 300 ms of sydney-saopaulo")
                     != std::string::npos,
                 words.c_str());
        QVERIFY(document::trafficButSlower(*runs[2], *runs[1], project, project.network).empty());
        // Level predicted times: the lower traffic cost is recommended and nothing is said.
        const std::vector<std::shared_ptr<const document::Run>> level{runs[0],
                                                                      placed(2, "refine", {0, 0, 1, 1}, 2.0, 1.005),
                                                                      runs[2]};
        const auto tie = document::recommend(level, [](const document::Run&) { return false; });
        QCOMPARE(tie[0].best->id, 2);
        QVERIFY(!tie[0].lowestTrafficCost);
        QVERIFY(document::trafficButSlower(*level[1], *level[2], project, project.network).empty());
        // A run without a predicted time: all are ranked by eq. 3.
        const std::vector<std::shared_ptr<const document::Run>> mixed{runs[0], runs[2],
                                                                      std::make_shared<const document::Run>(
                                                                          mappingRun(4, "geo", 2.5, 1.0))};
        QCOMPARE(document::recommend(mixed, [](const document::Run&) { return false; })[0].metric,
                 std::string("cost_s"));
    }

    void heaviestPairsAreTheCostliest()
    {
        document::Run r = mappingRun(1, "geo", 3.0, 1.0);
        r.trafficBytes = Eigen::MatrixXd::Zero(3, 3);
        r.timeSeconds = Eigen::MatrixXd::Zero(3, 3);
        r.trafficBytes(0, 1) = 1e9;
        r.timeSeconds(0, 1) = 0.5;
        r.trafficBytes(2, 0) = 2e9;
        r.timeSeconds(2, 0) = 2.5;
        r.trafficBytes(1, 1) = 5e9; // inside a site: not a pair
        std::vector<model::Site> sites;
        for (auto name : {"a", "b", "c"}) {
            sites.push_back(test::site(name, 0, 0, 1, 4));
            sites.back().egressUsdPerGB = 0.02;
        }
        const auto topology = *model::Topology::create(sites);
        const auto pairs = document::heaviestSitePairs(r, topology, 5);
        QCOMPARE(pairs.size(), std::size_t(2));
        QCOMPARE(pairs[0].from, 2);
        QCOMPARE(pairs[0].to, 0);
        QVERIFY(qFuzzyCompare(pairs[0].shareOfCost, 2.5 / 3.0));
        QVERIFY(qFuzzyCompare(*pairs[0].egressUsd, 0.04));
        QCOMPARE(document::heaviestSitePairs(r, topology, 1).size(), std::size_t(1));
    }

    void cliPrintsAReportWhoseTablesKeepTheirHeaders()
    {
        QTemporaryDir dir;
        const QString pdf = dir.filePath("study.pdf"), html = dir.filePath("study.html");
        // No saved runs: the command runs the default mappers on lu first.
        const auto r = cli({"report", "--project", sampleProject("ec2-4-regions"), "--application", "LU", "--out", pdf},
                           300000);
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(r.json()["runs"].toInt(), 6);
        const auto h = cli({"report", "--project", sampleProject("ec2-4-regions"), "--application", "LU", "--out", html},
                           300000);
        QVERIFY2(h.code == 0, h.err.constData());
        const QString source = QString::fromUtf8(test::readAll(html));
        QVERIFY(source.contains("<svg")); // charts and the map inline as vectors
        QVERIFY(source.contains("For <b>LU</b>, use <b>"));
        // Coordinates to two decimals, one processes-per-site table per application, no "—/GB" or "..".
        QVERIFY(source.contains("\u221277.40\u00b0"));
        QCOMPARE(source.count("Processes per site"), 1);
        QVERIFY(!source.contains("\u2014/GB"));
        QVERIFY(!source.contains(".."));

        // Every text drawn in a figure (the map, the heatmaps, the charts) prints at 7 pt or more, and none is
        // elided ("monte-c...").
        const auto texts = test::figureTexts(source);
        QVERIFY(texts.size() > 100);
        const QStringList problems = test::figureTextProblems(texts);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        // Site names on the map, run names in the charts and the heatmaps' site labels are all there in full.
        const auto hasText = [&texts](const QString& wanted) {
            return std::any_of(texts.begin(), texts.end(), [&](const test::PrintedText& t) { return t.text == wanted; });
        };
        for (const QString& wanted : QStringList{"us-east", "singapore", "monte-carlo", "scotch-bw"})
            QVERIFY2(hasText(wanted), qPrintable(wanted));

        const QString info = run("pdfinfo", {pdf});
        const int pages = QRegularExpression("Pages:\\s+(\\d+)").match(info).captured(1).toInt();
        QVERIFY2(pages >= 6, qPrintable(info));
        const QStringList headers = headerTexts(source);
        QVERIFY2(headers.contains(
                     "Run Predicted time Traffic cost Speed-up Between sites Egress Dollars Mapper ran Status"),
                 qPrintable(headers.join(" | ")));
        const QString shots = QString(MERIDIAN_BINARY_DIR) + "/screenshots/report";
        QDir().mkpath(shots);
        QString all;
        for (int page = 1; page <= pages; ++page) {
            const QString text = run("pdftotext",
                                     {"-layout", "-f", QString::number(page), "-l", QString::number(page), pdf, "-"});
            all += text;
            QStringList lines = text.split('\n');
            while (!lines.isEmpty() && normalised(lines.last()).isEmpty())
                lines.removeLast();
            QVERIFY2(!lines.isEmpty(), qPrintable(QString("page %1 is empty").arg(page)));
            const QString last = normalised(lines.last());
            QVERIFY2(!headers.contains(last), qPrintable(QString("page %1 ends with a header: %2").arg(page).arg(last)));
        }
        // Whole header words, never "Applica" / "tion"; the summary and the chart text (vector, so searchable).
        for (const QString& word : QStringList{"Longitude", "Application", "Between sites", "Speed-up"})
            QVERIFY2(all.contains(word), qPrintable(word));
        QVERIFY(all.contains("Prepared with"));
        QVERIFY(all.contains("Where the time goes"));
        QVERIFY(all.contains("share of placements")); // the Monte Carlo CDF's axis
        QVERIFY(all.contains("Pareto"));
        QProcess::execute("pdftoppm", {"-png", "-r", "60", pdf, shots + "/page"});
        QVERIFY(QFile::exists(shots + (pages >= 10 ? "/page-01.png" : "/page-1.png")));
    }

    // A graph project without runs: the report partitions its graph with hash, HDRF, G-Cut and Geo-Cut and
    // recommends a partitioner against hash.
    void aGraphProjectsReportRecommendsAPartitioner()
    {
        QTemporaryDir dir;
        const QString html = dir.filePath("graph.html");
        const auto r = cli({"report", "--project", sampleProject("geo-cut-ec2-8-regions"), "--out", html}, 300000);
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(r.json()["runs"].toInt(), 4);
        const QString source = QString::fromUtf8(test::readAll(html));
        QVERIFY(source.contains("For the graph <b>wiki-vote</b>, partition with <b>"));
        QVERIFY(source.contains("than hash's"));
        QVERIFY(!source.contains("No current runs"));
    }

    void refusesBadArgumentsClearly()
    {
        QTemporaryDir dir;
        auto r = cli({"report", "--project", sampleProject("ec2-4-regions"), "--out", dir.filePath("r.docx")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(".pdf or .html"));
        r = cli({"report", "--project", dir.filePath("missing.meridian"), "--out", dir.filePath("r.pdf")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("missing.meridian"));
        r = cli({"report", "--project", sampleProject("ec2-4-regions"), "--runs", dir.filePath("none.runs.json"),
                 "--out", dir.filePath("r.pdf")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("none.runs.json"));
        r = cli({"report", "--project", sampleProject("ec2-4-regions"), "--application", "nope", "--out",
                 dir.filePath("r.pdf")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("no application 'nope'"));
        QVERIFY(!QFile::exists(dir.filePath("r.pdf")));
        r = cli({"report", "--project", sampleProject("ec2-4-regions"), "--application", "LU", "--out",
                 dir.filePath("missing-dir/r.pdf")},
                300000);
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("missing-dir"));
    }
};

QTEST_GUILESS_MAIN(TestReport)
#include "test_report.moc"
