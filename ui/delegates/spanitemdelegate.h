// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace TraceInspector {

/// Presentation of span and op rows from model roles: open spans in italics, a warning
/// icon on the first column for a dangling parent or a parent cycle (IsDanglingRole,
/// IsCycleRole), and, while a filter is active, filter matches in bold and kept ancestors
/// dimmed (IsFilterMatchRole).
class SpanItemDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit SpanItemDelegate(QObject *parent = nullptr);
    ~SpanItemDelegate() override;

    /// Whether the view currently filters (ancestors are dimmed only then).
    void setFilterActive(bool active) { m_filterActive = active; }
    bool isFilterActive() const { return m_filterActive; }

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    bool m_filterActive = false;
};

} // namespace TraceInspector
