// Numbers in run notes: three significant digits with a unit prefix, never in powers of ten.

#include "core/common/readable.h"

#include <QTest>

#include <string>

using namespace meridian;

class TestReadable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void secondsTakeAPrefixNotAnExponent()
    {
        QCOMPARE(readableSeconds(2.61351e-05), std::string("26.1 \u00b5s"));
        QCOMPARE(readableSeconds(0.845), std::string("845 ms"));
        QCOMPARE(readableSeconds(1.27016), std::string("1.27 s"));
        QCOMPARE(readableSeconds(3672.452219), std::string("3,672 s"));
        QCOMPARE(readableSeconds(0.0), std::string("0 s"));
    }
    void dollarsKeepTheirLeadingZeros()
    {
        QCOMPARE(readableUsd(7.38312e-06), std::string("$0.00000738"));
        QCOMPARE(readableUsd(0.012345), std::string("$0.0123"));
        QCOMPARE(readableUsd(1.2), std::string("$1.20"));
        QCOMPARE(readableUsd(1234.4), std::string("$1,234"));
    }
    void countsAreGrouped()
    {
        QCOMPARE(readableCount(4.75e6), std::string("4,750,000"));
        QCOMPARE(readableCount(999), std::string("999"));
        QCOMPARE(readableCount(-1234), std::string("-1,234"));
        QCOMPARE(readableNumber(0.85), std::string("0.850"));
    }
    void hugeValuesTakeAnExponent()
    {
        // A cost of 1e300 (traffic over a link of almost no bandwidth) once overran the digit buffer.
        QCOMPARE(readableSeconds(1e300), std::string("1e+300 s"));
        QCOMPARE(readableCount(-1.5e20), std::string("-1.5e+20"));
        QCOMPARE(readableCount(999999999999999.0), std::string("999,999,999,999,999"));
    }
};

QTEST_APPLESS_MAIN(TestReadable)
#include "test_readable.moc"
