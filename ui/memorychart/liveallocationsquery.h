// SPDX-License-Identifier: MIT
#pragma once

#include <QtGlobal>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ui/memorychart/abandonablejob.h"

class QObject;

namespace TraceInspector {

struct Trace;
struct MemoryProfile;

/// Finds the logical lifetimes live at an instant on a worker (a big trace has a million to
/// look through). Only the newest query's answer is delivered; an older one is cancelled
/// and abandoned, never waited for.
class LiveAllocationsQuery
{
public:
    using Ready = std::function<void(std::uint64_t timeNs, std::vector<std::uint32_t> lifetimes)>;

    /// \a ready is called on \a context's thread, and never after \a context is gone.
    LiveAllocationsQuery(QObject *context, Ready ready);
    ~LiveAllocationsQuery();

    /// The lifetimes live at \a timeNs on the device named \a device (every device if empty).
    void start(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile, std::uint64_t timeNs,
               std::string device);
    /// Drops the query in flight, if any.
    void cancel();

private:
    QObject *m_context;
    Ready m_ready;
    quint64 m_generation = 0;
    CancelFlag m_cancel;
};

} // namespace TraceInspector
