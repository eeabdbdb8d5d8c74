// SPDX-License-Identifier: MIT
#include "ui/compare/samplestripplot.h"

#include <QPainter>

#include <algorithm>

#include "core/display/format.h"
#include "ui/style/deltapalette.h"

namespace TraceInspector {

SampleStripPlot::SampleStripPlot(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("sampleStripPlot"));
    setMinimumHeight(120);
    setToolTip(tr("A dot per run's sample; solid bar: the median; dashed bar: the p95"));
}

SampleStripPlot::~SampleStripPlot() = default;

void SampleStripPlot::setSamples(const SampleStatistics &baseline, const SampleStatistics &candidate)
{
    m_baseline = baseline;
    m_candidate = candidate;
    update();
}

void SampleStripPlot::clear()
{
    setSamples({}, {});
}

std::pair<double, double> SampleStripPlot::axisRange() const
{
    double lo = 0, hi = 0;
    bool any = false;
    for (const SampleStatistics *s : {&m_baseline, &m_candidate}) {
        for (const std::uint64_t v : s->samplesNs) {
            lo = any ? std::min(lo, double(v)) : double(v);
            hi = any ? std::max(hi, double(v)) : double(v);
            any = true;
        }
    }
    // A margin so that the extreme dots are not cut; a single value gets a range around it.
    const double margin = hi > lo ? (hi - lo) * 0.08 : std::max(1.0, hi * 0.05);
    return {std::max(0.0, lo - margin), hi + margin};
}

QSize SampleStripPlot::sizeHint() const
{
    return {480, 150};
}

void SampleStripPlot::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette &pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QFontMetrics fm = fontMetrics();
    if (isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No samples"));
        return;
    }
    const QString baselineLabel = tr("Baseline");
    const QString candidateLabel = tr("Candidate");
    const int labelWidth = std::max(fm.horizontalAdvance(baselineLabel), fm.horizontalAdvance(candidateLabel)) + 12;
    const QRect plot = rect().adjusted(labelWidth, 8, -12, -(fm.height() + 10));
    const auto [lo, hi] = axisRange();
    // lo and hi by copy under new names: clang 14 cannot capture a structured binding.
    const auto xOf = [&plot, l = lo, h = hi](double v) { return plot.left() + (v - l) / (h - l) * plot.width(); };

    // Axis with its two ends labelled.
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.setPen(pal.color(QPalette::Text));
    const int textY = plot.bottom() + 4;
    p.drawText(QRect(plot.left(), textY, plot.width() / 2, fm.height()), Qt::AlignLeft,
               formatDuration(std::uint64_t(lo + 0.5)));
    p.drawText(QRect(plot.center().x(), textY, plot.width() / 2, fm.height()), Qt::AlignRight,
               formatDuration(std::uint64_t(hi + 0.5)));

    const int rowHeight = plot.height() / 2;
    const auto drawRow = [&](int row, const QString &label, const SampleStatistics &s, const QColor &color) {
        const int top = plot.top() + row * rowHeight;
        const int mid = top + rowHeight / 2;
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRect(0, top, labelWidth - 6, rowHeight), Qt::AlignRight | Qt::AlignVCenter, label);
        if (s.samplesNs.empty())
            return;
        // Dots jittered a little in y by their order, so equal samples stay countable.
        p.setPen(Qt::NoPen);
        QColor dot = color;
        dot.setAlphaF(0.75);
        p.setBrush(dot);
        const int radius = 4;
        for (std::size_t i = 0; i < s.samplesNs.size(); ++i) {
            const double y = mid + (int(i % 5) - 2) * 3;
            p.drawEllipse(QPointF(xOf(double(s.samplesNs[i])), y), radius, radius);
        }
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(color, 2));
        const double median = xOf(s.medianNs);
        p.drawLine(QPointF(median, mid - rowHeight * 0.38), QPointF(median, mid + rowHeight * 0.38));
        p.setPen(QPen(color, 1, Qt::DashLine));
        const double p95 = xOf(s.p95Ns);
        p.drawLine(QPointF(p95, mid - rowHeight * 0.25), QPointF(p95, mid + rowHeight * 0.25));
    };
    drawRow(0, baselineLabel, m_baseline, DeltaPalette::baselineSeries(pal));
    drawRow(1, candidateLabel, m_candidate, DeltaPalette::candidateSeries(pal));
}

} // namespace TraceInspector
