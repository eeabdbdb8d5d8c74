// SPDX-License-Identifier: MIT
#pragma once

#include <QtGlobal>

#include <functional>
#include <memory>

#include "core/analysis/memoryseries.h"
#include "ui/memorychart/abandonablejob.h"

class QObject;

namespace TraceInspector {

/// The chart data of one window, device and width.
struct BucketedSeries {
    TimeWindow window;
    int device = MemorySeries::kAllDevices;
    int buckets = 0;
    LogicalChartData logical;
    PhysicalChartData physical;
};

/// Re-buckets the memory series for a zoom, a device or a width: on the calling thread when
/// the trace has few memory changes, else on a worker. Only the newest request's result is
/// delivered; an older one still running is cancelled and abandoned, never waited for.
class ChartBucketer
{
public:
    using Ready = std::function<void(BucketedSeries)>;

    /// \a ready is called on \a context's thread, and never after \a context is gone.
    ChartBucketer(QObject *context, Ready ready);
    ~ChartBucketer();

    /// Computes the buckets of \a window; \a ready follows, at once or from the worker.
    void request(std::shared_ptr<const MemorySeries> series, const TimeWindow &window, int device, int buckets);
    /// Drops the request in flight, if any.
    void cancel();
    bool isInFlight() const { return m_inFlight; }
    /// Whether the buckets of \a window and \a device (at whatever width) are on a worker.
    bool isInFlightFor(const TimeWindow &window, int device) const
    {
        return m_inFlight && m_window == window && m_device == device;
    }

private:
    QObject *m_context;
    Ready m_ready;
    quint64 m_generation = 0;
    bool m_inFlight = false;
    TimeWindow m_window; // of the request in flight
    int m_device = MemorySeries::kAllDevices;
    CancelFlag m_cancel;
};

} // namespace TraceInspector
