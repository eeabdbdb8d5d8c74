// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include <QPointer>
#include <QSortFilterProxyModel>

#include "core/analysis/format.h"

namespace TraceInspector {

class OpTableModel;

/// Text filter over an OpTableModel: case-insensitive substring over op name, span id,
/// span name, device and dtype.
///
/// The verdict for every op is computed once per filter text in one pass in stream order
/// (each distinct interned string is tested at most once), so filterAcceptsRow() is a byte
/// lookup even when the rows are sorted. sort() is forwarded to the OpTableModel, which
/// sorts its own row permutation (see OpTableModel); this proxy then keeps source order.
/// With any other source model it behaves like a QSortFilterProxyModel sorting by SortRole.
class OpFilterProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit OpFilterProxyModel(QObject *parent = nullptr);
    ~OpFilterProxyModel() override;

    void setSourceModel(QAbstractItemModel *sourceModel) override;

    QString filterText() const { return m_filter.text(); }
    /// Applies \a text (trimmed; empty shows every op).
    void setFilterText(const QString &text);

    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

Q_SIGNALS:
    void filterTextChanged(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    bool stringMatches(std::uint32_t id) const;
    void ensureAccepted() const;

    QPointer<OpTableModel> m_opModel;
    TextFilter m_filter;
    mutable std::vector<std::uint8_t> m_verdict;  // per StringId: 0 untested, 1 no, 2 yes
    mutable std::vector<std::uint8_t> m_accepted; // per op; valid unless m_dirty
    mutable bool m_dirty = true;
};

} // namespace TraceInspector
