// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace TraceInspector {

/// Draws a severity cell (SeverityRole) with its icon and colour.
class SeverityDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
};

} // namespace TraceInspector
