#include "core/io/json_text.h"

#include "core/io/text_file.h"
#include "core/io/utf8_text.h"

#include <algorithm>

namespace meridian::io {

Expected<nlohmann::json> parseJsonText(const std::string& text, const std::string& path)
{
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::out_of_range& e) {
        return parseError(path, 0, 0, "not valid JSON: a number is out of range (" + std::string(e.what()) + ")");
    } catch (const nlohmann::json::parse_error& e) {
        auto byte = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        // A byte that is not UTF-8 (a name saved in Latin-1) is named as such, where it is.
        const std::size_t bad = findInvalidUtf8(text);
        const bool notUtf8 = bad != std::string::npos && bad <= byte;
        if (notUtf8)
            byte = bad;
        const auto begin = text.begin();
        const int line = 1 + static_cast<int>(std::count(begin, begin + static_cast<std::ptrdiff_t>(byte), '\n'));
        const auto lastNewline = text.rfind('\n', byte > 0 ? byte - 1 : 0);
        const int column = static_cast<int>(
                               byte - (lastNewline == std::string::npos || lastNewline >= byte ? 0 : lastNewline + 1))
            + 1;
        if (notUtf8)
            return parseError(path, line, column,
                              "not valid JSON: expected UTF-8 text, found the byte "
                                  + shown(std::string_view(text).substr(byte, 1)) + " (save the file as UTF-8)");
        return parseError(path, line, column, "not valid JSON");
    }
}

int lineOf(const std::string& text, const std::string& needle)
{
    const auto at = text.find(needle);
    if (at == std::string::npos)
        return 0;
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

} // namespace meridian::io
