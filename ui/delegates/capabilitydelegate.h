// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace TraceInspector {

/// Draws a capability cell (CapabilityModel::LevelRole) with a tone icon: complete as
/// success, partial and unknown as information, not captured as a warning.
class CapabilityDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
};

} // namespace TraceInspector
