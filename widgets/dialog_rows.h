#pragma once

#include <QHBoxLayout>
#include <QLineEdit>
#include <QObject>
#include <QPushButton>

#include <functional>

namespace meridian::widgets {

/// A line edit with a Browse button beside it, as one row; `choose` asks for the file (empty: keep the text).
inline QHBoxLayout* withBrowse(QLineEdit* edit, QWidget* parent, const std::function<QString()>& choose)
{
    auto* row = new QHBoxLayout;
    auto* browse = new QPushButton(QObject::tr("Browse\u2026"), parent);
    QObject::connect(browse, &QPushButton::clicked, parent, [edit, choose] {
        const QString chosen = choose();
        if (!chosen.isEmpty())
            edit->setText(chosen);
    });
    row->addWidget(edit, 1);
    row->addWidget(browse);
    return row;
}

} // namespace meridian::widgets
