// Benchmarks of the workbench: heatmap redraw of matrices up to 8192 x 8192 (target: under 30 ms), the
// main thread's event-loop latency while a long Monte Carlo run goes (target: never blocked more than
// 50 ms) and how long a cancel takes to stop that run (target: 100 ms); the same for a graph of 10^7 edges
// imported, partitioned by hdrf and geo-cut from the run panel, and geo-cut canceled. With the argument
// "scale": a project of 65,536 processes on 64 sites opened, its volume heatmap redrawn (target: 30 ms), geo
// run from the run panel, the run selected and the volume reordered by its sites (target: the event loop never
// blocked more than 50 ms). Prints RESULT lines.
#include "app/jobs/job_runner.h"
#include "app/mapping/ui/run_panel.h"
#include "app/partitioning/ui/graphs_feature.h"
#include "app/project/ui/matrix_panel.h"
#include "app/project/ui/project_document.h"
#include "app/workbench/jobs_panel.h"
#include "app/workbench/main_window.h"
#include "core/common/random.h"
#include "core/io/comm_io.h"
#include "core/synth/patterns.h"
#include "core/synth/power_law_graph.h"
#include "widgets/heatmap_view.h"
#include "widgets/param_form.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <fstream>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <functional>
#include <vector>

using namespace meridian;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double maxOf(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }

// Times `rounds` full redraws (binning + painting) and cached repaints of a heatmap.
void benchHeatmap(const char* name, widgets::HeatmapData data, int rounds)
{
    widgets::HeatmapView view;
    view.resize(1000, 860);
    view.show();
    QElapsedTimer clock;
    clock.start();
    view.setData(std::move(data));
    const double setDataMs = clock.nsecsElapsed() / 1e6;
    std::vector<double> rebuild, repaint, zoomed, full;
    // The widget paints into an image of its size, as it would on screen (paintEvent through render()).
    QImage target(view.size(), QImage::Format_ARGB32_Premultiplied);
    auto paint = [&] { view.render(&target); };
    for (int k = 0; k < rounds; ++k) {
        rebuild.push_back(view.rebuildForBenchmark());
        clock.restart();
        paint();
        repaint.push_back(clock.nsecsElapsed() / 1e6);
        // A full redraw after a change: binning again plus painting.
        view.setLogScale(k % 2 == 0);
        clock.restart();
        paint();
        full.push_back(clock.nsecsElapsed() / 1e6);
    }
    const int n = view.data().rows();
    for (int k = 0; k < rounds; ++k) {
        view.zoomTo(QRect(n / 4 + k, n / 4, n / 8, n / 8));
        clock.restart();
        paint();
        zoomed.push_back(clock.nsecsElapsed() / 1e6);
    }
    std::printf("RESULT case=heatmap matrix=%s rows=%d set_data_ms=%.2f bin_median_ms=%.2f full_redraw_median_ms=%.2f "
                "full_redraw_max_ms=%.2f cached_repaint_median_ms=%.2f zoomed_redraw_median_ms=%.2f target_ms=30 %s\n",
                name, n, setDataMs, median(rebuild), median(full), maxOf(full), median(repaint), median(zoomed),
                maxOf(full) < 30 && maxOf(zoomed) < 30 ? "met=yes" : "met=no");
    std::fflush(stdout);
}

widgets::HeatmapData randomSparse(int n, int perRow)
{
    Random rng(7);
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(static_cast<std::size_t>(n) * perRow);
    for (int r = 0; r < n; ++r)
        for (int k = 0; k < perRow; ++k)
            t.emplace_back(r, static_cast<int>(rng.uniformInt(static_cast<std::uint64_t>(n))),
                           1.0 + rng.uniform01() * 1e6);
    widgets::HeatmapData d;
    d.isSparse = true;
    d.unit = "bytes";
    d.sparse.resize(n, n);
    d.sparse.setFromTriplets(t.begin(), t.end());
    return d;
}

/// Runs the event loop until `done` or `limitMs`, timing the gaps between 5 ms timer ticks; returns how long the
/// loop was blocked beyond each tick (ms), sorted.
std::vector<double> blockedGaps(const std::function<bool()>& done, qint64 limitMs)
{
    std::vector<double> gaps{0.0};
    QElapsedTimer clock, tick;
    clock.start();
    tick.start();
    QTimer timer;
    timer.setInterval(5);
    QObject::connect(&timer, &QTimer::timeout, [&] {
        gaps.push_back(tick.nsecsElapsed() / 1e6 - 5.0);
        tick.restart();
    });
    timer.start();
    while (!done() && clock.elapsed() < limitMs)
        QApplication::processEvents(QEventLoop::WaitForMoreEvents, 20);
    timer.stop();
    std::sort(gaps.begin(), gaps.end());
    return gaps;
}

/// The longest time the event loop was blocked beyond a tick (ms) until `done` or `limitMs`.
double maxBlockedWhile(const std::function<bool()>& done, qint64 limitMs)
{
    return std::max(0.0, blockedGaps(done, limitMs).back());
}

/// Writes a graph as a SNAP edge list.
bool writeSnap(const model::Graph& g, const QString& path)
{
    std::FILE* f = std::fopen(path.toLocal8Bit().constData(), "wb");
    if (!f)
        return false;
    std::string buffer;
    char line[48];
    for (std::size_t e = 0; e < g.edgeCount(); ++e) {
        char* at = std::to_chars(line, line + 20, g.originalId[g.src[e]]).ptr;
        *at++ = '\t';
        at = std::to_chars(at, at + 20, g.originalId[g.dst[e]]).ptr;
        *at++ = '\n';
        buffer.append(line, at);
        if (buffer.size() > (1u << 22)) {
            std::fwrite(buffer.data(), 1, buffer.size(), f);
            buffer.clear();
        }
    }
    std::fwrite(buffer.data(), 1, buffer.size(), f);
    return std::fclose(f) == 0;
}

/// A project of 65,536 processes (LU) on 64 sites of 64 nodes x 16 slots: open it, show its volume heatmap and
/// redraw it, run geo from the run panel, select the run and show the volume reordered by its sites.
int benchScaleProject(workbench::MainWindow& window)
{
    QTemporaryDir dir;
    const int n = 65536;
    auto lu = synth::generatePattern(synth::Pattern::LU, {.processes = n});
    if (!lu || !io::writeCommMatrix(dir.filePath("lu.volume.mtx").toStdString(), *lu, false)
        || !io::writeCommMatrix(dir.filePath("lu.messages.mtx").toStdString(), *lu, true)) {
        std::printf("RESULT case=project65536 error=cannot-write-matrices\n");
        return 1;
    }
    {
        std::ofstream out(dir.filePath("scale.meridian").toStdString());
        out << "{\"format\": \"meridian-project\", \"version\": 1, \"name\": \"65,536 processes\", \"sites\": [";
        Random random(5);
        for (int s = 0; s < 64; ++s)
            out << (s ? ", " : "") << "{\"name\": \"site" << s << "\", \"lat\": " << -60.0 + 130.0 * random.uniform01()
                << ", \"lon\": " << -180.0 + 360.0 * random.uniform01() << ", \"nodes\": 64, \"slots\": 16}";
        out << "], \"applications\": [{\"name\": \"LU\", \"volume\": \"lu.volume.mtx\", \"messages\": "
               "\"lu.messages.mtx\"}]}\n";
    }
    lu = Expected<model::CommMatrix>(model::CommMatrix());
    QElapsedTimer clock;
    clock.start();
    if (auto opened = window.loadProject(dir.filePath("scale.meridian")); !opened) {
        std::printf("RESULT case=project65536 error=cannot-open (%s)\n", opened.error().toString().c_str());
        return 1;
    }
    const double openS = clock.nsecsElapsed() / 1e9;
    auto* matrices = window.matrixPanel();
    window.centralTabs()->setCurrentWidget(matrices);
    clock.restart();
    matrices->showSource(workbench::MatrixPanel::Source::Volume, 0);
    QApplication::processEvents();
    const double showMs = clock.nsecsElapsed() / 1e6;
    // Full redraws (binning and painting) after a change of scale, as benchHeatmap measures them.
    auto* heatmap = matrices->heatmap();
    QImage target(heatmap->size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> redraw;
    for (int k = 0; k < 9; ++k) {
        heatmap->setLogScale(k % 2 == 0);
        clock.restart();
        heatmap->render(&target);
        redraw.push_back(clock.nsecsElapsed() / 1e6);
    }
    auto* doc = window.document();
    bool failed = false;
    QObject::connect(window.jobRunner(), &jobs::JobRunner::jobEnded,
                     [&](int, jobs::JobEnd end) { failed = failed || end != jobs::JobEnd::Finished; });
    auto* runPanel = window.runPanel();
    runPanel->setCheckedMappers({"geo"});
    const std::size_t before = doc->runs().size();
    clock.restart();
    runPanel->runChecked();
    const double runBlocked = maxBlockedWhile([&] { return doc->runs().size() > before || failed; }, 600000);
    const double runS = clock.nsecsElapsed() / 1e9;
    double selectMs = 0.0;
    double reorderMs = 0.0;
    double afterBlocked = 0.0;
    if (!failed && doc->runs().size() > before) {
        clock.restart();
        doc->setCurrentRun(doc->runs().back()->id);
        QApplication::processEvents();
        selectMs = clock.nsecsElapsed() / 1e6;
        clock.restart();
        matrices->setArrangement(workbench::MatrixPanel::Arrangement::ReorderBySite);
        heatmap->render(&target);
        reorderMs = clock.nsecsElapsed() / 1e6;
        afterBlocked = maxBlockedWhile([] { return false; }, 1000);
    }
    // Showing the volume heatmap the first time blocks the event loop as long as the other steps do, so it counts.
    const double worst = std::max({showMs, runBlocked, afterBlocked, selectMs, reorderMs});
    std::printf("RESULT case=project65536 processes=%d sites=64 open_s=%.2f show_volume_ms=%.1f "
                "full_redraw_median_ms=%.2f full_redraw_max_ms=%.2f geo_run_s=%.2f run_max_blocked_ms=%.2f "
                "select_run_ms=%.1f reorder_by_site_ms=%.1f after_max_blocked_ms=%.2f failed=%d target_redraw_ms=30 "
                "target_blocked_ms=50 %s\n",
                n, openS, showMs, median(redraw), maxOf(redraw), runS, runBlocked, selectMs, reorderMs, afterBlocked,
                failed ? 1 : 0, maxOf(redraw) < 30 && worst < 50 && !failed ? "met=yes" : "met=no");
    std::fflush(stdout);
    return failed ? 1 : 0;
}

/// A graph of 10^7 edges in the Geo-Cut sample: import, hdrf and geo-cut runs, geo-cut canceled.
int benchPartitionWorkbench(workbench::MainWindow& window)
{
    QTemporaryDir dir;
    const QString graphPath = dir.filePath("power-law-1e7.txt");
    auto graph = synth::generatePowerLawGraph(10000000, 2.1, 3);
    if (!graph || !writeSnap(*graph, graphPath)) {
        std::printf("RESULT case=partition_event_loop error=cannot-write-graph\n");
        return 1;
    }
    graph = model::Graph();
    if (!window.loadProject(QString(MERIDIAN_SOURCE_DIR)
                            + "/sample_projects/geo-cut-ec2-8-regions/geo-cut-ec2-8-regions.meridian")) {
        std::printf("RESULT case=partition_event_loop error=cannot-open-sample\n");
        return 1;
    }
    auto* doc = window.document();
    bool ended = false, failed = false;
    QObject::connect(window.jobRunner(), &jobs::JobRunner::jobEnded, [&](int, jobs::JobEnd end) {
        ended = true;
        failed = failed || end == jobs::JobEnd::Failed;
    });
    QElapsedTimer clock;
    clock.start();
    window.graphs()->importGraph({"big", graphPath.toStdString(), io::GraphFormat::Snap, {}, 1});
    const double importBlocked = maxBlockedWhile([&] { return doc->project()->graphIndex("big") >= 0; }, 300000);
    const double importSeconds = clock.nsecsElapsed() / 1e9;
    auto* runPanel = window.runPanel();
    runPanel->applicationChooser()->setCurrentText("big");
    double runBlocked = 0.0;
    std::vector<double> runSeconds;
    for (const char* algorithm : {"hdrf", "geo-cut"}) {
        runPanel->setCheckedMappers({algorithm});
        const std::size_t before = doc->runs().size();
        clock.restart();
        runPanel->runChecked();
        runBlocked = std::max(runBlocked,
                              maxBlockedWhile([&] { return doc->runs().size() > before || failed; }, 600000));
        runSeconds.push_back(clock.nsecsElapsed() / 1e9);
    }
    std::printf("RESULT case=partition_event_loop edges=1e7 sites=8 import_s=%.2f import_max_blocked_ms=%.2f "
                "hdrf_run_s=%.2f geo_cut_run_s=%.2f runs_max_blocked_ms=%.2f target_ms=50 failed=%d %s\n",
                importSeconds, importBlocked, runSeconds[0], runSeconds[1], runBlocked, failed ? 1 : 0,
                std::max(importBlocked, runBlocked) < 50 && !failed ? "met=yes" : "met=no");
    std::fflush(stdout);

    std::vector<double> cancelMs;
    QString stage, stages;
    QObject::connect(window.jobRunner(), &jobs::JobRunner::jobProgress,
                     [&](int, double, const QString& current) { stage = current; });
    runPanel->setCheckedMappers({"geo-cut"});
    // Cancel at several points of a run that takes about 2 s: reading the graph, streaming, refining.
    for (const int waitMs : {100, 400, 800, 1200, 1600}) {
        const auto jobIds = runPanel->runChecked();
        ended = false;
        maxBlockedWhile([&] { return ended; }, waitMs);
        if (ended)
            continue; // finished before the cancel: nothing to measure
        const QString at = QString(stage).replace(' ', '_');
        clock.restart();
        window.jobRunner()->cancel(jobIds.front());
        while (!ended && clock.elapsed() < 10000)
            QApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
        cancelMs.push_back(clock.nsecsElapsed() / 1e6);
        stages += QString("%1%2:%3").arg(stages.isEmpty() ? "" : ",", at).arg(cancelMs.back(), 0, 'f', 0);
    }
    if (cancelMs.empty())
        cancelMs.push_back(-1.0);
    std::printf("RESULT case=partition_cancel run=geo-cut edges=1e7 rounds=%zu median_ms=%.2f max_ms=%.2f "
                "target_ms=100 stages=%s %s\n",
                cancelMs.size(), median(cancelMs), maxOf(cancelMs), qPrintable(stages),
                maxOf(cancelMs) < 100 && cancelMs.front() >= 0 ? "met=yes" : "met=no");
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName("MeridianBench");
    // `bench_workbench partition` runs the graph cases alone.
    // One part alone, in a window of its own.
    const QString part = argc > 1 ? QString(argv[1]) : QString();
    if (part == "scale" || part == "partition") {
        workbench::MainWindow window;
        window.setInteractive(false);
        window.resize(1400, 900);
        window.show();
        return part == "scale" ? benchScaleProject(window) : benchPartitionWorkbench(window);
    }

    // Heatmaps.
    {
        auto lu = *synth::generatePattern(synth::Pattern::LU, {.processes = 8192});
        widgets::HeatmapData d;
        d.isSparse = true;
        d.unit = "bytes";
        d.sparse = lu.volume();
        benchHeatmap("lu-8192", std::move(d), 15);
    }
    benchHeatmap("sparse-8192-1M", randomSparse(8192, 128), 15);
    {
        widgets::HeatmapData d;
        d.unit = "ms";
        d.dense = Eigen::MatrixXd::Random(8192, 8192).cwiseAbs();
        benchHeatmap("dense-8192", std::move(d), 9);
    }

    // Event-loop latency and cancellation during a long Monte Carlo run in the workbench.
    workbench::MainWindow window;
    window.setInteractive(false);
    window.resize(1400, 900);
    window.show();
    if (!window.loadProject(QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/ec2-4-regions/ec2-4-regions.meridian")) {
        std::printf("RESULT case=event_loop error=cannot-open-sample\n");
        return 1;
    }
    auto* runPanel = window.runPanel();
    runPanel->setCheckedMappers({"monte-carlo"});
    qobject_cast<QSpinBox*>(runPanel->form("monte-carlo")->editor("samples"))->setValue(100000000);
    std::vector<double> cancelMs, maxGapMs, p99GapMs;
    int progressUpdates = 0;
    QObject::connect(window.jobRunner(), &jobs::JobRunner::jobProgress, [&] { ++progressUpdates; });
    for (int round = 0; round < 5; ++round) {
        const auto jobs = runPanel->runChecked();
        // Measure the gaps between 5 ms timer ticks for 3 s while the run goes.
        const auto gaps = blockedGaps([] { return false; }, 3000);
        maxGapMs.push_back(std::max(0.0, gaps.back()));
        p99GapMs.push_back(std::max(0.0, gaps[gaps.size() * 99 / 100]));
        bool ended = false;
        auto connection = QObject::connect(window.jobRunner(), &jobs::JobRunner::jobEnded, [&](int id) {
            if (id == jobs.front())
                ended = true;
        });
        QElapsedTimer cancelClock;
        cancelClock.start();
        window.jobRunner()->cancel(jobs.front());
        while (!ended && cancelClock.elapsed() < 10000)
            QApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
        cancelMs.push_back(cancelClock.nsecsElapsed() / 1e6);
        QObject::disconnect(connection);
    }
    std::printf("RESULT case=event_loop run=monte-carlo samples=1e8 rounds=5 max_blocked_ms=%.2f p99_blocked_ms=%.2f "
                "progress_updates=%d target_ms=50 %s\n",
                maxOf(maxGapMs), maxOf(p99GapMs), progressUpdates, maxOf(maxGapMs) < 50 ? "met=yes" : "met=no");
    std::printf(
        "RESULT case=cancel run=monte-carlo rounds=5 median_ms=%.2f max_ms=%.2f target_ms=100 runs_added=%zu %s\n",
        median(cancelMs), maxOf(cancelMs), window.document()->runs().size(),
        maxOf(cancelMs) < 100 ? "met=yes" : "met=no");
    std::fflush(stdout);
    return benchPartitionWorkbench(window);
}
