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
