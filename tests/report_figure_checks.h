#pragma once
// The text of a report's figures as printed, shared by the report's test and the workbench's end-to-end test.

#include "app/report/report_writer.h"

#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QTextDocumentFragment>

#include <cmath>
#include <vector>

namespace meridian::test {

/// Every text of every figure of a report's HTML, with the size it prints at (points) when the figure is laid out to
/// its print width (report::kPrintWidthPx, or half of it for a figure of class 'half'). QSvgGenerator writes each
/// text's font size in the drawing's units, inside groups that may scale it (transform="matrix(a,b,c,d,e,f)").
struct PrintedText {
    QString text;
    double points = 0.0;
    int figure = 0;
};

inline std::vector<PrintedText> figureTexts(const QString& html)
{
    std::vector<PrintedText> out;
    static const QRegularExpression figure("<figure( class='half')?>(.*?)</figure>",
                                           QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression viewBox("viewBox=\"0 0 ([0-9.]+) ([0-9.]+)\"");
    static const QRegularExpression item(
        R"re(<g [^>]*?transform="matrix\(([^)]*)\)"|<text [^>]*?font-size="([0-9.]+)"[^>]*>([^<]*)</text>)re");
    int number = 0;
    for (auto f = figure.globalMatch(html); f.hasNext();) {
        const auto m = f.next();
        ++number;
        const double printWidth = m.captured(1).isEmpty() ? report::kPrintWidthPx : report::kHalfPrintWidthPx;
        const double width = viewBox.match(m.captured(2)).captured(1).toDouble();
        if (!(width > 0))
            continue;
        double scale = 1.0;
        for (auto t = item.globalMatch(m.captured(2)); t.hasNext();) {
            const auto i = t.next();
            if (!i.captured(1).isEmpty()) {
                const QStringList a = i.captured(1).split(',');
                scale = a.size() >= 4
                    ? std::sqrt(std::abs(a[0].toDouble() * a[3].toDouble() - a[1].toDouble() * a[2].toDouble()))
                    : 1.0;
                continue;
            }
            const QString text = QTextDocumentFragment::fromHtml(i.captured(3)).toPlainText().trimmed();
            if (!text.isEmpty())
                out.push_back({text, i.captured(2).toDouble() * scale * printWidth / width * 0.75, number});
        }
    }
    return out;
}

/// What is wrong with a report's figure texts: any printed under report::kMinimumFigureTextPt, any elided.
inline QStringList figureTextProblems(const std::vector<PrintedText>& texts)
{
    QStringList found;
    for (const auto& t : texts) {
        if (t.points < report::kMinimumFigureTextPt - 0.01)
            found << QString("figure %1: '%2' prints at %3 pt").arg(t.figure).arg(t.text).arg(t.points);
        if (t.text.contains(QChar(0x2026)) || t.text.endsWith("..."))
            found << QString("figure %1: '%2' is elided").arg(t.figure).arg(t.text);
    }
    return found;
}

} // namespace meridian::test
