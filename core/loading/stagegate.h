// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace TraceInspector {

/// A gate one thread opens once and others wait at, each for a bounded time: a load's
/// analyses wait until the window has shown a stage, but never for good (the window may
/// be busy elsewhere, or no window may listen).
class StageGate
{
public:
    void open()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_open = true;
        }
        m_opened.notify_all();
    }
    /// True when the gate was opened within \a timeout.
    bool waitFor(std::chrono::milliseconds timeout)
    {
        std::unique_lock lock(m_mutex);
        return m_opened.wait_for(lock, timeout, [this] { return m_open; });
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_opened;
    bool m_open = false;
};

} // namespace TraceInspector
