#include "core/io/matrix_market.h"

#include "core/io/text_file.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <limits>

namespace meridian::io {

namespace {

struct Token {
    std::string_view text;
    int column;
};

/// The blank-separated tokens of a line: the first kMaxTokens kept (no line this reader accepts has more), and
/// how many there are. Kept on the stack: a million-entry file is a million lines.
struct Tokens {
    static constexpr std::size_t kMaxTokens = 6;
    std::array<Token, kMaxTokens> kept{};
    std::size_t count = 0;

    std::size_t size() const { return count; }
    bool empty() const { return count == 0; }
    const Token& operator[](std::size_t i) const { return kept[i]; }
    const Token& front() const { return kept[0]; }
};

Tokens tokenize(std::string_view line)
{
    Tokens out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        if (i >= line.size())
            break;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        if (out.count < Tokens::kMaxTokens)
            out.kept[out.count] = {line.substr(start, i - start), static_cast<int>(start) + 1};
        ++out.count;
    }
    return out;
}

/// What the banner and the size line of a Matrix Market file say.
struct Header {
    bool dense = false;
    bool symmetric = false;
    long long dims[3] = {0, 0, 0}; ///< rows, columns, entries (coordinate)
    std::size_t count = 0;         ///< values stored in the file
    int sizeLine = 0;
};

/// Line 1: '%%MatrixMarket matrix <coordinate|array> <real|integer> <general|symmetric>'.
Expected<Header> readBanner(const std::string& path, LineReader& lines)
{
    if (!lines.next())
        return parseError(path, 1, 1, "the file is empty; expected a %%MatrixMarket header");
    const auto banner = tokenize(lines.line());
    if (banner.size() != 5 || toLower(banner[0].text) != "%%matrixmarket" || toLower(banner[1].text) != "matrix")
        return parseError(path, 1, 1,
                          "expected '%%MatrixMarket matrix <coordinate|array> <real|integer> <general|symmetric>'");
    const std::string format = toLower(banner[2].text);
    const std::string field = toLower(banner[3].text);
    const std::string symmetry = toLower(banner[4].text);
    if (format != "coordinate" && format != "array")
        return parseError(path, 1, banner[2].column,
                          "expected the format 'coordinate' or 'array', found '" + std::string(banner[2].text) + "'");
    if (field != "real" && field != "integer" && field != "double")
        return parseError(path, 1, banner[3].column,
                          "expected the field 'real' or 'integer', found '" + std::string(banner[3].text)
                              + "' (pattern and complex matrices carry no usable values)");
    if (symmetry != "general" && symmetry != "symmetric")
        return parseError(path, 1, banner[4].column,
                          "expected 'general' or 'symmetric', found '" + std::string(banner[4].text) + "'");
    Header h;
    h.dense = format == "array";
    h.symmetric = symmetry == "symmetric";
    return h;
}

/// The size line, checked against what the rest of the file can hold before anything is allocated.
Status readSizeLine(const std::string& path, LineReader& lines, Header& h)
{
    Tokens size;
    while (lines.next()) {
        const auto t = trim(lines.line());
        if (t.empty() || t.front() == '%')
            continue;
        size = tokenize(lines.line());
        break;
    }
    const int sizeLine = lines.number();
    h.sizeLine = sizeLine;
    if (size.size() != (h.dense ? 2u : 3u))
        return parseError(path, sizeLine, 1,
                          h.dense ? "expected a size line 'rows columns'"
                                  : "expected a size line 'rows columns entries'");
    for (std::size_t k = 0; k < size.size(); ++k) {
        const auto v = parseInteger(size[k].text);
        if (!v || *v < (k < 2 ? 1 : 0) || *v > std::numeric_limits<int>::max())
            return parseError(path, sizeLine, size[k].column,
                              std::string("expected ")
                                  + (k < 2 ? "a dimension between 1 and 2147483647" : "an entry count >= 0")
                                  + ", found '" + std::string(size[k].text) + "'");
        h.dims[k] = *v;
    }
    if (h.symmetric && h.dims[0] != h.dims[1])
        return parseError(path, sizeLine, 1, "a symmetric matrix must be square");
    const double cells = h.symmetric ? 0.5 * static_cast<double>(h.dims[0]) * static_cast<double>(h.dims[0] + 1)
                                     : static_cast<double>(h.dims[0]) * static_cast<double>(h.dims[1]);
    const double stored = h.dense ? cells : static_cast<double>(h.dims[2]);
    if (!h.dense && stored > cells)
        return parseError(path, sizeLine, size[2].column,
                          "the header claims " + std::to_string(h.dims[2]) + " entries but a "
                              + std::to_string(h.dims[0]) + " x " + std::to_string(h.dims[1])
                              + (h.symmetric ? " symmetric" : "") + " matrix has only "
                              + std::to_string(static_cast<long long>(cells)) + " cells");
    // Every entry needs at least "1 1 1\n" (coordinate) or "1\n" (array): refuse before allocating.
    const double minBytes = h.dense ? 2.0 : 6.0;
    const double room = (static_cast<double>(lines.remaining()) + 1.0) / minBytes;
    if (stored > room)
        return parseError(path, sizeLine, 1,
                          "the header claims " + std::to_string(static_cast<long long>(stored))
                              + " values but the rest of the file (" + std::to_string(lines.remaining())
                              + " bytes) can hold at most " + std::to_string(static_cast<long long>(room)));
    h.count = static_cast<std::size_t>(stored);
    return {};
}

/// The row and column of a coordinate entry (0-based), checked against the dimensions and the symmetry.
Expected<std::pair<int, int>> readCoordinates(const std::string& path, int line, const Tokens& tokens, const Header& h)
{
    int rc[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
        const auto v = parseInteger(tokens[k].text);
        const long long limit = h.dims[k];
        if (!v || *v < 1 || *v > limit)
            return parseError(path, line, tokens[k].column,
                              std::string("expected a ") + (k == 0 ? "row" : "column") + " index between 1 and "
                                  + std::to_string(limit) + ", found '" + std::string(tokens[k].text) + "'");
        rc[k] = static_cast<int>(*v - 1);
    }
    if (h.symmetric && rc[0] < rc[1])
        return parseError(path, line, tokens[0].column,
                          "a symmetric file stores the lower triangle only (row >= column)");
    return std::pair{rc[0], rc[1]};
}

/// The entries after the size line: exactly `h.count` values, each satisfying `rule`.
Status readEntries(const std::string& path, LineReader& lines, const Header& h, CellRule rule, MarketMatrix& m)
{
    m.entries.reserve(h.symmetric ? 2 * h.count : h.count);
    std::size_t read = 0;
    long long denseRow = 0, denseCol = 0;
    while (lines.next()) {
        const auto t = trim(lines.line());
        if (t.empty() || t.front() == '%')
            continue;
        const auto tokens = tokenize(lines.line());
        if (read == h.count)
            return parseError(path, lines.number(), tokens.front().column,
                              "the header announced " + std::to_string(h.count) + " values; this line is one too many");
        const std::size_t want = h.dense ? 1 : 3;
        if (tokens.size() != want)
            return parseError(path, lines.number(), tokens.size() > want ? tokens[want].column : 1,
                              h.dense ? "expected one value per line" : "expected 'row column value'");
        std::pair<int, int> at{static_cast<int>(denseRow), static_cast<int>(denseCol)};
        if (!h.dense) {
            auto coordinates = readCoordinates(path, lines.number(), tokens, h);
            if (!coordinates)
                return coordinates.error();
            at = *coordinates;
        }
        const auto& valueToken = tokens[h.dense ? 0 : 2];
        const auto value = parseNumber(valueToken.text);
        if (!value || !satisfies(rule, *value))
            return parseError(path, lines.number(), valueToken.column,
                              "expected " + describeRule(rule) + ", found '" + std::string(valueToken.text) + "'");
        const auto [r, c] = at;
        m.entries.push_back({r, c, *value, lines.number()});
        if (h.symmetric && r != c)
            m.entries.push_back({c, r, *value, lines.number()});
        ++read;
        // Column-major; a symmetric array lists the lower triangle column by column.
        if (h.dense && ++denseRow == h.dims[0]) {
            ++denseCol;
            denseRow = h.symmetric ? denseCol : 0;
        }
    }
    if (read != h.count)
        return parseError(path, lines.number(), 1,
                          "the header announced " + std::to_string(h.count) + " values but the file has "
                              + std::to_string(read));
    return {};
}

} // namespace

Expected<MarketMatrix> readMatrixMarket(const std::string& path, CellRule rule)
{
    auto text = readTextFile(path);
    if (!text)
        return text.error();
    LineReader lines(*text);
    auto header = readBanner(path, lines);
    if (!header)
        return header.error();
    if (auto sized = readSizeLine(path, lines, *header); !sized)
        return sized.error();
    MarketMatrix m;
    m.dense = header->dense;
    m.rows = static_cast<int>(header->dims[0]);
    m.columns = static_cast<int>(header->dims[1]);
    m.sizeLine = header->sizeLine;
    if (auto read = readEntries(path, lines, *header, rule, m); !read)
        return read.error();
    return m;
}

Status writeMatrixMarket(const std::string& path, int rows, int columns, const std::vector<MarketEntry>& entries,
                         const std::string& comment)
{
    return writeTextFileAtomically(path, matrixMarketText(rows, columns, entries, comment));
}

std::string matrixMarketText(int rows, int columns, const std::vector<MarketEntry>& entries, const std::string& comment)
{
    std::string out = "%%MatrixMarket matrix coordinate real general\n";
    if (!comment.empty())
        out += "% " + comment + "\n";
    out += std::to_string(rows) + ' ' + std::to_string(columns) + ' ' + std::to_string(entries.size()) + '\n';
    char buffer[64];
    for (const auto& e : entries) {
        out += std::to_string(e.row + 1);
        out += ' ';
        out += std::to_string(e.column + 1);
        out += ' ';
        auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, e.value);
        out.append(buffer, ptr);
        out += '\n';
    }
    return out;
}

} // namespace meridian::io
