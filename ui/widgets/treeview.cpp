// SPDX-License-Identifier: MIT
#include "ui/widgets/treeview.h"

namespace TraceInspector {

TreeView::TreeView(QWidget *parent)
    : QTreeView(parent)
{
}

TreeView::~TreeView() = default;

void TreeView::expandMany(const QModelIndexList &indexes)
{
    if (indexes.isEmpty())
        return;
    scheduleDelayedItemsLayout();
    for (const QModelIndex &index : indexes)
        expand(index);
}

} // namespace TraceInspector
