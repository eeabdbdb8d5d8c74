// SPDX-License-Identifier: MIT
#include "ui/timeline/timelineview.h"

#include <QEvent>
#include <QFutureWatcher>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

#include "core/analysis/spantree.h"
#include "core/loading/workerpool.h"
#include "core/model/trace.h"
#include "ui/timeline/timelinetooltip.h"

namespace TraceInspector {
namespace {

constexpr double kKeyZoom = 0.7;    // one key press shows 70 % of the window
constexpr double kKeyPan = 0.15;    // one key press moves 15 % of the window
constexpr double kWheelZoom = 0.85; // per wheel notch
constexpr int kDragThreshold = 4;   // pixels before a press becomes a drag
constexpr std::uint64_t kMinWindowNs = 10;

TimeWindow padded(const TimeWindow &extent)
{
    const std::uint64_t pad = std::max<std::uint64_t>(extent.length() / 50, 1);
    const std::uint64_t begin = extent.begin > pad ? extent.begin - pad : 0;
    const std::uint64_t end = extent.end > UINT64_MAX - pad ? UINT64_MAX : extent.end + pad;
    return {begin, end};
}

} // namespace

TimelineView::TimelineView(QWidget *parent)
    : QAbstractScrollArea(parent)
{
    qRegisterMetaType<TraceInspector::Selection>();
    qRegisterMetaType<TraceInspector::TimeWindow>();
    setFocusPolicy(Qt::StrongFocus);
    setFrameShape(QFrame::NoFrame);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, this, &TimelineView::onHorizontalScroll);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, &TimelineView::onVerticalScroll);
    setAccessibleName(tr("Timeline"));
    setWhatsThis(tr("Host spans and ops over time, and device intervals on the axis of their own clock. "
                    "Wheel: zoom; drag: pan; drag on the ruler: select a time range; "
                    "W/S A/D or arrows: zoom and pan; Home: whole run; F: fit the selection."));
    applyStyle();
}

TimelineView::~TimelineView()
{
    cancelPending();
}

void TimelineView::cancelPending()
{
    if (m_cancel)
        m_cancel->store(true);
    m_cancel.reset();
    m_pending = false;
}

void TimelineView::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree)
{
    cancelPending();
    const quint64 generation = ++m_generation;
    if (!trace || !tree) {
        installLayout({}, {}, {});
        return;
    }
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    m_pending = true;
    viewport()->update();
    // A QFutureWatcher, not QFuture::then(context): Qt 6.4 can drop a context continuation
    // attached to a future that has already finished (small traces lay out that fast).
    using Result = std::shared_ptr<const TimelineLayout>;
    auto *watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, trace, tree] {
        watcher->deleteLater();
        const Result layout = watcher->future().resultCount() > 0 ? watcher->result() : Result();
        // A newer setTrace() or clear() superseded this one: drop the stale result.
        if (generation != m_generation || !layout || layout->isCancelled())
            return;
        m_pending = false;
        m_cancel.reset();
        installLayout(trace, tree, layout);
        Q_EMIT layoutReady();
    });
    watcher->setFuture(QtConcurrent::run(workerPool(), [trace, tree, cancel] {
        return std::make_shared<const TimelineLayout>(TimelineLayout::build(*trace, *tree, cancel.get()));
    }));
}

void TimelineView::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                            std::shared_ptr<const TimelineLayout> layout)
{
    if (!layout || layout->isCancelled()) {
        setTrace(std::move(trace), std::move(tree));
        return;
    }
    cancelPending();
    const quint64 generation = ++m_generation;
    m_pending = true;
    viewport()->update();
    QMetaObject::invokeMethod(
        this,
        [this, generation, trace = std::move(trace), tree = std::move(tree), layout = std::move(layout)] {
            if (generation != m_generation)
                return;
            m_pending = false;
            installLayout(trace, tree, layout);
            Q_EMIT layoutReady();
        },
        Qt::QueuedConnection);
}

void TimelineView::setLayoutData(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                                 std::shared_ptr<const TimelineLayout> layout)
{
    cancelPending();
    ++m_generation;
    installLayout(std::move(trace), std::move(tree), std::move(layout));
}

void TimelineView::clear()
{
    setTrace({}, {});
}

void TimelineView::installLayout(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                                 std::shared_ptr<const TimelineLayout> layout)
{
    if (!trace || !tree || !layout) {
        trace.reset();
        tree.reset();
        layout.reset();
    }
    m_trace = std::move(trace);
    m_tree = std::move(tree);
    m_layout = std::move(layout);
    m_rows = m_layout
                 ? TimelineRows(*m_layout, m_painter.rowHeight(), m_painter.headerHeight(), m_painter.titleHeight())
                 : TimelineRows();
    m_painter.setData(m_trace.get(), m_tree.get(), m_layout.get(), &m_rows);
    m_state.selected.reset();
    m_state.related.clear();
    m_state.hoverRow.reset();
    m_state.hoverMark.reset();
    m_state.range = {};
    m_state.scrollY = 0;
    m_selection = {};
    m_activeAxis = -1;
    m_state.domains.clear();
    if (m_layout) {
        for (const auto &domain : m_layout->clockDomains())
            m_state.domains.push_back(padded(domain.extent));
    }
    fitAll();
}

void TimelineView::applyStyle()
{
    m_painter.setStyle(font(), palette());
    if (m_layout)
        m_rows = TimelineRows(*m_layout, m_painter.rowHeight(), m_painter.headerHeight(), m_painter.titleHeight());
    setViewportMargins(m_marginLeft, 0, m_marginRight, 0);
    updateScrollBars();
    viewport()->update();
}

void TimelineView::setTimeAreaMargins(int left, int right)
{
    left = std::max(left, 0);
    right = std::max(right, 0);
    if (left == m_marginLeft && right == m_marginRight)
        return;
    m_marginLeft = left;
    m_marginRight = right;
    setViewportMargins(left, 0, right, 0);
    updateScrollBars();
    viewport()->update();
    // Same window, new width: time-aligned views may want to know.
    Q_EMIT visibleWindowChanged(m_state.host);
}

int TimelineView::timeToGlobalX(std::uint64_t timeNs) const
{
    const double x = timeToX(m_state.host, viewport()->width(), timeNs);
    return viewport()->mapToGlobal(QPoint(0, 0)).x() + int(std::lround(x));
}

void TimelineView::changeEvent(QEvent *event)
{
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange
        || event->type() == QEvent::StyleChange)
        applyStyle();
}

TimeWindow TimelineView::clockWindow(int domain) const
{
    if (domain < 0 || std::size_t(domain) >= m_state.domains.size())
        return {};
    return m_state.domains[std::size_t(domain)];
}

TimeWindow TimelineView::limits(int axis) const
{
    if (!m_layout)
        return {0, 1};
    if (axis < 0 || std::size_t(axis) >= m_layout->clockDomains().size())
        return padded(m_layout->hostExtent());
    return padded(m_layout->clockDomains()[std::size_t(axis)].extent);
}

TimeWindow &TimelineView::window(int axis)
{
    if (axis < 0 || std::size_t(axis) >= m_state.domains.size())
        return m_state.host;
    return m_state.domains[std::size_t(axis)];
}

const TimeWindow &TimelineView::window(int axis) const
{
    if (axis < 0 || std::size_t(axis) >= m_state.domains.size())
        return m_state.host;
    return m_state.domains[std::size_t(axis)];
}

std::uint64_t TimelineView::minimumLength(int axis) const
{
    return std::min(kMinWindowNs, limits(axis).length());
}

void TimelineView::setWindow(int axis, const TimeWindow &w)
{
    const TimeWindow lim = limits(axis);
    TimeWindow next = w;
    if (next.isEmpty() || next.length() > lim.length())
        next = lim;
    if (next.length() < minimumLength(axis)) {
        const std::uint64_t centre = next.begin + next.length() / 2;
        const std::uint64_t half = minimumLength(axis) / 2;
        next = {centre > half ? centre - half : 0, 0};
        next.end = next.begin + minimumLength(axis);
    }
    // Shift inside the limits, keeping the length.
    if (next.begin < lim.begin)
        next = {lim.begin, lim.begin + next.length()};
    if (next.end > lim.end)
        next = {lim.end - next.length(), lim.end};
    TimeWindow &current = window(axis);
    if (current == next)
        return;
    current = next;
    m_state.hoverMark.reset();
    updateScrollBars();
    viewport()->update();
    if (axis < 0 || std::size_t(axis) >= m_state.domains.size())
        Q_EMIT visibleWindowChanged(m_state.host);
}

void TimelineView::setVisibleWindow(const TimeWindow &w)
{
    setWindow(-1, w);
}

void TimelineView::fitAll()
{
    for (std::size_t d = 0; d < m_state.domains.size(); ++d)
        setWindow(int(d), limits(int(d)));
    const TimeWindow before = m_state.host;
    m_state.host = {};
    setWindow(-1, limits(-1));
    if (m_state.host == before)
        Q_EMIT visibleWindowChanged(m_state.host);
    updateScrollBars();
    viewport()->update();
}

void TimelineView::zoomToExtent(int axis, std::uint64_t start, std::uint64_t end)
{
    const std::uint64_t length = std::max<std::uint64_t>(end - std::min(start, end), 1);
    const std::uint64_t margin = std::max<std::uint64_t>(length / 10, 1);
    setWindow(axis, {start > margin ? start - margin : 0, end > UINT64_MAX - margin ? UINT64_MAX : end + margin});
}

void TimelineView::zoomToSelection()
{
    const auto item = itemOf(m_selection);
    if (!m_layout || !item) {
        fitAll();
        return;
    }
    const auto loc = m_layout->locate(*m_trace, *m_tree, *item);
    if (!loc) {
        fitAll();
        return;
    }
    const auto [start, end] = m_layout->extentOf(*m_trace, *item);
    const int axis = loc->device ? int(m_layout->deviceLanes()[loc->group].clockDomain) : -1;
    zoomToExtent(axis, start, end);
    m_activeAxis = axis;
    reveal(*loc);
}

void TimelineView::zoomAt(int axis, double anchorX, double factor)
{
    const TimeWindow &w = window(axis);
    const std::uint64_t anchor = xToTime(w, viewport()->width(), anchorX);
    setWindow(axis, zoomWindow(w, anchor, factor, limits(axis), minimumLength(axis)));
}

void TimelineView::pan(int axis, double fraction)
{
    const TimeWindow &w = window(axis);
    const double delta = std::clamp(double(w.length()) * fraction, -9.0e18, 9.0e18);
    setWindow(axis, panWindow(w, std::int64_t(std::llround(delta)), limits(axis)));
}

void TimelineView::zoomIn()
{
    const QPoint cursor = viewport()->mapFromGlobal(QCursor::pos());
    const double x = viewport()->rect().contains(cursor) ? cursor.x() : viewport()->width() / 2.0;
    zoomAt(m_activeAxis, x, kKeyZoom);
}

void TimelineView::zoomOut()
{
    const QPoint cursor = viewport()->mapFromGlobal(QCursor::pos());
    const double x = viewport()->rect().contains(cursor) ? cursor.x() : viewport()->width() / 2.0;
    zoomAt(m_activeAxis, x, 1.0 / kKeyZoom);
}

void TimelineView::panLeft()
{
    pan(m_activeAxis, -kKeyPan);
}

void TimelineView::panRight()
{
    pan(m_activeAxis, kKeyPan);
}

int TimelineView::lanesHeight() const
{
    return std::max(0, viewport()->height() - m_painter.rulerHeight());
}

void TimelineView::updateScrollBars()
{
    m_syncingScrollBars = true;
    QScrollBar *v = verticalScrollBar();
    v->setRange(0, std::max(0, m_rows.totalHeight() - lanesHeight()));
    v->setPageStep(std::max(1, lanesHeight()));
    v->setSingleStep(m_painter.rowHeight());
    m_state.scrollY = std::clamp(m_state.scrollY, 0, v->maximum());
    v->setValue(m_state.scrollY);

    // u64 windows onto an int scroll bar: one scroll unit covers `unit` ns.
    QScrollBar *h = horizontalScrollBar();
    const TimeWindow lim = limits(m_activeAxis);
    const TimeWindow &w = window(m_activeAxis);
    const std::uint64_t travel = lim.length() - std::min(lim.length(), w.length());
    const std::uint64_t unit = travel / 1000000000ULL + 1;
    h->setRange(0, int(travel / unit));
    h->setPageStep(int(std::clamp<std::uint64_t>(w.length() / unit, 1, INT_MAX)));
    h->setSingleStep(std::max(1, h->pageStep() / 10));
    h->setValue(int((w.begin - std::min(w.begin, lim.begin)) / unit));
    m_syncingScrollBars = false;
}

void TimelineView::onHorizontalScroll(int value)
{
    if (m_syncingScrollBars)
        return;
    const TimeWindow lim = limits(m_activeAxis);
    const TimeWindow w = window(m_activeAxis);
    const std::uint64_t travel = lim.length() - std::min(lim.length(), w.length());
    const std::uint64_t unit = travel / 1000000000ULL + 1;
    const std::uint64_t begin = lim.begin + std::min(travel, std::uint64_t(std::max(value, 0)) * unit);
    setWindow(m_activeAxis, {begin, begin + w.length()});
}

void TimelineView::onVerticalScroll(int value)
{
    if (m_syncingScrollBars)
        return;
    m_state.scrollY = value;
    m_state.hoverMark.reset();
    viewport()->update();
}

void TimelineView::scrollContentsBy(int, int)
{
    // Scrolling is drawn from the scroll bar values; nothing to move.
    viewport()->update();
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
    // Same window, new width: the host axis shows the same time, but time-aligned views
    // may want to know.
    Q_EMIT visibleWindowChanged(m_state.host);
}

void TimelineView::paintEvent(QPaintEvent *)
{
    QPainter p(viewport());
    m_state.size = viewport()->size();
    if (!m_layout) {
        p.fillRect(viewport()->rect(), palette().color(QPalette::Base));
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(viewport()->rect(), Qt::AlignCenter,
                   m_pending ? tr("Laying out the timeline\u2026") : tr("No trace"));
        return;
    }
    m_painter.paint(p, m_state);
}

int TimelineView::axisAt(const QPoint &pos) const
{
    if (!m_layout || pos.y() < m_painter.rulerHeight())
        return -1;
    const auto row = m_rows.rowAt(pos.y() - m_painter.rulerHeight() + m_state.scrollY);
    if (!row)
        return m_activeAxis;
    const TimelineRow &r = m_rows.rows()[*row];
    const bool host = r.type == TimelineRow::Type::HostTrack
                      || (r.type == TimelineRow::Type::Title && r.title != TimelineRow::TitleKind::Lane);
    return host ? -1 : int(r.domain);
}

bool TimelineView::isOnRuler(const QPoint &pos, int *axis) const
{
    if (pos.y() < m_painter.rulerHeight()) {
        *axis = -1;
        return true;
    }
    const auto row = m_rows.rowAt(pos.y() - m_painter.rulerHeight() + m_state.scrollY);
    if (!row || m_rows.rows()[*row].type != TimelineRow::Type::ClockHeader)
        return false;
    *axis = int(m_rows.rows()[*row].domain);
    return true;
}

std::optional<TimelineView::Hit> TimelineView::hitAt(const QPoint &pos) const
{
    if (!m_layout || pos.y() < m_painter.rulerHeight())
        return std::nullopt;
    const auto row = m_rows.rowAt(pos.y() - m_painter.rulerHeight() + m_state.scrollY);
    if (!row)
        return std::nullopt;
    const TimelineRow &r = m_rows.rows()[*row];
    if (r.type == TimelineRow::Type::ClockHeader || r.type == TimelineRow::Type::Title)
        return std::nullopt;
    const TimelineTrack &track = r.type == TimelineRow::Type::DeviceTrack
                                     ? m_layout->deviceLanes()[r.group].tracks[r.track]
                                     : m_layout->hostLevels()[r.group].tracks[r.track];
    const auto mark = track.markAt(TimelinePainter::windowOf(r, m_state), viewport()->width(), pos.x() + 0.5, 2.0);
    if (!mark)
        return std::nullopt;
    return Hit{*row, *mark};
}

Selection TimelineView::selectionOf(const Hit &hit) const
{
    if (hit.mark.isMerged())
        return {};
    const TimelineRow &r = m_rows.rows()[hit.row];
    const TimelineItem item =
        m_layout->itemAt(r.type == TimelineRow::Type::DeviceTrack, r.group, r.track, hit.mark.first);
    switch (item.kind) {
    case TimelineItemKind::Span: return Selection::span(item.index);
    case TimelineItemKind::Op: return Selection::op(item.index);
    case TimelineItemKind::DeviceInterval: return Selection::deviceInterval(item.index);
    }
    return {};
}

Selection TimelineView::itemAt(const QPoint &pos) const
{
    const auto hit = hitAt(pos);
    return hit ? selectionOf(*hit) : Selection{};
}

std::optional<TimelineItem> TimelineView::itemOf(const Selection &selection) const
{
    if (!m_trace || !m_tree || !selection.isRecord())
        return std::nullopt;
    const auto index = std::uint32_t(selection.index);
    switch (selection.kind) {
    case Selection::Kind::Span:
        if (std::size_t(selection.index) < m_trace->spans.size())
            return TimelineItem{TimelineItemKind::Span, index};
        return std::nullopt;
    case Selection::Kind::Op:
        if (std::size_t(selection.index) < m_trace->ops.size())
            return TimelineItem{TimelineItemKind::Op, index};
        return std::nullopt;
    case Selection::Kind::DeviceInterval:
        if (std::size_t(selection.index) < m_trace->deviceIntervals.size())
            return TimelineItem{TimelineItemKind::DeviceInterval, index};
        return std::nullopt;
    default: {
        // Tensors and memory events are not drawn: show their span.
        const qint64 span = selection.spanIndex(*m_trace, *m_tree);
        if (span >= 0)
            return TimelineItem{TimelineItemKind::Span, std::uint32_t(span)};
        return std::nullopt;
    }
    }
}

std::optional<QRect> TimelineView::itemRect(const Selection &selection) const
{
    const auto item = itemOf(selection);
    if (!m_layout || !item)
        return std::nullopt;
    const auto loc = m_layout->locate(*m_trace, *m_tree, *item);
    if (!loc)
        return std::nullopt;
    const auto row = m_rows.rowOf(loc->device, loc->group, loc->track);
    if (!row)
        return std::nullopt;
    const TimelineRow &r = m_rows.rows()[*row];
    const TimeWindow &w = TimelinePainter::windowOf(r, m_state);
    const auto [start, end] = m_layout->extentOf(*m_trace, *item);
    if (start >= w.end || end < w.begin)
        return std::nullopt;
    const int width = viewport()->width();
    const double x0 = std::max(timeToX(w, width, start), 0.0);
    const double x1 = std::min(timeToX(w, width, end), double(width));
    const int y = m_painter.screenY(r.y, m_state);
    if (y + r.height <= m_painter.rulerHeight() || y >= viewport()->height())
        return std::nullopt;
    const int left = int(std::floor(x0));
    return QRect(left, y, std::max(1, int(std::ceil(x1)) - left), r.height);
}

QString TimelineView::toolTipAt(const QPoint &pos) const
{
    const auto hit = hitAt(pos);
    if (!hit)
        return {};
    const TimelineRow &r = m_rows.rows()[hit->row];
    const bool device = r.type == TimelineRow::Type::DeviceTrack;
    if (hit->mark.isMerged()) {
        const TimelineTrack &track =
            device ? m_layout->deviceLanes()[r.group].tracks[r.track] : m_layout->hostLevels()[r.group].tracks[r.track];
        std::uint64_t origin = 0;
        if (device)
            origin = m_layout->clockDomains()[r.domain].extent.begin;
        std::uint64_t lastEnd = 0;
        for (std::uint32_t i = hit->mark.first; i < hit->mark.last; ++i)
            lastEnd = std::max(lastEnd, track.end(i));
        return TimelineToolTip::forMerged(hit->mark.count, track.start(hit->mark.first) - origin, lastEnd - origin,
                                          device);
    }
    const TimelineItem item = m_layout->itemAt(device, r.group, r.track, hit->mark.first);
    return TimelineToolTip::forItem(*m_trace, *m_tree, *m_layout, item);
}

void TimelineView::reveal(const TimelineLayout::Location &loc)
{
    const auto row = m_rows.rowOf(loc.device, loc.group, loc.track);
    if (!row)
        return;
    const TimelineRow &r = m_rows.rows()[*row];
    // Vertically: the row and, for device rows, their clock's header ruler.
    int top = r.y;
    if (loc.device) {
        if (const auto header = m_rows.headerOf(r.domain))
            top = std::min(top, m_rows.rows()[*header].y);
        if (r.y + r.height - top > lanesHeight())
            top = r.y;
    }
    if (top < m_state.scrollY)
        m_state.scrollY = top;
    else if (r.y + r.height > m_state.scrollY + lanesHeight())
        m_state.scrollY = r.y + r.height - lanesHeight();
    // Horizontally: keep the zoom when the item fits, else zoom out to it.
    const int axis = loc.device ? int(r.domain) : -1;
    const TimelineItem item = m_layout->itemAt(loc.device, loc.group, loc.track, loc.position);
    const auto [start, end] = m_layout->extentOf(*m_trace, item);
    const TimeWindow w = window(axis);
    const std::uint64_t length = end - start;
    if (start >= w.begin && end <= w.end) {
        // already visible
    } else if (length <= w.length() * 8 / 10) {
        const std::uint64_t centre = start + length / 2;
        const std::uint64_t half = w.length() / 2;
        const std::uint64_t begin = centre > half ? centre - half : 0;
        setWindow(axis, {begin, begin + w.length()});
    } else {
        zoomToExtent(axis, start, end);
    }
    updateScrollBars();
    viewport()->update();
}

void TimelineView::setSelection(const Selection &selection)
{
    applySelection(selection, true);
}

void TimelineView::applySelection(const Selection &selection, bool revealIt)
{
    if (selection == m_selection && (m_state.selected || !selection.isValid()))
        return;
    m_selection = selection;
    m_state.selected.reset();
    m_state.related.clear();
    const auto item = itemOf(selection);
    if (!m_layout || !item) {
        viewport()->update();
        return;
    }
    const auto loc = m_layout->locate(*m_trace, *m_tree, *item);
    if (!loc) {
        viewport()->update();
        return;
    }
    m_state.selected = loc;
    // Related slices get a dashed outline: an op's or interval's span, a span's intervals.
    constexpr std::size_t kMaxRelated = 256;
    if (item->kind == TimelineItemKind::Span) {
        for (std::size_t i = 0; i < m_trace->deviceIntervals.size() && m_state.related.size() < kMaxRelated; ++i) {
            if (m_layout->spanOfInterval(i) != item->index)
                continue;
            if (const auto r =
                    m_layout->locate(*m_trace, *m_tree, {TimelineItemKind::DeviceInterval, std::uint32_t(i)}))
                m_state.related.push_back(*r);
        }
    } else {
        const qint64 span = item->kind == TimelineItemKind::Op
                                ? Selection::op(item->index).spanIndex(*m_trace, *m_tree)
                                : (m_layout->spanOfInterval(item->index) == TimelineLayout::kNoSpan
                                       ? -1
                                       : qint64(m_layout->spanOfInterval(item->index)));
        if (span >= 0) {
            if (const auto r = m_layout->locate(*m_trace, *m_tree, {TimelineItemKind::Span, std::uint32_t(span)}))
                m_state.related.push_back(*r);
        }
    }
    if (!revealIt) {
        viewport()->update();
        return;
    }
    reveal(*loc);
    // Each device clock shows the span's first interval on it too: the link across axes.
    std::vector<bool> domainRevealed(m_state.domains.size(), false);
    for (const auto &r : m_state.related) {
        if (!r.device)
            continue;
        const std::uint32_t domain = m_layout->deviceLanes()[r.group].clockDomain;
        if (domainRevealed[domain])
            continue;
        domainRevealed[domain] = true;
        const auto [start, end] = m_layout->extentOf(*m_trace, m_layout->itemAt(true, r.group, r.track, r.position));
        const TimeWindow w = window(int(domain));
        if (start < w.begin || end > w.end) {
            const std::uint64_t centre = start + (end - start) / 2;
            const std::uint64_t begin = centre > w.length() / 2 ? centre - w.length() / 2 : 0;
            setWindow(int(domain), {begin, begin + w.length()});
        }
    }
    viewport()->update();
}

void TimelineView::setTimeRange(const TimeWindow &range)
{
    const TimeWindow next = range.isEmpty() ? TimeWindow{} : range;
    if (next == m_state.range && !m_state.rangeInProgress)
        return;
    m_state.range = next;
    m_state.rangeInProgress = false;
    viewport()->update();
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_layout) {
        QAbstractScrollArea::mousePressEvent(event);
        return;
    }
    m_pressPos = m_lastPos = event->position().toPoint();
    int axis = -1;
    if (isOnRuler(m_pressPos, &axis)) {
        m_drag = Drag::Range;
        m_dragAxis = axis;
        m_activeAxis = axis;
        m_rangeAnchor = xToTime(window(axis), viewport()->width(), m_pressPos.x());
    } else {
        m_drag = Drag::Pending;
        m_dragAxis = axisAt(m_pressPos);
        m_activeAxis = m_dragAxis;
    }
    updateScrollBars();
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (m_drag == Drag::Pending && (pos - m_pressPos).manhattanLength() >= kDragThreshold) {
        m_drag = Drag::Pan;
        viewport()->setCursor(Qt::ClosedHandCursor);
    }
    if (m_drag == Drag::Pan) {
        const int dx = pos.x() - m_lastPos.x();
        const TimeWindow w = window(m_dragAxis);
        const double ns = -double(dx) * double(w.length()) / std::max(1, viewport()->width());
        setWindow(m_dragAxis, panWindow(w, std::int64_t(std::llround(ns)), limits(m_dragAxis)));
        const int dy = pos.y() - m_lastPos.y();
        if (dy != 0)
            verticalScrollBar()->setValue(verticalScrollBar()->value() - dy);
        m_lastPos = pos;
        event->accept();
        return;
    }
    if (m_drag == Drag::Range) {
        const std::uint64_t t =
            xToTime(window(m_dragAxis), viewport()->width(), std::clamp(pos.x(), 0, viewport()->width()));
        if (m_dragAxis < 0) {
            m_state.range = {std::min(t, m_rangeAnchor), std::max(t, m_rangeAnchor)};
            m_state.rangeInProgress = true;
            viewport()->update();
        }
        m_lastPos = pos;
        event->accept();
        return;
    }
    // Hover.
    const auto hit = hitAt(pos);
    const auto row = hit ? std::optional<std::size_t>(hit->row) : std::nullopt;
    const auto mark = hit ? std::optional<TimelineMark>(hit->mark) : std::nullopt;
    const bool changed =
        row != m_state.hoverRow || mark.has_value() != m_state.hoverMark.has_value()
        || (mark && (mark->first != m_state.hoverMark->first || mark->count != m_state.hoverMark->count));
    if (changed) {
        m_state.hoverRow = row;
        m_state.hoverMark = mark;
        viewport()->update();
        Q_EMIT hovered(itemAt(pos));
    }
    QAbstractScrollArea::mouseMoveEvent(event);
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QAbstractScrollArea::mouseReleaseEvent(event);
        return;
    }
    const QPoint pos = event->position().toPoint();
    const Drag drag = std::exchange(m_drag, Drag::None);
    viewport()->unsetCursor();
    if (drag == Drag::Pending) {
        const Selection s = itemAt(pos);
        const auto hit = hitAt(pos);
        // A merged mark stands for many records: a click on it selects none of them.
        if (!hit || !hit->mark.isMerged()) {
            applySelection(s, false);
            Q_EMIT selected(s);
        }
    } else if (drag == Drag::Range) {
        if (std::abs(pos.x() - m_pressPos.x()) >= kDragThreshold) {
            const TimeWindow &w = window(m_dragAxis);
            const TimeWindow range =
                windowBetween(w, viewport()->width(), m_pressPos.x(), std::clamp(pos.x(), 0, viewport()->width()));
            if (m_dragAxis < 0) {
                m_state.range = range;
                m_state.rangeInProgress = false;
                viewport()->update();
                Q_EMIT timeRangeSelected(range);
            } else {
                // A device clock's range can filter nothing on host time: it zooms its axis.
                setWindow(m_dragAxis, range);
            }
        } else if (m_dragAxis < 0) {
            // A click on the ruler without a drag leaves the range as it was.
            m_state.rangeInProgress = false;
            viewport()->update();
        }
    }
    event->accept();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_layout) {
        QAbstractScrollArea::mouseDoubleClickEvent(event);
        return;
    }
    const QPoint pos = event->position().toPoint();
    const auto hit = hitAt(pos);
    if (!hit) {
        event->accept();
        return;
    }
    const TimelineRow &r = m_rows.rows()[hit->row];
    const int axis = r.type == TimelineRow::Type::DeviceTrack ? int(r.domain) : -1;
    const TimelineTrack &track =
        axis >= 0 ? m_layout->deviceLanes()[r.group].tracks[r.track] : m_layout->hostLevels()[r.group].tracks[r.track];
    m_activeAxis = axis;
    if (hit->mark.isMerged()) {
        std::uint64_t end = 0;
        for (std::uint32_t i = hit->mark.first; i < hit->mark.last; ++i)
            end = std::max(end, track.end(i));
        zoomToExtent(axis, track.start(hit->mark.first), end);
    } else {
        const Selection s = selectionOf(*hit);
        zoomToExtent(axis, track.start(hit->mark.first), track.end(hit->mark.first));
        applySelection(s, false);
        Q_EMIT activated(s);
    }
    m_drag = Drag::None;
    event->accept();
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    if (!m_layout) {
        event->ignore();
        return;
    }
    const QPoint pos = event->position().toPoint();
    const QPoint delta = event->angleDelta();
    const int axis = axisAt(pos);
    if (axis != m_activeAxis) {
        m_activeAxis = axis;
        updateScrollBars();
    }
    if (event->modifiers() & Qt::ControlModifier) {
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y() * m_painter.rowHeight() / 40);
    } else if ((event->modifiers() & Qt::ShiftModifier) || delta.x() != 0) {
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        pan(axis, -double(d) / 120.0 * 0.1);
    } else if (delta.y() != 0) {
        zoomAt(axis, pos.x(), std::pow(kWheelZoom, double(delta.y()) / 120.0));
    }
    event->accept();
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    if (!m_layout) {
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    switch (event->key()) {
    case Qt::Key_W:
    case Qt::Key_Up: zoomIn(); break;
    case Qt::Key_S:
    case Qt::Key_Down: zoomOut(); break;
    case Qt::Key_A:
    case Qt::Key_Left: panLeft(); break;
    case Qt::Key_D:
    case Qt::Key_Right: panRight(); break;
    case Qt::Key_Home: fitAll(); break;
    case Qt::Key_F: zoomToSelection(); break;
    case Qt::Key_PageUp: verticalScrollBar()->triggerAction(QAbstractSlider::SliderPageStepSub); break;
    case Qt::Key_PageDown: verticalScrollBar()->triggerAction(QAbstractSlider::SliderPageStepAdd); break;
    case Qt::Key_Escape:
        if (!m_state.range.isEmpty()) {
            m_state.range = {};
            m_state.rangeInProgress = false;
            viewport()->update();
            Q_EMIT timeRangeSelected(TimeWindow{});
            break;
        }
        QAbstractScrollArea::keyPressEvent(event);
        return;
    default: QAbstractScrollArea::keyPressEvent(event); return;
    }
    event->accept();
}

bool TimelineView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport());
        return true;
    }
    if (event->type() == QEvent::Leave && m_state.hoverMark) {
        m_state.hoverRow.reset();
        m_state.hoverMark.reset();
        viewport()->update();
    }
    return QAbstractScrollArea::viewportEvent(event);
}

} // namespace TraceInspector
