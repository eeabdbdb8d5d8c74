// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace TraceInspector {

/// Colours the text of a cell with a DeltaRole by the sign of the change (DeltaPalette): a
/// decrease reads as faster, an increase as slower. Selected rows keep the selection colours.
class DeltaDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit DeltaDelegate(QObject *parent = nullptr);
    ~DeltaDelegate() override;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
};

} // namespace TraceInspector
