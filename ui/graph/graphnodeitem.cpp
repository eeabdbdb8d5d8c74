// SPDX-License-Identifier: MIT
#include "ui/graph/graphnodeitem.h"

#include <QFontMetricsF>
#include <QPainter>

namespace TraceInspector {

GraphNodeItem::GraphNodeItem(const QRectF &rect, bool ellipse, QStringList lines, const QFont &font, const QColor &ink)
    : QGraphicsRectItem(rect)
    , m_lines(std::move(lines))
    , m_font(font)
    , m_ink(ink)
    , m_ellipse(ellipse)
{
}

QPainterPath GraphNodeItem::shape() const
{
    if (!m_ellipse)
        return QGraphicsRectItem::shape();
    QPainterPath path;
    path.addEllipse(rect());
    return path;
}

void GraphNodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    painter->setPen(pen());
    painter->setBrush(brush());
    if (m_ellipse)
        painter->drawEllipse(rect());
    else
        painter->drawRect(rect());
    const QFontMetricsF metrics(m_font);
    const qreal textWidth = rect().width() - (m_ellipse ? 24 : 8);
    if (m_shown.size() != m_lines.size()) {
        m_shown.clear();
        for (const QString &line : m_lines)
            m_shown << metrics.elidedText(line, Qt::ElideRight, textWidth);
    }
    painter->setFont(m_font);
    painter->setPen(m_ink);
    const qreal step = metrics.lineSpacing();
    qreal y = rect().center().y() - step * qreal(m_shown.size()) / 2;
    for (const QString &line : m_shown) {
        painter->drawText(QRectF(rect().left(), y, rect().width(), step), Qt::AlignCenter, line);
        y += step;
    }
}

} // namespace TraceInspector
