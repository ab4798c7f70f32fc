#pragma once

#include "core/common/feedback.h"

#include <QByteArray>

namespace meridian::jobs {

/// Shows the last complete line of a command's output as its job's stage (the Jobs panel polls it), for jobs
/// that run a command whose progress is not known (a capture, a network probe).
class OutputTail {
public:
    explicit OutputTail(const Feedback& feedback)
        : m_feedback(feedback)
    {}
    void add(const QByteArray& output)
    {
        m_pending += output;
        const qsizetype end = m_pending.lastIndexOf('\n');
        if (end < 0)
            return;
        const QByteArray complete = m_pending.left(end).trimmed();
        m_pending.remove(0, end + 1);
        const QByteArray last = complete.mid(complete.lastIndexOf('\n') + 1).trimmed().left(200);
        if (!last.isEmpty())
            m_feedback.setProgress(0.0, last.toStdString());
    }

private:
    const Feedback& m_feedback;
    QByteArray m_pending;
};

} // namespace meridian::jobs
