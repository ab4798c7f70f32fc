#include "widgets/nice_scale.h"

#include <QtTest>

using meridian::widgets::niceScale;

class TestNiceScale : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void ticksFallOnRoundNumbers()
    {
        const auto s = niceScale(7312.0, 7470.0, 6);
        QCOMPARE(s.step, 50.0);
        QCOMPARE(s.low, 7300.0);
        QCOMPARE(s.high, 7500.0);
        QCOMPARE(s.decimals, 0);
        QCOMPARE(s.ticks(), 5);
    }

    void aNonNegativeRangeStartsAtZeroAtMost()
    {
        // Runtimes from 0.0001 s to 0.09 s: no tick below zero.
        const auto s = niceScale(0.0001, 0.09, 6);
        QCOMPARE(s.low, 0.0);
        QVERIFY(s.high >= 0.09);
        QCOMPARE(s.step, 0.02);
        QCOMPARE(s.decimals, 2);
    }

    void stepsOfTwoAndAHalfKeepTheirDigit()
    {
        const auto s = niceScale(0.0, 1.2, 6);
        QCOMPARE(s.step, 0.25);
        QCOMPARE(s.decimals, 2);
        QCOMPARE(s.high, 1.25);
    }

    void negativeAndSingleValues()
    {
        const auto s = niceScale(-3.2, 4.1, 5);
        QCOMPARE(s.step, 2.0);
        QCOMPARE(s.low, -4.0);
        QCOMPARE(s.high, 6.0);
        const auto one = niceScale(5.0, 5.0, 5);
        QVERIFY(one.low < 5.0 && one.high > 5.0);
        const auto zero = niceScale(0.0, 0.0, 5);
        QCOMPARE(zero.low, 0.0);
        QVERIFY(zero.high > 0.0);
    }
};

QTEST_GUILESS_MAIN(TestNiceScale)
#include "test_nice_scale.moc"
