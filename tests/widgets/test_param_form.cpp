#include "widgets/param_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

using namespace meridian;

namespace {

std::vector<ParamSpec> specs()
{
    return {ParamSpec::integer("kappa", 3, 1, 7, "Groups of sites."),
            ParamSpec::real("temperature", 0.5, 0.0, 1.0, "Annealing start."),
            ParamSpec::flag("swaps", true, "Also try swaps."),
            ParamSpec::choice("start", "best", {"best", "geo", "input"}, "Where to start.")};
}

} // namespace

class TestParamForm : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void buildsOneEditorPerSpecWithRangeDefaultAndHelp()
    {
        widgets::ParamForm form;
        form.setSpecs(specs());
        auto* kappa = qobject_cast<QSpinBox*>(form.editor("kappa"));
        QVERIFY(kappa);
        QCOMPARE(kappa->minimum(), 1);
        QCOMPARE(kappa->maximum(), 7);
        QCOMPARE(kappa->value(), 3);
        QVERIFY(kappa->toolTip().startsWith("Groups of sites."));
        auto* t = qobject_cast<QDoubleSpinBox*>(form.editor("temperature"));
        QVERIFY(t);
        QCOMPARE(t->value(), 0.5);
        QVERIFY(qobject_cast<QCheckBox*>(form.editor("swaps"))->isChecked());
        auto* start = qobject_cast<QComboBox*>(form.editor("start"));
        QCOMPARE(start->count(), 3);
        QCOMPARE(start->currentText(), QString("best"));
        const auto values = form.values();
        QVERIFY(values.validate(specs()));
        QCOMPARE(values.integer("kappa"), 3);
    }

    void returnsWhatTheUserSetAndLoadsValues()
    {
        widgets::ParamForm form;
        form.setSpecs(specs());
        QSignalSpy changed(&form, &widgets::ParamForm::valuesChanged);
        qobject_cast<QSpinBox*>(form.editor("kappa"))->setValue(99); // clamped to the range
        qobject_cast<QComboBox*>(form.editor("start"))->setCurrentText("geo");
        QVERIFY(changed.count() >= 2);
        auto values = form.values();
        QCOMPARE(values.integer("kappa"), 7);
        QCOMPARE(values.choice("start"), std::string("geo"));
        auto loaded = ParamValues::parse(specs(), {"kappa=2", "swaps=false"});
        QVERIFY(loaded);
        form.setValues(*loaded);
        QCOMPARE(form.values().integer("kappa"), 2);
        QCOMPARE(form.values().flag("swaps"), false);
    }

    void saysWhenThereAreNoParameters()
    {
        widgets::ParamForm form;
        form.setSpecs({});
        QVERIFY(form.values().values().empty());
        QVERIFY(!form.findChildren<QLabel*>().isEmpty());
    }
};

QTEST_MAIN(TestParamForm)
#include "test_param_form.moc"
