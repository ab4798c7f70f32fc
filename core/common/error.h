#pragma once

#include <string>

namespace meridian {

/// Classifies an Error so that callers (the CLI's exit code, the GUI's message box) can react to it.
enum class ErrorCode {
    InvalidInput, ///< A value is out of range or inconsistent with the rest of the input.
    Parse,        ///< A file does not follow its format; `where` names file, line and column.
    Io,           ///< A file cannot be opened, read or written.
    Infeasible,   ///< Constraints that cannot all be met (capacities, pins).
    Internal,     ///< A defect in Meridian itself.
    Busy,         ///< Another process holds what this one needs (a project's lock); the message names it.
    Canceled      ///< Not a failure: the user asked the computation to stop.
};

/// Where in an input an error was found. Line and column are 1-based; 0 means "not known".
struct SourceLocation {
    std::string file;
    int line = 0;
    int column = 0;
};

/// A user-facing error: what went wrong and where. Returned as a value, never thrown across modules.
struct Error {
    ErrorCode code = ErrorCode::InvalidInput;
    std::string message;
    SourceLocation where;

    /// Returns "file:line:column: message", leaving out the parts of the location that are not known.
    std::string toString() const
    {
        std::string out;
        if (!where.file.empty()) {
            out += where.file;
            if (where.line > 0) {
                out += ':' + std::to_string(where.line);
                if (where.column > 0)
                    out += ':' + std::to_string(where.column);
            }
            out += ": ";
        }
        return out + message;
    }
};

/// Returns the error with its file set to `file` (for errors raised below the reader that knows the file).
inline Error inFile(Error error, std::string file)
{
    error.where.file = std::move(file);
    return error;
}

inline Error makeError(ErrorCode code, std::string message, SourceLocation where = {})
{
    return Error{code, std::move(message), std::move(where)};
}

/// For Expected::transform_error: puts `context` before an error's message ("application 'lu': ..."). The location
/// is dropped: it belonged to the inner message, which now reads as a part of the outer one.
inline auto prefixedBy(std::string context)
{
    return [context = std::move(context)](const Error& error) {
        return Error{error.code, context + ": " + error.message, {}};
    };
}

} // namespace meridian
