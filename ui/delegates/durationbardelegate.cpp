// SPDX-License-Identifier: MIT
#include "ui/delegates/durationbardelegate.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>

#include "core/itemmodels/modelroles.h"

namespace TraceInspector {

DurationBarDelegate::DurationBarDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
}

DurationBarDelegate::~DurationBarDelegate() = default;

double DurationBarDelegate::barFraction(const QModelIndex &index)
{
    const quint64 total = index.data(TotalRole).toULongLong();
    if (total == 0)
        return 0;
    const quint64 value = index.data(BarValueRole).toULongLong();
    return std::clamp(double(value) / double(total), 0.0, 1.0);
}

void DurationBarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    const QWidget *widget = opt.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    const QString text = opt.text;
    opt.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background, selection, focus

    const QRect area = opt.rect.adjusted(2, 3, -2, -3);
    const bool selected = opt.state & QStyle::State_Selected;
    QColor barColor = selected ? opt.palette.color(QPalette::HighlightedText) : opt.palette.color(QPalette::Highlight);
    barColor.setAlpha(selected ? 110 : 150);
    painter->save();
    if (index.data(IsOpenRole).toBool()) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(QBrush(barColor, Qt::BDiagPattern));
        painter->drawRect(area);
    } else if (const double fraction = barFraction(index); fraction > 0) {
        const int width = std::max(1, int(area.width() * fraction + 0.5));
        painter->fillRect(QRect(area.left(), area.top(), width, area.height()), barColor);
    }
    if (!text.isEmpty()) {
        const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget);
        painter->setFont(opt.font);
        painter->setPen(opt.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
        painter->drawText(textRect, int(opt.displayAlignment) | Qt::TextSingleLine,
                          opt.fontMetrics.elidedText(text, opt.textElideMode, textRect.width()));
    }
    painter->restore();
}

QSize DurationBarDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setWidth(std::max(size.width(), 80));
    return size;
}

} // namespace TraceInspector
