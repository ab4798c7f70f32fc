#pragma once

#include <QString>

class QWidget;

namespace meridian::widgets {

/// The workbench's file dialogs: they open in the folder the user last chose a file in (remembered across sessions),
/// not in the working directory, and remember the folder of the file chosen.

/// The folder the next dialog opens in: the last one a file was chosen in, when it still exists; else the home folder.
QString lastFolder();
/// Remembers the folder of `path` (a file chosen, opened or written) for the next dialog.
void rememberFolder(const QString& path);
/// Asks for a file to open, starting in lastFolder(); empty when canceled.
QString openFileName(QWidget* parent, const QString& title, const QString& filter = {});
/// Asks where to save, suggesting `name` in lastFolder() (or `name` itself when it is a path); empty when canceled.
QString saveFileName(QWidget* parent, const QString& title, const QString& name, const QString& filter = {});

} // namespace meridian::widgets
