// SPDX-License-Identifier: MIT
#include "ui/delegates/spanitemdelegate.h"

#include <QApplication>
#include <QStyle>

#include "core/itemmodels/modelroles.h"
#include "ui/style/deltapalette.h"

namespace TraceInspector {

SpanItemDelegate::SpanItemDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
}

SpanItemDelegate::~SpanItemDelegate() = default;

void SpanItemDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    if (index.data(IsOpenRole).toBool())
        option->font.setItalic(true);
    if (index.column() == 0 && (index.data(IsDanglingRole).toBool() || index.data(IsCycleRole).toBool())) {
        const QStyle *style = option->widget ? option->widget->style() : QApplication::style();
        option->icon = style->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, option->widget);
        option->features |= QStyleOptionViewItem::HasDecoration;
        const int extent = style->pixelMetric(QStyle::PM_SmallIconSize, nullptr, option->widget);
        option->decorationSize = QSize(extent, extent);
    }
    // The comparison columns: faster / slower in the palette's own tones.
    if (const QVariant delta = index.data(DeltaRole); delta.isValid() && delta.toLongLong() != 0)
        option->palette.setColor(QPalette::Text, DeltaPalette::forDelta(delta.toLongLong(), option->palette));
    if (m_filterActive) {
        if (index.data(IsFilterMatchRole).toBool()) {
            option->font.setBold(true);
        } else {
            option->palette.setColor(QPalette::Text, option->palette.color(QPalette::Disabled, QPalette::Text));
        }
    }
    option->fontMetrics = QFontMetrics(option->font);
}

} // namespace TraceInspector
