#include "core/io/matrix_csv.h"

#include "core/io/text_file.h"
#include "core/io/utf8_text.h"
#include "core/model/network.h"

#include <charconv>
#include <cmath>

namespace meridian::io {

std::string describeRule(CellRule rule)
{
    switch (rule) {
    case CellRule::Positive:
        return "a finite number > 0";
    case CellRule::Latency:
        return model::networkValueRange(model::NetworkQuantity::Latency);
    case CellRule::Bandwidth:
        return model::networkValueRange(model::NetworkQuantity::Bandwidth);
    case CellRule::NonNegative:
        break;
    }
    return "a finite number >= 0";
}

bool satisfies(CellRule rule, double value)
{
    switch (rule) {
    case CellRule::Positive:
        return std::isfinite(value) && value > 0;
    case CellRule::Latency:
        return model::isValidNetworkValue(model::NetworkQuantity::Latency, value);
    case CellRule::Bandwidth:
        return model::isValidNetworkValue(model::NetworkQuantity::Bandwidth, value);
    case CellRule::NonNegative:
        break;
    }
    return std::isfinite(value) && value >= 0;
}

namespace {

bool looksNumeric(const std::string& s) { return parseNumber(s).has_value(); }

std::string formatNumber(double v)
{
    char buffer[32];
    auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
    return std::string(buffer, ptr);
}

/// Reads the first record's names into `m` when it is a header row (a non-numeric cell after its first);
/// returns whether it was one. Names must be UTF-8.
Expected<bool> readHeader(const std::vector<Field>& fields, const std::string& path, int line, LabeledMatrix& m)
{
    bool header = false;
    for (std::size_t f = 1; f < fields.size(); ++f)
        if (!fields[f].text.empty() && !looksNumeric(fields[f].text))
            header = true;
    if (!header)
        return false;
    m.headerLine = line;
    for (const auto& f : fields) {
        if (auto ok = checkUtf8Name(path, line, f.column, f.text, "a name"); !ok)
            return ok.error();
        m.columnNames.push_back(f.text);
    }
    return true;
}

} // namespace

Expected<LabeledMatrix> readMatrixCsv(const std::string& path, CellRule rule, bool allowMissing)
{
    auto text = readTextFile(path);
    if (!text)
        return text.error();
    CsvRecords records(*text, path);
    LabeledMatrix m;
    bool hasNames = false;
    std::size_t width = 0; // fields per data row
    while (records.next()) {
        const auto& fields = records.fields();
        const int line = records.line();
        if (records.isFirst()) {
            auto header = readHeader(fields, path, line, m);
            if (!header)
                return header.error();
            if (*header)
                continue;
        }
        if (width == 0) {
            const auto& head = fields.front().text;
            hasNames = !head.empty() && !looksNumeric(head);
            width = fields.size();
            if (m.headerLine) {
                // The header may leave out the corner cell above the name column.
                if (hasNames && m.columnNames.size() == width)
                    m.columnNames.erase(m.columnNames.begin());
                if (m.columnNames.size() != width - (hasNames ? 1 : 0))
                    return parseError(path, m.headerLine, 1,
                                      "the header names " + std::to_string(m.columnNames.size())
                                          + " columns but the first data row on line " + std::to_string(line) + " has "
                                          + std::to_string(width - (hasNames ? 1 : 0)) + " values");
            }
        }
        if (fields.size() != width)
            return parseError(path, line, 1,
                              "expected " + std::to_string(width) + " fields as on the first data row, found "
                                  + std::to_string(fields.size()));
        std::size_t f = 0;
        if (hasNames) {
            const auto& name = fields[0];
            if (name.text.empty() || looksNumeric(name.text))
                return parseError(path, line, name.column,
                                  "expected a name in the first column, as on the first data row");
            if (auto ok = checkUtf8Name(path, line, name.column, name.text, "a name"); !ok)
                return ok.error();
            m.rowNames.push_back(name.text);
            f = 1;
        }
        for (; f < fields.size(); ++f) {
            const auto& field = fields[f];
            if (field.text.empty()) {
                if (!allowMissing)
                    return parseError(path, line, field.column,
                                      "expected " + describeRule(rule) + ", found an empty cell");
                m.values.push_back(std::nan(""));
                continue;
            }
            const auto v = parseNumber(field.text);
            if (!v || !satisfies(rule, *v))
                return parseError(path, line, field.column,
                                  "expected " + describeRule(rule) + ", found " + shown(field.text) + "");
            m.values.push_back(*v);
        }
        m.rowLines.push_back(line);
    }
    if (records.error())
        return *records.error();
    const auto rows = m.rowLines.size();
    const std::size_t cols = width - (hasNames ? 1 : 0);
    if (rows == 0)
        return parseError(path, records.line(), 1, "the file holds no matrix row");
    if (rows != cols)
        return parseError(path, records.line(), 1,
                          "the matrix has " + std::to_string(rows) + " rows and " + std::to_string(cols)
                              + " columns; expected a square matrix");
    m.size = static_cast<int>(rows);
    return m;
}

Status writeMatrixCsv(const std::string& path, const std::vector<std::string>& names, const Eigen::MatrixXd& matrix)
{
    std::string out;
    out += "site";
    for (const auto& n : names)
        out += ',' + quoteCsvField(n);
    out += '\n';
    for (Eigen::Index i = 0; i < matrix.rows(); ++i) {
        out += quoteCsvField(names[i]);
        for (Eigen::Index j = 0; j < matrix.cols(); ++j) {
            out += ',';
            if (!std::isnan(matrix(i, j)))
                out += formatNumber(matrix(i, j));
        }
        out += '\n';
    }
    return writeTextFileAtomically(path, out);
}

} // namespace meridian::io
