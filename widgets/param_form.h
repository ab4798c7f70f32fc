#pragma once

#include "core/common/param.h"

#include <QWidget>

#include <vector>

class QFormLayout;

namespace meridian::widgets {

/// A form generated from an algorithm's parameter specs: a spin box for an integer or a
/// real with the spec's range and default, a check box for a flag, a combo box for a choice; the help
/// text is each field's tooltip. values() returns what the form holds, always within the specs.
class ParamForm : public QWidget {
    Q_OBJECT
public:
    explicit ParamForm(QWidget* parent = nullptr);

    /// Rebuilds the form for `specs`, filled with their defaults.
    void setSpecs(std::vector<ParamSpec> specs);
    const std::vector<ParamSpec>& specs() const { return m_specs; }
    /// Fills the form from values (missing names keep their current value).
    void setValues(const ParamValues& values);
    ParamValues values() const;
    /// Returns the editor of a parameter (for tests), or null.
    QWidget* editor(const std::string& name) const;

Q_SIGNALS:
    void valuesChanged();

private:
    std::vector<ParamSpec> m_specs;
    std::vector<QWidget*> m_editors;
    QFormLayout* m_layout = nullptr;
};

} // namespace meridian::widgets
