// SPDX-License-Identifier: MIT
#include "ui/memorychart/chartview.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QRubberBand>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace TraceInspector {

ChartView::ChartView(QChart *chart, QWidget *parent)
    : QChartView(chart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    setMouseTracking(true);
    setRubberBand(QChartView::NoRubberBand);
    setFocusPolicy(Qt::StrongFocus);
    setFrameShape(QFrame::NoFrame);
    m_band = new QRubberBand(QRubberBand::Rectangle, this);
}

void ChartView::wheelEvent(QWheelEvent *e)
{
    const double notches = e->angleDelta().y() / 120.0;
    if (notches != 0 && onWheelZoom)
        onWheelZoom(e->position().x() - plot().left(), std::pow(0.8, notches));
    e->accept();
}

void ChartView::mousePressEvent(QMouseEvent *e)
{
    setFocus(Qt::MouseFocusReason);
    if (e->button() == Qt::LeftButton && plot().contains(e->position())) {
        m_bandStart = e->position().x();
        m_pressing = true;
        m_selectRange = (e->modifiers() & Qt::ShiftModifier) != 0;
        e->accept();
        return;
    }
    QChartView::mousePressEvent(e);
}

void ChartView::mouseMoveEvent(QMouseEvent *e)
{
    if (m_pressing && std::abs(e->position().x() - m_bandStart) >= 4) {
        m_band->show();
        updateBand(e->position().x());
    } else if (!m_pressing && onHover && plot().contains(e->position())) {
        onHover(e->position().x() - plot().left());
    } else if (!m_pressing && onLeave && !plot().contains(e->position())) {
        onLeave();
    }
    QChartView::mouseMoveEvent(e);
}

void ChartView::leaveEvent(QEvent *e)
{
    if (onLeave)
        onLeave();
    QChartView::leaveEvent(e);
}

void ChartView::mouseReleaseEvent(QMouseEvent *e)
{
    if (e->button() == Qt::LeftButton && m_pressing) {
        m_pressing = false;
        const bool band = m_band->isVisible();
        m_band->hide();
        const double x = std::clamp(e->position().x(), plot().left(), plot().right());
        if (band && m_selectRange && onBandSelect)
            onBandSelect(m_bandStart - plot().left(), x - plot().left());
        else if (band && onBandZoom)
            onBandZoom(m_bandStart - plot().left(), x - plot().left());
        else if (!band && onClick)
            onClick(x - plot().left());
        e->accept();
        return;
    }
    if (e->button() == Qt::RightButton && onZoomOut) {
        onZoomOut(e->position().x() - plot().left());
        e->accept();
        return;
    }
    QChartView::mouseReleaseEvent(e);
}

void ChartView::keyPressEvent(QKeyEvent *e)
{
    if (onKey && onKey(e)) {
        e->accept();
        return;
    }
    QChartView::keyPressEvent(e);
}

void ChartView::resizeEvent(QResizeEvent *e)
{
    QChartView::resizeEvent(e);
    if (onResized)
        onResized();
}

void ChartView::updateBand(double x)
{
    const QRectF p = plot();
    x = std::clamp(x, p.left(), p.right());
    m_band->setGeometry(
        QRectF(QPointF(std::min(x, m_bandStart), p.top()), QPointF(std::max(x, m_bandStart), p.bottom())).toRect());
}

} // namespace TraceInspector
