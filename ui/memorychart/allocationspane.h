// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>

#include "core/analysis/timecoordinates.h"
#include "core/display/format.h"
#include "ui/memorychart/liveallocationsquery.h"

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace TraceInspector {

struct Trace;
struct MemoryProfile;
class LiveAllocationsModel;
class TableActions;

/// Under the memory chart: the allocations live at one instant (the logical peak of the
/// device shown, or the instant clicked), with a title saying which and how many.
class AllocationsPane : public QWidget
{
    Q_OBJECT
public:
    explicit AllocationsPane(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile,
                  std::uint64_t runEnd);
    void clear();

    /// What to list: the storages live at \a clicked on \a device (empty name = all), else
    /// at the selection's \a peak; none without logical memory. allocationsShown() follows.
    void show(bool logicalKnown, const QString &device, std::optional<std::uint64_t> clicked,
              std::optional<std::uint64_t> peak);
    void setTimeUnit(TimeUnit unit);
    void setTimeRange(const TimeWindow &range);
    bool selectAllocationsOfSpan(qint64 spanIndex);

    std::optional<std::uint64_t> tableInstant() const { return m_tableInstant; }
    QString title() const;
    LiveAllocationsModel *model() const { return m_model; }
    QTableView *view() const { return m_table; }
    TableActions *actions() const { return m_actions; }

Q_SIGNALS:
    void spanActivated(qint64 spanIndex);
    void allocationSpanSelected(qint64 spanIndex);
    void allocationsShown();
    void peakRequested();

private:
    void listed(std::optional<std::uint64_t> instant);
    void updateTitle();

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const MemoryProfile> m_profile;
    std::uint64_t m_runEnd = 0;
    bool m_logicalKnown = false;
    QString m_device;
    std::optional<std::uint64_t> m_clicked;
    std::optional<std::uint64_t> m_peak;
    std::optional<std::uint64_t> m_tableInstant;
    TimeUnit m_timeUnit = TimeUnit::Auto;
    LiveAllocationsQuery m_query;

    QLabel *m_title = nullptr;
    QPushButton *m_peakButton = nullptr;
    QTableView *m_table = nullptr;
    LiveAllocationsModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    TableActions *m_actions = nullptr;
};

} // namespace TraceInspector
