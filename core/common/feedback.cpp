#include "core/common/feedback.h"

#include <algorithm>

namespace meridian {

Feedback::Feedback(ProgressCallback progress, CancelPredicate canceled)
    : m_progressCallback(std::move(progress))
    , m_cancelPredicate(std::move(canceled))
{}

bool Feedback::isCanceled() const
{
    if (m_canceled.load(std::memory_order_relaxed))
        return true;
    return m_cancelPredicate && m_cancelPredicate();
}

void Feedback::setProgress(double fraction, std::string_view stage) const
{
    fraction = std::clamp(fraction, 0.0, 1.0);
    m_progress.store(fraction, std::memory_order_relaxed);
    if (!m_progressCallback)
        return;
    const auto now = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(m_mutex);
        const bool newStage = stage != m_lastStage;
        if (!newStage && fraction < 1.0 && now - m_lastReport < std::chrono::milliseconds(20))
            return;
        m_lastReport = now;
        if (newStage)
            m_lastStage.assign(stage);
    }
    m_progressCallback(fraction, stage);
}

void Feedback::setBest(double best) const
{
    if (m_bestCallback)
        m_bestCallback(best);
}

} // namespace meridian
