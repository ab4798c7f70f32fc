#include "core/io/comm_io.h"
#include "core/synth/patterns.h"
#include "test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace meridian;
using meridian::test::data;

class TestCommIo : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsVolumeAndMessagesAndSumsDuplicates()
    {
        auto m = io::readCommMatrix(data("mm_general.mtx"), data("mm_general.mtx"));
        QVERIFY(m);
        QCOMPARE(m->processCount(), 4);
        QCOMPARE(m->volume().coeff(1, 0), 51.0);
        QCOMPARE(m->messages().coeff(1, 0), 51.0);
        QVERIFY(m->hasMessages());
        auto volumeOnly = io::readCommMatrix(data("mm_general.mtx"));
        QVERIFY(volumeOnly);
        QVERIFY(!volumeOnly->hasMessages());
    }

    void readsCsvWithProcessIdsAsNames()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("c.csv");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("rank,p1,p0\np1,0,5\np0,7,0\n");
        f.close();
        auto m = io::readCommMatrix(path.toStdString());
        QVERIFY2(m, m ? "" : m.error().toString().c_str());
        // Row "p1", column "p0" holds 5; row "p0", column "p1" holds 7.
        QCOMPARE(m->volume().coeff(1, 0), 5.0);
        QCOMPARE(m->volume().coeff(0, 1), 7.0);
    }

    // Issue 31: a 3-line .mtx made a 16,777,216-process application (864 MB to add it, 600 MB per load).
    void refusesProcessCountsItsEntriesDoNotJustify()
    {
        MERIDIAN_VERIFY_ERROR(io::readCommMatrix(data("regressions/mm_comm_claims_16m_processes.mtx")),
                              "mm_comm_claims_16m_processes.mtx", 2, 1,
                              "the size line gives 16777216 processes but only 2 appear in the entries (the highest is "
                              "2); expected the application's process count");
        QTemporaryDir dir;
        const QString path = dir.filePath("idle.mtx");
        const auto write = [&](const QByteArray& text) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text);
        };
        // Up to 1024 processes, idle ranks are taken as they are.
        write("%%MatrixMarket matrix coordinate real general\n1024 1024 1\n1 2 100\n");
        auto small = io::readCommMatrix(path.toStdString());
        QVERIFY2(small, small ? "" : small.error().toString().c_str());
        QCOMPARE(small->processCount(), 1024);
        // Beyond, half of the processes must appear; an entry of value 0 names an idle one.
        QByteArray text = "%%MatrixMarket matrix coordinate real general\n% comment\n2000 2000 499\n";
        for (int p = 1; p <= 499; ++p)
            text += QByteArray::number(p) + " " + QByteArray::number(p + 500) + " 1\n";
        write(text);
        MERIDIAN_VERIFY_ERROR(io::readCommMatrix(path.toStdString()), "idle.mtx", 3, 1, "only 998 appear");
        write(text.replace("2000 2000 499", "2000 2000 500") + "2000 1999 0\n");
        auto justified = io::readCommMatrix(path.toStdString());
        QVERIFY2(justified, justified ? "" : justified.error().toString().c_str());
        QCOMPARE(justified->processCount(), 2000);
    }

    void rejectsMismatchedOrBrokenMatrices()
    {
        MERIDIAN_VERIFY_ERROR(io::readCommMatrix(data("mm_not_square.mtx")), "mm_not_square.mtx", 2, 1, "square");
        MERIDIAN_VERIFY_ERROR(io::readCommMatrix(data("mm_negative.mtx")), "mm_negative.mtx", 4, 5, "'-1'");
        MERIDIAN_VERIFY_ERROR(io::readCommMatrix(data("mm_huge_dimensions.mtx")), "mm_huge_dimensions.mtx", 2, 1,
                              "at most 16777216");
        auto mismatch = io::readCommMatrix(data("mm_general.mtx"), data("mm_symmetric.mtx"));
        QVERIFY(!mismatch);
        QVERIFY(mismatch.error().message.find("3 x 3") != std::string::npos);
    }

    void roundTripsAGeneratedPattern()
    {
        auto lu = *synth::generatePattern(synth::Pattern::LU, {.processes = 64});
        QTemporaryDir dir;
        const std::string v = dir.filePath("v.mtx").toStdString(), a = dir.filePath("a.mtx").toStdString();
        QVERIFY(io::writeCommMatrix(v, lu, false));
        QVERIFY(io::writeCommMatrix(a, lu, true));
        auto back = io::readCommMatrix(v, a);
        QVERIFY(back);
        QCOMPARE(back->nonZeros(), lu.nonZeros());
        const auto x = lu.entries(), y = back->entries();
        for (std::size_t k = 0; k < x.size(); ++k) {
            QCOMPARE(y[k].from, x[k].from);
            QCOMPARE(y[k].to, x[k].to);
            QCOMPARE(y[k].bytes, x[k].bytes);
            QCOMPARE(y[k].messages, x[k].messages);
        }
    }
};

QTEST_GUILESS_MAIN(TestCommIo)
#include "test_comm_io.moc"
