// SPDX-License-Identifier: MIT
#include "ui/memorychart/chartlegend.h"

#include <QCoreApplication>
#include <QCursor>
#include <QFontMetricsF>
#include <QGraphicsSceneHoverEvent>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <utility>

namespace TraceInspector {

namespace {
constexpr double kPadding = 3;    // around an entry, inside its rectangle
constexpr double kTextGap = 5;    // between the swatch and the label
constexpr double kColumnGap = 10; // between two columns
constexpr double kDimmedAlpha = 0.3;

QColor dimmed(QColor c, bool shown)
{
    if (!shown)
        c.setAlphaF(float(c.alphaF() * kDimmedAlpha));
    return c;
}
} // namespace

ChartLegend::ChartLegend(QGraphicsItem *parent)
    : QGraphicsItem(parent)
{
    setAcceptHoverEvents(true);
    setAcceptedMouseButtons(Qt::LeftButton);
}

void ChartLegend::setEntries(std::vector<Entry> entries)
{
    prepareGeometryChange();
    m_entries = std::move(entries);
    m_rects.clear();
    m_labels.clear();
    m_size = {};
    m_hovered = m_pressed = -1;
    update();
}

void ChartLegend::setHidden(const QSet<QString> &hidden)
{
    for (Entry &e : m_entries)
        e.shown = !hidden.contains(e.name);
    if (m_hovered >= 0)
        setHovered(m_hovered); // the tooltip says what a click does now
    update();
}

void ChartLegend::setFont(const QFont &font)
{
    m_font = font;
    update();
}

void ChartLegend::setColors(const QColor &text, const QColor &dimmedText, const QColor &hover)
{
    m_text = text;
    m_dimmed = dimmedText;
    m_hover = hover;
    update();
}

double ChartLegend::rowHeight() const
{
    return std::ceil(QFontMetricsF(m_font).height()) + 2 * kPadding;
}

double ChartLegend::swatchWidth() const
{
    // Wide enough for two dashes of a dashed line.
    return std::ceil(QFontMetricsF(m_font).height() * 1.6);
}

double ChartLegend::layout(double height, double maxWidth)
{
    prepareGeometryChange();
    m_rects.clear();
    m_labels.clear();
    m_size = {};
    const int n = int(m_entries.size());
    if (n == 0)
        return 0;
    const QFontMetricsF fm(m_font);
    const double rowH = rowHeight();
    const double chrome = 2 * kPadding + swatchWidth() + kTextGap; // an entry less its label
    // Columns as tall as the plot allows, then balanced (five entries in rows of three: 3 + 2).
    int rows = std::clamp(int(height / rowH), 1, n);
    const int columns = (n + rows - 1) / rows;
    rows = (n + columns - 1) / columns;

    std::vector<double> textWidth(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        m_labels.push_back(m_entries[std::size_t(i)].name);
        textWidth[std::size_t(i)] = std::ceil(fm.horizontalAdvance(m_labels.back()));
    }
    const auto columnWidths = [&] {
        std::vector<double> widths(std::size_t(columns), 0.0);
        for (int i = 0; i < n; ++i)
            widths[std::size_t(i / rows)] = std::max(widths[std::size_t(i / rows)], chrome + textWidth[std::size_t(i)]);
        return widths;
    };
    std::vector<double> widths = columnWidths();
    double total = (columns - 1) * kColumnGap;
    for (double w : widths)
        total += w;
    if (total > maxWidth) {
        // A small window: labels elided to share the room evenly (the tooltip and the Series
        // menu keep the whole names), never below a letter and an ellipsis.
        const double floor = std::ceil(fm.horizontalAdvance(QStringLiteral("M\u2026")));
        const double perColumn = (maxWidth - (columns - 1) * kColumnGap) / columns;
        const double text = std::max(floor, std::floor(perColumn - chrome));
        for (int i = 0; i < n; ++i) {
            if (textWidth[std::size_t(i)] <= text)
                continue;
            m_labels[std::size_t(i)] = fm.elidedText(m_entries[std::size_t(i)].name, Qt::ElideRight, text);
            textWidth[std::size_t(i)] = std::ceil(fm.horizontalAdvance(m_labels[std::size_t(i)]));
        }
        widths = columnWidths();
        total = (columns - 1) * kColumnGap;
        for (double w : widths)
            total += w;
    }
    double x = 0;
    for (int c = 0; c < columns; ++c) {
        for (int r = 0; r < rows; ++r) {
            const int i = c * rows + r;
            if (i >= n)
                break;
            m_rects.emplace_back(x, r * rowH, chrome + textWidth[std::size_t(i)], rowH);
        }
        x += widths[std::size_t(c)] + kColumnGap;
    }
    m_size = QSizeF(total, rows * rowH);
    update();
    return total;
}

QRectF ChartLegend::boundingRect() const
{
    return QRectF(QPointF(0, 0), m_size);
}

void ChartLegend::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setFont(m_font);
    const QFontMetricsF fm(m_font);
    const double swatch = swatchWidth();
    for (std::size_t i = 0; i < m_rects.size() && i < m_entries.size(); ++i) {
        const Entry &e = m_entries[i];
        const QRectF &r = m_rects[i];
        if (int(i) == m_hovered) {
            painter->setPen(Qt::NoPen);
            painter->setBrush(m_hover);
            painter->drawRoundedRect(r, 3, 3);
        }
        const double midY = r.center().y();
        const QRectF swatchArea(r.left() + kPadding, r.top(), swatch, r.height());
        QPen pen = e.pen;
        pen.setColor(dimmed(pen.color(), e.shown));
        if (e.fill.style() != Qt::NoBrush) {
            QBrush fill = e.fill;
            fill.setColor(dimmed(fill.color(), e.shown));
            const double h = std::round(fm.height() * 0.6);
            painter->setPen(pen);
            painter->setBrush(fill);
            painter->drawRect(QRectF(swatchArea.left() + 0.5, std::round(midY - h / 2) + 0.5, swatch - 1, h));
        } else {
            painter->setPen(pen);
            painter->setBrush(Qt::NoBrush);
            painter->drawLine(QPointF(swatchArea.left(), midY), QPointF(swatchArea.right(), midY));
        }
        painter->setPen(e.shown ? m_text : m_dimmed);
        const QRectF textRect(swatchArea.right() + kTextGap, r.top(),
                              r.right() - kPadding - swatchArea.right() - kTextGap, r.height());
        painter->drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter, m_labels[i]);
    }
    painter->restore();
}

int ChartLegend::entryAt(const QPointF &pos) const
{
    for (std::size_t i = 0; i < m_rects.size(); ++i)
        if (m_rects[i].contains(pos))
            return int(i);
    return -1;
}

void ChartLegend::setHovered(int entry)
{
    if (entry != m_hovered)
        update();
    m_hovered = entry;
    if (entry < 0 || std::size_t(entry) >= m_entries.size()) {
        setToolTip(QString());
        unsetCursor();
        return;
    }
    const Entry &e = m_entries[std::size_t(entry)];
    setToolTip(
        e.shown ? QCoreApplication::translate("TraceInspector::ChartLegend", "%1: click to hide").arg(e.name)
                : QCoreApplication::translate("TraceInspector::ChartLegend", "%1 (hidden): click to show").arg(e.name));
    setCursor(Qt::PointingHandCursor);
}

void ChartLegend::mousePressEvent(QGraphicsSceneMouseEvent *event)
{
    m_pressed = entryAt(event->pos());
    if (m_pressed < 0) {
        event->ignore();
        return;
    }
    event->accept();
}

void ChartLegend::mouseReleaseEvent(QGraphicsSceneMouseEvent *event)
{
    const int entry = entryAt(event->pos());
    const int pressed = std::exchange(m_pressed, -1);
    if (entry >= 0 && entry == pressed && std::size_t(entry) < m_entries.size() && onClicked)
        onClicked(m_entries[std::size_t(entry)].name);
    event->accept();
}

void ChartLegend::hoverMoveEvent(QGraphicsSceneHoverEvent *event)
{
    setHovered(entryAt(event->pos()));
}

void ChartLegend::hoverLeaveEvent(QGraphicsSceneHoverEvent *)
{
    setHovered(-1);
}

} // namespace TraceInspector
