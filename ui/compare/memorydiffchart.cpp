// SPDX-License-Identifier: MIT
#include "ui/compare/memorydiffchart.h"

#include <QPainter>
#include <QPolygonF>

#include <algorithm>

#include "core/display/format.h"
#include "ui/style/deltapalette.h"

namespace TraceInspector {

MemoryDiffChart::MemoryDiffChart(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("memoryDiffChart"));
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
}

MemoryDiffChart::~MemoryDiffChart() = default;

void MemoryDiffChart::setMemoryDiff(const MemoryDiff &diff)
{
    m_diff = diff;
    update();
}

QSize MemoryDiffChart::sizeHint() const
{
    return {600, 260};
}

QSize MemoryDiffChart::minimumSizeHint() const
{
    return {240, 100};
}

void MemoryDiffChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette &pal = palette();
    const QFontMetrics fm = fontMetrics();
    const MemoryDiffSide *sides[2] = {m_diff.baseline ? &*m_diff.baseline : nullptr,
                                      m_diff.candidate ? &*m_diff.candidate : nullptr};
    const QColor colors[2] = {DeltaPalette::baselineSeries(pal), DeltaPalette::candidateSeries(pal)};
    const QString names[2] = {tr("Baseline"), tr("Candidate")};

    if (!sides[0] && !sides[1]) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Neither run has memory records"));
        return;
    }

    std::uint64_t maxT = 1, maxB = 1;
    for (const MemoryDiffSide *s : sides) {
        if (!s)
            continue;
        if (!s->offsetNs.empty())
            maxT = std::max(maxT, s->offsetNs.back());
        maxB = std::max(maxB, s->peakBytes);
        for (const std::uint64_t b : s->liveBytes)
            maxB = std::max(maxB, b);
    }
    maxT += maxT / 50 + 1; // room after the last change
    const int left = fm.horizontalAdvance(formatBytes(maxB)) + 12;
    const int legend = 2 * fm.height() + 8;
    const QRectF plot(left, legend + 4, width() - left - 12, height() - legend - fm.height() - 16);
    if (plot.width() < 20 || plot.height() < 20)
        return;
    const auto x = [&](std::uint64_t t) { return plot.left() + plot.width() * double(t) / double(maxT); };
    const auto y = [&](std::uint64_t b) { return plot.bottom() - plot.height() * double(b) / double(maxB); };

    // Axes and the scale.
    p.setPen(pal.color(QPalette::Mid));
    p.drawRect(plot);
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRectF(0, plot.top() - fm.height() / 2.0, left - 6, fm.height()), Qt::AlignRight, formatBytes(maxB));
    p.drawText(QRectF(0, plot.bottom() - fm.height() / 2.0, left - 6, fm.height()), Qt::AlignRight, formatBytes(0));
    p.drawText(QRectF(plot.left(), plot.bottom() + 4, plot.width(), fm.height()), Qt::AlignLeft, formatDuration(0));
    p.drawText(QRectF(plot.left(), plot.bottom() + 4, plot.width(), fm.height()), Qt::AlignRight,
               tr("%1 from each run's start").arg(formatDuration(maxT)));

    for (int k = 0; k < 2; ++k) {
        const MemoryDiffSide *s = sides[k];
        const QRectF legendLine(4, 4 + k * (fm.height() + 2), width() - 8, fm.height());
        if (!s) {
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(legendLine, Qt::AlignLeft, tr("%1: no memory records").arg(names[k]));
            continue;
        }
        // A step polyline with at most a few vertices per pixel column: each column keeps the
        // value entering it and its largest value, so no peak is lost however many points.
        QPolygonF line;
        line.reserve(int(std::min<std::size_t>(s->offsetNs.size(), std::size_t(plot.width()) + 1) * 4 + 4));
        double lastY = y(0), peakY = lastY, columnX = 0;
        bool open = false;
        line << QPointF(x(0), lastY);
        const auto closeColumn = [&] {
            if (open && peakY < lastY) // screen y grows downwards: peakY above lastY
                line << QPointF(columnX, peakY) << QPointF(columnX, lastY);
        };
        for (std::size_t i = 0; i < s->offsetNs.size(); ++i) {
            const double xi = x(s->offsetNs[i]);
            const double yi = y(s->liveBytes[i]);
            if (open && int(xi) == int(columnX)) {
                peakY = std::min(peakY, yi);
                lastY = yi;
                continue;
            }
            closeColumn();
            line << QPointF(xi, lastY) << QPointF(xi, yi);
            columnX = xi;
            peakY = lastY = yi;
            open = true;
        }
        closeColumn();
        line << QPointF(x(maxT), lastY);
        p.setRenderHint(QPainter::Antialiasing, false);
        QPen pen(colors[k], k == 0 ? 3.0 : 1.0);
        pen.setCosmetic(true);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawPolyline(line);
        p.setRenderHint(QPainter::Antialiasing, true);
        // The peak: a dot where it is.
        p.setBrush(colors[k]);
        p.drawEllipse(QPointF(x(s->peakOffsetNs), y(s->peakBytes)), 4, 4);

        p.fillRect(QRectF(legendLine.left(), legendLine.center().y() - 1.5, 18, 3), colors[k]);
        p.setPen(pal.color(QPalette::Text));
        p.drawText(legendLine.adjusted(24, 0, 0, 0), Qt::AlignLeft,
                   tr("%1: peak %2 at %3").arg(names[k], formatBytes(s->peakBytes), formatDuration(s->peakOffsetNs)));
    }
    if (const auto delta = m_diff.peakDeltaBytes()) {
        p.setPen(DeltaPalette::forDelta(*delta, pal));
        const QString text = tr("Peak Δ %1")
                                 .arg(QString(*delta > 0   ? QStringLiteral("+")
                                              : *delta < 0 ? QString(QChar(0x2212))
                                                           : QString())
                                      + formatBytes(std::uint64_t(*delta < 0 ? -*delta : *delta)));
        p.drawText(QRectF(4, 4, width() - 12, fm.height()), Qt::AlignRight, text);
    }
}

} // namespace TraceInspector
