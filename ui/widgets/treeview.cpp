// SPDX-License-Identifier: MIT
#include "ui/widgets/treeview.h"

#include <QKeyEvent>

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

void TreeView::setExpandBelowHandler(std::function<void(const QModelIndex &)> handler)
{
    m_expandBelow = std::move(handler);
}

void TreeView::keyPressEvent(QKeyEvent *event)
{
    if (m_expandBelow && event->key() == Qt::Key_Asterisk && currentIndex().isValid()) {
        m_expandBelow(currentIndex().siblingAtColumn(0));
        event->accept();
        return;
    }
    QTreeView::keyPressEvent(event);
}

} // namespace TraceInspector
