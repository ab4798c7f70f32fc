#pragma once

#include "core/common/expected.h"

#include <QString>

namespace meridian::document {

/// One of Meridian's programs (meridian-cli, meridian-probe), installed beside the running one: the program the
/// environment variable `variable` names when it is set (an error when that is not a program), else `name` in
/// this program's folder. The error says where it looked and which variable to set.
Expected<QString> installedProgram(const char* name, const char* variable);

} // namespace meridian::document
