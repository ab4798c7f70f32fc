#include "app/project/project_file.h"
#include "core/mapping/builtin_mappers.h"
#include "test_support.h"

#include <QtTest>

using namespace meridian;
using namespace meridian::mapping;

/// Every registered mapper, with default parameters, on every application of every sample project.
class TestSampleMappings : public QObject {
    Q_OBJECT

    Registry<Mapper> m_registry;

private Q_SLOTS:
    void initTestCase() { registerBuiltinMappers(m_registry); }

    void everyMapperGivesAValidDeterministicPlacement_data()
    {
        QTest::addColumn<QString>("project");
        for (const char* p : {"ec2-4-regions", "azure-3-regions", "cloudmap-a7"})
            QTest::newRow(p) << QString(p);
    }

    void everyMapperGivesAValidDeterministicPlacement()
    {
        QFETCH(QString, project);
        auto loaded = document::ProjectFile::load(test::sampleProject(project));
        QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());
        const Feedback feedback;
        for (const auto& app : loaded->applications) {
            auto problem = MappingProblem::create(loaded->topology, loaded->completeNetwork(), app.comm, app.pins);
            QVERIFY2(problem, problem ? "" : problem.error().toString().c_str());
            for (const Mapper* m : m_registry.all()) {
                const auto values = ParamValues::defaults(m->parameters());
                const QString what = project + "/" + QString::fromStdString(app.name) + "/"
                    + QString::fromStdString(std::string(m->id()));
                auto a = m->map(*problem, values, 1, feedback);
                QVERIFY2(a, qPrintable(what + ": " + QString::fromStdString(a ? "" : a.error().toString())));
                QVERIFY2(a->placement.hasHosts(), qPrintable(what));
                const auto v = model::checkPlacement(a->placement, loaded->topology, app.pins);
                QVERIFY2(v.empty(),
                         qPrintable(what + ": " + QString::fromStdString(v.empty() ? "" : v.front().message)));
                auto b = m->map(*problem, values, 1, feedback);
                QVERIFY(b);
                QVERIFY2(a->placement.host == b->placement.host && a->placement.slot == b->placement.slot,
                         qPrintable(what));
            }
        }
    }

    void projectWithoutApplicationsHasNothingToMap()
    {
        auto loaded = document::ProjectFile::load(test::sampleProject("geo-cut-ec2-8-regions"));
        QVERIFY(loaded);
        QVERIFY(loaded->applications.empty());
        auto problem = MappingProblem::create(loaded->topology, loaded->completeNetwork(), model::CommMatrix(), {});
        QVERIFY(!problem);
        QVERIFY(problem.error().message.find("no processes") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestSampleMappings)
#include "test_sample_mappings.moc"
