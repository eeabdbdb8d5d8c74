// SPDX-License-Identifier: MIT
#include "ui/memorychart/liveallocationsquery.h"

#include "core/analysis/memoryprofile.h"
#include "core/analysis/memoryseries.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

struct LiveAnswer {
    std::uint64_t timeNs = 0;
    std::vector<std::uint32_t> lifetimes;
};

} // namespace

LiveAllocationsQuery::LiveAllocationsQuery(QObject *context, Ready ready)
    : m_context(context)
    , m_ready(std::move(ready))
{
}

LiveAllocationsQuery::~LiveAllocationsQuery()
{
    cancel();
}

void LiveAllocationsQuery::cancel()
{
    ++m_generation;
    cancelAndForget(m_cancel);
}

void LiveAllocationsQuery::start(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile,
                                 std::uint64_t timeNs, std::string device)
{
    cancel();
    m_cancel = newCancelFlag();
    const quint64 generation = m_generation;
    runAbandonable(
        m_context,
        [trace = std::move(trace), profile = std::move(profile), cancel = m_cancel, timeNs,
         device = std::move(device)] {
            LiveAnswer out{timeNs, {}};
            if (!isCancelled(cancel))
                out.lifetimes = MemorySeries::liveLifetimesAt(*trace, *profile, timeNs, device);
            return out;
        },
        [this, generation](LiveAnswer answer) {
            if (generation != m_generation)
                return; // superseded
            m_cancel.reset();
            m_ready(answer.timeNs, std::move(answer.lifetimes));
        });
}

} // namespace TraceInspector
