// Benchmarks of the workbench: heatmap redraw of matrices up to 8192 x 8192 (target: under 30 ms), the
// main thread's event-loop latency while a long Monte Carlo run goes (target: never blocked more than
// 50 ms) and how long a cancel takes to stop that run (target: 100 ms). Prints RESULT lines.
#include "app/jobs/job_runner.h"
#include "app/workbench/jobs_panel.h"
#include "app/workbench/main_window.h"
#include "app/workbench/run_panel.h"
#include "core/common/random.h"
#include "core/synth/patterns.h"
#include "widgets/heatmap_view.h"
#include "widgets/param_form.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSpinBox>
#include <QTimer>

#include <algorithm>
#include <cstdio>
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

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName("MeridianBench");

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
        std::vector<double> gaps;
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
        while (clock.elapsed() < 3000)
            QApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        timer.stop();
        std::sort(gaps.begin(), gaps.end());
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
    return 0;
}
