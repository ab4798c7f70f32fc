#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace {

/// The operations: QtCore-only libraries that meridian-cli and the workbench share.
const QStringList kOperations = {"project",     "jobs",    "capture",     "simulation", "partitioning",
                                 "collectives", "mapping", "distributed", "cli"};

/// Which app/ folders each app/ folder may include (besides itself and the generated app/version.h). Operations
/// sit below every ui/ folder; among the ui/ folders, the project's (the document and its panels) is lowest, then
/// the report's figures, then the features' panels, then the main window that holds them all.
QMap<QString, QStringList> allowedIncludes()
{
    // Every operation but MPI (which only meridian-cli links) and the CLI's commands.
    QStringList ops = kOperations.mid(0, kOperations.size() - 1);
    ops.removeAll("distributed");
    const QStringList featureUi = ops + QStringList{"project/ui", "report"};
    QMap<QString, QStringList> allowed{
        {"project", {}},
        {"jobs", {}},
        {"distributed", {}},
        {"capture", {"project"}},
        {"simulation", {"project"}},
        {"partitioning", {"project", "jobs"}},
        {"collectives", {"project"}},
        {"mapping", {"project", "simulation", "jobs"}},
        {"cli", ops + QStringList{"distributed"}},
        {"project/ui", ops},
        {"report", ops + QStringList{"project/ui"}},
        {"capture/ui", featureUi},
        {"simulation/ui", featureUi},
        {"collectives/ui", featureUi},
        {"partitioning/ui", featureUi},
        {"mapping/ui", featureUi + QStringList{"simulation/ui", "partitioning/ui"}},
    };
    QStringList everything = kOperations;
    for (auto it = allowed.cbegin(); it != allowed.cend(); ++it)
        everything.append(it.key());
    allowed.insert("workbench", everything);
    return allowed;
}

} // namespace

class TestLayering : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void coreIncludesNoQtHeader()
    {
        const QRegularExpression qtInclude(QStringLiteral("^\\s*#\\s*include\\s*[<\"](Q|qt)"));
        int files = 0;
        QDirIterator it(QString(MERIDIAN_SOURCE_DIR) + "/core", {"*.h", "*.cpp", "*.hpp"}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            int line = 0;
            while (!f.atEnd()) {
                ++line;
                const QString text = QString::fromUtf8(f.readLine());
                if (qtInclude.match(text).hasMatch())
                    QFAIL(qPrintable(QString("%1:%2 includes a Qt header: %3").arg(path).arg(line).arg(text.trimmed())));
            }
            ++files;
        }
        QVERIFY2(files > 20, "the core sources were not found");
    }

    void appFoldersIncludeOnlyLowerLayers()
    {
        const QDir app(QString(MERIDIAN_SOURCE_DIR) + "/app");
        const auto allowed = allowedIncludes();
        const QRegularExpression appInclude(QStringLiteral("^\\s*#\\s*include\\s*\"app/(.+)/[^/]+\"\\s*$"));
        // Operations link QtCore only; a GUI header there would break the headless meridian-cli.
        const QRegularExpression guiInclude(QStringLiteral(
            "^\\s*#\\s*include\\s*[<\"](Qt(Gui|Widgets|Charts|Svg|WebEngine)|widgets/"
            "|Q(Widget|Painter|Color|Font|Image|"
            "Pixmap|Icon|Action|Application|GuiApplication|Chart|Svg|WebEngine|Print|Dialog|Pen|Brush|Menu|"
            "Label|PushButton|Abstract(Item|Scroll|Button)View|TextDocument)\\b)"));
        QSet<QString> folders;
        QDirIterator it(app.path(), {"*.h", "*.cpp"}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const QString folder = QFileInfo(app.relativeFilePath(path)).path();
            if (folder == ".")
                continue;
            folders.insert(folder);
            QVERIFY2(allowed.contains(folder),
                     qPrintable("app/" + folder + " has no place in the layers: add it to allowedIncludes()"));
            const bool operation = kOperations.contains(folder);
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            int line = 0;
            while (!f.atEnd()) {
                ++line;
                const QString text = QString::fromUtf8(f.readLine()).trimmed();
                const QString where = QString("app/%1:%2 (%3)").arg(app.relativeFilePath(path)).arg(line).arg(text);
                if (operation && guiInclude.match(text).hasMatch())
                    QFAIL(qPrintable(where + ": an operation includes a GUI header"));
                const auto m = appInclude.match(text);
                if (!m.hasMatch() || m.captured(1) == folder)
                    continue;
                if (!allowed[folder].contains(m.captured(1)))
                    QFAIL(qPrintable(where + ": app/" + folder + " may include only app/"
                                     + allowed[folder].join(", app/")));
            }
        }
        for (const QString& folder : kOperations)
            QVERIFY2(folders.contains(folder), qPrintable("app/" + folder + " was not found"));
    }

    void widgetsIncludeNoAppHeader()
    {
        QDirIterator it(QString(MERIDIAN_SOURCE_DIR) + "/widgets", {"*.h", "*.cpp"}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY2(!QString::fromUtf8(f.readAll()).contains("#include \"app/"),
                     qPrintable(path + " includes an app header"));
        }
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "test_layering.moc"
