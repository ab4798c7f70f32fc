// Expected's monadic steps: and_then, transform and transform_error pass errors on untouched.

#include "core/common/expected.h"

#include <QTest>

#include <memory>
#include <string>

using namespace meridian;

namespace {

Expected<int> parsePositive(const std::string& text)
{
    const int value = std::stoi(text);
    if (value <= 0)
        return makeError(ErrorCode::InvalidInput, "not positive: " + text);
    return value;
}

} // namespace

class TestExpected : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void andThenChainsValuesAndStopsAtTheFirstError()
    {
        const auto twice = [](int v) -> Expected<std::string> { return std::to_string(2 * v); };
        auto ok = parsePositive("21").and_then(twice);
        QVERIFY(ok);
        QCOMPARE(*ok, std::string("42"));
        int calls = 0;
        auto failed = parsePositive("-3").and_then([&](int v) -> Expected<std::string> {
            ++calls;
            return std::to_string(v);
        });
        QVERIFY(!failed);
        QCOMPARE(calls, 0);
        QCOMPARE(failed.error().message, std::string("not positive: -3"));
        const Expected<int> kept = 5;
        QCOMPARE(*kept.and_then(twice), std::string("10"));
    }
    void transformMapsTheValueAndMovesIt()
    {
        auto owner = Expected<std::unique_ptr<int>>(std::make_unique<int>(7)).transform([](std::unique_ptr<int> p) {
            return *p + 1;
        });
        QCOMPARE(*owner, 8);
        auto failed = parsePositive("0").transform([](int v) { return v * 10.0; });
        QVERIFY(!failed);
        QCOMPARE(failed.error().code, ErrorCode::InvalidInput);
    }
    void transformErrorSaysWhereItHappened()
    {
        const auto where = [](const Error& e) { return Error{e.code, "row 3: " + e.message, {}}; };
        QCOMPARE(parsePositive("-1").transform_error(where).error().message, std::string("row 3: not positive: -1"));
        QCOMPARE(*parsePositive("4").transform_error(where), 4);
        const Status failed = makeError(ErrorCode::Internal, "disk");
        QCOMPARE(failed.transform_error(where).error().message, std::string("row 3: disk"));
        QVERIFY(Status().transform_error(where));
    }
    void statusAndThenRunsOnlyAfterSuccess()
    {
        QCOMPARE(*Status().and_then([] { return Expected<int>(1); }), 1);
        const Status failed = makeError(ErrorCode::InvalidInput, "no");
        QCOMPARE(failed.and_then([] { return Expected<int>(1); }).error().message, std::string("no"));
    }
};

QTEST_APPLESS_MAIN(TestExpected)
#include "test_expected.moc"
