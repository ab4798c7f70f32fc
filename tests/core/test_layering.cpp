#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

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
