// SPDX-License-Identifier: MIT
#include "ui/timeline/timelinepainter.h"

#include <QCoreApplication>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "core/display/format.h"
#include "core/analysis/spantree.h"
#include "core/model/trace.h"
#include "core/timeline/timelineruler.h"

namespace TraceInspector {
namespace {

constexpr double kMinLabelWidth = 18.0;

QString toQString(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

/// Pixel column of x, kept in a range QPainter handles (slices can start far off-screen).
int clampX(double x, int width)
{
    return int(std::floor(std::clamp(x, -4.0, double(width) + 4.0)));
}

} // namespace

TimelinePainter::TimelinePainter()
    : m_metrics(QFont())
    , m_smallMetrics(QFont())
{
    setStyle(QFont(), QPalette());
}

void TimelinePainter::setData(const Trace *trace, const SpanTree *tree, const TimelineLayout *layout,
                              const TimelineRows *rows)
{
    m_trace = trace;
    m_tree = tree;
    m_layout = layout;
    m_rows = rows;
    m_strings.clear();
    m_colorCache.clear();
}

void TimelinePainter::setStyle(const QFont &font, const QPalette &palette)
{
    m_font = font;
    m_smallFont = font;
    if (font.pointSizeF() > 0)
        m_smallFont.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.9));
    else if (font.pixelSize() > 0)
        m_smallFont.setPixelSize(std::max(8, int(font.pixelSize() * 0.9)));
    m_metrics = QFontMetricsF(m_font);
    m_smallMetrics = QFontMetricsF(m_smallFont);
    m_colors = TimelineColors(palette);
    m_colorCache.clear();
    m_rowHeight = int(std::ceil(m_metrics.height())) + 6;
    m_rulerHeight = int(std::ceil(m_smallMetrics.height())) + 12;
    m_headerHeight = int(std::ceil(m_smallMetrics.height())) + 6 + m_rulerHeight;
    m_titleHeight = int(std::ceil(m_smallMetrics.height())) + 4;
    // Ruler labels are digits, a point, thin spaces and a unit: the digit width is the one
    // that matters (thin spaces are narrower, so the estimate errs on the safe side).
    m_charWidth = m_smallMetrics.horizontalAdvance(QStringLiteral("0123456789")) / 10.0;
    m_openSuffix = QCoreApplication::translate("TraceInspector::TimelinePainter", " (open)");
}

const TimeWindow &TimelinePainter::windowOf(const TimelineRow &row, const TimelineViewState &state)
{
    if (row.type == TimelineRow::Type::HostTrack || row.domain >= state.domains.size())
        return state.host;
    return state.domains[row.domain];
}

const QString &TimelinePainter::cachedString(std::uint32_t stringId) const
{
    auto it = m_strings.find(stringId);
    if (it == m_strings.end())
        it = m_strings.insert(stringId, toQString(m_trace->str(stringId)));
    return *it;
}

const QString &TimelinePainter::nameOf(TimelineItem item) const
{
    static const QString empty;
    if (!m_trace)
        return empty;
    switch (item.kind) {
    case TimelineItemKind::Span: return cachedString(m_trace->spans[item.index].name);
    case TimelineItemKind::Op: return cachedString(m_trace->ops[item.index].opName);
    case TimelineItemKind::DeviceInterval: {
        const std::uint32_t span = m_layout ? m_layout->spanOfInterval(item.index) : TimelineLayout::kNoSpan;
        return cachedString(span == TimelineLayout::kNoSpan ? m_trace->deviceIntervals[item.index].spanId
                                                            : m_trace->spans[span].name);
    }
    }
    return empty;
}

TimelineColors::Family TimelinePainter::familyOf(TimelineItem item) const
{
    switch (item.kind) {
    case TimelineItemKind::Span:
        switch (m_trace->spans[item.index].kind) {
        case SpanKind::Module: return TimelineColors::Family::Module;
        case SpanKind::Op: return TimelineColors::Family::Op;
        case SpanKind::Function: return TimelineColors::Family::Function;
        }
        break;
    case TimelineItemKind::Op: return TimelineColors::Family::Op;
    case TimelineItemKind::DeviceInterval: {
        // An interval wears its span's colour: the link between the two axes is the span.
        const std::uint32_t span = m_layout ? m_layout->spanOfInterval(item.index) : TimelineLayout::kNoSpan;
        return span == TimelineLayout::kNoSpan ? TimelineColors::Family::Device
                                               : familyOf({TimelineItemKind::Span, span});
    }
    }
    return TimelineColors::Family::Function;
}

std::uint32_t TimelinePainter::colorKey(TimelineItem item) const
{
    switch (item.kind) {
    case TimelineItemKind::Span: return m_trace->spans[item.index].name;
    case TimelineItemKind::Op: return m_trace->ops[item.index].opName;
    case TimelineItemKind::DeviceInterval: {
        const std::uint32_t span = m_layout ? m_layout->spanOfInterval(item.index) : TimelineLayout::kNoSpan;
        return span == TimelineLayout::kNoSpan ? m_trace->deviceIntervals[item.index].spanId
                                               : m_trace->spans[span].name;
    }
    }
    return kNoString;
}

QColor TimelinePainter::colorOf(TimelineItem item) const
{
    // Hashing the name for every slice of every frame would cost more than the fill itself.
    const TimelineColors::Family family = familyOf(item);
    const std::uint32_t key = colorKey(item);
    const quint64 slot = (quint64(family) << 32) | key;
    auto it = m_colorCache.constFind(slot);
    if (it == m_colorCache.constEnd())
        it = m_colorCache.insert(slot, m_colors.sliceFill(m_trace->str(key), family).rgb());
    return QColor::fromRgb(*it);
}

QString TimelinePainter::laneLabel(std::uint32_t lane) const
{
    const auto &l = m_layout->deviceLanes()[lane];
    const QString count = l.intervalCount == 1
                              ? QCoreApplication::translate("TraceInspector::TimelinePainter", "1 interval")
                              : QCoreApplication::translate("TraceInspector::TimelinePainter", "%1 intervals")
                                    .arg(formatCount(l.intervalCount));
    return QCoreApplication::translate("TraceInspector::TimelinePainter", "%1 \u00B7 stream %2 \u00B7 %3 \u00B7 %4")
        .arg(toQString(m_trace->str(l.device)), toQString(m_trace->str(l.stream)), toQString(m_trace->str(l.backend)),
             count);
}

QString TimelinePainter::titleText(const TimelineRow &row) const
{
    switch (row.title) {
    case TimelineRow::TitleKind::Host:
        return QCoreApplication::translate(
            "TraceInspector::TimelinePainter",
            "Host \u2014 time since the run started; spans nested by depth, ops innermost");
    case TimelineRow::TitleKind::Orphans:
        return QCoreApplication::translate("TraceInspector::TimelinePainter", "Ops whose span_id names no span");
    case TimelineRow::TitleKind::Lane: return laneLabel(row.group);
    }
    return {};
}

QString TimelinePainter::clockTitle(std::uint32_t domain) const
{
    const auto &d = m_layout->clockDomains()[domain];
    return QCoreApplication::translate("TraceInspector::TimelinePainter",
                                       "Device clock \u201C%1\u201D \u2014 its own time axis, not host time "
                                       "(0 = its first interval)")
        .arg(toQString(m_trace->str(d.clock)));
}

void TimelinePainter::paint(QPainter &p, const TimelineViewState &state)
{
    const int width = state.size.width();
    const int height = state.size.height();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.fillRect(QRect(0, 0, width, height), m_colors.background());
    if (!m_layout || !m_rows || !m_trace || !m_tree || width <= 0)
        return;

    p.save();
    p.setClipRect(QRect(0, m_rulerHeight, width, height - m_rulerHeight));
    p.setFont(m_font);
    const auto &rows = m_rows->rows();
    auto firstRow = m_rows->rowAt(std::max(0, state.scrollY));
    for (std::size_t r = firstRow.value_or(rows.size()); r < rows.size(); ++r) {
        const TimelineRow &row = rows[r];
        const int y = screenY(row.y, state);
        if (y >= height)
            break;
        if (row.type == TimelineRow::Type::ClockHeader)
            paintHeader(p, row, y, state);
        else if (row.type == TimelineRow::Type::Title)
            paintTitle(p, row, y, width);
        else
            paintTrack(p, row, y, windowOf(row, state), width);
    }
    // The host section ends with a line so the device section reads as separate.
    if (!m_layout->clockDomains().empty()) {
        const int y = screenY(m_rows->hostHeight(), state);
        p.fillRect(QRect(0, y - 1, width, 2), m_colors.tick());
    }
    for (const auto &loc : state.related)
        paintOutline(p, loc, state, m_colors.related(), true);
    if (state.selected)
        paintOutline(p, *state.selected, state, m_colors.selection(), false);
    if (state.hoverRow && state.hoverMark && *state.hoverRow < rows.size()) {
        const TimelineRow &row = rows[*state.hoverRow];
        const int y = screenY(row.y, state);
        const int x0 = clampX(state.hoverMark->x0, width);
        const int x1 = std::max(x0 + 1, clampX(state.hoverMark->x1, width));
        p.setPen(QPen(m_colors.hover(), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(x0, y, x1 - x0, m_rowHeight - 1));
    }
    p.restore();

    paintRuler(p, QRect(0, 0, width, m_rulerHeight), state.host, 0);
    paintRange(p, state);
    if (!state.range.isEmpty()) {
        // The range chip: both ends and the length, over the ruler.
        const QString text = QString::fromStdString(formatRangeLabel(state.range));
        const double x0 = timeToX(state.host, width, state.range.begin);
        const double x1 = timeToX(state.host, width, state.range.end);
        const double textWidth = m_smallMetrics.horizontalAdvance(text) + 12;
        const double centre = std::clamp((x0 + x1) / 2, textWidth / 2, std::max(textWidth / 2, width - textWidth / 2));
        const QRectF chip(centre - textWidth / 2, 2, textWidth, m_rulerHeight - 4);
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(Qt::NoPen);
        p.setBrush(m_colors.selection());
        p.drawRoundedRect(chip, 4, 4);
        p.setRenderHint(QPainter::Antialiasing, false);
        p.setFont(m_smallFont);
        p.setPen(TimelineColors::textOn(m_colors.selection()));
        p.drawText(chip, Qt::AlignCenter, text);
    }
}

void TimelinePainter::paintRuler(QPainter &p, const QRect &rect, const TimeWindow &window, std::uint64_t origin) const
{
    p.fillRect(rect, m_colors.rulerBackground());
    p.fillRect(QRect(rect.left(), rect.bottom(), rect.width(), 1), m_colors.tick());
    if (window.isEmpty())
        return;
    const RulerScale scale = computeRulerScale(window, rect.width(), m_charWidth, origin);
    if (scale.stepNs == 0)
        return;
    const double width = rect.width();
    // Minor ticks: multiples of the minor step after the origin.
    if (scale.minorStepNs > 0 && double(scale.minorStepNs) * width / double(window.length()) >= 4) {
        const std::uint64_t from = std::max(window.begin, origin);
        std::uint64_t t = origin + (from - origin + scale.minorStepNs - 1) / scale.minorStepNs * scale.minorStepNs;
        for (; t < window.end; t += scale.minorStepNs) {
            const int x = rect.left() + int(std::floor(timeToX(window, width, t)));
            p.fillRect(QRect(x, rect.bottom() - 3, 1, 3), m_colors.tick());
            if (t > UINT64_MAX - scale.minorStepNs)
                break;
        }
    }
    p.setFont(m_smallFont);
    p.setPen(m_colors.rulerText());
    const double baseline = rect.top() + (rect.height() - 6 + m_smallMetrics.ascent() - m_smallMetrics.descent()) / 2;
    for (std::uint64_t t : scale.ticks) {
        const int x = rect.left() + int(std::floor(timeToX(window, width, t)));
        p.fillRect(QRect(x, rect.bottom() - 8, 1, 8), m_colors.tick());
        const QString label = QString::fromStdString(formatRulerLabel(t - origin, scale.unit, scale.decimals));
        // A label cut at the right edge reads as another time ("3.574" of "3.574 64 s").
        if (x + 3 + m_smallMetrics.horizontalAdvance(label) <= rect.right())
            p.drawText(QPointF(x + 3, baseline), label);
    }
}

void TimelinePainter::paintHeader(QPainter &p, const TimelineRow &row, int y, const TimelineViewState &state) const
{
    const int width = state.size.width();
    const int titleHeight = m_headerHeight - m_rulerHeight;
    p.fillRect(QRect(0, y, width, titleHeight), m_colors.headerBackground());
    p.fillRect(QRect(0, y, 4, m_headerHeight), m_colors.foreignAccent());
    p.setFont(m_smallFont);
    p.setPen(m_colors.foreignAccent());
    const QString title = m_smallMetrics.elidedText(clockTitle(row.domain), Qt::ElideRight, width - 16);
    p.drawText(QPointF(10, y + 3 + m_smallMetrics.ascent()), title);
    const auto &domain = m_layout->clockDomains()[row.domain];
    const TimeWindow &window = windowOf(row, state);
    paintRuler(p, QRect(0, y + titleHeight, width, m_rulerHeight), window, domain.extent.begin);
    p.fillRect(QRect(0, y, 4, m_headerHeight), m_colors.foreignAccent());
    p.setFont(m_font);
}

void TimelinePainter::paintTrack(QPainter &p, const TimelineRow &row, int y, const TimeWindow &window, int width)
{
    const bool device = row.type == TimelineRow::Type::DeviceTrack;
    const TimelineTrack &track = device ? m_layout->deviceLanes()[row.group].tracks[row.track]
                                        : m_layout->hostLevels()[row.group].tracks[row.track];
    // Alternate backgrounds per level / lane so tracks of one group read together.
    if (row.group % 2 == 1)
        p.fillRect(QRect(0, y, width, m_rowHeight), m_colors.alternateRow());
    m_marks.clear();
    track.marks(window, width, m_marks);
    const int top = y + 1;
    const int h = m_rowHeight - 2;
    const double baseline = y + (m_rowHeight + m_metrics.ascent() - m_metrics.descent()) / 2;

    // Adjacent merged marks become one rectangle: a dense region costs one fill, not one
    // per pixel.
    int runStart = 0;
    int runEnd = -1;
    auto flushRun = [&] {
        if (runEnd > runStart)
            p.fillRect(QRect(runStart, top, runEnd - runStart, h), m_colors.mergedFill());
        runEnd = -1;
    };
    for (const TimelineMark &mark : m_marks) {
        const int x0 = clampX(mark.x0, width);
        const int x1 = std::max(x0 + 1, clampX(mark.x1, width));
        if (mark.isMerged()) {
            if (runEnd >= x0) {
                runEnd = std::max(runEnd, x1);
            } else {
                flushRun();
                runStart = x0;
                runEnd = x1;
            }
            continue;
        }
        flushRun();
        const TimelineItem item = device ? TimelineItem{TimelineItemKind::DeviceInterval, track.payload(mark.first)}
                                         : TimelineLayout::hostItem(track.payload(mark.first));
        const QColor slice = colorOf(item);
        const int w = x1 - x0 >= 4 ? x1 - x0 - 1 : x1 - x0; // a 1 px gap keeps neighbours apart
        const bool open = item.kind == TimelineItemKind::Span && m_tree->isOpen(item.index);
        p.fillRect(QRect(x0, top, w, h), slice);
        if (open) {
            QColor hatch = TimelineColors::textOn(slice);
            hatch.setAlpha(70);
            p.fillRect(QRect(x0, top, w, h), QBrush(hatch, Qt::BDiagPattern));
        }
        if (w < kMinLabelWidth)
            continue;
        // Labels start at the visible part of the slice, so long slices stay named.
        const double textX = std::max(x0, 0) + 3;
        const double available = std::min(x0 + w, width) - textX - 3;
        if (available < kMinLabelWidth - 6)
            continue;
        const QString &name = nameOf(item);
        QString text = open ? name + m_openSuffix : name;
        if (m_metrics.horizontalAdvance(text) > available) {
            text = m_metrics.elidedText(text, Qt::ElideRight, available);
            if (text.size() <= 1)
                continue;
        }
        p.setPen(TimelineColors::textOn(slice));
        p.drawText(QPointF(textX, baseline), text);
    }
    flushRun();
}

void TimelinePainter::paintTitle(QPainter &p, const TimelineRow &row, int y, int width) const
{
    p.fillRect(QRect(0, y, width, row.height), m_colors.headerBackground());
    if (row.title == TimelineRow::TitleKind::Lane)
        p.fillRect(QRect(0, y, 4, row.height), m_colors.foreignAccent());
    p.setFont(m_smallFont);
    p.setPen(m_colors.headerText());
    const QString text = m_smallMetrics.elidedText(titleText(row), Qt::ElideRight, width - 16);
    p.drawText(QPointF(row.title == TimelineRow::TitleKind::Lane ? 10 : 4, y + 2 + m_smallMetrics.ascent()), text);
    p.setFont(m_font);
}

void TimelinePainter::paintOutline(QPainter &p, const TimelineLayout::Location &loc, const TimelineViewState &state,
                                   const QColor &color, bool dashed) const
{
    const auto rowIndex = m_rows->rowOf(loc.device, loc.group, loc.track);
    if (!rowIndex)
        return;
    const TimelineRow &row = m_rows->rows()[*rowIndex];
    const TimeWindow &window = windowOf(row, state);
    const auto [start, end] =
        m_layout->extentOf(*m_trace, m_layout->itemAt(loc.device, loc.group, loc.track, loc.position));
    const int width = state.size.width();
    if (end < window.begin || start > window.end)
        return;
    int x0 = clampX(timeToX(window, width, start), width);
    int x1 = clampX(timeToX(window, width, end), width);
    if (x1 - x0 < 3) {
        const int centre = (x0 + x1) / 2;
        x0 = centre - 1;
        x1 = centre + 2;
    }
    const int y = screenY(row.y, state);
    QPen pen(color, 2);
    if (dashed)
        pen.setStyle(Qt::DashLine);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRect(x0, y + 1, x1 - x0 - 1, m_rowHeight - 3));
}

void TimelinePainter::paintRange(QPainter &p, const TimelineViewState &state) const
{
    if (state.range.isEmpty())
        return;
    const int width = state.size.width();
    const int x0 = clampX(timeToX(state.host, width, state.range.begin), width);
    const int x1 = std::max(x0 + 1, clampX(timeToX(state.host, width, state.range.end), width));
    // The range is host time: it shades the host section only, never a device clock's lanes.
    const int bottom = std::clamp(screenY(m_rows->hostHeight(), state), m_rulerHeight, state.size.height());
    p.fillRect(QRect(x0, 0, x1 - x0, bottom), m_colors.rangeFill());
    p.fillRect(QRect(x0, 0, 1, bottom), m_colors.rangeEdge());
    p.fillRect(QRect(x1 - 1, 0, 1, bottom), m_colors.rangeEdge());
}

} // namespace TraceInspector
