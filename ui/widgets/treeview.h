// SPDX-License-Identifier: MIT
#pragma once

#include <QTreeView>

#include <functional>

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
    /// What the '*' key does to the current row; by default QTreeView's expandRecursively(),
    /// which lays out the whole subtree at once (seconds below a root of a million spans).
    void setExpandBelowHandler(std::function<void(const QModelIndex &)> handler);

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    std::function<void(const QModelIndex &)> m_expandBelow;
};

} // namespace TraceInspector
