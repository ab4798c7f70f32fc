#pragma once
// Runs meridian-cli from a test and keeps what it printed.

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

namespace meridian::test {

struct CliRun {
    int code = -1;
    QByteArray out;
    QByteArray err;
    double seconds = 0.0; ///< wall clock of the whole command
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

/// Runs meridian-cli with these arguments (60 s at most; -1: no limit) and returns its exit code and output.
inline CliRun cli(const QStringList& args, int timeoutMs = 60000)
{
    QProcess p;
    QElapsedTimer timer;
    timer.start();
    p.start(MERIDIAN_CLI, args);
    p.waitForFinished(timeoutMs);
    const double seconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError(), seconds};
}

/// Writes a file into a temporary folder; returns its path (a failure stops the test).
inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        qFatal("cannot write %s", qPrintable(f.fileName()));
    return f.fileName();
}

/// Returns a file's bytes, or nothing when it cannot be read.
inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace meridian::test
