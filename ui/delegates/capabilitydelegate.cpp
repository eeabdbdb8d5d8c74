// SPDX-License-Identifier: MIT
#include "ui/delegates/capabilitydelegate.h"

#include "core/analysis/capabilitymatrix.h"
#include "core/itemmodels/capabilitymodel.h"
#include "ui/style/severitypalette.h"

namespace TraceInspector {

void CapabilityDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    const QVariant level = index.data(CapabilityModel::LevelRole);
    if (!level.isValid())
        return;
    SeverityPalette::Tone tone = SeverityPalette::Tone::Information;
    switch (CapabilityLevel(level.toInt())) {
    case CapabilityLevel::Complete: tone = SeverityPalette::Tone::Success; break;
    case CapabilityLevel::Partial:
    case CapabilityLevel::Unknown: tone = SeverityPalette::Tone::Information; break;
    case CapabilityLevel::Absent: tone = SeverityPalette::Tone::Warning; break;
    }
    option->icon = SeverityPalette::toneIcon(tone);
    option->features |= QStyleOptionViewItem::HasDecoration;
}

} // namespace TraceInspector
