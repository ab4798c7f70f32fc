#pragma once

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <string>

namespace meridian::test {

/// True in a build under AddressSanitizer or ThreadSanitizer (scripts/dev sanitize and tsan), where every process
/// runs several times slower. Tests that repeat one check many times (kill loops, rank counts) repeat it fewer
/// times there; each repetition checks the same as in a Release build.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kUnderSanitizer = true;
#else
inline constexpr bool kUnderSanitizer = false;
#endif

/// Returns the path of a fixture in tests/data.
inline std::string data(const std::string& name) { return std::string(MERIDIAN_TEST_DATA) + "/" + name; }
inline QString qdata(const std::string& name) { return QString::fromStdString(data(name)); }
/// Lets a test start Open MPI's mpirun on this machine, for itself and the processes it starts: as root, never by
/// ssh (every rank runs here); under a sanitizer, without the leak check that Open MPI's finalize fails (its plugins
/// leave their allocations behind; every access is still checked).
inline void allowMpirunHere()
{
    qputenv("OMPI_ALLOW_RUN_AS_ROOT", "1");
    qputenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    qputenv("OMPI_MCA_plm_rsh_agent", "false");
    if (const QByteArray asan = qgetenv("ASAN_OPTIONS"); !asan.isEmpty())
        qputenv("ASAN_OPTIONS", asan + ":detect_leaks=0");
}

/// Returns the path of a sample project file.
inline QString sampleProject(const QString& name)
{
    return QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/" + name + "/" + name + ".meridian";
}

} // namespace meridian::test

#include "core/common/error.h"
#include "core/model/site.h"

namespace meridian::test {

/// Returns a site with unknown bandwidths and price (NaN), as a reader would build it.
inline model::Site site(std::string name, double lat, double lon, int nodes, int slots,
                        std::vector<model::Host> hosts = {})
{
    model::Site s;
    s.name = std::move(name);
    s.latitude = lat;
    s.longitude = lon;
    s.nodes = nodes;
    s.slotsPerNode = slots;
    s.hosts = std::move(hosts);
    return s;
}

/// Returns an empty string when `error` is a located error at `line` (and `column` unless it is -1)
/// in a file whose path ends with `file` and whose message contains `fragment`; otherwise what differs.
inline QString errorMismatch(const Error& error, const std::string& file, int line, int column,
                             const std::string& fragment)
{
    const auto& w = error.where;
    if (w.file.size() < file.size() || w.file.compare(w.file.size() - file.size(), file.size(), file) != 0)
        return QString("file '%1' does not end with '%2' (%3)")
            .arg(QString::fromStdString(w.file), QString::fromStdString(file), QString::fromStdString(error.toString()));
    if (w.line != line)
        return QString("line %1, expected %2 (%3)").arg(w.line).arg(line).arg(QString::fromStdString(error.toString()));
    if (column >= 0 && w.column != column)
        return QString("column %1, expected %2 (%3)")
            .arg(w.column)
            .arg(column)
            .arg(QString::fromStdString(error.toString()));
    if (error.message.find(fragment) == std::string::npos)
        return QString("message lacks '%1': %2")
            .arg(QString::fromStdString(fragment), QString::fromStdString(error.toString()));
    return {};
}

} // namespace meridian::test

/// Checks that an Expected failed with a located error (see errorMismatch).
#define MERIDIAN_VERIFY_ERROR(result, file, line, column, fragment) \
    do { \
        const auto& r_ = (result); \
        QVERIFY2(!r_, "expected an error, got a value"); \
        const QString m_ = meridian::test::errorMismatch(r_.error(), file, line, column, fragment); \
        QVERIFY2(m_.isEmpty(), qPrintable(m_)); \
    } while (false)
