// SPDX-License-Identifier: MIT
#include "ui/graph/graphview.h"

#include <QGraphicsItem>
#include <QMouseEvent>
#include <QWheelEvent>

#include <cmath>

namespace TraceInspector {

namespace {
constexpr double kMinZoom = 0.02;
constexpr double kMaxZoom = 8.0;
constexpr double kStep = 1.25;
} // namespace

GraphView::GraphView(QWidget *parent)
    : QGraphicsView(parent)
{
    setObjectName(QStringLiteral("graphView"));
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
}

double GraphView::zoom() const
{
    return transform().m11();
}

int GraphView::nodeAt(const QPoint &pos) const
{
    for (QGraphicsItem *item = itemAt(pos); item; item = item->parentItem()) {
        const QVariant node = item->data(kNodeIndexKey);
        if (node.isValid())
            return node.toInt();
    }
    return -1;
}

void GraphView::fitAll()
{
    if (!scene() || scene()->itemsBoundingRect().isEmpty())
        return;
    fitInView(scene()->itemsBoundingRect(), Qt::KeepAspectRatio);
    // A small graph is not blown up beyond its natural size.
    if (zoom() > 1.0)
        setTransform(QTransform());
    Q_EMIT zoomChanged(zoom());
}

void GraphView::zoomIn()
{
    zoomBy(kStep);
}

void GraphView::zoomOut()
{
    zoomBy(1.0 / kStep);
}

void GraphView::zoomBy(double factor)
{
    const double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    if (zoom() <= 0 || std::abs(target - zoom()) < 1e-9)
        return;
    const double applied = target / zoom();
    scale(applied, applied);
    Q_EMIT zoomChanged(zoom());
}

void GraphView::wheelEvent(QWheelEvent *event)
{
    const int delta = event->angleDelta().y();
    if (delta == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    zoomBy(std::pow(kStep, delta / 120.0));
    event->accept();
}

void GraphView::mousePressEvent(QMouseEvent *event)
{
    m_pressPos = event->pos();
    m_pressNode = event->button() == Qt::LeftButton ? nodeAt(event->pos()) : -1;
    QGraphicsView::mousePressEvent(event);
}

void GraphView::mouseReleaseEvent(QMouseEvent *event)
{
    QGraphicsView::mouseReleaseEvent(event);
    // A click, not the end of a pan: the pointer stayed on the node it pressed.
    if (event->button() == Qt::LeftButton && m_pressNode >= 0 && (event->pos() - m_pressPos).manhattanLength() < 4
        && nodeAt(event->pos()) == m_pressNode)
        Q_EMIT nodeClicked(m_pressNode);
    m_pressNode = -1;
}

} // namespace TraceInspector
