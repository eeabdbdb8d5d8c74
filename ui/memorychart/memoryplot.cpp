// SPDX-License-Identifier: MIT
#include "ui/memorychart/memoryplot.h"

#include <QChart>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QLabel>
#include <QLegend>
#include <QPalette>
#include <QStackedWidget>
#include <QValueAxis>

#include <algorithm>

#include "ui/memorychart/chartlegend.h"
#include "ui/memorychart/chartstyle.h"
#include "ui/memorychart/chartview.h"
#include "ui/memorychart/envelopeitem.h"

namespace TraceInspector {

void MemoryPlot::build(QWidget *parent, const QString &objectName)
{
    chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->setMargins(ChartStyle::kChartMargins);
    // At the right, the legend costs the plot width rather than scarce height; ours lays out
    // in columns (Qt Charts' own clips what a short plot cannot hold in one).
    chart->legend()->hide();
    legend = new ChartLegend(chart);
    legend->setZValue(25);
    QFont legendFont = chart->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    legend->setFont(legendFont);
    x = new QValueAxis(chart);
    y = new QValueAxis(chart);
    for (QValueAxis *a : {x, y})
        a->setMinorTickCount(0);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    envelope = new EnvelopeItem(chart, x, y);

    view = new ChartView(chart, parent);
    view->setObjectName(objectName);
    view->setMinimumHeight(kLeastViewHeight);

    hoverLine = new QGraphicsLineItem(chart);
    hoverLine->setPen(QPen(Qt::DashLine));
    hoverLine->setZValue(30);
    hoverLine->hide();
    instantLine = new QGraphicsLineItem(chart);
    instantLine->setZValue(31);
    instantLine->hide();
    for (QGraphicsRectItem **rect : {&highlightRect, &rangeRect}) {
        *rect = new QGraphicsRectItem(chart);
        (*rect)->setZValue(29);
        (*rect)->setPen(Qt::NoPen);
        (*rect)->hide();
    }

    note = new QLabel(parent);
    note->setWordWrap(true);
    note->setAlignment(Qt::AlignCenter);
    note->setMargin(8);
    slot = new QStackedWidget(parent);
    slot->addWidget(view);
    slot->addWidget(note);
}

void MemoryPlot::applyTheme(const QPalette &pal)
{
    const QColor text = pal.color(QPalette::Text);
    const QColor base = pal.color(QPalette::Base);
    QColor grid = text;
    grid.setAlpha(ChartStyle::isDark(pal) ? 45 : 30);
    chart->setBackgroundBrush(base);
    chart->setBackgroundPen(Qt::NoPen);
    QColor hover = pal.color(QPalette::Highlight);
    hover.setAlpha(ChartStyle::isDark(pal) ? 70 : 45);
    legend->setColors(text, pal.color(QPalette::Disabled, QPalette::Text), hover);
    for (QValueAxis *a : {x, y}) {
        a->setLabelsColor(text);
        a->setTitleBrush(text);
        a->setGridLineColor(grid);
        a->setLinePenColor(grid);
    }
    hoverLine->setPen(QPen(text, 1, Qt::DashLine));
    instantLine->setPen(QPen(pal.color(QPalette::Highlight), 2));
    QColor shade = pal.color(QPalette::Highlight);
    shade.setAlpha(50);
    highlightRect->setBrush(shade);
    QColor edge = pal.color(QPalette::Highlight);
    edge.setAlpha(160);
    highlightRect->setPen(QPen(edge, 1));
    QColor rangeShade = pal.color(QPalette::Text);
    rangeShade.setAlpha(28);
    rangeRect->setBrush(rangeShade);
    view->setBackgroundBrush(base);
    note->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(pal.color(QPalette::PlaceholderText).name()));
}

bool MemoryPlot::showsView() const
{
    return slot->currentWidget() == view;
}

void MemoryPlot::placeLine(QGraphicsLineItem *line, const TimeWindow &drawn, std::optional<std::uint64_t> t) const
{
    if (!t || !drawn.contains(*t) || !showsView()) {
        line->hide();
        return;
    }
    const QRectF area = chart->plotArea();
    const double px = area.left() + timeToX(drawn, area.width(), *t);
    line->setLine(px, area.top(), px, area.bottom());
    line->show();
}

void MemoryPlot::placeSpan(QGraphicsRectItem *rect, const TimeWindow &drawn, const TimeWindow &span) const
{
    if (span.isEmpty() || span.end <= drawn.begin || span.begin >= drawn.end || !showsView()) {
        rect->hide();
        return;
    }
    const QRectF area = chart->plotArea();
    const double x0 = std::max(area.left(), area.left() + timeToX(drawn, area.width(), span.begin));
    const double x1 = std::min(area.right(), area.left() + timeToX(drawn, area.width(), span.end));
    // A span narrower than a pixel still shows, as a line.
    rect->setRect(QRectF(QPointF(x0, area.top()), QPointF(std::max(x1, x0 + 1), area.bottom())));
    rect->show();
}

} // namespace TraceInspector
