#include "core/io/text_file.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace meridian::io {

Expected<std::string> readTextFile(const std::string& path)
{
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        return makeError(ErrorCode::Io, std::string("cannot open the file: ") + std::strerror(errno), {path});
    std::string data;
    char buffer[1 << 16];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0)
        data.append(buffer, n);
    const bool failed = std::ferror(f);
    std::fclose(f);
    if (failed)
        return makeError(ErrorCode::Io, "cannot read the file", {path});
    return data;
}

Status writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& produce)
{
    const std::string temp = path + ".part";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out)
            return makeError(ErrorCode::Io, "cannot create the file", {path});
        produce(out);
        out.flush();
        if (!out) {
            out.close();
            std::error_code ignored;
            std::filesystem::remove(temp, ignored);
            return makeError(ErrorCode::Io, "cannot write the file", {path});
        }
    }
    std::error_code ec;
    std::filesystem::rename(temp, path, ec);
    if (ec) {
        std::filesystem::remove(temp, ec);
        return makeError(ErrorCode::Io, "cannot replace the file", {path});
    }
    return {};
}

Status writeTextFileAtomically(const std::string& path, std::string_view content)
{
    return writeFileAtomically(path, [&](std::ostream& out) { out.write(content.data(), static_cast<std::streamsize>(content.size())); });
}

bool LineReader::next()
{
    if (m_pos >= m_text.size())
        return false;
    const std::size_t end = m_text.find('\n', m_pos);
    const std::size_t stop = end == std::string_view::npos ? m_text.size() : end;
    m_line = m_text.substr(m_pos, stop - m_pos);
    if (!m_line.empty() && m_line.back() == '\r')
        m_line.remove_suffix(1);
    m_pos = end == std::string_view::npos ? m_text.size() : end + 1;
    ++m_number;
    return true;
}

std::string_view trim(std::string_view text)
{
    std::size_t b = 0, e = text.size();
    while (b < e && (text[b] == ' ' || text[b] == '\t' || text[b] == '\r'))
        ++b;
    while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\r'))
        --e;
    return text.substr(b, e - b);
}

bool isBlankOrComment(std::string_view line, char comment)
{
    const auto t = trim(line);
    return t.empty() || t.front() == comment;
}

Error parseError(const std::string& path, int line, int column, std::string message)
{
    return makeError(ErrorCode::Parse, std::move(message), {path, line, column});
}

Expected<std::vector<Field>> splitCsvLine(std::string_view line, const std::string& path, int lineNumber)
{
    std::vector<Field> fields;
    std::size_t i = 0;
    while (true) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        Field field;
        field.column = static_cast<int>(i) + 1;
        if (i < line.size() && line[i] == '"') {
            const int quoteColumn = static_cast<int>(i) + 1;
            ++i;
            bool closed = false;
            while (i < line.size()) {
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field.text += '"';
                        i += 2;
                        continue;
                    }
                    closed = true;
                    ++i;
                    break;
                }
                field.text += line[i++];
            }
            if (!closed)
                return parseError(path, lineNumber, quoteColumn, "a quoted field is not closed");
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
                ++i;
            if (i < line.size() && line[i] != ',')
                return parseError(path, lineNumber, static_cast<int>(i) + 1, "expected ',' after a quoted field");
        } else {
            const std::size_t start = i;
            while (i < line.size() && line[i] != ',')
                ++i;
            field.text = std::string(trim(line.substr(start, i - start)));
        }
        fields.push_back(std::move(field));
        if (i >= line.size())
            break;
        ++i; // the comma
    }
    return fields;
}

bool CsvRecords::next()
{
    while (m_lines.next()) {
        if (isBlankOrComment(m_lines.line()))
            continue;
        m_line = m_lines.number();
        auto fields = splitCsvLine(m_lines.line(), m_path, m_line);
        if (!fields) {
            m_error = fields.error();
            return false;
        }
        m_fields = std::move(*fields);
        ++m_count;
        return true;
    }
    return false;
}

std::string toLower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string quoteCsvField(const std::string& text)
{
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::optional<double> parseNumber(std::string_view text)
{
    text = trim(text);
    if (text.empty())
        return std::nullopt;
    if (text.front() == '+')
        text.remove_prefix(1);
    double value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::optional<long long> parseInteger(std::string_view text)
{
    text = trim(text);
    if (text.empty())
        return std::nullopt;
    if (text.front() == '+')
        text.remove_prefix(1);
    long long value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size())
        return std::nullopt;
    return value;
}

} // namespace meridian::io
