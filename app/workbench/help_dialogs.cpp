#include "app/workbench/help_dialogs.h"

#include "app/version.h"

#include <QAbstractButton>
#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <Eigen/Core>
#include <simgrid/config.h> // before version.h, which uses its declaration macros
#include <simgrid/version.h>

#include <cstdint>
#include <cstdio>

extern "C" {
#include <scotch.h>
}

namespace meridian::workbench {

QString userGuideMarkdown()
{
    QFile file(":/help/README.md");
    if (!file.open(QIODevice::ReadOnly))
        return QObject::tr("# User guide\n\nThe guide is missing from this build (:/help/README.md).");
    const QString readme = QString::fromUtf8(file.readAll());
    static const QStringList wanted = {"Your own data", "The workbench", "The cost model", "File formats",
                                       "Sample projects"};
    // Level-2 sections in the README's order; code fences are skipped, their "#" lines are comments.
    QString out = "# Meridian user guide\n\n";
    bool keep = false, fence = false;
    for (const QString& line : readme.split('\n')) {
        if (line.startsWith("```"))
            fence = !fence;
        if (!fence && line.startsWith("## "))
            keep = wanted.contains(line.mid(3).trimmed());
        else if (!fence && line.startsWith("# "))
            keep = false;
        if (keep)
            out += line + '\n';
    }
    return out;
}

UserGuideDialog::UserGuideDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Meridian User Guide"));
    setObjectName("userGuide");
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    m_search = new QLineEdit(this);
    m_search->setObjectName("guideSearch");
    m_search->setPlaceholderText(tr("Search the guide (Enter: next match, Shift+Enter: previous)"));
    m_search->setClearButtonEnabled(true);
    m_matches = new QLabel(this);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_matches);
    layout->addLayout(bar);
    auto* split = new QSplitter(this);
    m_contents = new QListWidget(split);
    m_contents->setObjectName("guideContents");
    m_browser = new QTextBrowser(split);
    m_browser->setOpenExternalLinks(true);
    const QString markdown = userGuideMarkdown();
    m_browser->setMarkdown(markdown);
    for (const QString& line : markdown.split('\n')) {
        static const QRegularExpression heading("^(#{2,3}) (.*)$");
        const auto m = heading.match(line);
        if (m.hasMatch() && !line.startsWith("#### "))
            m_contents->addItem(QString(m.captured(1).size() == 3 ? "    " : "") + m.captured(2).remove('`'));
    }
    split->addWidget(m_contents);
    split->addWidget(m_browser);
    split->setStretchFactor(1, 1);
    split->setSizes({220, 680});
    layout->addWidget(split, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    // Enter belongs to the search (next match), never to Close: no button is the dialog's default.
    for (auto* button : buttons->buttons())
        if (auto* push = qobject_cast<QPushButton*>(button)) {
            push->setAutoDefault(false);
            push->setDefault(false);
        }
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) { search(text); });
    connect(m_search, &QLineEdit::returnPressed, this,
            [this] { findNext(QGuiApplication::keyboardModifiers() & Qt::ShiftModifier); });
    connect(m_contents, &QListWidget::currentTextChanged, this, [this](const QString& title) { showSection(title); });
    resize(960, 680);
}

bool UserGuideDialog::showSection(const QString& title)
{
    // The heading itself, not the first place its words appear ("The workbench" is named before its section).
    for (QTextBlock block = m_browser->document()->begin(); block.isValid(); block = block.next())
        if (block.blockFormat().headingLevel() > 0 && block.text().trimmed() == title.trimmed()) {
            QTextCursor cursor(block);
            m_browser->setTextCursor(cursor);
            m_browser->ensureCursorVisible();
            return true;
        }
    return false;
}

int UserGuideDialog::search(const QString& text)
{
    QList<QTextEdit::ExtraSelection> found;
    QTextDocument* doc = m_browser->document();
    if (!text.trimmed().isEmpty()) {
        QTextCharFormat mark;
        mark.setBackground(QColor(255, 226, 120));
        for (QTextCursor c = doc->find(text); !c.isNull(); c = doc->find(text, c))
            found.push_back({c, mark});
    }
    m_browser->setExtraSelections(found);
    m_matches->setText(text.trimmed().isEmpty() ? QString()
                           : found.isEmpty()    ? tr("no match")
                                                : tr("%n match(es)", nullptr, static_cast<int>(found.size())));
    m_browser->moveCursor(QTextCursor::Start);
    if (!found.isEmpty())
        findNext();
    return static_cast<int>(found.size());
}

bool UserGuideDialog::findNext(bool backward)
{
    const QString text = m_search->text();
    if (text.trimmed().isEmpty())
        return false;
    const auto flags = backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    if (m_browser->find(text, flags))
        return true;
    // Wrap around.
    m_browser->moveCursor(backward ? QTextCursor::End : QTextCursor::Start);
    return m_browser->find(text, flags);
}

namespace {

void addMenuShortcuts(const QMenu* menu, const QString& path, std::vector<std::pair<QString, QString>>& out)
{
    for (const QAction* action : menu->actions()) {
        // Undo and Redo name the step they take back ("Undo Run geo on LU"): the list names the command.
        const QString text = action->objectName() == "actionUndo" ? QObject::tr("Undo")
            : action->objectName() == "actionRedo"                ? QObject::tr("Redo")
                                                                  : action->text();
        const QString name = path + " > " + QString(text).remove('&').remove(QChar(0x2026)).trimmed();
        if (action->menu())
            addMenuShortcuts(action->menu(), name, out);
        else if (!action->shortcut().isEmpty())
            out.emplace_back(action->shortcut().toString(QKeySequence::NativeText), name);
    }
}

} // namespace

ShortcutsDialog::ShortcutsDialog(const QMenuBar* menus, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    std::vector<std::pair<QString, QString>> rows;
    for (const QAction* top : menus->actions())
        if (top->menu())
            addMenuShortcuts(top->menu(), top->text().remove('&'), rows);
    const std::pair<const char*, const char*> views[] = {
        {"Wheel", "Site map, heatmaps: zoom around the pointer"},
        {"Drag", "Site map: pan (or move a site when dragged from its marker); heatmaps: zoom into a rectangle"},
        {"Shift+Drag", "Heatmaps: pan"},
        {"Home", "Site map, heatmaps: show everything"},
        {"Delete", "Site map: delete the selected site"},
        {"Double-click", "Site map: add a site there"},
    };
    for (const auto& [keys, what] : views)
        rows.emplace_back(tr(keys), tr(what));
    auto* layout = new QVBoxLayout(this);
    m_table = new QTableWidget(static_cast<int>(rows.size()), 2, this);
    m_table->setObjectName("shortcutTable");
    m_table->setHorizontalHeaderLabels({tr("Keys"), tr("Command")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        m_table->setItem(r, 0, new QTableWidgetItem(rows[r].first));
        m_table->setItem(r, 1, new QTableWidgetItem(rows[r].second));
    }
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_table);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(640, 520);
}

QString aboutText()
{
    const QString eigen = QString("%1.%2.%3").arg(EIGEN_WORLD_VERSION).arg(EIGEN_MAJOR_VERSION).arg(EIGEN_MINOR_VERSION);
    const QString scotch = QString("%1.%2.%3").arg(SCOTCH_VERSION).arg(SCOTCH_RELEASE).arg(SCOTCH_PATCHLEVEL);
    const QString simgrid = QString("%1.%2").arg(SIMGRID_VERSION_MAJOR).arg(SIMGRID_VERSION_MINOR);
    return QObject::tr("<h2>Meridian %1</h2>"
                       "<p>Plans where parallel work runs across geo-distributed sites and cloud instances.</p>"
                       "<p>Licensed under the GNU General Public License, version 3 or later.</p>"
                       "<h3>Libraries and data</h3><table cellpadding='3'>"
                       "<tr><td><b>Qt</b> %2 (Core, GUI, Widgets, SVG)</td><td>LGPL 3</td></tr>"
                       "<tr><td><b>Qt Charts</b></td><td>GPL 3</td></tr>"
                       "<tr><td><b>Qt WebEngine</b> (lays out the PDF report)</td><td>LGPL 3; its Chromium: BSD and "
                       "others</td></tr>"
                       "<tr><td><b>Scotch</b> %3</td><td>CeCILL-C</td></tr>"
                       "<tr><td><b>Eigen</b> %4</td><td>MPL 2.0</td></tr>"
                       "<tr><td><b>SimGrid</b> %5</td><td>LGPL 2.1</td></tr>"
                       "<tr><td><b>OTF2</b> (reading traces)</td><td>BSD 3-clause</td></tr>"
                       "<tr><td><b>nlohmann/json</b></td><td>MIT</td></tr>"
                       "<tr><td><b>Natural Earth</b> land outline, via world-atlas 2.0.2</td><td>public domain data; "
                       "package ISC</td></tr>"
                       "</table>")
        .arg(MERIDIAN_VERSION, QString::fromLatin1(qVersion()), scotch, eigen, simgrid);
}

} // namespace meridian::workbench
