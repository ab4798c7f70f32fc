#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

class QLabel;
class QLineEdit;
class QListWidget;
class QMenuBar;
class QTextBrowser;
class QTableWidget;

namespace meridian::workbench {

/// The sections of the README a user of the workbench reads, as Markdown: "Your own data", "The workbench", "The
/// cost model", "File formats" and "Sample projects" (the README is built into the program).
QString userGuideMarkdown();

/// Help > User Guide: the guide with its headings as a contents list, and a search field that highlights every
/// match and steps through them (Enter: next, Shift+Enter: previous).
class UserGuideDialog : public QDialog {
    Q_OBJECT
public:
    explicit UserGuideDialog(QWidget* parent = nullptr);
    QTextBrowser* browser() const { return m_browser; }
    QLineEdit* searchField() const { return m_search; }
    /// Shows the section whose heading is `title` (as the contents list names it); false when there is none.
    bool showSection(const QString& title);
    /// Highlights every match of `text` and shows the first; returns how many there are.
    int search(const QString& text);
    /// Moves to the next (or previous) match; false when there is none.
    bool findNext(bool backward = false);

private:
    QTextBrowser* m_browser = nullptr;
    QLineEdit* m_search = nullptr;
    QLabel* m_matches = nullptr;
    QListWidget* m_contents = nullptr;
};

/// Help > Keyboard Shortcuts: every menu command that has a shortcut, read from the menu bar (so the list is always
/// what the menus do), and the keys of the map and heatmap views.
class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    ShortcutsDialog(const QMenuBar* menus, QWidget* parent = nullptr);
    QTableWidget* table() const { return m_table; }

private:
    QTableWidget* m_table = nullptr;
};

/// The About box's text: the version from the build, Qt's version at run time, and the licence of every library
/// and dataset the program carries or links.
QString aboutText();

} // namespace meridian::workbench
