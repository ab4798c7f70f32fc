// Benchmark of meridian-cli split over MPI ranks (`mpirun -np N meridian-cli ...`, Open MPI on this machine), the
// whole command from the project file to the printed JSON, wall clock. One RESULT line per case and rank count:
//   monte_carlo   SC17's Monte Carlo mapper, 10^8 random placements of the ec2-4-regions sample's first application
//                 (LAMMPS, 32 processes), at np = 1 and 2, and without a launcher (one process, its threads on
//                 every core). Open MPI binds each of up to 2 ranks to a core of its own, so np = 1 samples on one
//                 core and np = 2 on two. identical=1 when the placement, the kept costs' distribution and the
//                 best-so-far curve equal np = 1's. Target: np = 2 at least 1.8x as fast as np = 1.
// Arguments: the number of samples (default 10^8).
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>

namespace {

struct Run {
    int code = -1;
    QJsonObject json;
    QByteArray err;
    double seconds = 0.0;
};

/// Runs meridian-cli, under mpirun with `ranks` processes when ranks > 0.
Run cli(int ranks, const QStringList& args)
{
    QProcess p;
    QStringList env = QProcess::systemEnvironment();
    env << "OMPI_MCA_plm_rsh_agent=false";
    p.setEnvironment(env);
    QElapsedTimer timer;
    timer.start();
    if (ranks > 0)
        p.start(MERIDIAN_MPIRUN,
                QStringList{"--allow-run-as-root", "--oversubscribe", "-np", QString::number(ranks), MERIDIAN_CLI}
                    + args);
    else
        p.start(MERIDIAN_CLI, args);
    p.waitForFinished(-1);
    Run run{p.exitCode(), QJsonDocument::fromJson(p.readAllStandardOutput()).object(), p.readAllStandardError(),
            static_cast<double>(timer.nsecsElapsed()) * 1e-9};
    return run;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QString samples = argc > 1 ? QString(argv[1]) : QString("100000000");
    QTemporaryDir dir;
    const QString project = QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/ec2-4-regions/ec2-4-regions.meridian";
    const auto args = [&](const QString& out) {
        return QStringList{"map",     "--project",          project, "--algorithm",    "monte-carlo",
                           "--param", "samples=" + samples, "--out", dir.filePath(out)};
    };
    const auto comparable = [](QJsonObject o) {
        o.remove("runtime_s");
        o.remove("written");
        return o;
    };
    int failures = 0;
    double np1 = 0.0;
    QJsonObject reference;
    QByteArray referencePlacement;
    for (int ranks : {1, 2, 0}) {
        const QString out = QString("ranks%1.csv").arg(ranks);
        const Run run = cli(ranks, args(out));
        if (run.code != 0) {
            std::printf("RESULT case=monte_carlo ranks=%d error=1\n%s\n", ranks, run.err.constData());
            ++failures;
            continue;
        }
        QFile placement(dir.filePath(out));
        placement.open(QIODevice::ReadOnly);
        const QByteArray bytes = placement.readAll();
        if (ranks == 1) {
            np1 = run.seconds;
            reference = comparable(run.json);
            referencePlacement = bytes;
        }
        const bool identical = comparable(run.json) == reference && bytes == referencePlacement;
        const double speedup = np1 / run.seconds;
        const QJsonObject kept = run.json["samples"].toObject();
        std::printf("RESULT case=monte_carlo ranks=%s samples=%s wall_s=%.2f speedup_vs_np1=%.2f identical=%d "
                    "best_cost_s=%.6f kept=%d kept_mean_s=%.6f",
                    ranks == 0 ? "none" : qPrintable(QString::number(ranks)), qPrintable(samples), run.seconds, speedup,
                    identical ? 1 : 0, run.json["cost_s"].toDouble(), kept["kept"].toInt(), kept["mean_s"].toDouble());
        if (ranks == 2) {
            const bool met = identical && speedup >= 1.8;
            std::printf(" target_speedup=1.8 met=%d", met ? 1 : 0);
        }
        std::printf("\n");
        std::fflush(stdout);
        if (!identical)
            ++failures;
    }
    return failures == 0 ? 0 : 1;
}
