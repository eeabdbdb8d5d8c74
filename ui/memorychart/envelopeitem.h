// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QGraphicsItem>

#include <vector>

class QChart;
class QValueAxis;

namespace TraceInspector {

/// Dense data drawn a pixel column at a time: per column and series, a solid rectangle
/// where the series certainly is during that column and a lighter one where it reaches only
/// part of the time (its min/max range). Qt Charts would draw the same as zig-zag polygons,
/// which its scanline renderer fills in time proportional to their edge count: ~150 ms a
/// repaint at 1 GB, against a few ms here.
class EnvelopeItem : public QGraphicsItem
{
public:
    struct Rect {
        double x0, x1, y0, y1; // axis units; y0 <= y1
        int series;            // index into the owner's series names
        bool light;
    };

    EnvelopeItem(QChart *chart, QValueAxis *x, QValueAxis *y);

    void setData(std::vector<Rect> rects, std::vector<QColor> colors, std::vector<bool> shown);
    void setShown(std::vector<bool> shown);
    int count() const { return int(m_rects.size()); }
    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) override;

private:
    QChart *m_chart;
    QValueAxis *m_x;
    QValueAxis *m_y;
    std::vector<Rect> m_rects;
    std::vector<QColor> m_colors;
    std::vector<bool> m_shown;
};

} // namespace TraceInspector
