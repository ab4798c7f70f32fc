#include "core/io/matrix_market.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

using namespace meridian;
using meridian::test::data;

class TestMatrixMarket : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsCoordinateGeneral()
    {
        auto m = io::readMatrixMarket(data("mm_general.mtx"), io::CellRule::NonNegative);
        QVERIFY(m);
        QCOMPARE(m->rows, 4);
        QCOMPARE(m->entries.size(), std::size_t(5));
        QCOMPARE(m->entries[1].row, 1);
        QCOMPARE(m->entries[1].column, 0);
        QCOMPARE(m->entries[1].value, 50.5);
        QCOMPARE(m->entries[2].value, 1000.0);
        QCOMPARE(m->entries[2].line, 6);
    }

    void mirrorsSymmetricEntries()
    {
        auto m = io::readMatrixMarket(data("mm_symmetric.mtx"), io::CellRule::NonNegative);
        QVERIFY(m);
        QCOMPARE(m->entries.size(), std::size_t(5)); // two off-diagonal entries mirrored, one diagonal
        QCOMPARE(m->entries[0].row, 1);
        QCOMPARE(m->entries[1].row, 0);
        QCOMPARE(m->entries[1].column, 1);
    }

    void readsDenseArraysColumnMajor()
    {
        auto m = io::readMatrixMarket(data("mm_array.mtx"), io::CellRule::NonNegative);
        QVERIFY(m);
        QVERIFY(m->dense);
        // Column-major: 1 at (0,0), 2 at (1,0), 3 at (0,1), 4 at (1,1).
        QCOMPARE(m->entries[1].row, 1);
        QCOMPARE(m->entries[1].column, 0);
        QCOMPARE(m->entries[2].row, 0);
        QCOMPARE(m->entries[2].column, 1);
        auto s = io::readMatrixMarket(data("mm_array_symmetric.mtx"), io::CellRule::NonNegative);
        QVERIFY(s);
        // 1 at (0,0); 2 at (1,0) and (0,1); 3 at (1,1).
        QCOMPARE(s->entries.size(), std::size_t(4));
        QCOMPARE(s->entries[3].row, 1);
        QCOMPARE(s->entries[3].column, 1);
        QCOMPARE(s->entries[3].value, 3.0);
    }

    void rejectsBrokenFiles()
    {
        const auto r = io::CellRule::NonNegative;
        MERIDIAN_VERIFY_ERROR(io::readMatrixMarket(data("mm_pattern.mtx"), r), "mm_pattern.mtx", 1, 34, "pattern");
        MERIDIAN_VERIFY_ERROR(io::readMatrixMarket(data("mm_bad_banner.mtx"), r), "mm_bad_banner.mtx", 1, 1,
                              "%%MatrixMarket");
        MERIDIAN_VERIFY_ERROR(io::readMatrixMarket(data("mm_claims_too_many.mtx"), r), "mm_claims_too_many.mtx", 2, 1,
                              "can hold at most");
        MERIDIAN_VERIFY_ERROR(io::readMatrixMarket(data("mm_nnz_gt_cells.mtx"), r), "mm_nnz_gt_cells.mtx", 2, 5,
                              "only 4 cells");
        MERIDIAN_VERIFY_ERROR(io::readMatrixMarket(data("mm_index_out_of_range.mtx"), r), "mm_index_out_of_range.mtx",
                              4, 1, "between 1 and 3");
        MERIDIAN_VERIFY_ERROR(io::readMatrixMarket(data("mm_missing_entries.mtx"), r), "mm_missing_entries.mtx", 4, 1,
                              "file has 2");
        MERIDIAN_VERIFY_ERROR(io::readMatrixMarket(data("mm_extra_entry.mtx"), r), "mm_extra_entry.mtx", 4, 1,
                              "one too many");
        MERIDIAN_VERIFY_ERROR(io::readMatrixMarket(data("mm_negative.mtx"), r), "mm_negative.mtx", 4, 5, "'-1'");
        MERIDIAN_VERIFY_ERROR(io::readMatrixMarket(data("mm_nan.mtx"), r), "mm_nan.mtx", 3, 5, "'nan'");
        MERIDIAN_VERIFY_ERROR(io::readMatrixMarket(data("mm_symmetric_upper.mtx"), r), "mm_symmetric_upper.mtx", 3, 1,
                              "lower triangle");
        MERIDIAN_VERIFY_ERROR(io::readMatrixMarket(data("mm_extra_token.mtx"), r), "mm_extra_token.mtx", 3, 7,
                              "row column value");
    }

    // Issue 31: a UTF-8 byte-order mark before the banner made it "expected '%%MatrixMarket ...'".
    void skipsAByteOrderMark()
    {
        auto m = io::readMatrixMarket(data("regressions/mm_bom.mtx"), io::CellRule::NonNegative);
        QVERIFY2(m, m ? "" : m.error().toString().c_str());
        QCOMPARE(m->rows, 3);
        QCOMPARE(m->sizeLine, 3);
        QCOMPARE(m->entries.size(), std::size_t(1));
        QCOMPARE(m->entries[0].line, 4);
    }

    void roundTripsExactly()
    {
        std::vector<io::MarketEntry> entries = {{0, 1, 0.1, 0}, {2, 0, 43000, 0}, {1, 1, 1.0 / 3.0, 0}};
        QTemporaryDir dir;
        const std::string path = dir.filePath("x.mtx").toStdString();
        QVERIFY(io::writeMatrixMarket(path, 3, 3, entries, "test"));
        auto back = io::readMatrixMarket(path, io::CellRule::NonNegative);
        QVERIFY(back);
        QCOMPARE(back->entries.size(), entries.size());
        for (std::size_t k = 0; k < entries.size(); ++k) {
            QCOMPARE(back->entries[k].row, entries[k].row);
            QCOMPARE(back->entries[k].column, entries[k].column);
            QCOMPARE(back->entries[k].value, entries[k].value); // shortest round-trip form is exact
        }
    }
};

QTEST_GUILESS_MAIN(TestMatrixMarket)
#include "test_matrix_market.moc"
