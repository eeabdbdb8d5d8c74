// SPDX-License-Identifier: MIT
#pragma once

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QPen>
#include <QSet>
#include <QString>

#include <functional>
#include <vector>

namespace TraceInspector {

/// A plot's legend in the chart's right margin, in as many columns as the plot's height
/// needs: it costs the plot width (which the timeline above shares as its gutter), never
/// height. Qt Charts' right-hand legend is one column as tall as the chart and clips the
/// entries that do not fit in a short plot; its detached layout fills columns from the right
/// and tells no entry's geometry. A click on an entry reports its name (the panel toggles the
/// series); an entry whose series is hidden stays listed, dimmed.
class ChartLegend : public QGraphicsItem
{
public:
    struct Entry {
        QString name;
        QBrush fill;       // an area's swatch; Qt::NoBrush for a line
        QPen pen;          // the swatch's border, or the line drawn for a line series
        bool shown = true; // false: dimmed
    };

    std::function<void(const QString &name)> onClicked;

    explicit ChartLegend(QGraphicsItem *parent = nullptr);

    void setEntries(std::vector<Entry> entries);
    /// Dims the entries named in \a hidden, undims the others.
    void setHidden(const QSet<QString> &hidden);
    void setFont(const QFont &font);
    const QFont &font() const { return m_font; }
    void setColors(const QColor &text, const QColor &dimmedText, const QColor &hover);

    /// Lays the entries out top to bottom in columns no taller than \a height and returns the
    /// width they take: at most \a maxWidth where eliding the labels can make it so.
    double layout(double height, double maxWidth);
    double width() const { return m_size.width(); }
    double height() const { return m_size.height(); }

    const std::vector<Entry> &entries() const { return m_entries; }
    /// Each entry's rectangle in item coordinates, in entry order (empty before layout()).
    const std::vector<QRectF> &entryRects() const { return m_rects; }

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent *event) override;
    void hoverMoveEvent(QGraphicsSceneHoverEvent *event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent *event) override;

private:
    int entryAt(const QPointF &pos) const;
    void setHovered(int entry);
    double rowHeight() const;
    double swatchWidth() const;

    std::vector<Entry> m_entries;
    std::vector<QRectF> m_rects;
    std::vector<QString> m_labels; // as drawn: elided when the columns are narrowed
    QFont m_font;
    QColor m_text;
    QColor m_dimmed;
    QColor m_hover;
    QSizeF m_size;
    int m_hovered = -1;
    int m_pressed = -1;
};

} // namespace TraceInspector
