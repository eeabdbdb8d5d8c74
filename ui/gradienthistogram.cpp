// SPDX-License-Identifier: MIT
#include "ui/gradienthistogram.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace TraceInspector {

GradientHistogram::GradientHistogram(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("gradientHistogram"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

GradientHistogram::~GradientHistogram() = default;

QSize GradientHistogram::sizeHint() const
{
    return {400, fontMetrics().height() * 9};
}

QSize GradientHistogram::minimumSizeHint() const
{
    return {200, fontMetrics().height() * 6};
}

void GradientHistogram::setNorms(std::vector<double> norms, const QString &unplaced)
{
    m_bins.clear();
    m_maxCount = 0;
    m_unplaced = unplaced;
    norms.erase(std::remove_if(norms.begin(), norms.end(), [](double n) { return !(n > 0) || !std::isfinite(n); }),
                norms.end());
    m_normCount = norms.size();
    if (!norms.empty()) {
        const auto [lo, hi] = std::minmax_element(norms.begin(), norms.end());
        const double first = std::floor(std::log10(*lo) / m_width) * m_width;
        const double last = std::floor(std::log10(*hi) / m_width) * m_width;
        const int count = int(std::lround((last - first) / m_width)) + 1;
        m_bins.resize(std::size_t(std::clamp(count, 1, 200)));
        for (std::size_t i = 0; i < m_bins.size(); ++i)
            m_bins[i].lowLog10 = first + double(i) * m_width;
        for (const double n : norms) {
            const int bin =
                std::clamp(int(std::floor((std::log10(n) - first) / m_width + 1e-9)), 0, int(m_bins.size()) - 1);
            m_maxCount = std::max(m_maxCount, ++m_bins[std::size_t(bin)].count);
        }
    }
    update();
}

void GradientHistogram::clear()
{
    setNorms({}, QString());
}

void GradientHistogram::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette &pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QFontMetrics fm = fontMetrics();
    const int line = fm.height();
    const QRect area = rect().adjusted(line * 3, line / 2, -line, -line * 2 - line / 2);
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRect(rect().left() + 4, rect().top() + 2, rect().width() - 8, line), Qt::AlignLeft | Qt::AlignVCenter,
               tr("Gradient norms (log scale)"));
    if (m_bins.empty()) {
        const QString text =
            m_unplaced.isEmpty() ? tr("No gradient norms in this trace") : tr("No positive norms — %1").arg(m_unplaced);
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, text);
        return;
    }
    const QRect plot = area.adjusted(0, line, 0, 0);
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    const double barWidth = double(plot.width()) / double(m_bins.size());
    const QColor bar = pal.color(QPalette::Highlight);
    for (std::size_t i = 0; i < m_bins.size(); ++i) {
        const Bin &b = m_bins[i];
        const double h = m_maxCount > 0 ? double(plot.height()) * b.count / m_maxCount : 0;
        const QRectF r(plot.left() + barWidth * double(i) + 1, plot.bottom() - h, std::max(1.0, barWidth - 2), h);
        p.fillRect(r, bar);
        if (b.count > 0 && barWidth > fm.horizontalAdvance(QString::number(b.count)) + 2) {
            p.setPen(pal.color(QPalette::Text));
            p.drawText(QRectF(r.left(), r.top() - line, r.width(), line), Qt::AlignHCenter | Qt::AlignBottom,
                       QString::number(b.count));
        }
    }
    // Decade ticks: 1e-3, 1e-2, ...
    p.setPen(pal.color(QPalette::Text));
    const double first = m_bins.front().lowLog10;
    const double last = m_bins.back().lowLog10 + m_width;
    int lastLabelRight = -1000;
    for (int decade = int(std::ceil(first)); decade <= int(std::floor(last)); ++decade) {
        const double x = plot.left() + (double(decade) - first) / (last - first) * plot.width();
        p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
        const QString label = QStringLiteral("1e%1").arg(decade);
        const int w = fm.horizontalAdvance(label);
        if (x - w / 2.0 > lastLabelRight + 4) {
            p.drawText(QRectF(x - w / 2.0, plot.bottom() + 4, w, line), Qt::AlignCenter, label);
            lastLabelRight = int(x + w / 2.0);
        }
    }
    QString note = tr("%n key(s) with a positive norm", nullptr, int(m_normCount));
    if (!m_unplaced.isEmpty())
        note += tr("; not on the axis: %1").arg(m_unplaced);
    p.drawText(QRect(rect().left() + 4, rect().bottom() - line - 2, rect().width() - 8, line),
               Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(note, Qt::ElideRight, rect().width() - 8));
}

} // namespace TraceInspector
