// SPDX-License-Identifier: MIT
#include "ui/compare/deltadelegate.h"

#include "core/itemmodels/modelroles.h"
#include "ui/style/deltapalette.h"

namespace TraceInspector {

DeltaDelegate::DeltaDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
}

DeltaDelegate::~DeltaDelegate() = default;

void DeltaDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    const QVariant delta = index.data(DeltaRole);
    if (!delta.isValid() || delta.toLongLong() == 0)
        return;
    option->palette.setColor(QPalette::Text, DeltaPalette::forDelta(delta.toLongLong(), option->palette));
}

} // namespace TraceInspector
