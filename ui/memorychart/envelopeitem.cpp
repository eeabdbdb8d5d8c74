// SPDX-License-Identifier: MIT
#include "ui/memorychart/envelopeitem.h"

#include <QChart>
#include <QPainter>
#include <QValueAxis>

#include <algorithm>

namespace TraceInspector {

EnvelopeItem::EnvelopeItem(QChart *chart, QValueAxis *x, QValueAxis *y)
    : QGraphicsItem(chart)
    , m_chart(chart)
    , m_x(x)
    , m_y(y)
{
    setZValue(5); // above the (empty) series, under markers and labels
}

void EnvelopeItem::setData(std::vector<Rect> rects, std::vector<QColor> colors, std::vector<bool> shown)
{
    prepareGeometryChange();
    m_rects = std::move(rects);
    m_colors = std::move(colors);
    m_shown = std::move(shown);
    update();
}

void EnvelopeItem::setShown(std::vector<bool> shown)
{
    m_shown = std::move(shown);
    update();
}

QRectF EnvelopeItem::boundingRect() const
{
    return m_chart->plotArea();
}

void EnvelopeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    if (m_rects.empty())
        return;
    const QRectF plot = m_chart->plotArea();
    const double xs = plot.width() / std::max(m_x->max() - m_x->min(), 1e-300);
    const double ys = plot.height() / std::max(m_y->max() - m_y->min(), 1e-300);
    painter->save();
    painter->setClipRect(plot);
    painter->setRenderHint(QPainter::Antialiasing, false);
    for (const Rect &r : m_rects) {
        if (std::size_t(r.series) >= m_shown.size() || !m_shown[std::size_t(r.series)])
            continue;
        const double left = plot.left() + (r.x0 - m_x->min()) * xs;
        const double right = std::max(plot.left() + (r.x1 - m_x->min()) * xs, left + 1.0);
        const double top = plot.bottom() - (r.y1 - m_y->min()) * ys;
        const double bottom = std::max(plot.bottom() - (r.y0 - m_y->min()) * ys, top + 1.0); // never under a pixel
        QColor c = m_colors[std::size_t(r.series)];
        if (r.light)
            c.setAlphaF(c.alphaF() * 0.45f);
        painter->fillRect(QRectF(QPointF(left, top), QPointF(right, bottom)), c);
    }
    painter->restore();
}

} // namespace TraceInspector
