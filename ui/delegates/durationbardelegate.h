// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace TraceInspector {

/// Draws a horizontal bar of BarValueRole / TotalRole (clamped to the cell) behind the cell's
/// text. A row with IsOpenRole gets a hatched bar: its duration is unknown, not zero.
class DurationBarDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit DurationBarDelegate(QObject *parent = nullptr);
    ~DurationBarDelegate() override;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    /// BarValueRole / TotalRole clamped to [0, 1]; 0 when there is no total.
    static double barFraction(const QModelIndex &index);
};

} // namespace TraceInspector
