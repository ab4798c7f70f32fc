#include "core/io/matrix_csv.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace meridian;
using meridian::test::data;

class TestMatrixCsv : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsAPlainMatrixWithMissingCells()
    {
        auto m = io::readMatrixCsv(data("latency_plain.csv"), io::CellRule::NonNegative, true);
        QVERIFY(m);
        QCOMPARE(m->size, 3);
        QVERIFY(m->rowNames.empty() && m->columnNames.empty());
        QCOMPARE(m->values[1], 5.0);
        QVERIFY(std::isnan(m->values[5]));
    }

    void detectsHeaderAndNameColumn()
    {
        auto m = io::readMatrixCsv(data("latency_named.csv"), io::CellRule::NonNegative, true);
        QVERIFY(m);
        QCOMPARE(m->columnNames, (std::vector<std::string>{"gamma", "alpha", "beta, east"}));
        QCOMPARE(m->rowNames, (std::vector<std::string>{"alpha", "gamma", "beta, east"}));
        QCOMPARE(m->headerLine, 1);
        QCOMPARE(m->rowLines, (std::vector<int>{2, 3, 4}));
        // A header without the corner cell.
        auto subset = io::readMatrixCsv(data("bandwidth_subset.csv"), io::CellRule::Positive, true);
        QVERIFY(subset);
        QCOMPARE(subset->columnNames.size(), std::size_t(2));
    }

    void rejectsBrokenMatrices()
    {
        const auto nonNeg = io::CellRule::NonNegative;
        MERIDIAN_VERIFY_ERROR(io::readMatrixCsv(data("matrix_ragged.csv"), nonNeg, true), "matrix_ragged.csv", 2, 1,
                              "expected 3 fields");
        MERIDIAN_VERIFY_ERROR(io::readMatrixCsv(data("matrix_nonnumeric.csv"), nonNeg, true), "matrix_nonnumeric.csv",
                              2, 3, "'abc'");
        MERIDIAN_VERIFY_ERROR(io::readMatrixCsv(data("matrix_nonsquare.csv"), nonNeg, true), "matrix_nonsquare.csv", 2,
                              1, "square");
        MERIDIAN_VERIFY_ERROR(io::readMatrixCsv(data("latency_negative.csv"), nonNeg, true), "latency_negative.csv", 2,
                              3, ">= 0");
        MERIDIAN_VERIFY_ERROR(io::readMatrixCsv(data("bandwidth_zero.csv"), io::CellRule::Positive, true),
                              "bandwidth_zero.csv", 2, 3, "> 0");
        MERIDIAN_VERIFY_ERROR(io::readMatrixCsv(data("matrix_inf.csv"), nonNeg, true), "matrix_inf.csv", 2, 3, "'inf'");
        MERIDIAN_VERIFY_ERROR(io::readMatrixCsv(data("latency_plain.csv"), nonNeg, false), "latency_plain.csv", 2, 7,
                              "empty cell");
    }

    void roundTripsWithNamesAndMissingCells()
    {
        Eigen::MatrixXd m(2, 2);
        m << 1.5, std::nan(""), 1e-7, 123456789.125;
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.csv").toStdString();
        QVERIFY(io::writeMatrixCsv(path, {"a,b", "c"}, m));
        auto back = io::readMatrixCsv(path, io::CellRule::NonNegative, true);
        QVERIFY(back);
        QCOMPARE(back->rowNames, (std::vector<std::string>{"a,b", "c"}));
        QCOMPARE(back->values[0], 1.5);
        QVERIFY(std::isnan(back->values[1]));
        QCOMPARE(back->values[2], 1e-7);
        QCOMPARE(back->values[3], 123456789.125);
    }
};

QTEST_GUILESS_MAIN(TestMatrixCsv)
#include "test_matrix_csv.moc"
