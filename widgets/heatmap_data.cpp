#include "widgets/heatmap_data.h"

#include <QLocale>
#include <QTextStream>

#include <algorithm>
#include <cmath>

namespace meridian::widgets {

double HeatmapData::value(int row, int column, bool* present) const
{
    if (present)
        *present = true;
    if (!isSparse) {
        const double v = dense(row, column);
        if (std::isnan(v) && present)
            *present = false;
        return v;
    }
    const int* outer = sparse.outerIndexPtr();
    const int* inner = sparse.innerIndexPtr();
    const int* begin = inner + outer[row];
    const int* end = inner + outer[row + 1];
    const int* it = std::lower_bound(begin, end, column);
    return it != end && *it == column ? sparse.valuePtr()[it - inner] : 0.0;
}

void writeHeatmapCsv(const HeatmapData& data, QTextStream& out)
{
    auto label = [](const QStringList& labels, int i) { return i < labels.size() ? labels[i] : QString::number(i); };
    auto quoted = [](QString s) {
        if (s.contains(',') || s.contains('"'))
            s = '"' + s.replace('"', "\"\"") + '"';
        return s;
    };
    out << "# " << data.title << " (" << data.unit << ")\n";
    if (data.isSparse) {
        out << quoted(data.rowAxis) << ',' << quoted(data.columnAxis) << ",value\n";
        const auto& m = data.sparse;
        for (int r = 0; r < m.outerSize(); ++r)
            for (HeatmapData::Sparse::InnerIterator it(m, r); it; ++it)
                out << quoted(label(data.rowLabels, r)) << ','
                    << quoted(label(data.columnLabels, static_cast<int>(it.col()))) << ','
                    << QString::number(it.value(), 'g', 17) << '\n';
        return;
    }
    out << quoted(data.rowAxis + " \\ " + data.columnAxis);
    for (int c = 0; c < data.columns(); ++c)
        out << ',' << quoted(label(data.columnLabels, c));
    out << '\n';
    for (int r = 0; r < data.rows(); ++r) {
        out << quoted(label(data.rowLabels, r));
        for (int c = 0; c < data.columns(); ++c) {
            out << ',';
            const double v = data.dense(r, c);
            if (!std::isnan(v))
                out << QString::number(v, 'g', 17);
        }
        out << '\n';
    }
}

namespace {

/// Four significant digits without an exponent: "14,930" rather than "1.493e+04", "0.00001096" rather than
/// "1.096e-05"; trailing zeros dropped as 'g' does.
QString plainNumber(double value)
{
    const double magnitude = std::abs(value);
    if (value == 0.0 || !std::isfinite(value))
        return QString::number(value);
    if (magnitude >= 1e4) {
        QLocale english(QLocale::English);
        return english.toString(std::round(value), 'f', 0);
    }
    const int decimals = std::clamp(3 - static_cast<int>(std::floor(std::log10(magnitude))), 0, 15);
    QString text = QString::number(value, 'f', decimals);
    if (text.contains('.')) {
        while (text.endsWith('0'))
            text.chop(1);
        if (text.endsWith('.'))
            text.chop(1);
    }
    return text;
}

} // namespace

QString formatValue(double value, const QString& unit)
{
    if (std::isnan(value))
        return QStringLiteral("no value");
    if (unit == "bytes") {
        static const char* prefixes[] = {"B", "kB", "MB", "GB", "TB", "PB"};
        int p = 0;
        double v = value;
        while (std::abs(v) >= 1000.0 && p < 5) {
            v /= 1000.0;
            ++p;
        }
        return plainNumber(v) + ' ' + prefixes[p];
    }
    // Short durations read in ms and \u00b5s rather than in powers of ten.
    if (unit == "s" && value != 0.0 && std::abs(value) < 1.0) {
        const bool micro = std::abs(value) < 1e-3;
        return plainNumber(value * (micro ? 1e6 : 1e3)) + (micro ? QStringLiteral(" \u00b5s") : QStringLiteral(" ms"));
    }
    return plainNumber(value) + (unit.isEmpty() ? QString() : ' ' + unit);
}

} // namespace meridian::widgets
