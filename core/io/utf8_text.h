#pragma once

#include "core/common/expected.h"
#include "core/io/text_file.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace meridian::io {

/// Returns the offset of the first byte of `text` that is not part of well-formed UTF-8 (a stray continuation
/// byte, a cut sequence, an overlong form, a surrogate, a code point above U+10FFFF), or npos when all of it is.
inline std::size_t findInvalidUtf8(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t length = c < 0x80 ? 1
            : c >= 0xC2 && c <= 0xDF  ? 2
            : c >= 0xE0 && c <= 0xEF  ? 3
            : c >= 0xF0 && c <= 0xF4  ? 4
                                      : 0;
        if (length == 0 || i + length > text.size())
            return i;
        const auto second = length > 1 ? static_cast<unsigned char>(text[i + 1]) : 0x80;
        // The second byte's range rules out overlong forms, surrogates and code points above U+10FFFF.
        const unsigned char low = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
        const unsigned char high = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
        if (length > 1 && (second < low || second > high))
            return i;
        for (std::size_t k = 2; k < length; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
                return i;
        i += length;
    }
    return std::string_view::npos;
}

/// Refuses a name read from a file that is not UTF-8: kept as bytes, it would be saved with U+FFFD in their place
/// and no longer match the user's other files. `column` is where the name starts on its line; the error points at
/// the first bad byte, e.g. "sites.csv:3:5: expected a site name in UTF-8, found 'east\xFF' (byte 5 is not UTF-8;
/// save the file as UTF-8)".
inline Status checkUtf8Name(const std::string& path, int line, int column, std::string_view name,
                            const std::string& what)
{
    const std::size_t bad = findInvalidUtf8(name);
    if (bad == std::string_view::npos)
        return {};
    return parseError(path, line, column + static_cast<int>(bad),
                      "expected " + what + " in UTF-8, found " + shown(name) + " (byte " + std::to_string(bad + 1)
                          + " is not UTF-8; save the file as UTF-8)");
}

} // namespace meridian::io
