#include "app/capture/capture.h"
#include "core/io/comm_io.h"
#include "core/io/openmpi_monitoring.h"
#include "core/io/otf2_trace.h"
#include "core/io/text_file.h"
#include "core/io/ti_trace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <QSysInfo>

#include <csignal>
#include <map>

using namespace meridian;

namespace {

using Matrix = std::map<std::pair<int, int>, std::pair<double, double>>; // (from, to) -> (bytes, messages)

void add(Matrix& m, int from, int to, double bytes, double messages)
{
    m[{from, to}].first += bytes;
    m[{from, to}].second += messages;
}

// What tests/mpi/known_matrix.c sends on 4 ranks, phase by phase (see the comment at its top).
// What a run of the program leaves out (its --without-persistent and --without-sendrecv).
struct Without {
    bool persistent = false;
    bool sendrecv = false;
};

Matrix knownPhase(int phase, Without without = {})
{
    Matrix m;
    for (int r = 0; r < 4; ++r) {
        if (phase == 0) {
            const double sendrecv = without.sendrecv ? 0 : 1, persistent = without.persistent ? 0 : 1;
            add(m, r, (r + 1) % 4, 3 * 1000.0 * (r + 1) + sendrecv * 100 * 8 + 24, 3 + sendrecv + 1);
            add(m, r, (r + 2) % 4, 2 * 500 + sendrecv * 10 * 4, 2 + sendrecv);
            add(m, r, (r + 3) % 4, 2 * 256 * 4 + persistent * 4 * 64, 2 + persistent * 4);
        } else {
            add(m, r, (r + 2) % 4, 5 * 77 + 13 * 8, 5 + 1);
        }
    }
    return m;
}

Matrix knownTotal(Without without = {})
{
    Matrix m = knownPhase(0, without);
    for (const auto& [pair, value] : knownPhase(1))
        add(m, pair.first, pair.second, value.first, value.second);
    return m;
}

Matrix entriesOf(const model::CommMatrix& comm)
{
    Matrix m;
    for (const auto& e : comm.entries())
        add(m, e.from, e.to, e.bytes, e.messages);
    return m;
}

QString describe(const Matrix& m)
{
    QStringList lines;
    for (const auto& [pair, value] : m)
        lines << QString("%1->%2: %3 B in %4").arg(pair.first).arg(pair.second).arg(value.first).arg(value.second);
    return lines.join("; ");
}

struct Ran {
    int exitCode = -1;
    QString out;
    QString err;
};

Ran runCli(const QStringList& arguments, const QStringList& extraEnvironment = {})
{
    QProcess p;
    QStringList environment = QProcess::systemEnvironment();
    environment << "OMPI_MCA_plm_rsh_agent=false"; // never try ssh: every rank runs here
    environment << extraEnvironment;
    p.setEnvironment(environment);
    p.start(MERIDIAN_CLI, arguments);
    if (!p.waitForFinished(180000)) {
        // SIGTERM first: meridian-cli then stops the command's processes (a hung MPI program's ranks, which a
        // SIGKILL of meridian-cli alone would leave running) before it exits.
        p.terminate();
        if (!p.waitForFinished(20000))
            p.kill();
        p.waitForFinished(5000);
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromLocal8Bit(p.readAllStandardOutput()), QString::fromLocal8Bit(p.readAllStandardError())};
}

// The collective records of PREFIX.collectives.json, one line each, sorted.
QStringList tracerCollectives(const QString& prefix)
{
    auto json = io::readTextFile((prefix + ".collectives.json").toStdString());
    if (!json)
        return {};
    QStringList records;
    for (const auto& value :
         QJsonDocument::fromJson(QByteArray::fromStdString(*json)).object().value("collectives").toArray()) {
        const QJsonObject r = value.toObject();
        records << QString("%1 %2 size %3 root %4 ranks %5 calls %6 bytes %7")
                       .arg(r.value("phase").toInt())
                       .arg(r.value("operation").toString())
                       .arg(r.value("communicator_size").toInt())
                       .arg(r.value("root").toInt())
                       .arg(r.value("ranks").toInt())
                       .arg(r.value("calls").toInt())
                       .arg(r.value("bytes").toInt());
    }
    records.sort();
    return records;
}

// A rank's time-independent trace without its compute lines (their durations differ from run to run).
QStringList communicationOf(const QString& rankFile)
{
    auto text = io::readTextFile(rankFile.toStdString());
    if (!text)
        return {"cannot read " + rankFile};
    QStringList lines = QString::fromStdString(*text).split('\n', Qt::SkipEmptyParts);
    lines.removeIf([](const QString& line) { return line.contains(" compute "); });
    return lines;
}

// Runs a compiler; empty when it succeeded, else what it printed.
QString compile(const QString& compiler, const QStringList& arguments, const QString& workingDirectory)
{
    const QString program = QStandardPaths::findExecutable(compiler);
    if (program.isEmpty())
        return compiler + " not found: install libopenmpi-dev and gfortran (scripts/dev does)";
    QProcess p;
    p.setWorkingDirectory(workingDirectory);
    p.start(program, arguments);
    if (!p.waitForFinished(180000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return compiler + " " + arguments.join(' ') + ":\n" + QString::fromLocal8Bit(p.readAllStandardError());
    return {};
}

// Builds tests/mpi/known_matrix.F90 in `binding` ("use mpi", "mpif.h", "use mpi_f08", or "mixed": with
// known_matrix.c) into `dir`; returns the program's path, or an empty path and `error`.
QString buildFortranKnownMatrix(const QString& binding, const QString& dir, QString& error)
{
    const QString fortran = QString(MERIDIAN_SOURCE_DIR) + "/tests/mpi/known_matrix.F90";
    const QString c = QString(MERIDIAN_SOURCE_DIR) + "/tests/mpi/known_matrix.c";
    const QString program = dir + "/known_matrix_fortran";
    QStringList options;
    if (binding == "mpif.h")
        options = {"-DMERIDIAN_MPIF_H", "-fallow-argument-mismatch"};
    else if (binding == "use mpi_f08")
        options = {"-DMERIDIAN_F08"};
    if (binding != "mixed")
        error = compile("mpifort", options + QStringList{"-o", program, fortran}, dir);
    else {
        error = compile("mpicc", {"-DMERIDIAN_MIXED", "-c", "-o", "c.o", c}, dir);
        if (error.isEmpty())
            error = compile("mpifort", {"-DMERIDIAN_MIXED", "-c", "-o", "fortran.o", fortran}, dir);
        if (error.isEmpty())
            error = compile("mpifort", {"-o", program, "c.o", "fortran.o"}, dir);
    }
    return error.isEmpty() ? program : QString();
}

QStringList mpirunKnownMatrix(const QStringList& programArguments = {})
{
    return QStringList{QStandardPaths::findExecutable("mpirun"),
                       "--allow-run-as-root",
                       "--oversubscribe",
                       "-np",
                       "4",
                       MERIDIAN_KNOWN_MATRIX}
    + programArguments;
}

} // namespace

class TestCapture : public QObject {
    Q_OBJECT
    /// Captures shared by several cases (the C program's trace the Fortran ones are compared with).
    QTemporaryDir m_scratch;

private Q_SLOTS:
    void initTestCase() { QVERIFY2(!QStandardPaths::findExecutable("mpirun").isEmpty(), "install openmpi-bin"); }

    // The tracer under a real mpirun gives the known program's matrix exactly: world and sub-communicator
    // sends, blocking, non-blocking, persistent and combined send-receive, per phase and in total.
    void theTracerGivesTheKnownMatrixExactly()
    {
        QTemporaryDir dir;
        const QString prefix = dir.filePath("known");
        const Ran ran = runCli(QStringList{"capture", "--out", prefix, "--"} + mpirunKnownMatrix());
        QVERIFY2(ran.exitCode == 0, qPrintable(ran.err + ran.out));
        QVERIFY2(ran.out.contains("known_matrix: done"),
                 qPrintable("the program's output was not passed on: " + ran.out));
        QVERIFY2(ran.err.contains("4 processes in phases 0, 1"), qPrintable(ran.err));

        auto total = io::readCommMatrix((prefix + ".volume.mtx").toStdString(),
                                        (prefix + ".messages.mtx").toStdString());
        QVERIFY2(total, total ? "" : total.error().toString().c_str());
        QCOMPARE(total->processCount(), 4);
        QCOMPARE(describe(entriesOf(*total)), describe(knownTotal()));
        for (int phase : {0, 1}) {
            const QString p = prefix + QString(".phase%1").arg(phase);
            auto comm = io::readCommMatrix((p + ".volume.mtx").toStdString(), (p + ".messages.mtx").toStdString());
            QVERIFY2(comm, comm ? "" : comm.error().toString().c_str());
            QCOMPARE(describe(entriesOf(*comm)), describe(knownPhase(phase)));
        }

        QCOMPARE(tracerCollectives(prefix),
                 (QStringList{"0 allreduce size 4 root -1 ranks 4 calls 1 bytes 256",
                              "0 barrier size 4 root -1 ranks 4 calls 1 bytes 0",
                              "0 bcast size 4 root 0 ranks 4 calls 1 bytes 1000",
                              "1 reduce size 2 root 2 ranks 2 calls 1 bytes 32",
                              "1 reduce size 2 root 3 ranks 2 calls 1 bytes 32"}));
        QCOMPARE(QDir(dir.path()).entryList({".meridian-capture-*"}, QDir::Dirs | QDir::Hidden).size(), 0);
    }

    // Fortran programs: Open MPI's Fortran bindings call PMPI_* directly, past the C wrappers, so the tracer has
    // Fortran entry points of its own. known_matrix.F90 sends what known_matrix.c sends; built with mpifort in each
    // of Fortran's bindings, and as a mixed program (C sends some, Fortran the rest), under a real mpirun its
    // matrices (in total and per phase) and collectives are the known ones exactly, and its trace is the C
    // program's, rank by rank and line by line (compute times aside).
    void aFortranProgramGivesTheKnownMatrixExactly_data()
    {
        QTest::addColumn<QString>("binding");
        for (const char* binding : {"use mpi", "mpif.h", "use mpi_f08", "mixed"})
            QTest::newRow(binding) << QString(binding);
    }

    void aFortranProgramGivesTheKnownMatrixExactly()
    {
        QFETCH(QString, binding);
        QTemporaryDir dir;
        QString error;
        const QString program = buildFortranKnownMatrix(binding, dir.path(), error);
        QVERIFY2(!program.isEmpty(), qPrintable(error));
        const QStringList run{QStandardPaths::findExecutable("mpirun"),
                              "--allow-run-as-root",
                              "--oversubscribe",
                              "-np",
                              "4",
                              program};
        const QString prefix = dir.filePath("fortran");
        const Ran ran = runCli(QStringList{"capture", "--out", prefix, "--"} + run);
        QVERIFY2(ran.exitCode == 0, qPrintable(ran.err + ran.out));
        auto total = io::readCommMatrix((prefix + ".volume.mtx").toStdString(),
                                        (prefix + ".messages.mtx").toStdString());
        QVERIFY2(total, total ? "" : total.error().toString().c_str());
        QCOMPARE(describe(entriesOf(*total)), describe(knownTotal()));
        for (int phase : {0, 1}) {
            const QString p = prefix + QString(".phase%1").arg(phase);
            auto comm = io::readCommMatrix((p + ".volume.mtx").toStdString(), (p + ".messages.mtx").toStdString());
            QVERIFY2(comm, comm ? "" : comm.error().toString().c_str());
            QCOMPARE(describe(entriesOf(*comm)), describe(knownPhase(phase)));
        }
        QCOMPARE(tracerCollectives(prefix),
                 (QStringList{"0 allreduce size 4 root -1 ranks 4 calls 1 bytes 256",
                              "0 barrier size 4 root -1 ranks 4 calls 1 bytes 0",
                              "0 bcast size 4 root 0 ranks 4 calls 1 bytes 1000",
                              "1 reduce size 2 root 2 ranks 2 calls 1 bytes 32",
                              "1 reduce size 2 root 3 ranks 2 calls 1 bytes 32"}));

        // The trace, against the C program's (both without the sub-communicator reduce a trace cannot hold; the C
        // program's is captured once for every binding).
        const QString traced = dir.filePath("fortran-traced"), reference = m_scratch.filePath("c-traced");
        const Ran fortranRun = runCli(QStringList{"capture", "--out", traced, "--trace", "--"} + run
                                      + QStringList{"--without-subcommunicator-collectives"});
        QVERIFY2(fortranRun.exitCode == 0, qPrintable(fortranRun.err));
        if (!QFile::exists(reference + ".ti.3")) {
            const Ran cRun = runCli(QStringList{"capture", "--out", reference, "--trace", "--"}
                                    + mpirunKnownMatrix({"--without-subcommunicator-collectives"}));
            QVERIFY2(cRun.exitCode == 0, qPrintable(cRun.err));
        }
        for (int rank = 0; rank < 4; ++rank) {
            const QStringList fortranLines = communicationOf(traced + QString(".ti.%1").arg(rank));
            QVERIFY(fortranLines.size() > 20);
            QCOMPARE(fortranLines, communicationOf(reference + QString(".ti.%1").arg(rank)));
        }
    }

    // Fortran's MPI_IN_PLACE (a sentinel address of Open MPI's, not C's MPI_IN_PLACE) is recognised: an in-place
    // allgather counts the receive count, in both module bindings.
    void fortranInPlaceIsRecognised_data()
    {
        QTest::addColumn<QString>("module");
        QTest::newRow("use mpi") << QString("mpi");
        QTest::newRow("use mpi_f08") << QString("mpi_f08");
    }

    void fortranInPlaceIsRecognised()
    {
        QFETCH(QString, module);
        QTemporaryDir dir;
        QFile source(dir.filePath("in_place.f90"));
        QVERIFY(source.open(QIODevice::WriteOnly));
        source.write(
            QString("program in_place\n"
                    "    use %1\n"
                    "    implicit none\n"
                    "    integer :: ierror, rank, values(3, 4), sums(2)\n"
                    "    call MPI_Init(ierror)\n"
                    "    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierror)\n"
                    "    values = rank\n"
                    "    call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, values, 3, MPI_INTEGER, &\n"
                    "                       MPI_COMM_WORLD, ierror)\n"
                    "    sums = 1\n"
                    "    call MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierror)\n"
                    "    call MPI_Finalize(ierror)\n"
                    "end program\n")
                .arg(module)
                .toUtf8());
        source.close();
        const QString error = compile("mpifort", {"-o", "in_place", source.fileName()}, dir.path());
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString prefix = dir.filePath("in_place");
        const Ran ran = runCli({"capture", "--out", prefix, "--trace", "--", QStandardPaths::findExecutable("mpirun"),
                                "--allow-run-as-root", "--oversubscribe", "-np", "4", dir.filePath("in_place")});
        QVERIFY2(ran.exitCode == 0, qPrintable(ran.err + ran.out));
        QCOMPARE(tracerCollectives(prefix),
                 (QStringList{"0 allgather size 4 root -1 ranks 4 calls 1 bytes 48",
                              "0 allreduce size 4 root -1 ranks 4 calls 1 bytes 32"}));
        QCOMPARE(communicationOf(prefix + ".ti.1"),
                 (QStringList{"1 init", "1 allgather 12 12", "1 allreduce 8 0", "1 finalize"}));
    }

    // Open MPI's own monitoring of the same program, imported: the same matrix, exactly (the run leaves out
    // the persistent sends, which Open MPI 4.1's monitoring does not count).
    void openMpiMonitoringGivesTheKnownMatrixExactly()
    {
        QTemporaryDir dir;
        QDir().mkpath(dir.filePath("prof"));
        QProcess mpirun;
        QStringList environment = QProcess::systemEnvironment();
        environment << "OMPI_MCA_plm_rsh_agent=false";
        mpirun.setEnvironment(environment);
        const QStringList monitoring{"--mca", "pml_monitoring_enable",        "2",
                                     "--mca", "pml_monitoring_enable_output", "3",
                                     "--mca", "pml_monitoring_filename",      dir.filePath("prof/known")};
        const QStringList command = mpirunKnownMatrix({"--without-persistent"});
        mpirun.start(command.front(), monitoring + command.mid(1));
        QVERIFY(mpirun.waitForFinished(180000));
        QVERIFY2(mpirun.exitCode() == 0, mpirun.readAllStandardError().constData());

        const QString prefix = dir.filePath("imported");
        const Ran ran = runCli({"import-comm", "--openmpi-monitoring", dir.filePath("prof"), "--out", prefix});
        QVERIFY2(ran.exitCode == 0, qPrintable(ran.err));
        const QJsonObject summary = QJsonDocument::fromJson(ran.out.toUtf8()).object();
        QCOMPARE(summary.value("processes").toInt(), 4);
        QCOMPARE(summary.value("written").toArray().size(), 3);
        auto comm = io::readCommMatrix((prefix + ".volume.mtx").toStdString(), (prefix + ".messages.mtx").toStdString());
        QVERIFY2(comm, comm ? "" : comm.error().toString().c_str());
        QCOMPARE(describe(entriesOf(*comm)), describe(knownTotal({.persistent = true})));
        auto json = io::readTextFile((prefix + ".collectives.json").toStdString());
        QVERIFY(json);
        const QJsonObject collectives = QJsonDocument::fromJson(QByteArray::fromStdString(*json)).object();
        QCOMPARE(collectives.value("source").toString(), QString("openmpi-monitoring"));
        QCOMPARE(collectives.value("communicators").toArray().first().toObject().value("name").toString(),
                 QString("MPI_COMM_WORLD"));

        // Bad input: a rank's file missing; nothing is written.
        QFile::remove(dir.filePath("prof/known.1.prof"));
        const Ran missing = runCli(
            {"import-comm", "--openmpi-monitoring", dir.filePath("prof"), "--out", dir.filePath("again")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("rank 1") && missing.err.contains("known.1.prof"), qPrintable(missing.err));
        QVERIFY(!QFile::exists(dir.filePath("again.volume.mtx")));
    }

    // An OTF2 trace EZTrace wrote of the same program, imported: the same matrix, exactly (the run leaves out
    // MPI_Sendrecv and MPI_Sendrecv_replace, which EZTrace 2.0 records without their messages), and the
    // collectives per operation with their roots in world ranks.
    void anOtf2TraceGivesTheKnownMatrixExactly()
    {
        const QString eztrace = QStandardPaths::findExecutable("eztrace");
        QVERIFY2(!eztrace.isEmpty(), "eztrace not found: install eztrace (scripts/dev does)");
        QTemporaryDir dir;
        QProcess mpirun;
        QStringList environment = QProcess::systemEnvironment();
        environment << "OMPI_MCA_plm_rsh_agent=false";
        mpirun.setEnvironment(environment);
        mpirun.setWorkingDirectory(dir.path());
        mpirun.start(QStandardPaths::findExecutable("mpirun"),
                     {"--allow-run-as-root", "--oversubscribe", "-np", "4", eztrace, "-t", "openmpi",
                      MERIDIAN_KNOWN_MATRIX, "--without-sendrecv"});
        QVERIFY(mpirun.waitForFinished(180000));
        QVERIFY2(mpirun.exitCode() == 0, mpirun.readAllStandardError().constData());
        const QString archive = dir.filePath("known_matrix_trace/eztrace_log.otf2");
        QVERIFY2(QFile::exists(archive), qPrintable(QDir(dir.path()).entryList().join(", ")));

        const QString prefix = dir.filePath("traced");
        const Ran ran = runCli({"import-comm", "--otf2", archive, "--out", prefix});
        QVERIFY2(ran.exitCode == 0, qPrintable(ran.err));
        auto comm = io::readCommMatrix((prefix + ".volume.mtx").toStdString(), (prefix + ".messages.mtx").toStdString());
        QVERIFY2(comm, comm ? "" : comm.error().toString().c_str());
        QCOMPARE(describe(entriesOf(*comm)), describe(knownTotal({.sendrecv = true})));
        auto json = io::readTextFile((prefix + ".collectives.json").toStdString());
        QVERIFY(json);
        QStringList records;
        for (const auto& value :
             QJsonDocument::fromJson(QByteArray::fromStdString(*json)).object().value("collectives").toArray()) {
            const QJsonObject r = value.toObject();
            records << QString("%1 size %2 root %3 ranks %4 calls %5 bytes %6")
                           .arg(r.value("operation").toString())
                           .arg(r.value("communicator_size").toInt())
                           .arg(r.value("root").toInt())
                           .arg(r.value("ranks").toInt())
                           .arg(r.value("calls").toInt())
                           .arg(r.value("bytes").toInt());
        }
        records.sort();
        // The bytes are the tracer's (theTracerGivesTheKnownMatrixExactly).
        QCOMPARE(records,
                 (QStringList{"allreduce size 4 root -1 ranks 4 calls 1 bytes 256",
                              "barrier size 4 root -1 ranks 4 calls 1 bytes 0",
                              "bcast size 4 root 0 ranks 4 calls 1 bytes 1000",
                              "reduce size 2 root 2 ranks 2 calls 1 bytes 32",
                              "reduce size 2 root 3 ranks 2 calls 1 bytes 32"}));

        // Bad input: a folder, and a file that is not an archive.
        const Ran folder = runCli({"import-comm", "--otf2", dir.path(), "--out", dir.filePath("x")});
        QCOMPARE(folder.exitCode, 2);
        QVERIFY2(folder.err.contains("is not an OTF2 archive"), qPrintable(folder.err));
        const Ran text = runCli({"import-comm", "--otf2", prefix + ".volume.mtx", "--out", dir.filePath("x")});
        QCOMPARE(text.exitCode, 2);
        QVERIFY2(text.err.contains("is not an OTF2 archive (give its anchor file, NAME.otf2)"), qPrintable(text.err));
        QVERIFY(QFile::copy(prefix + ".volume.mtx", dir.filePath("fake.otf2")));
        const Ran fake = runCli({"import-comm", "--otf2", dir.filePath("fake.otf2"), "--out", dir.filePath("x")});
        QCOMPARE(fake.exitCode, 2);
        QVERIFY2(fake.err.contains("is not a readable OTF2 archive"), qPrintable(fake.err));
        QVERIFY(!QFile::exists(dir.filePath("x.volume.mtx")));
    }

    // One definition of a collective's bytes, written in every summary ("bytes"): what the ranks' send buffers held.
    // A program calling every collective once, with counts that tell the operations apart, gives the same bytes by
    // the tracer and by EZTrace's OTF2 trace, which records other sizes (a bcast's buffer at every rank, one block of
    // a scatter or an alltoall); Open MPI's monitoring, which counts other traffic, says what it counts instead.
    void everyToolCountsCollectiveBytesByOneDefinition()
    {
        const QString eztrace = QStandardPaths::findExecutable("eztrace");
        QVERIFY2(!eztrace.isEmpty(), "eztrace not found: install eztrace (scripts/dev does)");
        QTemporaryDir dir;
        const QString mpirun = QStandardPaths::findExecutable("mpirun");
        const QStringList run{mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "4"};
        const Ran traced = runCli(QStringList{"capture", "--out", dir.filePath("traced"), "--"} + run
                                  + QStringList{MERIDIAN_EVERY_COLLECTIVE});
        QVERIFY2(traced.exitCode == 0, qPrintable(traced.err));
        QProcess ez;
        QStringList environment = QProcess::systemEnvironment();
        environment << "OMPI_MCA_plm_rsh_agent=false";
        ez.setEnvironment(environment);
        ez.setWorkingDirectory(dir.path());
        ez.start(mpirun, run.mid(1) + QStringList{eztrace, "-t", "openmpi", MERIDIAN_EVERY_COLLECTIVE});
        QVERIFY(ez.waitForFinished(180000));
        QVERIFY2(ez.exitCode() == 0, ez.readAllStandardError().constData());
        const Ran imported = runCli({"import-comm", "--otf2", dir.filePath("every_collective_trace/eztrace_log.otf2"),
                                     "--out", dir.filePath("otf2")});
        QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));

        const auto bytesOf = [](const QString& prefix) {
            auto json = io::readTextFile((prefix + ".collectives.json").toStdString());
            const QJsonObject summary = json ? QJsonDocument::fromJson(QByteArray::fromStdString(*json)).object()
                                             : QJsonObject();
            QStringList records;
            for (const auto& value : summary.value("collectives").toArray()) {
                const QJsonObject r = value.toObject();
                records << QString("%1 root %2 bytes %3")
                               .arg(r.value("operation").toString())
                               .arg(r.value("root").toInt())
                               .arg(r.value("bytes").toInteger());
            }
            records.sort();
            return std::make_pair(summary, records);
        };
        const QStringList expected{"allgather root -1 bytes 20", "allreduce root -1 bytes 36",
                                   "alltoall root -1 bytes 112", "alltoallv root -1 bytes 40",
                                   "barrier root -1 bytes 0",    "bcast root 0 bytes 1000",
                                   "gather root 2 bytes 96",     "gatherv root 3 bytes 10",
                                   "reduce root 0 bytes 24",     "scatter root 1 bytes 160",
                                   "scatterv root 3 bytes 10"};
        for (const QString& prefix : {dir.filePath("traced"), dir.filePath("otf2")}) {
            const auto [summary, records] = bytesOf(prefix);
            QCOMPARE(summary.value("version").toInt(), 2);
            QCOMPARE(summary.value("bytes").toString(), QString(io::kCollectiveBytesDefinition));
            QCOMPARE(records, expected);
        }

        // Monitoring: no records of operations, and what its numbers are.
        QDir().mkpath(dir.filePath("prof"));
        QProcess monitored;
        monitored.setEnvironment(environment);
        monitored.start(mpirun,
                        run.mid(1)
                            + QStringList{"--mca", "pml_monitoring_enable", "2", "--mca",
                                          "pml_monitoring_enable_output", "3", "--mca", "pml_monitoring_filename",
                                          dir.filePath("prof/every"), MERIDIAN_EVERY_COLLECTIVE});
        QVERIFY(monitored.waitForFinished(180000));
        QVERIFY2(monitored.exitCode() == 0, monitored.readAllStandardError().constData());
        const Ran fromMonitoring = runCli(
            {"import-comm", "--openmpi-monitoring", dir.filePath("prof"), "--out", dir.filePath("monitored")});
        QVERIFY2(fromMonitoring.exitCode == 0, qPrintable(fromMonitoring.err));
        const auto [summary, records] = bytesOf(dir.filePath("monitored"));
        QCOMPARE(summary.value("version").toInt(), 2);
        QVERIFY(!summary.contains("collectives") && !summary.contains("bytes"));
        QCOMPARE(summary.value("traffic").toString(), QString(io::kMonitoredTrafficDefinition));
    }

    // A program that reads its standard input (a solver given its matrix with `< input`) gets capture's own: Open
    // MPI's mpirun passes it to rank 0. (It waited forever on an empty pipe.)
    void theProgramReadsCapturesStandardInput()
    {
        QTemporaryDir dir;
        QFile input(dir.filePath("input.txt"));
        QVERIFY(input.open(QIODevice::WriteOnly));
        input.write("forty-two\n");
        input.close();
        QProcess p;
        QStringList environment = QProcess::systemEnvironment();
        environment << "OMPI_MCA_plm_rsh_agent=false";
        p.setEnvironment(environment);
        p.setStandardInputFile(input.fileName());
        p.start(MERIDIAN_CLI,
                QStringList{"capture", "--out", dir.filePath("k"), "--"}
                    + mpirunKnownMatrix({"--expect-input", "forty-two"}));
        QVERIFY(p.waitForFinished(180000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QVERIFY(QFile::exists(dir.filePath("k.volume.mtx")));
    }

    // A run that aborts: the launcher's status is passed on and the files already at the prefix stay.
    void aFailedRunWritesNothing()
    {
        QTemporaryDir dir;
        const QString prefix = dir.filePath("known");
        QVERIFY(io::writeTextFileAtomically((prefix + ".volume.mtx").toStdString(), "earlier capture\n"));
        const Ran ran = runCli(QStringList{"capture", "--out", prefix, "--"} + mpirunKnownMatrix({"--abort"}));
        QVERIFY2(ran.exitCode != 0 && ran.exitCode != 2, qPrintable(QString::number(ran.exitCode) + ran.err));
        QVERIFY2(ran.err.contains("nothing was written") && ran.err.contains("exited with status"), qPrintable(ran.err));
        QCOMPARE(*io::readTextFile((prefix + ".volume.mtx").toStdString()), std::string("earlier capture\n"));
        QVERIFY(!QFile::exists(prefix + ".messages.mtx"));
        QCOMPARE(QDir(dir.path()).entryList({".meridian-capture-*"}, QDir::Dirs | QDir::Hidden).size(), 0);
    }

    // A command that is not an MPI program succeeds but leaves no trace: an error that says why.
    void aCommandThatRecordsNothingIsAnError()
    {
        QTemporaryDir dir;
        const Ran ran = runCli({"capture", "--out", dir.filePath("x"), "--", "true"});
        QCOMPARE(ran.exitCode, 2);
        QVERIFY2(ran.err.contains("the tracer wrote nothing"), qPrintable(ran.err));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty());
    }

    // A command killed by a signal N ends meridian-cli capture with 128 + N, and the message names the signal.
    void aCommandKilledByASignalEndsWith128PlusTheSignal()
    {
        QTemporaryDir dir;
        const QString prefix = dir.filePath("x");
        const Ran term = runCli({"capture", "--out", prefix, "--", "sh", "-c", "kill -TERM $$"});
        QVERIFY2(term.exitCode == 128 + SIGTERM, qPrintable(QString::number(term.exitCode) + term.err));
        QVERIFY2(term.err.contains("'sh' was killed by signal 15 (SIGTERM); nothing was written"), qPrintable(term.err));
        const Ran segv = runCli({"capture", "--out", prefix, "--", "sh", "-c", "kill -SEGV $$"});
        QVERIFY2(segv.exitCode == 128 + SIGSEGV, qPrintable(QString::number(segv.exitCode) + segv.err));
        QVERIFY2(segv.err.contains("killed by signal 11 (SIGSEGV)"), qPrintable(segv.err));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty());
    }

    // A MERIDIAN_TRACE_LIBRARY that the loader cannot preload, or that is another library than the tracer, is
    // refused before the command runs.
    void aTraceLibraryThatCannotBeLoadedIsRefusedBeforeRunning()
    {
        QTemporaryDir dir;
        QVERIFY(io::writeTextFileAtomically(dir.filePath("notes.txt").toStdString(), "not a library\n"));
        QVERIFY(QDir(dir.path()).mkdir("folder.so"));
        const QString marker = dir.filePath("ran");
        // A shared library that is not the tracer: this test's own C library.
        QString libc;
        QFile maps("/proc/self/maps");
        QVERIFY(maps.open(QIODevice::ReadOnly));
        for (const QByteArray& line : maps.readAll().split('\n'))
            if (const qsizetype at = line.indexOf('/'); at >= 0 && line.contains("/libc.so"))
                libc = QString::fromUtf8(line.mid(at));
        QVERIFY(!libc.isEmpty());
        const std::pair<QString, QString> cases[] = {
            {dir.filePath("notes.txt"), "which is not a shared library (it has no ELF header)"},
            {dir.filePath("folder.so"), "which is a folder, not a library"},
            {dir.filePath("missing.so"), "which does not exist"},
            {"/bin/sh", "which is a program (a position-independent executable), not a shared library"},
            {libc, "which is a shared library but not Meridian's tracer"},
        };
        for (const auto& [library, why] : cases) {
            const Ran ran = runCli({"capture", "--out", dir.filePath("x"), "--", "touch", marker},
                                   {"MERIDIAN_TRACE_LIBRARY=" + library});
            QCOMPARE(ran.exitCode, 2);
            QVERIFY2(ran.err.contains("MERIDIAN_TRACE_LIBRARY names " + library + ", " + why), qPrintable(ran.err));
            QVERIFY2(!QFile::exists(marker), qPrintable(library));
        }
    }

    // Issue 31.4 and 31.16: a folder in the way of one of capture's outputs is found before the program runs,
    // and nothing is written.
    void aFolderInTheWayOfAnOutputIsRefusedBeforeRunning()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("x.messages.mtx"));
        const QString marker = dir.filePath("ran");
        const Ran ran = runCli({"capture", "--out", dir.filePath("x"), "--", "touch", marker});
        QCOMPARE(ran.exitCode, 2);
        QVERIFY2(ran.err.contains("x.messages.mtx: this is a folder; expected the name of a file to write"),
                 qPrintable(ran.err));
        QVERIFY(!QFile::exists(marker));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{"x.messages.mtx"});
    }

    // SIGTERM or SIGINT to meridian-cli capture stops the command and removes the temporary folder; a capture
    // killed with SIGKILL leaves its folder, which the next capture in that folder removes.
    void aStoppedCaptureLeavesNoTemporaryFolder()
    {
        QTemporaryDir dir;
        const auto folders = [&] {
            return QDir(dir.path()).entryList({".meridian-capture-*"}, QDir::Dirs | QDir::Hidden);
        };
        for (const int signal : {SIGTERM, SIGINT, SIGKILL}) {
            QProcess p;
            p.start(MERIDIAN_CLI, {"capture", "--out", dir.filePath("x"), "--", "sleep", "5"});
            QVERIFY(p.waitForStarted());
            QTRY_VERIFY_WITH_TIMEOUT(folders().size() == 1, 10000);
            ::kill(static_cast<pid_t>(p.processId()), signal);
            QVERIFY(p.waitForFinished(10000));
            // meridian-cli ends by the signal it was sent, as a shell expects (128 + N to the shell).
            QCOMPARE(p.exitStatus(), QProcess::CrashExit);
            QCOMPARE(p.exitCode(), signal);
            if (signal != SIGKILL) {
                QVERIFY2(p.readAllStandardError().contains("stopped by signal"), qPrintable(QString::number(signal)));
                QVERIFY2(folders().isEmpty(), qPrintable(folders().join(", ")));
            }
        }
        // The SIGKILLed capture's folder stays until the next capture; a live process's, another host's stay.
        QCOMPARE(folders().size(), 1);
        const QString host = QSysInfo::machineHostName();
        QVERIFY(QDir(dir.path())
                    .mkdir(QString(".meridian-capture-%1@%2-AbCdEf").arg(QCoreApplication::applicationPid()).arg(host)));
        QVERIFY(QDir(dir.path()).mkdir(".meridian-capture-999999999@another-host-AbCdEf"));
        const Ran next = runCli({"capture", "--out", dir.filePath("x"), "--", "true"});
        QCOMPARE(next.exitCode, 2);
        QStringList left = folders(),
                    expected{".meridian-capture-999999999@another-host-AbCdEf",
                             QString(".meridian-capture-%1@%2-AbCdEf").arg(QCoreApplication::applicationPid()).arg(host)};
        left.sort();
        expected.sort();
        QCOMPARE(left, expected);
    }

    void badUsageIsRefused()
    {
        QTemporaryDir dir;
        const Ran noOut = runCli({"capture", "--", "true"});
        QCOMPARE(noOut.exitCode, 2);
        QVERIFY(noOut.err.contains("--out PREFIX is required"));
        const Ran noCommand = runCli({"capture", "--out", dir.filePath("x")});
        QCOMPARE(noCommand.exitCode, 2);
        QVERIFY(noCommand.err.contains("give the command"));
        const Ran missing = runCli({"capture", "--out", dir.filePath("x"), "--", "/nonexistent/program"});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("cannot start '/nonexistent/program'"), qPrintable(missing.err));
        const Ran noFolder = runCli({"capture", "--out", dir.filePath("no/such/folder/x"), "--", "true"});
        QCOMPARE(noFolder.exitCode, 2);
        QVERIFY2(noFolder.err.contains("not in an existing folder"), qPrintable(noFolder.err));
    }

    // Open MPI's launcher gets the tracer with -x (mpirun itself is not preloaded); any other command in its
    // environment; a preload the user set is kept, after the tracer.
    void theTracerReachesTheRanks()
    {
        QProcessEnvironment environment;
        environment.insert("LD_PRELOAD", "/opt/user.so");
        const auto openMpi = capture::prepareCommand({"mpirun", "-np", "2", "./app"}, capture::Launcher::OpenMpi,
                                                     "/lib/trace.so", "/tmp/t", environment);
        QCOMPARE(openMpi.program, QString("mpirun"));
        QCOMPARE(openMpi.arguments,
                 (QStringList{"-x", "LD_PRELOAD=/lib/trace.so:/opt/user.so", "-x", "MERIDIAN_TRACE_PREFIX", "-np", "2",
                              "./app"}));
        QCOMPARE(openMpi.environment.value("LD_PRELOAD"), QString("/opt/user.so"));
        QCOMPARE(openMpi.environment.value("MERIDIAN_TRACE_PREFIX"), QString("/tmp/t"));
        const auto other = capture::prepareCommand({"srun", "./app"}, capture::Launcher::Environment, "/lib/trace.so",
                                                   "/tmp/t", environment);
        QCOMPARE(other.arguments, QStringList{"./app"});
        QCOMPARE(other.environment.value("LD_PRELOAD"), QString("/lib/trace.so:/opt/user.so"));
        QCOMPARE(capture::detectLauncher({QStandardPaths::findExecutable("mpirun")}), capture::Launcher::OpenMpi);
        QCOMPARE(capture::detectLauncher({"true"}), capture::Launcher::Environment);
    }

    // --trace records what each rank did, in order, as SMPI replays it: the trace's sends are the matrix's bytes
    // exactly, and `predict --trace` replays it on a platform.
    void theTraceRecordsWhatEachRankDidInOrder()
    {
        QTemporaryDir dir;
        const QString prefix = dir.filePath("known");
        const Ran ran = runCli(QStringList{"capture", "--out", prefix, "--trace", "--"}
                               + mpirunKnownMatrix({"--without-subcommunicator-collectives"}));
        QVERIFY2(ran.exitCode == 0, qPrintable(ran.err + ran.out));
        auto trace = io::readTiTrace((prefix + ".ti").toStdString());
        QVERIFY2(trace, trace ? "" : trace.error().toString().c_str());
        QCOMPARE(trace->files.size(), std::size_t(4));
        QCOMPARE(QString::fromStdString(trace->files[2]), prefix + ".ti.2");
        auto total = io::readCommMatrix((prefix + ".volume.mtx").toStdString(),
                                        (prefix + ".messages.mtx").toStdString());
        QVERIFY(total);
        QVERIFY(io::checkTraceMatchesMatrix(*trace, *total));
        auto text = io::readTextFile((prefix + ".ti.0").toStdString());
        QVERIFY(text);
        const QStringList lines = QString::fromStdString(*text).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.front(), QString("0 init"));
        QCOMPARE(lines.back(), QString("0 finalize"));
        // The world collectives in program order, after the point-to-point phase.
        const auto at = [&](const QString& line) { return lines.indexOf(line); };
        QVERIFY2(at("0 bcast 1000 0") > 0, qPrintable(lines.join(" | ")));
        QVERIFY(at("0 allreduce 64 0") > at("0 bcast 1000 0"));
        QVERIFY(at("0 barrier") > at("0 allreduce 64 0"));
        // Rank 0's ring sends to rank 1: three blocking sends of 1000 B, each written as it happened.
        QCOMPARE(lines.filter(QRegularExpression("^0 send 1 \\d+ 1000$")).size(), 3);

        QFile sites(dir.filePath("sites.csv"));
        QVERIFY(sites.open(QIODevice::WriteOnly));
        sites.write("name,lat,lon,nodes,slots\na,0,0,2,1\nb,10,10,2,1\n");
        sites.close();
        QFile mapping(dir.filePath("mapping.csv"));
        QVERIFY(mapping.open(QIODevice::WriteOnly));
        mapping.write("0,a\n1,a\n2,b\n3,b\n");
        mapping.close();
        const Ran predicted = runCli({"predict", "--sites", sites.fileName(), "--volume", prefix + ".volume.mtx",
                                      "--messages", prefix + ".messages.mtx", "--mapping", mapping.fileName(),
                                      "--trace", prefix + ".ti"});
        QVERIFY2(predicted.exitCode == 0, qPrintable(predicted.err));
        const QJsonObject json = QJsonDocument::fromJson(predicted.out.toUtf8()).object();
        QCOMPARE(json["model"].toString(), QString("trace"));
        QVERIFY(json["predicted_s"].toDouble() > 0.0);
        // map takes the trace for refine's judge; a trace of other traffic (phase 0 alone) is refused by both.
        const Ran mapped = runCli({"map", "--sites", sites.fileName(), "--volume", prefix + ".volume.mtx", "--messages",
                                   prefix + ".messages.mtx", "--algorithm", "refine", "--trace", prefix + ".ti"});
        QVERIFY2(mapped.exitCode == 0, qPrintable(mapped.err));
        for (const QString& placed : QStringList{"--algorithm=refine", "--mapping=" + mapping.fileName()}) {
            const Ran other = runCli({placed.startsWith("--algorithm") ? "map" : "predict", "--sites", sites.fileName(),
                                      "--volume", prefix + ".phase0.volume.mtx", placed, "--trace", prefix + ".ti"});
            QCOMPARE(other.exitCode, 2);
            QVERIFY2(other.err.contains("a trace of another program or run"), qPrintable(other.err));
        }
        theProjectKeepsTheTrace(dir, prefix, sites.fileName(), mapping.fileName(), json["predicted_s"].toDouble());
    }

private:
    // A project keeps the trace with its application (project add-application --trace, set-trace): a sidecar of
    // its own that predict replays without --trace, with the time predict --trace gave; a trace of other traffic is
    // refused; set-trace --remove goes back to the bulk-synchronous model.
    void theProjectKeepsTheTrace(const QTemporaryDir& dir, const QString& prefix, const QString& sites,
                                 const QString& mapping, double predictedWithTrace)
    {
        const QString project = dir.filePath("p.meridian");
        QVERIFY(runCli({"project", "create", project, "--name", "P", "--sites", sites}).exitCode == 0);
        const Ran added = runCli({"project", "add-application", project, "--name", "known", "--volume",
                                  prefix + ".volume.mtx", "--messages", prefix + ".messages.mtx", "--trace",
                                  prefix + ".ti"});
        QVERIFY2(added.exitCode == 0, qPrintable(added.err));
        const auto app = QJsonDocument::fromJson(added.out.toUtf8()).object()["applications"].toArray()[0].toObject();
        QVERIFY(app["trace_lines"].toDouble() > 0.0);
        QVERIFY(QFileInfo::exists(dir.filePath("known.trace.ti")));
        const auto predict = [&] {
            const Ran ran = runCli({"predict", "--project", project, "--mapping", mapping});
            if (ran.exitCode != 0)
                qWarning("%s", qPrintable(ran.err));
            return QJsonDocument::fromJson(ran.out.toUtf8()).object();
        };
        QJsonObject kept = predict();
        QCOMPARE(kept["model"].toString(), QString("trace"));
        QCOMPARE(kept["predicted_s"].toDouble(), predictedWithTrace);
        const Ran other = runCli({"project", "add-application", project, "--name", "phase0", "--volume",
                                  prefix + ".phase0.volume.mtx", "--trace", prefix + ".ti"});
        QCOMPARE(other.exitCode, 2);
        QVERIFY2(other.err.contains("a trace of another program or run"), qPrintable(other.err));
        QVERIFY(runCli({"project", "set-trace", project, "--application", "known", "--remove"}).exitCode == 0);
        QCOMPARE(predict()["model"].toString(), QString("bulk-synchronous"));
        QVERIFY(runCli({"project", "set-trace", project, "--application", "known", "--trace", prefix + ".ti"}).exitCode
                == 0);
        kept = predict();
        QCOMPARE(kept["model"].toString(), QString("trace"));
        QCOMPARE(kept["predicted_s"].toDouble(), predictedWithTrace);
    }

private Q_SLOTS:
    // SMPI's replay has no scan: the tracer writes MPI_Scan and MPI_Exscan on MPI_COMM_WORLD as allreduces of the
    // same size (what a recursive-doubling scan exchanges), so a program that numbers its items with a scan, as
    // LAMMPS does, is traced and replayed.
    void aScanIsTracedAsAnAllreduceOfItsSize()
    {
        const QString mpicc = QStandardPaths::findExecutable("mpicc");
        QVERIFY2(!mpicc.isEmpty(), "mpicc not found: install libopenmpi-dev (scripts/dev does)");
        QTemporaryDir dir;
        QFile source(dir.filePath("scan.c"));
        QVERIFY(source.open(QIODevice::WriteOnly));
        source.write("#include <mpi.h>\n"
                     "int main(int argc, char** argv) {\n"
                     "    MPI_Init(&argc, &argv);\n"
                     "    long long mine = 1, sum[3] = {0, 0, 0};\n"
                     "    MPI_Scan(&mine, sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);\n"
                     "    MPI_Exscan(&mine, sum, 3, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);\n"
                     "    MPI_Finalize();\n"
                     "    return 0;\n"
                     "}\n");
        source.close();
        QProcess compile;
        compile.start(mpicc, {"-o", dir.filePath("scan"), source.fileName()});
        QVERIFY(compile.waitForFinished(120000) && compile.exitCode() == 0);
        const QString prefix = dir.filePath("scan");
        const Ran ran = runCli({"capture", "--out", prefix, "--trace", "--", QStandardPaths::findExecutable("mpirun"),
                                "--allow-run-as-root", "--oversubscribe", "-np", "3", dir.filePath("scan")});
        QVERIFY2(ran.exitCode == 0, qPrintable(ran.err + ran.out));
        auto trace = io::readTiTrace((prefix + ".ti").toStdString());
        QVERIFY2(trace, trace ? "" : trace.error().toString().c_str());
        auto text = io::readTextFile((prefix + ".ti.1").toStdString());
        QVERIFY(text);
        const QStringList lines = QString::fromStdString(*text).split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.indexOf("1 allreduce 24 0") > lines.indexOf("1 allreduce 8 0")
                     && lines.indexOf("1 allreduce 8 0") > 0,
                 qPrintable(lines.join(" | ")));
    }

    // A receive from any source that the program cancels (HPCC's RandomAccess does at its end) never happened: the
    // trace leaves it out, where it wrote "irecv -1 -1" and a wait on rank -1 that the replay refused.
    void aCancelledReceiveIsLeftOutOfTheTrace()
    {
        QTemporaryDir dir;
        QFile source(dir.filePath("cancel.c"));
        QVERIFY(source.open(QIODevice::WriteOnly));
        source.write(
            "#include <mpi.h>\n"
            "int main(int argc, char** argv) {\n"
            "    MPI_Init(&argc, &argv);\n"
            "    int rank, value = 7, got = 0;\n"
            "    MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n"
            "    MPI_Request request;\n"
            // A tag nothing sends: a wildcard tag could match the peer's Sendrecv before the cancel, and then the
            // Sendrecv's receive would wait forever (it did once, in a slow clean root).
            "    MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &request);\n"
            "    MPI_Cancel(&request);\n"
            "    MPI_Wait(&request, MPI_STATUS_IGNORE);\n"
            "    MPI_Sendrecv(&value, 1, MPI_INT, 1 - rank, 3, &got, 1, MPI_INT, 1 - rank, 3, MPI_COMM_WORLD,\n"
            "                 MPI_STATUS_IGNORE);\n"
            "    MPI_Finalize();\n"
            "    return 0;\n"
            "}\n");
        source.close();
        const QString error = compile("mpicc", {"-o", "cancel", source.fileName()}, dir.path());
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString prefix = dir.filePath("cancel");
        const Ran ran = runCli({"capture", "--out", prefix, "--trace", "--", QStandardPaths::findExecutable("mpirun"),
                                "--allow-run-as-root", "--oversubscribe", "-np", "2", dir.filePath("cancel")});
        QVERIFY2(ran.exitCode == 0, qPrintable(ran.err + ran.out));
        QCOMPARE(communicationOf(prefix + ".ti.0"),
                 (QStringList{"0 init", "0 isend 1 3 4", "0 irecv 1 3 4", "0 wait 0 1 3", "0 wait 1 0 3",
                              "0 finalize"}));
    }

    // A collective on a sub-communicator cannot be replayed: --trace refuses the capture, says what and how to get
    // the matrices, and writes nothing.
    void aTraceThatCannotBeReplayedIsRefused()
    {
        QTemporaryDir dir;
        const QString prefix = dir.filePath("known");
        const Ran ran = runCli(QStringList{"capture", "--out", prefix, "--trace", "--"} + mpirunKnownMatrix());
        QCOMPARE(ran.exitCode, 2);
        QVERIFY2(ran.err.contains("MPI_Reduce on a communicator other than MPI_COMM_WORLD"), qPrintable(ran.err));
        QVERIFY2(ran.err.contains("capture without --trace"), qPrintable(ran.err));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::Dirs | QDir::NoDotAndDotDot).size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestCapture)
#include "test_capture.moc"
