// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <utility>

#include "core/loading/tracecomparison.h"

namespace TraceInspector {

/// A model (\a Base: QAbstractItemModel or QAbstractTableModel) that appends columns
/// [first, last] while a comparison is shown: SpanTreeModel and OpAggregateModel (issue #15
/// item 3) insert, remove and refresh them the same way, here once.
template<typename Base>
class ComparisonColumnsModel : public Base
{
public:
    using Base::Base;

    /// The comparison whose columns are shown, or null.
    const TraceComparisonPtr &comparison() const { return m_comparison; }

protected:
    /// Shows \a next's columns [\a first, \a last]: inserted when none were shown, removed for
    /// null, new values in the same columns for another comparison (dataChanged with every
    /// role, so a proxy sorted by one of them sorts again). \a rematch runs once \a next is
    /// installed, inside the column change, for values derived from it.
    void replaceComparison(TraceComparisonPtr next, int first, int last, const std::function<void()> &rematch = {})
    {
        if (next == m_comparison)
            return;
        const bool insert = !m_comparison && next;
        const bool remove = m_comparison && !next;
        if (insert)
            this->beginInsertColumns({}, first, last);
        else if (remove)
            this->beginRemoveColumns({}, first, last);
        m_comparison = std::move(next);
        if (rematch)
            rematch();
        if (insert)
            this->endInsertColumns();
        else if (remove)
            this->endRemoveColumns();
        else if (const int rows = this->rowCount(); rows > 0)
            Q_EMIT this->dataChanged(this->index(0, first), this->index(rows - 1, last));
    }

    TraceComparisonPtr m_comparison;
};

} // namespace TraceInspector
