// RunFile::load refuses damaged runs files with the file, the line of the key, the run and the field.
#include "app/project/project_edits.h"
#include "app/project/project_file.h"
#include "app/project/run_file.h"
#include "test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace meridian;
using meridian::test::sampleProject;

class TestRunFile : public QObject {
    Q_OBJECT
    std::optional<document::Project> m_project;
    QTemporaryDir m_dir;

    const document::Project& project() const { return *m_project; }
    /// The sample's LU: a run of one process per host.
    const document::Application& lu() const
    {
        for (const auto& app : project().applications)
            if (app.name == "LU")
                return app;
        return project().applications.front();
    }
    std::string application() const { return lu().name; }

    /// A run of the first application that fits the project: process i on host i, slot 0.
    QJsonObject validRun() const
    {
        const auto& topology = project().topology;
        QJsonArray site, host, slot;
        for (int i = 0; i < lu().comm.processCount(); ++i) {
            site.append(topology.siteOfHost(i));
            host.append(i);
            slot.append(0);
        }
        const int m = topology.siteCount();
        QJsonArray matrix;
        for (int r = 0; r < m; ++r)
            matrix.append(QJsonArray::fromVariantList(QVariantList(m, 1.0)));
        return QJsonObject{
            {"id", 1},
            {"algorithm", "geo"},
            {"application", QString::fromStdString(application())},
            {"seed", "1"},
            {"fingerprint", QString::number(document::inputFingerprint(project(), application()), 16)},
            {"runtime_s", 0.5},
            {"params", QJsonObject{{"kappa", QJsonObject{{"int", "2"}}}}},
            {"site", site},
            {"host", host},
            {"slot", slot},
            {"metrics",
             QJsonArray{QJsonObject{{"id", "cost_s"}, {"label", "Mapping cost"}, {"unit", "s"}, {"value", 2.5}}}},
            {"traffic_bytes", matrix},
            {"time_s", matrix},
            {"cost_samples", QJsonArray{1.0, 2.0}},
            {"best_curve", QJsonArray{QJsonArray{"10", 2.0}}},
            {"notes", QJsonArray{"a note"}},
        };
    }

    QString path() const { return m_dir.filePath("p.runs.json"); }

    /// Writes a runs file (indented: one key a line) and returns its text.
    QByteArray write(const QJsonValue& runs, int version = 1) const
    {
        const QByteArray text = QJsonDocument(
                                    QJsonObject{{"format", "meridian-runs"}, {"version", version}, {"runs", runs}})
                                    .toJson();
        QFile f(path());
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(text);
        return text;
    }

    /// The 1-based line of the `occurrence`-th `"key":` in text.
    static int lineOf(const QByteArray& text, const QByteArray& key, int occurrence = 1)
    {
        qsizetype at = -1;
        for (int k = 0; k < occurrence; ++k)
            at = text.indexOf("\"" + key + "\":", at + 1);
        return at < 0 ? 0 : static_cast<int>(text.left(at).count('\n')) + 1;
    }

    /// Writes the valid run changed by `change` and returns the text written.
    QByteArray writeChanged(const std::function<void(QJsonObject&)>& change) const
    {
        QJsonObject run = validRun();
        change(run);
        return write(QJsonArray{run});
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        auto loaded = document::ProjectFile::load(sampleProject("ec2-4-regions"));
        QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());
        m_project = std::move(*loaded);
        QCOMPARE(lu().name, std::string("LU"));
        QCOMPARE(lu().comm.processCount(), project().topology.hostCount());
    }

    void readsAValidRun()
    {
        write(QJsonArray{validRun()});
        const auto loaded = document::RunFile::load(path(), project());
        QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());
        QCOMPARE(loaded->runs.size(), std::size_t(1));
        QCOMPARE(*loaded->runs[0].metric("cost_s"), 2.5);
        QCOMPARE(loaded->runs[0].placement.host[5], 5);
    }

    void refusesASiteThatIsNotAWholeNumber()
    {
        const auto text = writeChanged([](QJsonObject& run) {
            auto site = run["site"].toArray();
            site[3] = 1.5;
            run["site"] = site;
        });
        MERIDIAN_VERIFY_ERROR(document::RunFile::load(path(), project()), "p.runs.json", lineOf(text, "site"), -1,
                              "run 0, \"site\": expected a whole number >= 0 at [3], found the number 1.5");
    }

    void refusesAnOverCapacityPlacement()
    {
        const auto text = writeChanged([](QJsonObject& run) {
            auto site = run["site"].toArray(), host = run["host"].toArray(), slot = run["slot"].toArray();
            site[0] = site[63];
            host[0] = -1;
            slot[0] = -1;
            run["site"] = site;
            run["host"] = host;
            run["slot"] = slot;
        });
        MERIDIAN_VERIFY_ERROR(document::RunFile::load(path(), project()), "p.runs.json", lineOf(text, "site"), -1,
                              "run 0 (id 1), \"site\": site '" + project().topology.site(3).name
                                  + "' runs 17 processes on 16 slots");
    }

    void refusesTwoProcessesInOneSlot()
    {
        const auto text = writeChanged([](QJsonObject& run) {
            auto host = run["host"].toArray();
            host[1] = 0;
            run["host"] = host;
        });
        MERIDIAN_VERIFY_ERROR(document::RunFile::load(path(), project()), "p.runs.json", lineOf(text, "slot"), -1,
                              "run 0 (id 1), \"slot\": processes 0 and 1 share");
    }

    void refusesNegativeCosts()
    {
        auto text = writeChanged([](QJsonObject& run) {
            auto metrics = run["metrics"].toArray();
            auto cost = metrics[0].toObject();
            cost["value"] = -2.5;
            metrics[0] = cost;
            run["metrics"] = metrics;
        });
        MERIDIAN_VERIFY_ERROR(document::RunFile::load(path(), project()), "p.runs.json", lineOf(text, "value"), -1,
                              "run 0, \"value\": metric 'cost_s': expected a number >= 0, found the number -2.5");
        text = writeChanged([](QJsonObject& run) { run["cost_samples"] = QJsonArray{1.0, -1.0}; });
        MERIDIAN_VERIFY_ERROR(document::RunFile::load(path(), project()), "p.runs.json", lineOf(text, "cost_samples"),
                              -1, "\"cost_samples\": expected a number >= 0 at [1], found the number -1");
        text = writeChanged([](QJsonObject& run) { run["runtime_s"] = -1; });
        MERIDIAN_VERIFY_ERROR(document::RunFile::load(path(), project()), "p.runs.json", lineOf(text, "runtime_s"), -1,
                              "\"runtime_s\": expected a number >= 0, found the number -1");
    }

    void refusesRunsThatAreNotAnArray()
    {
        const auto text = write(QJsonObject{});
        MERIDIAN_VERIFY_ERROR(document::RunFile::load(path(), project()), "p.runs.json", lineOf(text, "runs"), -1,
                              "\"runs\": expected an array of runs, found an object");
    }

    void refusesKeysOfTheWrongType_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("seed") << "seed" << QJsonValue(5)
                              << "\"seed\": expected a string of a whole number, found the number 5";
        QTest::newRow("id") << "id" << QJsonValue("1") << "\"id\": expected a whole number >= 1, found a string";
        QTest::newRow("metrics") << "metrics" << QJsonValue(QJsonObject{})
                                 << "\"metrics\": expected an array of metrics, found an object";
        QTest::newRow("notes") << "notes" << QJsonValue("x")
                               << "\"notes\": expected an array of strings, found a string";
        QTest::newRow("params") << "params" << QJsonValue(2) << "\"params\": expected an object of parameters";
        QTest::newRow("host") << "host" << QJsonValue(QJsonObject{}) << "\"host\": expected an array of whole numbers";
        QTest::newRow("time_s") << "time_s" << QJsonValue(QJsonArray{QJsonArray{"1"}})
                                << "\"time_s\": expected a number >= 0 at [0], found a string";
        QTest::newRow("missing algorithm")
            << "algorithm" << QJsonValue() << "\"algorithm\": missing; expected a string";
    }

    void refusesKeysOfTheWrongType()
    {
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QFETCH(QString, message);
        const auto text = writeChanged([&](QJsonObject& run) {
            if (value.isNull())
                run.remove(key);
            else
                run[key] = value;
        });
        // A missing key is pointed at the run's opening brace, the line before its first key.
        const int line = value.isNull() ? lineOf(text, "application") - 1 : lineOf(text, key.toUtf8());
        MERIDIAN_VERIFY_ERROR(document::RunFile::load(path(), project()), "p.runs.json", line, -1,
                              ("run 0, " + message).toStdString());
    }

    void refusesADuplicateRunIdAndPointsAtTheSecondRun()
    {
        QJsonObject second = validRun();
        second["notes"] = 3;
        // The third "id" key: the first run's, its metric's, then the second run's.
        const auto text = write(QJsonArray{validRun(), second});
        MERIDIAN_VERIFY_ERROR(document::RunFile::load(path(), project()), "p.runs.json", lineOf(text, "id", 3), -1,
                              "run 1, \"id\": run id 1 is used by an earlier run");
        second["id"] = 2;
        const auto again = write(QJsonArray{validRun(), second});
        MERIDIAN_VERIFY_ERROR(document::RunFile::load(path(), project()), "p.runs.json", lineOf(again, "notes", 2), -1,
                              "run 1, \"notes\": expected an array of strings, found the number 3");
    }

    void skipsAStaleRunThatNoLongerFitsButNotADamagedOne()
    {
        QJsonObject stale = validRun();
        stale["fingerprint"] = "1";
        auto site = stale["site"].toArray();
        site[0] = 9;
        stale["site"] = site;
        write(QJsonArray{stale});
        const auto loaded = document::RunFile::load(path(), project());
        QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());
        QCOMPARE(loaded->skippedStale, 1);
        QVERIFY(loaded->runs.empty());
        site[0] = 0.5;
        stale["site"] = site;
        const auto text = write(QJsonArray{stale});
        MERIDIAN_VERIFY_ERROR(document::RunFile::load(path(), project()), "p.runs.json", lineOf(text, "site"), -1,
                              "found the number 0.5");
    }

    void refusesAVersionThatIsNotAWholeNumber()
    {
        const auto text = write(QJsonArray{validRun()}, 2);
        MERIDIAN_VERIFY_ERROR(document::RunFile::load(path(), project()), "p.runs.json", lineOf(text, "version"), -1,
                              "written by a newer Meridian (runs file version 2)");
    }
};

QTEST_MAIN(TestRunFile)
#include "test_run_file.moc"
