// SPDX-License-Identifier: MIT
#pragma once

#include "core/itemmodels/flattablemodel.h"
#include "core/loading/tracecomparison.h"

namespace TraceInspector {

/// The matched spans of an A/B comparison (issue #15 item 3): one row per matched pair with
/// its path, total and self time in both runs, the change and the change in percent.
/// DeltaRole carries the signed change of the Δ and Δ% columns (the view colours it);
/// SpanIndexRole the candidate span. Sorted by the FlatTableModel radix sort, so sorting a
/// million rows by Δ stays fast.
class SpanDiffModel : public FlatTableModel
{
    Q_OBJECT
public:
    enum Column {
        PathColumn,
        BaselineTotalColumn,
        CandidateTotalColumn,
        DeltaTotalColumn,
        DeltaTotalPercentColumn,
        BaselineSelfColumn,
        CandidateSelfColumn,
        DeltaSelfColumn,
        DeltaSelfPercentColumn,
        ColumnCount
    };
    Q_ENUM(Column)

    explicit SpanDiffModel(QObject *parent = nullptr);
    ~SpanDiffModel() override;

    void setComparison(TraceComparisonPtr comparison);
    /// Shows \a comparison already sorted by \a column and \a order (\a sorted from
    /// presortedOrder(), computed off the GUI thread).
    void setComparison(TraceComparisonPtr comparison, int column, Qt::SortOrder order,
                       std::vector<std::uint32_t> sorted);
    /// The row order of sort(\a column, \a order) for \a comparison; thread-safe.
    static std::vector<std::uint32_t> presortedOrder(const TraceComparison &comparison, int column,
                                                     Qt::SortOrder order);
    const TraceComparison *comparison() const { return m_comparison.get(); }

    TimeUnit timeUnit() const { return m_unit; }
    void setTimeUnit(TimeUnit unit);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    const Trace *filterTrace() const override;
    void sortKeys(int column, std::vector<std::uint64_t> &keys, std::vector<std::uint8_t> &absent) const override;
    KeyFunction backgroundKeys(int column) const override;
    bool recordMatches(std::size_t record, const TextFilter &filter) const override;
    QVariant recordData(std::size_t record, int column, int role) const override;

private:
    static void keysFor(const TraceComparison &comparison, int column, std::vector<std::uint64_t> &keys,
                        std::vector<std::uint8_t> &absent);

    TraceComparisonPtr m_comparison;
    TimeUnit m_unit = TimeUnit::Auto;
};

/// Signed 64-bit value as an unsigned key that sorts in numeric order.
inline std::uint64_t signedKey(std::int64_t value)
{
    return std::uint64_t(value) ^ 0x8000000000000000ULL;
}

/// "+1.23 ms" / "−456 µs" / "0 ns" for a signed change of time.
QString formatDeltaDuration(std::int64_t ns, TimeUnit unit = TimeUnit::Auto);
/// "+1.2 MiB" / "−3 B" for a signed change of bytes.
QString formatDeltaBytes(std::int64_t bytes);
/// Change in percent of \a baseline ("+12.3 %"); none when the baseline is 0.
std::optional<double> deltaPercent(std::uint64_t baseline, std::int64_t delta);
QString formatDeltaPercent(double percent);

} // namespace TraceInspector
