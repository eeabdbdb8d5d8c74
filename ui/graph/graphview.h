// SPDX-License-Identifier: MIT
#pragma once

#include <QGraphicsView>

namespace TraceInspector {

/// A QGraphicsView for the call graph: the wheel zooms around the cursor, dragging pans,
/// fitAll() shows the whole scene, and a click on a node emits nodeClicked() with the index
/// the node item carries in data(kNodeIndexKey).
class GraphView : public QGraphicsView
{
    Q_OBJECT
public:
    /// QGraphicsItem::data() key holding a node's index (int) on its top-level item.
    static constexpr int kNodeIndexKey = 0;

    explicit GraphView(QWidget *parent = nullptr);

    /// Current scale factor (1 = one scene point per pixel).
    double zoom() const;
    /// The node index under viewport position \a pos, or -1.
    int nodeAt(const QPoint &pos) const;

public Q_SLOTS:
    void fitAll();
    void zoomIn();
    void zoomOut();

Q_SIGNALS:
    void nodeClicked(int node);
    void zoomChanged(double zoom);

protected:
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    void zoomBy(double factor);

    QPoint m_pressPos;
    int m_pressNode = -1;
};

} // namespace TraceInspector
