#include "core/collectives/coll_tuned_rules.h"

#include <QtTest>

using namespace meridian;
using namespace meridian::collectives;

namespace {

QStringList tokens(const std::string& text)
{
    return QString::fromStdString(text).split(QRegularExpression("\\s+"), Qt::SkipEmptyParts);
}

bool refusedWith(const std::vector<TunedCollective>& collectives, const char* what)
{
    const auto r = collTunedRulesText(collectives);
    if (r)
        return false;
    if (!QString::fromStdString(r.error().message).contains(what)) {
        qWarning("%s", r.error().message.c_str());
        return false;
    }
    return true;
}

TunedCollective bcast(std::vector<TunedRule> rules, int size = 4)
{
    return {TunedOperation::Bcast, {{size, std::move(rules)}}};
}

} // namespace

class TestCollTunedRules : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The file Open MPI 4.1 was seen to apply: bcast on 4 ranks, binomial (6) below 64 KiB and pipeline (3) with
    // 64 KiB segments from 64 KiB on.
    void writesTheLayoutOpenMpiReads()
    {
        const auto text = collTunedRulesText({bcast({{0, 6, 0, 0}, {65536, 3, 0, 65536}})});
        QVERIFY(text);
        QCOMPARE(tokens(*text), tokens("1  7  1  4 2  0 6 0 0  65536 3 0 65536"));
        // Two collectives, ids from Open MPI's COLLTYPE enum, sizes in increasing order.
        const auto two = collTunedRulesText(
            {bcast({{0, 6, 0, 0}}),
             {TunedOperation::Allreduce, {{2, {{0, 3, 0, 0}}}, {16, {{0, 3, 0, 0}, {1 << 20, 4, 0, 0}}}}}});
        QVERIFY(two);
        QCOMPARE(tokens(*two), tokens("2  7 1 4 1 0 6 0 0  2 2  2 1 0 3 0 0  16 2 0 3 0 0 1048576 4 0 0"));
    }

    void namesWhatIsWrong()
    {
        QVERIFY(refusedWith({}, "no collective"));
        QVERIFY(refusedWith({bcast({{1024, 6, 0, 0}})}, "must start at 0"));
        QVERIFY(refusedWith({bcast({{0, 6, 0, 0}, {0, 3, 0, 0}})}, "not above the rule before"));
        QVERIFY(refusedWith({bcast({{0, 10, 0, 0}})}, "bcast has algorithms 1..9"));
        QVERIFY(refusedWith({bcast({{0, -1, 0, 0}})}, "names algorithm -1"));
        QVERIFY(refusedWith({bcast({{0, 6, -2, 0}})}, "negative"));
        QVERIFY(refusedWith({bcast({})}, "has no rule"));
        QVERIFY(refusedWith({bcast({{0, 6, 0, 0}}), bcast({{0, 6, 0, 0}})}, "listed twice"));
        QVERIFY(refusedWith({{TunedOperation::Reduce, {}}}, "no communicator size"));
        QVERIFY(refusedWith({{TunedOperation::Gather, {{8, {{0, 2, 0, 0}}}, {8, {{0, 2, 0, 0}}}}}}, "found 8 after 8"));
        QVERIFY(refusedWith({bcast({{0, 6, 0, 0}}, 0)}, "found 0"));
        // Algorithm 0 leaves the choice to Open MPI and is accepted.
        QVERIFY(collTunedRulesText({bcast({{0, 0, 0, 0}})}));
    }
};

QTEST_GUILESS_MAIN(TestCollTunedRules)
#include "test_coll_tuned_rules.moc"
