#include "app/project/installed_program.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <string>

namespace meridian::document {

Expected<QString> installedProgram(const char* name, const char* variable)
{
    const QString fromEnvironment = qEnvironmentVariable(variable);
    if (!fromEnvironment.isEmpty()) {
        if (QFileInfo(fromEnvironment).isExecutable())
            return QFileInfo(fromEnvironment).absoluteFilePath();
        return makeError(ErrorCode::Io,
                         std::string(variable) + " names " + fromEnvironment.toStdString() + ", which is not a program");
    }
    const QString beside = QDir(QCoreApplication::applicationDirPath()).filePath(name);
    if (QFileInfo(beside).isExecutable())
        return beside;
    return makeError(ErrorCode::Io,
                     "cannot find " + std::string(name) + " (looked at " + beside.toStdString() + "; set " + variable
                         + " to its path)");
}

} // namespace meridian::document
