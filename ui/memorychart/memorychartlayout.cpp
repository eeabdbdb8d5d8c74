// SPDX-License-Identifier: MIT
// The memory chart panel's layout: axes, the plots lined up, notes and labels.
#include "ui/memorychart/memorychartpanel_p.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsLineItem>
#include <QLabel>
#include <QPainter>
#include <QScatterSeries>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

#include "ui/memorychart/allocationspane.h"
#include "ui/memorychart/chartlegend.h"
#include "ui/memorychart/chartstyle.h"
#include "ui/memorychart/chartview.h"

namespace TraceInspector {

namespace {
// Between a plot's right edge and its legend.
constexpr int kLegendGap = 8;
// The share of a chart's height beyond which Qt Charts squeezes its horizontal axes
// (CartesianChartLayout's maxAxisPortion).
constexpr double kMaxAxisShare = 0.4;
// What Qt Charts adds to a font's height for a horizontal axis' labels and for its title
// (the text items' margins, the ticks, the paddings): 16 and 6 px in Qt 6.4, measured; a
// pixel more each here, so that a title is hidden rather than its axis squeezed.
constexpr double kTimeLabelsPadding = 17;
constexpr double kTimeTitlePadding = 7;
// Beside a rotated byte-axis title, along the plot's height.
constexpr double kTitleRoom = 8;
} // namespace

void MemoryChartPanel::Private::updateAxes()
{
    // Time: the window exactly, ticks on round values (1, 2 or 5 × 10^k) whatever the window.
    const double xf = xUnit.factor;
    const double span = std::max(double(window.length()) / xf, 1e-9);
    const double step = ChartUnit::niceStep(span, 6);
    const QString xFormat = QStringLiteral("%.") + QString::number(ChartUnit::decimalsFor(step)) + QStringLiteral("f");
    const MemoryPlot &bottom = bottomPlot();
    for (MemoryPlot *p : {&logicalPlot, &physicalPlot}) {
        // Range first, ticks after: the other order lays out old-interval ticks over the new range.
        p->x->setTickType(QValueAxis::TicksFixed);
        p->x->setRange(double(window.begin) / xf, double(window.end) / xf);
        p->x->setTickAnchor(0);
        p->x->setTickInterval(step);
        p->x->setTickType(QValueAxis::TicksDynamic);
        p->x->setLabelFormat(xFormat); // Qt Charts reads the format as Latin-1: "µs" cannot go here
        // One time axis: its labels and title only under the lower plot.
        const bool labelled = p == &bottom;
        p->x->setLabelsVisible(labelled);
        p->x->setTitleText(labelled ? tr("Time since run start (%1)").arg(xUnit.name) : QString());
        p->x->setTitleVisible(labelled && timeTitleShown);
    }

    // Bytes: from 0, each plot in its own unit; the logical axis leaves room above the peak
    // for its label so that the label never sits on a line.
    const auto setBytes = [](MemoryPlot &p, double maxValue, double headroomPixels, const QString &axisTitle) {
        const double plotHeight = std::max(p.chart->plotArea().height(), 60.0);
        const double fraction = std::clamp(headroomPixels / plotHeight, 0.0, 0.6);
        double top = std::max(maxValue / (1.0 - fraction) * 1.02, 1e-9);
        // As many intervals as fit with a label's height of space between labels (Qt Charts
        // turns crowded labels into "…").
        const double labelSpace = 2.2 * QFontMetricsF(p.y->labelsFont()).height();
        const int maxIntervals = std::clamp(int(plotHeight / labelSpace), 2, 6);
        const double yStep = ChartUnit::roundStepAtMost(top, maxIntervals);
        top = std::ceil(top / yStep - 1e-9) * yStep;
        p.y->setTickType(QValueAxis::TicksFixed);
        p.y->setRange(0, top);
        p.y->setTickAnchor(0);
        p.y->setTickInterval(yStep);
        p.y->setTickType(QValueAxis::TicksDynamic);
        // The unit is on every label: the two byte axes may differ and must not look alike.
        p.y->setLabelFormat(QStringLiteral("%.") + QString::number(ChartUnit::decimalsFor(yStep)) + QStringLiteral("f ")
                            + p.unit.name);
        p.y->setTitleText(axisTitle);
    };
    const double labelHeight = QFontMetricsF(peakText->font()).height() + 14;
    setBytes(logicalPlot, double(logical.maxBytes) / logicalPlot.unit.factor, peakMarker->count() > 0 ? labelHeight : 0,
             tr("Logical"));
    setBytes(physicalPlot, double(physicalShownMax) / physicalPlot.unit.factor, 0, tr("Device"));
}

void MemoryChartPanel::Private::scheduleAlign()
{
    // Each plot's layout and the legends ask for it, several times as a trace is shown: one
    // pass covers them all (each took ~3 ms of the window's thread on the 1 GB trace, four
    // in a row after its memory stage).
    if (alignQueued)
        return;
    alignQueued = true;
    QTimer::singleShot(0, q, [this] {
        alignQueued = false;
        alignPlots();
    });
}

void MemoryChartPanel::Private::alignPlots()
{
    // Both plots share the time axis, so their plot areas must line up to the pixel, and
    // with the view above asking for it (setPlotSpan()), with its time area too. Their byte
    // labels and legends differ in width: let Qt Charts lay each out, then widen the margins
    // of the one with the narrower labels (a fixed plot area would leave its axes where the
    // automatic layout put them).
    if (aligning)
        return;
    aligning = true;
    std::vector<MemoryPlot *> shown;
    for (MemoryPlot *p : {&logicalPlot, &physicalPlot})
        if (p->showsView() && p->view->isVisible())
            shown.push_back(p);
    for (MemoryPlot *p : shown) {
        p->chart->setMargins(baseMargins(*p));
        p->chart->layout()->activate();
    }
    // The legends' columns follow the plot heights just laid out (the width they then take
    // changes no height).
    if (layoutLegends(shown)) {
        for (MemoryPlot *p : shown) {
            p->chart->setMargins(baseMargins(*p));
            p->chart->layout()->activate();
        }
    }
    // The byte axes depend on the plot heights just laid out (tick spacing, the peak
    // label's head room): fit them again, then lay out once more.
    if (series && !shown.empty()) {
        updateAxes();
        for (MemoryPlot *p : shown)
            p->chart->layout()->activate();
    }
    const double oldLeft = naturalLeft, oldRight = naturalRight;
    naturalLeft = naturalRight = 0;
    if (!shown.empty()) {
        double left = shown.front()->chart->plotArea().left();
        double right = shown.front()->chart->plotArea().right();
        for (MemoryPlot *p : shown) {
            left = std::max(left, p->chart->plotArea().left());
            right = std::min(right, p->chart->plotArea().right());
        }
        naturalLeft = left;
        naturalRight = right;
        if (spanRight > spanLeft) {
            // Never narrower than the labels need: the aligner asks for at least that.
            const int viewX = shown.front()->view->mapToGlobal(QPoint(0, 0)).x();
            left = std::max(left, double(spanLeft - viewX));
            right = std::min(right, double(spanRight - viewX));
        }
        for (MemoryPlot *p : shown) {
            const QRectF r = p->chart->plotArea();
            const QMargins base = baseMargins(*p);
            QMargins m = base;
            m.setLeft(m.left() + int(std::lround(left - r.left())));
            m.setRight(m.right() + int(std::lround(r.right() - right)));
            if (m != base) {
                p->chart->setMargins(m);
                p->chart->layout()->activate();
            }
        }
    }
    aligning = false;
    fitPlotHeights();
    placeLegends();
    placePeakText();
    placeCursorLines();
    if (std::lround(oldLeft) != std::lround(naturalLeft) || std::lround(oldRight) != std::lround(naturalRight))
        Q_EMIT q->plotSpanChanged();
}

void MemoryChartPanel::Private::fitPlotHeights()
{
    // Qt Charts elides what a short plot leaves no room for: a byte axis' rotated title
    // ("D…"), and every time label and the time axis' title under the lower plot ("…"),
    // which it squeezes once they would take more than kMaxAxisShare of the chart's height.
    // So the two plots share their height by what each needs whole, before the rest goes
    // 3:2 as before; where even that is too little, a title that does not fit is hidden,
    // never elided. No minimum height grows: the window's smallest size stays what it was.
    if (!logicalPlot.showsView() && !physicalPlot.showsView())
        return;
    MemoryPlot &bottom = &bottomPlot() == &physicalPlot ? physicalPlot : logicalPlot;
    MemoryPlot &top = &bottom == &physicalPlot ? logicalPlot : physicalPlot;
    const auto titleNeeds = [](const MemoryPlot &p) {
        return QFontMetricsF(p.y->titleFont()).horizontalAdvance(p.y->titleText()) + kTitleRoom;
    };
    const QMargins margins = ChartStyle::kChartMargins;
    // Qt Charts keeps the same room above a plot and, without labels, below it.
    const double edge = std::max(0.0, bottom.chart->plotArea().top() - bottom.chart->margins().top());
    const double timeLabels = QFontMetricsF(bottom.x->labelsFont()).height() + kTimeLabelsPadding;
    const double timeTitle = QFontMetricsF(bottom.x->titleFont()).height() + kTimeTitlePadding;
    // The lower plot's height for its time axis unsqueezed (with or without its title), and
    // for that beside a plot area that holds its byte axis' title.
    const auto timeAxisNeeds = [&](bool withTitle) {
        const double axis = timeLabels + (withTitle ? timeTitle : 0);
        return std::ceil(axis / kMaxAxisShare + margins.top() + margins.bottom() + 1);
    };
    const double bottomNeeds = std::max(timeAxisNeeds(true), std::ceil(margins.top() + edge + timeLabels + timeTitle
                                                                       + margins.bottom() + titleNeeds(bottom)));
    if (top.showsView() && bottom.showsView() && &top != &bottom) {
        const double topNeeds = std::ceil(margins.top() + 2 * edge + margins.bottom() + titleNeeds(top));
        const double total = top.slot->height() + bottom.slot->height();
        // Enough for both: the rest 3:2. Less: the upper plot whole and the time labels
        // without their title. Less still: the time labels first, the upper plot never under
        // a view's least height.
        double bottomHeight;
        if (total >= topNeeds + bottomNeeds)
            bottomHeight = bottomNeeds + (total - topNeeds - bottomNeeds) * 2 / 5;
        else if (total - topNeeds >= timeAxisNeeds(false))
            bottomHeight = total - topNeeds;
        else
            bottomHeight = std::max(total / 2, std::min(timeAxisNeeds(false), total - MemoryPlot::kLeastViewHeight));
        auto *layout = static_cast<QVBoxLayout *>(plots->layout());
        const int topStretch = std::max(1, int(std::lround(total - bottomHeight)));
        const int bottomStretch = std::max(1, int(std::lround(bottomHeight)));
        if (layout->stretch(layout->indexOf(top.slot)) != topStretch
            || layout->stretch(layout->indexOf(bottom.slot)) != bottomStretch) {
            layout->setStretchFactor(top.slot, topStretch);
            layout->setStretchFactor(bottom.slot, bottomStretch);
        }
    }
    // The titles, from the heights laid out: each decision reads a height it does not change.
    const bool timeTitleFits = bottom.view->height() >= timeAxisNeeds(true);
    if (timeTitleShown != timeTitleFits) {
        timeTitleShown = timeTitleFits;
        bottom.x->setTitleVisible(timeTitleFits);
    }
    for (MemoryPlot *p : {&logicalPlot, &physicalPlot}) {
        if (!p->showsView() || !p->view->isVisible())
            continue;
        const bool fits = p->chart->plotArea().height() >= titleNeeds(*p);
        if (p->y->isTitleVisible() != fits)
            p->y->setTitleVisible(fits);
    }
}

QMargins MemoryChartPanel::Private::baseMargins(const MemoryPlot &plot) const
{
    QMargins m = ChartStyle::kChartMargins;
    if (plot.legend->width() > 0)
        m.setRight(m.right() + kLegendGap + int(std::ceil(plot.legend->width())));
    return m;
}

bool MemoryChartPanel::Private::layoutLegends(const std::vector<MemoryPlot *> &shown)
{
    bool changed = false;
    for (MemoryPlot *p : shown) {
        const double before = std::ceil(p->legend->width());
        // In a narrow window the labels elide before the legend takes much of the plot.
        const double maxWidth = std::max(140.0, 0.3 * p->view->width());
        p->legend->layout(p->chart->plotArea().height(), maxWidth);
        changed = changed || std::ceil(p->legend->width()) != before;
    }
    return changed;
}

void MemoryChartPanel::Private::placeLegends()
{
    // Beside the plot, from its top: the time axis' labels below it stay clear.
    for (MemoryPlot *p : {&logicalPlot, &physicalPlot}) {
        const QRectF plot = p->chart->plotArea();
        p->legend->setVisible(p->showsView());
        p->legend->setPos(std::round(plot.right() + kLegendGap), std::round(plot.top()));
    }
}

void MemoryChartPanel::Private::placePeakText()
{
    if (peakMarker->count() == 0 || !logicalPlot.chart->series().contains(peakMarker) || !logicalPlot.showsView()) {
        peakText->hide();
        peakBox->hide();
        return;
    }
    // In the head room above the peak, which is the top of every logical line: nothing
    // drawn from data can cross the label.
    const QRectF plot = logicalPlot.chart->plotArea();
    const QPointF at = logicalPlot.chart->mapToPosition(peakMarker->at(0), peakMarker);
    const QRectF text = peakText->boundingRect();
    double x = at.x() - text.width() / 2;
    x = std::clamp(x, plot.left() + 3, std::max(plot.left() + 3, plot.right() - text.width() - 3));
    const double y = std::max(plot.top() + 2, at.y() - text.height() - 10);
    peakText->setPos(x, y);
    peakBox->setRect(QRectF(x - 4, y - 1, text.width() + 8, text.height() + 2));
    peakText->show();
    peakBox->show();
}

void MemoryChartPanel::Private::updateNotes()
{
    QString l, p;
    if (series) {
        const QString where =
            device == MemorySeries::kAllDevices ? tr("in this trace") : tr("for %1").arg(deviceName());
        if (!series->hasLogical(device))
            l = tr("Logical memory: unknown (no memory records %1)").arg(where);
        if (!series->hasPhysical(device))
            p = tr("Physical memory: unknown (no device_memory samples %1)").arg(where);
    }
    logicalPlot.note->setText(l);
    physicalPlot.note->setText(p);
    logicalPlot.slot->setCurrentWidget(l.isEmpty() ? static_cast<QWidget *>(logicalPlot.view) : logicalPlot.note);
    physicalPlot.slot->setCurrentWidget(p.isEmpty() ? static_cast<QWidget *>(physicalPlot.view) : physicalPlot.note);
    // A plane that is unknown takes one line, not half the chart.
    auto *layout = static_cast<QVBoxLayout *>(plots->layout());
    // Both plots shown before and now: they keep the shares fitPlotHeights() gave them.
    const bool bothShown = layout->stretch(layout->indexOf(logicalPlot.slot)) > 0
                           && layout->stretch(layout->indexOf(physicalPlot.slot)) > 0;
    if (!(bothShown && l.isEmpty() && p.isEmpty())) {
        layout->setStretchFactor(logicalPlot.slot, l.isEmpty() ? 3 : 0);
        layout->setStretchFactor(physicalPlot.slot, p.isEmpty() ? 2 : 0);
    }
    logicalPlot.slot->setMaximumHeight(l.isEmpty() ? QWIDGETSIZE_MAX : logicalPlot.note->sizeHint().height() + 8);
    physicalPlot.slot->setMaximumHeight(p.isEmpty() ? QWIDGETSIZE_MAX : physicalPlot.note->sizeHint().height() + 8);
    if (series && !series->hasLogical() && !series->hasPhysical()) {
        // Both unknown: said once, in the middle, and nothing else.
        placeholder->setText(l + u'\n' + p);
        chartStack->setCurrentWidget(placeholder);
    } else if (series) {
        chartStack->setCurrentWidget(plots);
    }
    // Without logical memory there are no allocations to list; the note above says why.
    allocations->setVisible(!series || series->hasLogical(device));
    if (!instant && !hoverTime)
        readout->setText(
            series && !series->hasLogical(device)
                ? tr("Hover over the chart to read every series.")
                : tr("Hover over the chart to read every series; click to list the allocations live at that time."));
}

void MemoryChartPanel::Private::updatePeakTexts()
{
    if (logical.known && logical.peakBytes) {
        const QString who =
            device == MemorySeries::kAllDevices ? tr("Logical peak") : tr("Logical peak of %1").arg(deviceName());
        QString text = tr("%1: <b>%2</b> at %3")
                           .arg(who, formatBytes(*logical.peakBytes), formatTimePoint(*logical.peakTimeNs, timeUnit));
        if (!window.contains(*logical.peakTimeNs))
            text += tr(" (outside the zoomed window)");
        peakLabel->setText(text);
        peakLabel->setToolTip(text);
    } else if (logical.known) {
        peakLabel->setText(tr("No logical peak (no storage was allocated)"));
    } else {
        peakLabel->clear();
    }
}

void MemoryChartPanel::Private::renderTo(QPainter &painter, const QRectF &target)
{
    double y = target.top();
    double total = 0;
    std::vector<MemoryPlot *> shown;
    for (MemoryPlot *p : {&logicalPlot, &physicalPlot})
        if (p->showsView()) {
            shown.push_back(p);
            total += p->view->height();
        }
    for (MemoryPlot *p : shown) {
        const double h = target.height() * double(p->view->height()) / std::max(total, 1.0);
        p->hoverLine->hide();
        p->view->render(&painter, QRectF(target.left(), y, target.width(), h), p->view->viewport()->rect());
        y += h;
    }
    placeCursorLines();
}

} // namespace TraceInspector
