#pragma once
// Runs meridian-cli from a test and keeps what it printed.

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>

namespace meridian::test {

struct CliRun {
    int code = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

/// Runs meridian-cli with these arguments (60 s at most) and returns its exit code and output.
inline CliRun cli(const QStringList& args)
{
    QProcess p;
    p.start(MERIDIAN_CLI, args);
    p.waitForFinished(60000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

/// Returns a file's bytes, or nothing when it cannot be read.
inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace meridian::test
