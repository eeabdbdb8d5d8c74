// SPDX-License-Identifier: MIT
#include "ui/memorychart/chartbucketer.h"

#include "core/itemmodels/backgroundsort.h"

namespace TraceInspector {

ChartBucketer::ChartBucketer(QObject *context, Ready ready)
    : m_context(context)
    , m_ready(std::move(ready))
{
}

ChartBucketer::~ChartBucketer()
{
    cancel();
}

void ChartBucketer::cancel()
{
    ++m_generation;
    m_inFlight = false;
    cancelAndForget(m_cancel);
}

void ChartBucketer::request(std::shared_ptr<const MemorySeries> series, const TimeWindow &window, int device,
                            int buckets)
{
    cancel();
    if (!series)
        return;
    if (series->changeCount() < BackgroundSort::backgroundRows()) {
        m_ready(BucketedSeries{window, device, buckets, series->logical(device, window, buckets),
                               series->physical(device, window, buckets)});
        return;
    }
    // A million memory changes take 50-300 ms to walk (the whole run, or one device's
    // changes among all of them): on a worker. The chart keeps what it shows until then.
    m_inFlight = true;
    m_window = window;
    m_device = device;
    m_cancel = newCancelFlag();
    const quint64 generation = m_generation;
    runAbandonable(
        m_context,
        [series = std::move(series), cancel = m_cancel, window, device, buckets] {
            BucketedSeries out{window, device, buckets, {}, {}};
            if (isCancelled(cancel))
                return out;
            out.logical = series->logical(device, window, buckets, cancel.get());
            if (!isCancelled(cancel))
                out.physical = series->physical(device, window, buckets);
            return out;
        },
        [this, generation](BucketedSeries result) {
            if (generation != m_generation)
                return; // a newer window, device, width or trace is on its way
            m_inFlight = false;
            m_cancel.reset();
            m_ready(std::move(result));
        });
}

} // namespace TraceInspector
