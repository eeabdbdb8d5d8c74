// SPDX-License-Identifier: MIT
#include "ui/style/severitydelegate.h"

#include "core/itemmodels/modelroles.h"
#include "ui/style/severitypalette.h"

namespace TraceInspector {

void SeverityDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    const QVariant severity = index.data(SeverityRole);
    if (!severity.isValid())
        return;
    const auto s = Severity(severity.toInt());
    option->icon = SeverityPalette::icon(s);
    option->features |= QStyleOptionViewItem::HasDecoration;
    option->decorationSize = QSize(16, 16);
    if (!(option->state & QStyle::State_Selected))
        option->palette.setColor(QPalette::Text, SeverityPalette::color(s));
    option->font.setWeight(QFont::DemiBold);
}

} // namespace TraceInspector
