// SPDX-License-Identifier: MIT
#pragma once

#include <QTreeView>

namespace TraceInspector {

/// A QTreeView that expands many nodes for the price of one layout. QTreeView lays out the
/// rows under each node it expands at once, which makes expanding thousands of nodes
/// quadratic; with a relayout already pending it only records them.
class TreeView : public QTreeView
{
    Q_OBJECT
public:
    explicit TreeView(QWidget *parent = nullptr);
    ~TreeView() override;

    void expandMany(const QModelIndexList &indexes);
};

} // namespace TraceInspector
