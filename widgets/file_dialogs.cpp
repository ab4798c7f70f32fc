#include "widgets/file_dialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace meridian::widgets {

namespace {

constexpr const char* kKey = "files/lastFolder";

} // namespace

QString lastFolder()
{
    const QString folder = QSettings().value(kKey).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

void rememberFolder(const QString& path)
{
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    QSettings().setValue(kKey, info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QString openFileName(QWidget* parent, const QString& title, const QString& filter)
{
    QString path = QFileDialog::getOpenFileName(parent, title, lastFolder(), filter);
    rememberFolder(path);
    return path;
}

QString saveFileName(QWidget* parent, const QString& title, const QString& name, const QString& filter)
{
    const QString start = QFileInfo(name).isAbsolute() ? name : QDir(lastFolder()).filePath(name);
    QString path = QFileDialog::getSaveFileName(parent, title, start, filter);
    rememberFolder(path);
    return path;
}

} // namespace meridian::widgets
