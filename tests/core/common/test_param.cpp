#include "core/common/feedback.h"
#include "core/common/param.h"
#include "core/common/registry.h"

#include <QtTest>

using namespace meridian;

class TestParam : public QObject {
    Q_OBJECT

    static std::vector<ParamSpec> specs()
    {
        return {ParamSpec::integer("count", 5, 1, 10, "how many"), ParamSpec::real("ratio", 0.5, 0.0, 1.0, "share"),
                ParamSpec::flag("fast", false, "hurry"), ParamSpec::choice("mode", "a", {"a", "b"}, "which")};
    }

private Q_SLOTS:
    void unsetParametersTakeTheirDefaults()
    {
        const auto v = *ParamValues::parse(specs(), {"count=7"});
        QCOMPARE(v.integer("count"), std::int64_t(7));
        QCOMPARE(v.real("ratio"), 0.5);
        QCOMPARE(v.flag("fast"), false);
        QCOMPARE(v.choice("mode"), std::string("a"));
        QCOMPARE(QString::fromStdString(v.toString()), QString("count=7, fast=false, mode=a, ratio=0.5"));
    }

    void badAssignmentsAreErrorsNamingTheKey_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("range") << "count=11"
                               << "out of range (expected int in [1, 10])";
        QTest::newRow("type") << "count=2.5"
                              << "'2.5' is not an integer";
        QTest::newRow("real") << "ratio=x"
                              << "'x' is not a number";
        QTest::newRow("flag") << "fast=maybe"
                              << "true or false";
        QTest::newRow("choice") << "mode=c"
                                << "one of: a, b";
        QTest::newRow("unknown") << "speed=1"
                                 << "unknown parameter 'speed' (known: count, ratio, fast, mode)";
        QTest::newRow("form") << "count"
                              << "key=value";
    }

    void badAssignmentsAreErrorsNamingTheKey()
    {
        QFETCH(QString, assignment);
        QFETCH(QString, fragment);
        auto v = ParamValues::parse(specs(), {assignment.toStdString()});
        QVERIFY(!v);
        QVERIFY2(v.error().message.find(fragment.toStdString()) != std::string::npos, v.error().message.c_str());
    }

    void aKeyGivenTwiceIsAnError() { QVERIFY(!ParamValues::parse(specs(), {"count=2", "count=3"})); }

    void feedbackReportsProgressAndCancellation()
    {
        std::vector<std::string> stages;
        Feedback f([&](double, std::string_view stage) { stages.emplace_back(stage); });
        f.setProgress(0.1, "one");
        f.setProgress(0.2, "one"); // throttled: same stage within 20 ms
        f.setProgress(0.5, "two");
        f.setProgress(2.0, "two"); // clamped, and 1.0 always reported
        QCOMPARE(stages, (std::vector<std::string>{"one", "two", "two"}));
        QCOMPARE(f.progress(), 1.0);
        const FeedbackRange half(f, 0.5, 1.0);
        half.sub(0.0, 0.5).setProgress(0.5, "three");
        QCOMPARE(f.progress(), 0.625);
        QVERIFY(!f.isCanceled());
        f.cancel();
        QVERIFY(half.isCanceled());
        bool flag = true;
        Feedback g({}, [&] { return flag; });
        QVERIFY(g.isCanceled());
    }

    void registryRefusesDuplicateIds()
    {
        struct Item {
            std::string name;
            std::string_view id() const { return name; }
        };
        Registry<Item> r;
        QVERIFY(r.add(std::make_unique<Item>(Item{"x"})));
        QVERIFY(!r.add(std::make_unique<Item>(Item{"x"})));
        QVERIFY(r.add(std::make_unique<Item>(Item{"y"})));
        QCOMPARE(r.ids(), (std::vector<std::string>{"x", "y"}));
        QVERIFY(r.find("y"));
        QVERIFY(!r.find("z"));
    }
};

QTEST_GUILESS_MAIN(TestParam)
#include "test_param.moc"
