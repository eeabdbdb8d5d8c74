// SPDX-License-Identifier: MIT
#pragma once

#include <QFont>
#include <QGraphicsRectItem>
#include <QStringList>

namespace TraceInspector {

/// One graph node: a box (span) or an ellipse (tensor) that paints its own text lines,
/// centred and elided to its width. One item per node, not one per line, keeps building a
/// scene of hundreds of nodes cheap on the GUI thread.
class GraphNodeItem : public QGraphicsRectItem
{
public:
    GraphNodeItem(const QRectF &rect, bool ellipse, QStringList lines, const QFont &font, const QColor &ink);

    const QStringList &lines() const { return m_lines; }
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QStringList m_lines;
    QStringList m_shown; // elided on first paint
    QFont m_font;
    QColor m_ink;
    bool m_ellipse;
};

} // namespace TraceInspector
