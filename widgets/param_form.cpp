#include "widgets/param_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

#include <cmath>
#include <limits>

namespace meridian::widgets {

ParamForm::ParamForm(QWidget* parent)
    : QWidget(parent)
    , m_layout(new QFormLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
}

void ParamForm::setSpecs(std::vector<ParamSpec> specs)
{
    while (m_layout->rowCount() > 0)
        m_layout->removeRow(0);
    m_editors.clear();
    m_specs = std::move(specs);
    for (const auto& spec : m_specs) {
        QWidget* editor = nullptr;
        const QString help = QString::fromStdString(spec.help);
        switch (spec.type) {
        case ParamType::Int: {
            auto* box = new QSpinBox(this);
            const auto clampInt = [](double v) {
                return static_cast<int>(
                    std::clamp(v, double(std::numeric_limits<int>::min()), double(std::numeric_limits<int>::max())));
            };
            box->setRange(clampInt(spec.minimum), clampInt(spec.maximum));
            box->setValue(clampInt(double(std::get<std::int64_t>(spec.defaultValue))));
            box->setToolTip(help
                            + tr("\nRange %1 to %2; default %3.")
                                  .arg(spec.minimum)
                                  .arg(spec.maximum)
                                  .arg(std::get<std::int64_t>(spec.defaultValue)));
            connect(box, &QSpinBox::valueChanged, this, &ParamForm::valuesChanged);
            editor = box;
            break;
        }
        case ParamType::Double: {
            auto* box = new QDoubleSpinBox(this);
            box->setDecimals(4);
            box->setRange(spec.minimum, spec.maximum);
            const double span = spec.maximum - spec.minimum;
            box->setSingleStep(std::isfinite(span) && span > 0 && span <= 2 ? 0.05 : 1.0);
            box->setValue(std::get<double>(spec.defaultValue));
            box->setToolTip(help
                            + tr("\nRange %1 to %2; default %3.")
                                  .arg(spec.minimum)
                                  .arg(spec.maximum)
                                  .arg(std::get<double>(spec.defaultValue)));
            connect(box, &QDoubleSpinBox::valueChanged, this, &ParamForm::valuesChanged);
            editor = box;
            break;
        }
        case ParamType::Bool: {
            auto* box = new QCheckBox(this);
            box->setChecked(std::get<bool>(spec.defaultValue));
            box->setToolTip(help);
            connect(box, &QCheckBox::toggled, this, &ParamForm::valuesChanged);
            editor = box;
            break;
        }
        case ParamType::Choice: {
            auto* box = new QComboBox(this);
            for (const auto& c : spec.choices)
                box->addItem(QString::fromStdString(c));
            box->setCurrentText(QString::fromStdString(std::get<std::string>(spec.defaultValue)));
            box->setToolTip(help);
            connect(box, &QComboBox::currentIndexChanged, this, &ParamForm::valuesChanged);
            editor = box;
            break;
        }
        }
        editor->setObjectName(QString::fromStdString(spec.name));
        auto* label = new QLabel(QString::fromStdString(spec.name), this);
        label->setToolTip(help);
        m_layout->addRow(label, editor);
        m_editors.push_back(editor);
    }
    if (m_specs.empty())
        m_layout->addRow(new QLabel(tr("<i>No parameters.</i>"), this));
}

void ParamForm::setValues(const ParamValues& values)
{
    for (std::size_t i = 0; i < m_specs.size(); ++i) {
        const auto& spec = m_specs[i];
        if (!values.contains(spec.name))
            continue;
        const auto& v = values.values().at(spec.name);
        QWidget* e = m_editors[i];
        if (auto* b = qobject_cast<QSpinBox*>(e); b && std::holds_alternative<std::int64_t>(v))
            b->setValue(static_cast<int>(std::get<std::int64_t>(v)));
        else if (auto* d = qobject_cast<QDoubleSpinBox*>(e); d && std::holds_alternative<double>(v))
            d->setValue(std::get<double>(v));
        else if (auto* c = qobject_cast<QCheckBox*>(e); c && std::holds_alternative<bool>(v))
            c->setChecked(std::get<bool>(v));
        else if (auto* x = qobject_cast<QComboBox*>(e); x && std::holds_alternative<std::string>(v))
            x->setCurrentText(QString::fromStdString(std::get<std::string>(v)));
    }
}

ParamValues ParamForm::values() const
{
    ParamValues values = ParamValues::defaults(m_specs);
    for (std::size_t i = 0; i < m_specs.size(); ++i) {
        const auto& spec = m_specs[i];
        QWidget* e = m_editors[i];
        ParamValue v;
        if (auto* b = qobject_cast<QSpinBox*>(e))
            v = static_cast<std::int64_t>(b->value());
        else if (auto* d = qobject_cast<QDoubleSpinBox*>(e))
            v = d->value();
        else if (auto* c = qobject_cast<QCheckBox*>(e))
            v = c->isChecked();
        else if (auto* x = qobject_cast<QComboBox*>(e))
            v = x->currentText().toStdString();
        auto with = ParamValues::with(m_specs, values, spec.name, v);
        if (with)
            values = std::move(*with);
    }
    return values;
}

QWidget* ParamForm::editor(const std::string& name) const
{
    for (std::size_t i = 0; i < m_specs.size(); ++i)
        if (m_specs[i].name == name)
            return m_editors[i];
    return nullptr;
}

} // namespace meridian::widgets
