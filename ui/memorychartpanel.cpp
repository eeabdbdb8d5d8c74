// SPDX-License-Identifier: MIT
#include "ui/memorychartpanel.h"

#include <cmath>
#include <atomic>
#include <functional>
#include <type_traits>

#include <QAction>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QGraphicsLayout>
#include <QGraphicsItem>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QKeyEvent>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QRubberBand>
#include <QScatterSeries>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QSvgGenerator>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QValueAxis>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/analysis/memoryprofile.h"
#include "core/analysis/memoryseries.h"
#include "core/itemmodels/backgroundsort.h"
#include "core/itemmodels/liveallocationsmodel.h"
#include "core/itemmodels/modelroles.h"
#include "core/model/trace.h"
#include "ui/widgets/tableactions.h"

namespace TraceInspector {

namespace {

// Category hues: long-lived memory in cool tones at the bottom of the stack.
QColor categoryColor(MemoryCategory c)
{
    switch (c) {
    case MemoryCategory::Parameter: return QColor(0x4c, 0x72, 0xb0);  // blue
    case MemoryCategory::Optimizer: return QColor(0x81, 0x72, 0xb3);  // violet
    case MemoryCategory::Gradient: return QColor(0xdd, 0x84, 0x52);   // orange
    case MemoryCategory::Activation: return QColor(0x55, 0xa8, 0x68); // green
    case MemoryCategory::Other: return QColor(0x93, 0x93, 0x93);      // grey
    }
    return Qt::gray;
}

// Device hues share none with the categories (no blue, violet, orange, green or grey), so a
// device line never reads as a category; each device's metrics differ by line style.
QColor deviceColor(int i)
{
    static const QColor colors[] = {QColor(0x00, 0x97, 0xa7), QColor(0xc2, 0x18, 0x5b), QColor(0x9e, 0x8a, 0x00),
                                    QColor(0x8d, 0x55, 0x3c), QColor(0x00, 0x79, 0x6b), QColor(0xd8, 0x43, 0x15)};
    return colors[std::size_t(i) % std::size(colors)];
}

const QMargins kChartMargins(4, 2, 8, 2);

const char *metricName(PhysicalMetric m)
{
    switch (m) {
    case PhysicalMetric::Used: return "used";
    case PhysicalMetric::Reserved: return "reserved";
    case PhysicalMetric::Capacity: return "capacity";
    }
    return "";
}

bool isDark(const QPalette &p)
{
    return p.color(QPalette::Base).lightness() < 128;
}

QColor peakColor(const QPalette &p)
{
    return isDark(p) ? QColor(0xff, 0x6e, 0x5e) : QColor(0xc0, 0x39, 0x2b);
}

struct Unit {
    double factor = 1;
    QString name;
};

Unit timeUnitFor(const TimeWindow &w, TimeUnit chosen)
{
    switch (chosen) {
    case TimeUnit::Seconds: return {1e9, timeUnitSymbol(chosen)};
    case TimeUnit::Milliseconds: return {1e6, timeUnitSymbol(chosen)};
    case TimeUnit::Microseconds: return {1e3, timeUnitSymbol(chosen)};
    case TimeUnit::Nanoseconds: return {1, timeUnitSymbol(chosen)};
    case TimeUnit::Auto: break;
    }
    const std::uint64_t m = w.end;
    if (m >= 10'000'000'000ull)
        return {1e9, QStringLiteral("s")};
    if (m >= 10'000'000ull)
        return {1e6, QStringLiteral("ms")};
    if (m >= 10'000ull)
        return {1e3, QStringLiteral("\u00B5s")};
    return {1, QStringLiteral("ns")};
}

Unit byteUnit(std::uint64_t max)
{
    static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int i = 0;
    double f = 1;
    while (i < 6 && double(max) >= f * 1024.0 * 0.98) {
        f *= 1024.0;
        ++i;
    }
    return {f, QString::fromLatin1(names[i])};
}

/// A round tick step (1, 2 or 5 × 10^k) giving about \a ticks intervals over \a span.
double niceStep(double span, int ticks)
{
    const double raw = std::max(span, 1e-12) / ticks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double norm = raw / magnitude;
    return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude;
}

/// The smallest round step (1, 2 or 5 × 10^k) that covers [0, top] in at most \a intervals.
double roundStepAtMost(double top, int intervals)
{
    double magnitude = std::pow(10.0, std::floor(std::log10(std::max(top, 1e-12) / intervals)));
    for (;; magnitude *= 10)
        for (const double m : {1.0, 2.0, 5.0})
            if (std::ceil(top / (m * magnitude) - 1e-9) <= intervals)
                return m * magnitude;
}

int decimalsFor(double step)
{
    return std::clamp(-int(std::floor(std::log10(step) + 1e-9)), 0, 9);
}

QString qtext(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

/// A chart view that reports mouse and keyboard gestures to the panel, which decides.
class ChartView : public QChartView
{
public:
    std::function<void(double x, double factor)> onWheelZoom;
    std::function<void(double x0, double x1)> onBandZoom;
    std::function<void(double x0, double x1)> onBandSelect; // Shift+drag: a time range, no zoom
    std::function<void(double x)> onClick;
    std::function<void(double x)> onZoomOut;
    std::function<void(double x)> onHover;
    std::function<void()> onLeave;
    std::function<bool(QKeyEvent *)> onKey;
    std::function<void()> onResized;

    explicit ChartView(QChart *chart, QWidget *parent)
        : QChartView(chart, parent)
    {
        setRenderHint(QPainter::Antialiasing);
        setMouseTracking(true);
        setRubberBand(QChartView::NoRubberBand);
        setFocusPolicy(Qt::StrongFocus);
        setFrameShape(QFrame::NoFrame);
        m_band = new QRubberBand(QRubberBand::Rectangle, this);
    }

    QRectF plot() const { return chart()->plotArea(); }

protected:
    void wheelEvent(QWheelEvent *e) override
    {
        const double notches = e->angleDelta().y() / 120.0;
        if (notches != 0 && onWheelZoom)
            onWheelZoom(e->position().x() - plot().left(), std::pow(0.8, notches));
        e->accept();
    }
    void mousePressEvent(QMouseEvent *e) override
    {
        setFocus(Qt::MouseFocusReason);
        if (e->button() == Qt::LeftButton && plot().contains(e->position())) {
            m_bandStart = e->position().x();
            m_pressing = true;
            m_selectRange = (e->modifiers() & Qt::ShiftModifier) != 0;
            e->accept();
            return;
        }
        QChartView::mousePressEvent(e);
    }
    void mouseMoveEvent(QMouseEvent *e) override
    {
        if (m_pressing && std::abs(e->position().x() - m_bandStart) >= 4) {
            m_band->show();
            updateBand(e->position().x());
        } else if (!m_pressing && onHover && plot().contains(e->position())) {
            onHover(e->position().x() - plot().left());
        } else if (!m_pressing && onLeave && !plot().contains(e->position())) {
            onLeave();
        }
        QChartView::mouseMoveEvent(e);
    }
    void leaveEvent(QEvent *e) override
    {
        if (onLeave)
            onLeave();
        QChartView::leaveEvent(e);
    }
    void mouseReleaseEvent(QMouseEvent *e) override
    {
        if (e->button() == Qt::LeftButton && m_pressing) {
            m_pressing = false;
            const bool band = m_band->isVisible();
            m_band->hide();
            const double x = std::clamp(e->position().x(), plot().left(), plot().right());
            if (band && m_selectRange && onBandSelect)
                onBandSelect(m_bandStart - plot().left(), x - plot().left());
            else if (band && onBandZoom)
                onBandZoom(m_bandStart - plot().left(), x - plot().left());
            else if (!band && onClick)
                onClick(x - plot().left());
            e->accept();
            return;
        }
        if (e->button() == Qt::RightButton && onZoomOut) {
            onZoomOut(e->position().x() - plot().left());
            e->accept();
            return;
        }
        QChartView::mouseReleaseEvent(e);
    }
    void keyPressEvent(QKeyEvent *e) override
    {
        if (onKey && onKey(e)) {
            e->accept();
            return;
        }
        QChartView::keyPressEvent(e);
    }
    void resizeEvent(QResizeEvent *e) override
    {
        QChartView::resizeEvent(e);
        if (onResized)
            onResized();
    }

private:
    void updateBand(double x)
    {
        const QRectF p = plot();
        x = std::clamp(x, p.left(), p.right());
        m_band->setGeometry(
            QRectF(QPointF(std::min(x, m_bandStart), p.top()), QPointF(std::max(x, m_bandStart), p.bottom())).toRect());
    }

    QRubberBand *m_band = nullptr;
    double m_bandStart = 0;
    bool m_pressing = false;
    bool m_selectRange = false;
};

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

    EnvelopeItem(QChart *chart, QValueAxis *x, QValueAxis *y)
        : QGraphicsItem(chart)
        , m_chart(chart)
        , m_x(x)
        , m_y(y)
    {
        setZValue(5); // above the (empty) series, under markers and labels
    }

    void setData(std::vector<Rect> rects, std::vector<QColor> colors, std::vector<bool> shown)
    {
        prepareGeometryChange();
        m_rects = std::move(rects);
        m_colors = std::move(colors);
        m_shown = std::move(shown);
        update();
    }
    void setShown(std::vector<bool> shown)
    {
        m_shown = std::move(shown);
        update();
    }
    int count() const { return int(m_rects.size()); }
    QRectF boundingRect() const override { return m_chart->plotArea(); }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) override
    {
        if (m_rects.empty())
            return;
        const QRectF plot = m_chart->plotArea();
        const double xs = plot.width() / std::max(m_x->max() - m_x->min(), 1e-300);
        const double ys = plot.height() / std::max(m_y->max() - m_y->min(), 1e-300);
        painter->save();
        painter->setClipRect(plot);
        painter->setRenderHint(QPainter::Antialiasing, false);
        for (const Rect &r : m_rects) {
            if (std::size_t(r.series) >= m_shown.size() || !m_shown[std::size_t(r.series)])
                continue;
            const double left = plot.left() + (r.x0 - m_x->min()) * xs;
            const double right = std::max(plot.left() + (r.x1 - m_x->min()) * xs, left + 1.0);
            const double top = plot.bottom() - (r.y1 - m_y->min()) * ys;
            const double bottom =
                std::max(plot.bottom() - (r.y0 - m_y->min()) * ys, top + 1.0); // never thinner than a pixel
            QColor c = m_colors[std::size_t(r.series)];
            if (r.light)
                c.setAlphaF(c.alphaF() * 0.45f);
            painter->fillRect(QRectF(QPointF(left, top), QPointF(right, bottom)), c);
        }
        painter->restore();
    }

private:
    QChart *m_chart;
    QValueAxis *m_x;
    QValueAxis *m_y;
    std::vector<Rect> m_rects;
    std::vector<QColor> m_colors;
    std::vector<bool> m_shown;
};

/// One plot: a chart, its view, a time and a byte axis, and the cursor lines.
struct Plot {
    QChart *chart = nullptr;
    ChartView *view = nullptr;
    QValueAxis *x = nullptr;
    QValueAxis *y = nullptr;
    QGraphicsLineItem *hoverLine = nullptr;
    QGraphicsLineItem *instantLine = nullptr;
    QGraphicsRectItem *highlightRect = nullptr; // the selection's time span
    QGraphicsRectItem *rangeRect = nullptr;     // the window's time range
    EnvelopeItem *envelope = nullptr;           // dense data, a pixel column at a time
    QStackedWidget *slot = nullptr;             // the view, or the note saying the plane is unknown
    QLabel *note = nullptr;
    Unit unit;
};

struct Layer {
    MemoryCategory category;
    int stackIndex;
    QLineSeries *upper;
    QLineSeries *lower;
    QAreaSeries *area;
};

/// One physical metric of one device: a line when every sample is drawn, a min/max band
/// when the window holds more samples than pixels.
struct PhysicalSeries {
    int device;
    PhysicalMetric metric;
    QString legendName; // "cuda:0 used"
    QLineSeries *line;  // the samples; empty while drawn as a band (it keeps the legend entry)
    QColor color;
    bool bandMode = false;
    int bandColumns = 0;
};

// Chart data of one window, device and width, computed on a worker thread.
struct Bucketed {
    quint64 generation = 0;
    TimeWindow window;
    int device = MemorySeries::kAllDevices;
    int buckets = 0;
    LogicalChartData logical;
    PhysicalChartData physical;
};

struct LiveQuery {
    quint64 generation = 0;
    std::uint64_t timeNs = 0;
    std::vector<std::uint32_t> lifetimes;
};

/// Set when a worker's result is no longer wanted (a newer request, or the panel is gone):
/// the worker stops at its next check and nobody waits for it.
using CancelFlag = std::shared_ptr<std::atomic<bool>>;

/// Runs \a job on the thread pool and hands its result to \a done on \a context's thread.
/// The watcher belongs to \a context and deletes itself when the job ends: a panel closed
/// meanwhile deletes it, which drops the result, never blocking on the job (which owns
/// what it reads).
template<typename Job, typename Done>
void runAbandonable(QObject *context, Job job, Done done)
{
    using Result = std::invoke_result_t<Job>;
    auto *watcher = new QFutureWatcher<Result>(context);
    QObject::connect(watcher, &QFutureWatcher<Result>::finished, context, [watcher, done] {
        watcher->deleteLater();
        if (!watcher->isCanceled())
            done(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(std::move(job)));
}

} // namespace

struct MemoryChartPanel::Private {
    MemoryChartPanel *q = nullptr;

    // Data.
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const MemoryProfile> profile;
    std::shared_ptr<const MemorySeries> series;
    TimeWindow window;      // requested
    TimeWindow drawnWindow; // what the series show
    int device = MemorySeries::kAllDevices;
    LogicalChartData logical;
    PhysicalChartData physical;
    std::uint64_t physicalShownMax = 0;
    Unit xUnit;
    TimeUnit timeUnit = TimeUnit::Auto;
    int buckets = 0;
    std::optional<std::uint64_t> instant;      // clicked
    TimeWindow highlight;                      // the selection's time span, shaded
    TimeWindow range;                          // the window's time range, shaded
    std::optional<std::uint64_t> tableInstant; // what the table lists
    std::optional<std::uint64_t> hoverTime;
    quint64 queryGeneration = 0;
    quint64 bucketGeneration = 0;
    quint64 traceGeneration = 0;  // a chartReady() posted for an older trace is dropped
    CancelFlag bucketCancel;      // of the bucket job in flight, if any
    CancelFlag queryCancel;       // of the live-at-time query in flight, if any
    bool readyWhenDrawn = false;  // chartReady() waits for the first buckets from the worker
    bool bucketsInFlight = false; // a worker computes the buckets of the current request
    bool widthRetried = false;    // buckets asked again once for the plot width after a layout
    QSet<QString> hidden;         // legend names switched off
    bool aligning = false;

    // Widgets.
    QLabel *title = nullptr;
    QComboBox *deviceBox = nullptr;
    QPushButton *resetButton = nullptr;
    QToolButton *seriesButton = nullptr;
    QToolButton *exportButton = nullptr;
    QMenu *seriesMenu = nullptr;
    QLabel *peakLabel = nullptr;
    QStackedWidget *chartStack = nullptr;
    QWidget *plots = nullptr;
    QLabel *placeholder = nullptr;
    Plot logicalPlot;
    Plot physicalPlot;
    QScatterSeries *peakMarker = nullptr;
    QGraphicsRectItem *peakBox = nullptr;
    QGraphicsSimpleTextItem *peakText = nullptr;
    QLabel *readout = nullptr;
    std::vector<Layer> layers;
    std::vector<PhysicalSeries> physicalSeries;
    QWidget *tablePane = nullptr;
    QLabel *tableTitle = nullptr;
    QPushButton *peakButton = nullptr;
    QTableView *table = nullptr;
    LiveAllocationsModel *model = nullptr;
    QSortFilterProxyModel *proxy = nullptr;
    TableActions *tableActions = nullptr;
    QTimer *rebucketTimer = nullptr;

    void build();
    void buildPlot(Plot &plot, const QString &objectName);
    void applyTheme();
    void showSeries();
    void rebuildSeries();
    void rebucket();
    void onBucketed(Bucketed result);
    void cancelJobs();
    void applyBuckets();
    void updateAxes();
    void alignPlots();
    void scheduleRebucket() { rebucketTimer->start(); }
    int plotWidth() const;
    const Plot &bottomPlot() const;
    std::uint64_t timeAtX(double x) const;
    void zoomAt(double x, double factor);
    void zoomAroundInstant(double factor);
    bool handleKey(QKeyEvent *e);
    void setHover(std::optional<std::uint64_t> t);
    void placeCursorLines();
    void placeLine(const Plot &plot, QGraphicsLineItem *line, std::optional<std::uint64_t> t);
    void placeSpan(const Plot &plot, QGraphicsRectItem *rect, const TimeWindow &span);
    void updateNotes();
    void placePeakText();
    void updatePeakTexts();
    void refreshTable();
    void onLiveQuery(LiveQuery result);
    void updateTableTitle();
    void updateLegend();
    void toggleSeries(const QString &legendName, bool visible);
    void hideCapacities();
    void applyVisibility();
    void renderTo(QPainter &painter, const QRectF &target);
    QString deviceName() const;
    TimeWindow fullRange() const;
    std::optional<std::uint64_t> selectionPeakTime() const;
};

TimeWindow MemoryChartPanel::Private::fullRange() const
{
    if (!series)
        return {};
    TimeWindow r = series->runRange();
    if (r.length() < 2)
        r.end = r.begin + 2;
    return r;
}

QString MemoryChartPanel::Private::deviceName() const
{
    if (!series || device == MemorySeries::kAllDevices)
        return {};
    return QString::fromStdString(series->devices()[std::size_t(device)]);
}

std::optional<std::uint64_t> MemoryChartPanel::Private::selectionPeakTime() const
{
    if (!series)
        return std::nullopt;
    return series->logical(device, {}, 0).peakTimeNs;
}

void MemoryChartPanel::Private::buildPlot(Plot &plot, const QString &objectName)
{
    plot.chart = new QChart;
    plot.chart->setAnimationOptions(QChart::NoAnimation);
    plot.chart->setBackgroundRoundness(0);
    plot.chart->setMargins(kChartMargins);
    // At the right, the legend costs the plot width rather than scarce height.
    plot.chart->legend()->setAlignment(Qt::AlignRight);
    plot.chart->legend()->setShowToolTips(true);
    QFont legendFont = plot.chart->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    plot.chart->legend()->setFont(legendFont);
    plot.x = new QValueAxis(plot.chart);
    plot.y = new QValueAxis(plot.chart);
    for (QValueAxis *a : {plot.x, plot.y})
        a->setMinorTickCount(0);
    plot.chart->addAxis(plot.x, Qt::AlignBottom);
    plot.chart->addAxis(plot.y, Qt::AlignLeft);
    plot.envelope = new EnvelopeItem(plot.chart, plot.x, plot.y);

    plot.view = new ChartView(plot.chart, q);
    plot.view->setObjectName(objectName);
    plot.view->setMinimumHeight(100);
    plot.view->onWheelZoom = [this](double x, double factor) { zoomAt(x, factor); };
    plot.view->onZoomOut = [this](double x) { zoomAt(x, 2.0); };
    plot.view->onBandZoom = [this](double x0, double x1) {
        q->setWindow(windowBetween(window, double(plotWidth()), x0, x1));
    };
    plot.view->onBandSelect = [this](double x0, double x1) {
        Q_EMIT q->timeRangeSelected(windowBetween(window, double(plotWidth()), x0, x1));
    };
    plot.view->onClick = [this](double x) {
        const std::uint64_t t = timeAtX(x);
        q->selectInstant(t);
        Q_EMIT q->instantClicked(t);
    };
    plot.view->onHover = [this](double x) { setHover(timeAtX(x)); };
    plot.view->onLeave = [this] { setHover(std::nullopt); };
    plot.view->onKey = [this](QKeyEvent *e) { return handleKey(e); };
    plot.view->onResized = [this] { scheduleRebucket(); };

    QPen hover(Qt::DashLine);
    plot.hoverLine = new QGraphicsLineItem(plot.chart);
    plot.hoverLine->setPen(hover);
    plot.hoverLine->setZValue(30);
    plot.hoverLine->hide();
    plot.instantLine = new QGraphicsLineItem(plot.chart);
    plot.instantLine->setZValue(31);
    plot.instantLine->hide();
    for (QGraphicsRectItem **rect : {&plot.highlightRect, &plot.rangeRect}) {
        *rect = new QGraphicsRectItem(plot.chart);
        (*rect)->setZValue(29);
        (*rect)->setPen(Qt::NoPen);
        (*rect)->hide();
    }
    QObject::connect(plot.chart, &QChart::plotAreaChanged, q, [this] {
        if (!aligning)
            QTimer::singleShot(0, q, [this] { alignPlots(); });
    });

    plot.note = new QLabel(q);
    plot.note->setWordWrap(true);
    plot.note->setAlignment(Qt::AlignCenter);
    plot.note->setMargin(8);
    plot.slot = new QStackedWidget(q);
    plot.slot->addWidget(plot.view);
    plot.slot->addWidget(plot.note);
}

void MemoryChartPanel::Private::build()
{
    title = new QLabel(tr("<b>Memory over time</b>"), q);
    deviceBox = new QComboBox(q);
    deviceBox->setObjectName(QStringLiteral("memoryDeviceSelector"));
    deviceBox->setToolTip(tr("Show the memory of one device or of all devices"));
    deviceBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto *deviceLabel = new QLabel(tr("&Device:"), q);
    deviceLabel->setBuddy(deviceBox);
    resetButton = new QPushButton(tr("Reset &zoom"), q);
    resetButton->setObjectName(QStringLiteral("memoryResetZoom"));
    resetButton->setToolTip(tr("Show the whole run (wheel or drag to zoom, right-click to zoom out; keys + − 0)"));
    seriesMenu = new QMenu(q);
    seriesButton = new QToolButton(q);
    seriesButton->setText(tr("&Series"));
    seriesButton->setToolTip(tr("Show or hide series (or click their legend entries)"));
    seriesButton->setPopupMode(QToolButton::InstantPopup);
    seriesButton->setMenu(seriesMenu);
    auto *exportMenu = new QMenu(q);
    exportMenu->addAction(tr("Export Chart as &PNG…"), q, [this] { q->exportWithDialog(ImageFormat::Png); });
    exportMenu->addAction(tr("Export Chart as &SVG…"), q, [this] { q->exportWithDialog(ImageFormat::Svg); });
    exportButton = new QToolButton(q);
    exportButton->setObjectName(QStringLiteral("memoryExport"));
    exportButton->setText(tr("E&xport"));
    exportButton->setToolTip(tr("Save both plots as a PNG or SVG image"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    exportButton->setMenu(exportMenu);
    peakLabel = new QLabel(q);
    peakLabel->setObjectName(QStringLiteral("memoryPeakLabel"));
    peakLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long peak text must not widen the panel (and squeeze its neighbours): it gets the room
    // left, and says everything in its tooltip.
    peakLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    peakLabel->setMinimumWidth(0);

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(title);
    top->addSpacing(12);
    top->addWidget(deviceLabel);
    top->addWidget(deviceBox);
    top->addSpacing(12);
    top->addWidget(peakLabel, 1);
    top->addWidget(seriesButton);
    top->addWidget(exportButton);
    top->addWidget(resetButton);

    buildPlot(logicalPlot, QStringLiteral("logicalChartView"));
    buildPlot(physicalPlot, QStringLiteral("physicalChartView"));
    physicalPlot.chart->legend()->setMarkerShape(
        QLegend::MarkerShapeFromSeries); // lines show as lines, dashes as dashes
    logicalPlot.note->setObjectName(QStringLiteral("logicalMemoryNote"));
    physicalPlot.note->setObjectName(QStringLiteral("physicalMemoryNote"));

    peakMarker = new QScatterSeries(logicalPlot.chart);
    peakMarker->setName(tr("logical peak"));
    peakMarker->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    peakMarker->setMarkerSize(9);
    // A label of our own, on a box, always above every line: the byte axis leaves room for it.
    peakBox = new QGraphicsRectItem(logicalPlot.chart);
    peakBox->setZValue(20);
    peakBox->hide();
    peakText = new QGraphicsSimpleTextItem(logicalPlot.chart);
    QFont labelFont = peakText->font();
    labelFont.setBold(true);
    peakText->setFont(labelFont);
    peakText->setZValue(21);
    peakText->hide();

    readout = new QLabel(q);
    readout->setObjectName(QStringLiteral("memoryReadout"));
    readout->setWordWrap(true);
    readout->setTextFormat(Qt::PlainText);
    readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    readout->setText(tr("Hover over the chart to read every series; click to list the allocations live at that time."));
    // Two lines always: a readout growing on hover would make the plots jump.
    readout->setFixedHeight(readout->fontMetrics().lineSpacing() * 2 + 6);
    readout->setAlignment(Qt::AlignLeft | Qt::AlignTop);

    plots = new QWidget(q);
    auto *plotLayout = new QVBoxLayout(plots);
    plotLayout->setContentsMargins(0, 0, 0, 0);
    plotLayout->setSpacing(0);
    plotLayout->addWidget(logicalPlot.slot, 3);
    plotLayout->addWidget(physicalPlot.slot, 2);
    plotLayout->addWidget(readout);

    placeholder = new QLabel(q);
    placeholder->setObjectName(QStringLiteral("memoryPlaceholder"));
    placeholder->setAlignment(Qt::AlignCenter);
    placeholder->setWordWrap(true);
    chartStack = new QStackedWidget(q);
    chartStack->addWidget(placeholder);
    chartStack->addWidget(plots);

    tableTitle = new QLabel(q);
    tableTitle->setObjectName(QStringLiteral("peakTableTitle"));
    tableTitle->setWordWrap(true);
    peakButton = new QPushButton(tr("Back to &peak"), q);
    peakButton->setObjectName(QStringLiteral("memoryBackToPeak"));
    peakButton->setToolTip(tr("List the allocations live at the logical peak again (key P on the chart)"));
    peakButton->hide();
    model = new LiveAllocationsModel(q);
    QObject::connect(model, &LiveAllocationsModel::filteringChanged, q, [this](bool filtering) {
        if (filtering)
            table->viewport()->setCursor(Qt::BusyCursor);
        else
            table->viewport()->unsetCursor();
        updateTableTitle();
    });
    proxy = new QSortFilterProxyModel(q);
    proxy->setSourceModel(model);
    proxy->setSortRole(SortRole);
    table = new QTableView(q);
    table->setObjectName(QStringLiteral("peakAllocationsTable"));
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(LiveAllocationsModel::BytesColumn, Qt::DescendingOrder);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    tableActions = new TableActions(table, QStringLiteral("live-allocations"));
    tableActions->setColumnFits({{LiveAllocationsModel::StorageColumn, 8, 60},
                                 {LiveAllocationsModel::DeviceColumn, 6, 20},
                                 {LiveAllocationsModel::BytesColumn, 7, 12},
                                 {LiveAllocationsModel::CategoryColumn, 8, 12},
                                 {LiveAllocationsModel::SpanColumn, 6, 60},
                                 {LiveAllocationsModel::OpColumn, 6, 24},
                                 {LiveAllocationsModel::StartColumn, 10, 30,
                                  [this] {
                                      const TimeUnit unit = model->timeUnit();
                                      return widestTimePoint(series ? series->runRange().end : 0, unit,
                                                             unit == TimeUnit::Auto);
                                  },
                                  false}},
                                LiveAllocationsModel::TensorIdsColumn);
    tableActions->addRowAction(
        tr("Select &Span"),
        [this](const QModelIndex &row) { Q_EMIT q->spanActivated(row.data(SpanIdRole).toString()); },
        [](const QModelIndex &row) { return row.data(SpanIndexRole).toLongLong() >= 0; },
        QKeySequence(Qt::CTRL | Qt::Key_J));
    QObject::connect(table, &QTableView::clicked, q, [this](const QModelIndex &index) {
        const qint64 span = index.data(SpanIndexRole).toLongLong();
        if (span >= 0)
            Q_EMIT q->allocationSpanSelected(span);
    });
    QObject::connect(table, &QTableView::activated, q, [this](const QModelIndex &index) {
        const QString span = index.data(SpanIdRole).toString();
        if (!span.isEmpty())
            Q_EMIT q->spanActivated(span);
    });

    tablePane = new QWidget(q);
    auto *tableHeader = new QHBoxLayout;
    tableHeader->setContentsMargins(0, 0, 0, 0);
    tableHeader->addWidget(tableTitle, 1);
    tableHeader->addWidget(peakButton);
    auto *tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 4, 0, 0);
    tableLayout->setSpacing(2);
    tableLayout->addLayout(tableHeader);
    tableLayout->addWidget(table);

    auto *splitter = new QSplitter(Qt::Vertical, q);
    splitter->addWidget(chartStack);
    splitter->addWidget(tablePane);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(q);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    rebucketTimer = new QTimer(q);
    rebucketTimer->setSingleShot(true);
    rebucketTimer->setInterval(0);
    QObject::connect(rebucketTimer, &QTimer::timeout, q, [this] { rebucket(); });
    QObject::connect(resetButton, &QPushButton::clicked, q, [this] { q->resetZoom(); });
    QObject::connect(peakButton, &QPushButton::clicked, q, [this] { q->showPeak(); });
    QObject::connect(deviceBox, &QComboBox::currentIndexChanged, q, [this](int index) {
        const int wanted = index <= 0 ? MemorySeries::kAllDevices : index - 1;
        if (wanted == device)
            return;
        device = wanted;
        rebuildSeries();
        rebucket();
        refreshTable();
    });
    applyTheme();
}

void MemoryChartPanel::Private::applyTheme()
{
    const QPalette pal = q->palette();
    const QColor text = pal.color(QPalette::Text);
    const QColor base = pal.color(QPalette::Base);
    QColor grid = text;
    grid.setAlpha(isDark(pal) ? 45 : 30);
    for (Plot *p : {&logicalPlot, &physicalPlot}) {
        p->chart->setBackgroundBrush(base);
        p->chart->setBackgroundPen(Qt::NoPen);
        p->chart->legend()->setLabelColor(text);
        for (QValueAxis *a : {p->x, p->y}) {
            a->setLabelsColor(text);
            a->setTitleBrush(text);
            a->setGridLineColor(grid);
            a->setLinePenColor(grid);
        }
        QPen hover(text, 1, Qt::DashLine);
        p->hoverLine->setPen(hover);
        p->instantLine->setPen(QPen(pal.color(QPalette::Highlight), 2));
        QColor shade = pal.color(QPalette::Highlight);
        shade.setAlpha(50);
        p->highlightRect->setBrush(shade);
        QColor edge = pal.color(QPalette::Highlight);
        edge.setAlpha(160);
        p->highlightRect->setPen(QPen(edge, 1));
        QColor rangeShade = pal.color(QPalette::Text);
        rangeShade.setAlpha(28);
        p->rangeRect->setBrush(rangeShade);
        p->view->setBackgroundBrush(base);
        p->note->setStyleSheet(
            QStringLiteral("QLabel { color: %1; }").arg(pal.color(QPalette::PlaceholderText).name()));
    }
    placeholder->setStyleSheet(
        QStringLiteral("QLabel { color: %1; font-size: 11pt; }").arg(pal.color(QPalette::PlaceholderText).name()));
    peakMarker->setColor(peakColor(pal));
    peakMarker->setBorderColor(base);
    peakText->setBrush(peakColor(pal));
    QColor box = base;
    box.setAlpha(225);
    peakBox->setBrush(box);
    peakBox->setPen(QPen(peakColor(pal), 1));
}

void MemoryChartPanel::Private::showSeries()
{
    {
        const QSignalBlocker block(deviceBox);
        deviceBox->clear();
        deviceBox->addItem(tr("All devices"));
        for (const std::string &name : series->devices())
            deviceBox->addItem(QString::fromStdString(name));
        deviceBox->setCurrentIndex(0);
        deviceBox->setEnabled(series->devices().size() > 1);
    }
    device = MemorySeries::kAllDevices;
    window = fullRange();
    instant.reset();
    hidden.clear();
    rebuildSeries();
    hideCapacities();
    rebucket();
    refreshTable();
    // Ready means drawn: with the buckets still on a worker, the first applyBuckets() says so.
    // Else after this call returns, as before when the series were prepared here: the caller
    // connects to chartReady() after setTrace().
    if (bucketsInFlight) {
        readyWhenDrawn = true;
        return;
    }
    QMetaObject::invokeMethod(
        q,
        [this, generation = traceGeneration] {
            if (generation == traceGeneration && series)
                Q_EMIT q->chartReady();
        },
        Qt::QueuedConnection);
}

void MemoryChartPanel::Private::cancelJobs()
{
    for (CancelFlag *flag : {&bucketCancel, &queryCancel}) {
        if (*flag)
            (*flag)->store(true, std::memory_order_relaxed);
        flag->reset();
    }
}

void MemoryChartPanel::Private::rebuildSeries()
{
    // Series are recreated only when the selection changes; zooming just replaces points.
    // Attaching a series resets the axis range; with dynamic ticks still set for an
    // earlier, much shorter window, Qt Charts would lay out millions of ticks.
    for (Plot *p : {&logicalPlot, &physicalPlot}) {
        p->x->setTickType(QValueAxis::TicksFixed);
        p->y->setTickType(QValueAxis::TicksFixed);
    }
    for (Layer &l : layers) {
        logicalPlot.chart->removeSeries(l.area);
        delete l.area; // owns its line series
    }
    layers.clear();
    for (PhysicalSeries &s : physicalSeries) {
        physicalPlot.chart->removeSeries(s.line);
        delete s.line;
    }
    logicalPlot.envelope->setData({}, {}, {});
    physicalPlot.envelope->setData({}, {}, {});
    physicalSeries.clear();
    if (logicalPlot.chart->series().contains(peakMarker)) {
        logicalPlot.chart->removeSeries(peakMarker);
        // removeSeries() hands the series back parentless; the chart stays its owner while
        // it is detached, or a panel closed in that state would leak it.
        peakMarker->setParent(logicalPlot.chart);
    }
    peakText->hide();
    peakBox->hide();
    if (!series) {
        updateLegend();
        return;
    }

    if (series->hasLogical(device)) {
        const LogicalChartData probe = series->logical(device, {}, 0);
        for (int k = 0; k < kMemoryCategoryCount; ++k) {
            if (!probe.categoryPresent[std::size_t(k)])
                continue;
            const MemoryCategory cat = kChartCategoryOrder[std::size_t(k)];
            auto *upper = new QLineSeries;
            auto *lower = layers.empty() ? nullptr : new QLineSeries;
            auto *area = new QAreaSeries(upper, lower);
            // Whether or not QAreaSeries deletes its lines itself, parenting makes it certain.
            upper->setParent(area);
            if (lower)
                lower->setParent(area);
            area->setName(qtext(memoryCategoryName(cat)));
            QColor fill = categoryColor(cat);
            fill.setAlpha(210);
            area->setBrush(fill);
            QPen border(categoryColor(cat).darker(130));
            border.setWidthF(1.0);
            area->setPen(border);
            logicalPlot.chart->addSeries(area);
            area->attachAxis(logicalPlot.x);
            area->attachAxis(logicalPlot.y);
            layers.push_back({cat, k, upper, lower, area});
        }
        logicalPlot.chart->addSeries(peakMarker);
        peakMarker->attachAxis(logicalPlot.x);
        peakMarker->attachAxis(logicalPlot.y);
        for (QLegendMarker *m : logicalPlot.chart->legend()->markers(peakMarker))
            m->setVisible(false); // the marker labels itself
    }
    if (series->hasPhysical(device)) {
        const PhysicalChartData probe = series->physical(device, {}, 0);
        const QColor base = q->palette().color(QPalette::Base);
        for (const PhysicalDeviceSeries &dev : probe.devices) {
            const QString name = QString::fromStdString(series->devices()[std::size_t(dev.device)]);
            const QColor color = deviceColor(dev.device);
            for (int m = 0; m < kPhysicalMetricCount; ++m) {
                const auto metric = PhysicalMetric(m);
                if (!dev.metric(metric).present)
                    continue;
                // One hue per device; the metric is told by the line: used solid and strong,
                // reserved dashed, capacity a thin dotted ceiling.
                QPen pen(color);
                pen.setCosmetic(true);
                switch (metric) {
                case PhysicalMetric::Used: pen.setWidthF(2.0); break;
                case PhysicalMetric::Reserved:
                    pen.setWidthF(1.6);
                    pen.setStyle(Qt::DashLine);
                    pen.setColor(QColor::fromRgbF(float(color.redF() * 0.7 + base.redF() * 0.3),
                                                  float(color.greenF() * 0.7 + base.greenF() * 0.3),
                                                  float(color.blueF() * 0.7 + base.blueF() * 0.3)));
                    break;
                case PhysicalMetric::Capacity:
                    pen.setWidthF(1.3);
                    pen.setStyle(Qt::DotLine);
                    break;
                }
                const QString legendName = name + u' ' + QLatin1StringView(metricName(metric));
                auto *line = new QLineSeries;
                line->setName(legendName);
                line->setPen(pen);
                line->setPointsVisible(false);
                physicalPlot.chart->addSeries(line);
                line->attachAxis(physicalPlot.x);
                line->attachAxis(physicalPlot.y);
                QColor band = pen.color();
                band.setAlpha(metric == PhysicalMetric::Used ? 200 : 130);
                physicalSeries.push_back({dev.device, metric, legendName, line, band, false, 0});
            }
        }
    }
    // Room for every legend entry of the physical plot (three per device).
    const int entries = int(physicalSeries.size());
    physicalPlot.view->setMinimumHeight(
        std::max(100, entries * (QFontMetrics(physicalPlot.chart->legend()->font()).height() + 9) + 44));
    updateLegend();
    updateNotes();
}

void MemoryChartPanel::Private::updateLegend()
{
    seriesMenu->clear();
    const auto addEntry = [this](const QString &name) {
        QAction *a = seriesMenu->addAction(name);
        a->setCheckable(true);
        a->setChecked(!hidden.contains(name));
        QObject::connect(a, &QAction::toggled, q, [this, name](bool on) { toggleSeries(name, on); });
    };
    for (const Layer &l : layers)
        addEntry(l.area->name());
    if (!layers.empty() && !physicalSeries.empty())
        seriesMenu->addSeparator();
    for (const PhysicalSeries &s : physicalSeries)
        addEntry(s.legendName);
    seriesButton->setEnabled(!seriesMenu->isEmpty());
    // Clicking a legend entry toggles its series; a hidden one stays listed, dimmed.
    for (Plot *p : {&logicalPlot, &physicalPlot}) {
        for (QLegendMarker *m : p->chart->legend()->markers()) {
            if (!m->isVisible())
                continue;
            QObject::disconnect(m, &QLegendMarker::clicked, nullptr, nullptr);
            QObject::connect(m, &QLegendMarker::clicked, q, [this, m] {
                const QString name = m->series()->name();
                toggleSeries(name, hidden.contains(name));
            });
        }
    }
    applyVisibility();
}

void MemoryChartPanel::Private::hideCapacities()
{
    // A device's capacity is usually tens of times what it uses; drawn by default it would
    // flatten used and reserved onto the floor. It is one click away, and in the readout.
    for (const PhysicalSeries &s : physicalSeries)
        if (s.metric == PhysicalMetric::Capacity)
            hidden.insert(s.legendName);
    updateLegend();
}

void MemoryChartPanel::Private::toggleSeries(const QString &legendName, bool visible)
{
    if (visible)
        hidden.remove(legendName);
    else
        hidden.insert(legendName);
    const QSignalBlocker block(seriesMenu);
    for (QAction *a : seriesMenu->actions())
        if (a->text() == legendName) {
            const QSignalBlocker blockAction(a);
            a->setChecked(visible);
        }
    applyVisibility();
    rebucket(); // the byte axes follow what is shown
}

void MemoryChartPanel::Private::applyVisibility()
{
    const QPalette pal = q->palette();
    const auto dim = [&pal](QLegendMarker *m, bool on) {
        QColor label = pal.color(on ? QPalette::Active : QPalette::Disabled, QPalette::Text);
        m->setLabelBrush(label);
        QBrush b = m->brush();
        QColor c = b.color();
        c.setAlphaF(on ? 1.0f : 0.25f);
        b.setColor(c);
        m->setBrush(b);
    };
    for (const Layer &l : layers) {
        const bool on = !hidden.contains(l.area->name());
        l.area->setVisible(on);
        for (QLegendMarker *m : logicalPlot.chart->legend()->markers(l.area)) {
            m->setVisible(true);
            dim(m, on);
        }
    }
    std::vector<bool> physicalShown;
    for (const PhysicalSeries &s : physicalSeries) {
        const bool on = !hidden.contains(s.legendName);
        physicalShown.push_back(on);
        s.line->setVisible(on);
        // A hidden series keeps its legend entry (to switch it back on).
        for (QLegendMarker *m : physicalPlot.chart->legend()->markers(s.line)) {
            m->setVisible(true);
            dim(m, on);
        }
    }
    physicalPlot.envelope->setShown(std::move(physicalShown));
    std::vector<bool> layersShown;
    for (const Layer &l : layers)
        layersShown.push_back(!hidden.contains(l.area->name()));
    logicalPlot.envelope->setShown(std::move(layersShown));
}

int MemoryChartPanel::Private::plotWidth() const
{
    const double w = bottomPlot().view->plot().width();
    // Before the first layout the plot area is empty; a typical width keeps the data useful.
    return w >= 16 ? int(w) : 1000;
}

const Plot &MemoryChartPanel::Private::bottomPlot() const
{
    if (series && !series->hasPhysical(device) && series->hasLogical(device))
        return logicalPlot;
    return physicalPlot;
}

std::uint64_t MemoryChartPanel::Private::timeAtX(double x) const
{
    return xToTime(window, double(plotWidth()), x);
}

void MemoryChartPanel::Private::zoomAt(double x, double factor)
{
    if (!series)
        return;
    const std::uint64_t anchor = timeAtX(x);
    q->setWindow(zoomWindow(window, anchor, factor, fullRange(), 100));
}

void MemoryChartPanel::Private::zoomAroundInstant(double factor)
{
    if (!series)
        return;
    const std::uint64_t anchor = instant && window.contains(*instant) ? *instant : window.begin + window.length() / 2;
    q->setWindow(zoomWindow(window, anchor, factor, fullRange(), 100));
}

bool MemoryChartPanel::Private::handleKey(QKeyEvent *e)
{
    if (!series || window.isEmpty())
        return false;
    const int w = plotWidth();
    const std::uint64_t pixel = std::max<std::uint64_t>(window.length() / std::uint64_t(std::max(w, 1)), 1);
    const std::uint64_t step = e->modifiers() & Qt::ShiftModifier ? pixel * 10 : pixel;
    const std::uint64_t current = instant.value_or(window.begin + window.length() / 2);
    const TimeWindow run = fullRange();
    switch (e->key()) {
    case Qt::Key_Left: q->selectInstant(current > run.begin + step ? current - step : run.begin); return true;
    case Qt::Key_Right: q->selectInstant(std::min(current + step, run.end - 1)); return true;
    case Qt::Key_Home: q->selectInstant(window.begin); return true;
    case Qt::Key_End: q->selectInstant(window.end - 1); return true;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomAroundInstant(0.5); return true;
    case Qt::Key_Minus: zoomAroundInstant(2.0); return true;
    case Qt::Key_0: q->resetZoom(); return true;
    case Qt::Key_P: q->showPeak(); return true;
    default: return false;
    }
}

void MemoryChartPanel::Private::setHover(std::optional<std::uint64_t> t)
{
    hoverTime = t;
    placeCursorLines();
    if (t)
        readout->setText(q->readoutAt(*t));
    else if (instant)
        readout->setText(q->readoutAt(*instant));
}

void MemoryChartPanel::Private::placeLine(const Plot &plot, QGraphicsLineItem *line, std::optional<std::uint64_t> t)
{
    if (!t || !drawnWindow.contains(*t) || plot.slot->currentWidget() != plot.view) {
        line->hide();
        return;
    }
    const QRectF area = plot.chart->plotArea();
    const double x = area.left() + timeToX(drawnWindow, area.width(), *t);
    line->setLine(x, area.top(), x, area.bottom());
    line->show();
}

void MemoryChartPanel::Private::placeSpan(const Plot &plot, QGraphicsRectItem *rect, const TimeWindow &span)
{
    if (span.isEmpty() || span.end <= drawnWindow.begin || span.begin >= drawnWindow.end
        || plot.slot->currentWidget() != plot.view) {
        rect->hide();
        return;
    }
    const QRectF area = plot.chart->plotArea();
    const double x0 = std::max(area.left(), area.left() + timeToX(drawnWindow, area.width(), span.begin));
    const double x1 = std::min(area.right(), area.left() + timeToX(drawnWindow, area.width(), span.end));
    // A span narrower than a pixel still shows, as a line.
    rect->setRect(QRectF(QPointF(x0, area.top()), QPointF(std::max(x1, x0 + 1), area.bottom())));
    rect->show();
}

void MemoryChartPanel::Private::placeCursorLines()
{
    for (const Plot *p : {&logicalPlot, &physicalPlot}) {
        placeLine(*p, p->hoverLine, hoverTime);
        placeLine(*p, p->instantLine, instant);
        placeSpan(*p, p->highlightRect, highlight);
        placeSpan(*p, p->rangeRect, range);
    }
}

void MemoryChartPanel::Private::rebucket()
{
    if (!series)
        return;
    if (window.isEmpty())
        window = fullRange();
    const quint64 generation = ++bucketGeneration;
    const int width = plotWidth();
    bucketsInFlight = false;
    if (bucketCancel)
        bucketCancel->store(true, std::memory_order_relaxed);
    bucketCancel.reset();
    if (series->changeCount() < BackgroundSort::backgroundRows()) {
        buckets = width;
        drawnWindow = window;
        logical = series->logical(device, window, buckets);
        physical = series->physical(device, window, buckets);
        applyBuckets();
        return;
    }
    // A million memory changes take 50-300 ms to walk (the whole run, or one device's
    // changes among all of them): on a worker. The chart keeps what it shows until then.
    bucketsInFlight = true;
    bucketCancel = std::make_shared<std::atomic<bool>>(false);
    runAbandonable(
        q,
        [series = series, cancel = bucketCancel, generation, w = window, dev = device, width] {
            Bucketed out{generation, w, dev, width, {}, {}};
            if (cancel->load(std::memory_order_relaxed))
                return out;
            out.logical = series->logical(dev, w, width);
            if (!cancel->load(std::memory_order_relaxed))
                out.physical = series->physical(dev, w, width);
            return out;
        },
        [this](Bucketed result) { onBucketed(std::move(result)); });
}

void MemoryChartPanel::Private::onBucketed(Bucketed result)
{
    // A newer window, device, width or trace is on its way: this one is stale.
    if (result.generation != bucketGeneration || result.window != window || result.device != device || !series)
        return;
    bucketsInFlight = false;
    bucketCancel.reset();
    buckets = result.buckets;
    drawnWindow = result.window;
    logical = std::move(result.logical);
    physical = std::move(result.physical);
    applyBuckets();
}

void MemoryChartPanel::Private::applyBuckets()
{
    xUnit = timeUnitFor(window, timeUnit);
    const double xf = xUnit.factor;
    // The physical axis spans the series shown (neighbours outside the window included, as
    // the lines run to them); hiding capacity lets used and reserved fill the plot.
    physicalShownMax = 0;
    for (const PhysicalDeviceSeries &dev : physical.devices) {
        for (int m = 0; m < kPhysicalMetricCount; ++m) {
            const QString legendName = QString::fromStdString(series->devices()[std::size_t(dev.device)]) + u' '
                                       + QLatin1StringView(metricName(PhysicalMetric(m)));
            if (hidden.contains(legendName))
                continue;
            for (const ChartPoint &p : dev.metrics[std::size_t(m)].points)
                physicalShownMax = std::max(physicalShownMax, p.bytes);
        }
    }
    if (physicalShownMax == 0)
        physicalShownMax = physical.maxBytes;
    logicalPlot.unit = byteUnit(std::max<std::uint64_t>(logical.maxBytes, 1));
    physicalPlot.unit = byteUnit(std::max<std::uint64_t>(physicalShownMax, 1));
    const double ly = logicalPlot.unit.factor;
    const double py = physicalPlot.unit.factor;

    // Few changes: the stacked areas as steps. Many: a pixel column at a time (EnvelopeItem).
    std::vector<EnvelopeItem::Rect> logicalRects;
    std::vector<QColor> layerColors;
    for (std::size_t li = 0; li < layers.size(); ++li) {
        const Layer &l = layers[li];
        QColor fill = categoryColor(l.category);
        fill.setAlpha(210);
        layerColors.push_back(fill);
        QList<QPointF> up, low;
        if (!logical.downsampled) {
            up.reserve(qsizetype(logical.columns.size()));
            if (l.lower)
                low.reserve(qsizetype(logical.columns.size()));
            // The layer below is the stack level under this category (absent categories are 0).
            for (const StackedColumn &c : logical.columns) {
                const double x = double(c.timeNs) / xf;
                up.append(QPointF(x, double(c.stack[std::size_t(l.stackIndex)]) / ly));
                if (l.lower)
                    low.append(
                        QPointF(x, l.stackIndex > 0 ? double(c.stack[std::size_t(l.stackIndex - 1)]) / ly : 0.0));
            }
        } else {
            // Solid where the category certainly is during the column (above the highest
            // level under it, below its own lowest), light over the range its top moves in.
            const std::size_t k = std::size_t(l.stackIndex);
            for (const StackedEnvelope &e : logical.envelope) {
                const double x0 = double(e.timeNs) / xf;
                const double x1 = double(e.endNs) / xf;
                const double lowBottom = k > 0 ? double(e.min[k - 1]) / ly : 0.0;
                const double highBottom = k > 0 ? double(e.max[k - 1]) / ly : 0.0;
                const double lowTop = double(e.min[k]) / ly;
                const double highTop = double(e.max[k]) / ly;
                if (lowTop > highBottom)
                    logicalRects.push_back({x0, x1, highBottom, lowTop, int(li), false});
                const double lightFrom = std::max(lowTop, lowBottom);
                if (highTop > lightFrom)
                    logicalRects.push_back({x0, x1, lightFrom, highTop, int(li), true});
            }
        }
        l.upper->replace(up);
        if (l.lower)
            l.lower->replace(low);
        QPen border(categoryColor(l.category).darker(130));
        border.setWidthF(1.0);
        border.setCosmetic(true);
        l.area->setPen(border);
    }
    logicalPlot.envelope->setData(std::move(logicalRects), std::move(layerColors), {});
    std::vector<EnvelopeItem::Rect> physicalRects;
    std::vector<QColor> physicalColors;
    for (std::size_t si = 0; si < physicalSeries.size(); ++si) {
        PhysicalSeries &ps = physicalSeries[si];
        physicalColors.push_back(ps.color);
        const auto it = std::find_if(physical.devices.begin(), physical.devices.end(),
                                     [&ps](const PhysicalDeviceSeries &d) { return d.device == ps.device; });
        if (it == physical.devices.end())
            continue;
        const PhysicalMetricSeries &m = it->metric(ps.metric);
        ps.bandMode = m.downsampled;
        ps.bandColumns = 0;
        QList<QPointF> pts;
        if (m.downsampled) {
            // Each column from the smallest to the largest sample in it; neighbours joined.
            const double pixel = double(window.length()) / xf / std::max(buckets, 1);
            for (std::size_t i = 0; i < m.envelope.size(); ++i) {
                const EnvelopeColumn &c = m.envelope[i];
                const double x0 = double(c.timeNs) / xf;
                double lo = double(c.min) / py;
                double hi = double(c.max) / py;
                if (i + 1 < m.envelope.size()) { // bridge to the next column, as a line would
                    lo = std::min(lo, double(m.envelope[i + 1].min) / py);
                    hi = std::max(hi, double(m.envelope[i + 1].min) / py);
                }
                physicalRects.push_back({x0, x0 + pixel, lo, hi, int(si), false});
                ++ps.bandColumns;
            }
        } else {
            pts.reserve(qsizetype(m.points.size()));
            for (const ChartPoint &p : m.points)
                pts.append(QPointF(double(p.timeNs) / xf, double(p.bytes) / py));
        }
        ps.line->replace(pts);
        // A lone sample makes no line: only then is it drawn as a dot.
        ps.line->setPointsVisible(pts.size() == 1);
    }
    physicalPlot.envelope->setData(std::move(physicalRects), std::move(physicalColors), {});
    applyVisibility();

    QList<QPointF> marker;
    if (logical.known && logical.peakTimeNs && window.contains(*logical.peakTimeNs)) {
        marker.append(QPointF(double(*logical.peakTimeNs) / xf, double(*logical.peakBytes) / ly));
        peakText->setText(tr("peak %1").arg(formatBytes(*logical.peakBytes)));
    }
    peakMarker->replace(marker);
    updateAxes();
    resetButton->setEnabled(window != fullRange());
    updatePeakTexts();
    alignPlots();
    placePeakText();
    placeCursorLines();
    // New data can change the axes' labels and with them the plot's width (no resize event):
    // one bucket per pixel column needs the buckets once more for the width laid out now.
    if (!widthRetried && std::abs(plotWidth() - buckets) > 1) {
        widthRetried = true;
        scheduleRebucket();
    } else {
        widthRetried = false;
    }
    if (readyWhenDrawn) {
        readyWhenDrawn = false;
        Q_EMIT q->chartReady();
    }
}

void MemoryChartPanel::Private::updateAxes()
{
    // Time: the window exactly, ticks on round values (1, 2 or 5 × 10^k) whatever the window.
    const double xf = xUnit.factor;
    const double span = std::max(double(window.length()) / xf, 1e-9);
    const double step = niceStep(span, 6);
    const QString xFormat = QStringLiteral("%.") + QString::number(decimalsFor(step)) + QStringLiteral("f");
    const Plot &bottom = bottomPlot();
    for (Plot *p : {&logicalPlot, &physicalPlot}) {
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
        p->x->setTitleVisible(labelled);
    }

    // Bytes: from 0, each plot in its own unit; the logical axis leaves room above the peak
    // for its label so that the label never sits on a line.
    const auto setBytes = [](Plot &p, double maxValue, double headroomPixels, const QString &axisTitle) {
        const double plotHeight = std::max(p.chart->plotArea().height(), 60.0);
        const double fraction = std::clamp(headroomPixels / plotHeight, 0.0, 0.6);
        double top = std::max(maxValue / (1.0 - fraction) * 1.02, 1e-9);
        // As many intervals as fit with a label's height of space between labels (Qt Charts
        // turns crowded labels into "…").
        const double labelSpace = 2.2 * QFontMetricsF(p.y->labelsFont()).height();
        const int maxIntervals = std::clamp(int(plotHeight / labelSpace), 2, 6);
        const double yStep = roundStepAtMost(top, maxIntervals);
        top = std::ceil(top / yStep - 1e-9) * yStep;
        p.y->setTickType(QValueAxis::TicksFixed);
        p.y->setRange(0, top);
        p.y->setTickAnchor(0);
        p.y->setTickInterval(yStep);
        p.y->setTickType(QValueAxis::TicksDynamic);
        // The unit is on every label: the two byte axes may differ and must not look alike.
        p.y->setLabelFormat(QStringLiteral("%.") + QString::number(decimalsFor(yStep))
                                           + QStringLiteral("f ") + p.unit.name);
        p.y->setTitleText(axisTitle);
    };
    const double labelHeight = QFontMetricsF(peakText->font()).height() + 14;
    setBytes(logicalPlot, double(logical.maxBytes) / logicalPlot.unit.factor, peakMarker->count() > 0 ? labelHeight : 0,
             tr("Logical"));
    setBytes(physicalPlot, double(physicalShownMax) / physicalPlot.unit.factor, 0, tr("Device"));
}

void MemoryChartPanel::Private::alignPlots()
{
    // Both plots share the time axis, so their plot areas must line up to the pixel. Their
    // byte labels and legends differ in width: let Qt Charts lay each out, then widen the
    // margins of the one with the narrower labels (a fixed plot area would leave its axes
    // where the automatic layout put them).
    if (aligning)
        return;
    aligning = true;
    std::vector<Plot *> shown;
    for (Plot *p : {&logicalPlot, &physicalPlot})
        if (p->slot->currentWidget() == p->view && p->view->isVisible())
            shown.push_back(p);
    for (Plot *p : shown) {
        p->chart->setMargins(kChartMargins);
        p->chart->layout()->activate();
    }
    // The byte axes depend on the plot heights just laid out (tick spacing, the peak
    // label's head room): fit them again, then lay out once more.
    if (series && !shown.empty()) {
        updateAxes();
        for (Plot *p : shown)
            p->chart->layout()->activate();
    }
    if (shown.size() == 2) {
        const QRectF a = shown[0]->chart->plotArea();
        const QRectF b = shown[1]->chart->plotArea();
        const double left = std::max(a.left(), b.left());
        const double right = std::min(a.right(), b.right());
        for (Plot *p : shown) {
            const QRectF r = p->chart->plotArea();
            QMargins m = kChartMargins;
            m.setLeft(m.left() + int(std::lround(left - r.left())));
            m.setRight(m.right() + int(std::lround(r.right() - right)));
            p->chart->setMargins(m);
            p->chart->layout()->activate();
        }
    }
    aligning = false;
    placePeakText();
    placeCursorLines();
}

void MemoryChartPanel::Private::placePeakText()
{
    if (peakMarker->count() == 0 || !logicalPlot.chart->series().contains(peakMarker)
        || logicalPlot.slot->currentWidget() != logicalPlot.view) {
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
    layout->setStretchFactor(logicalPlot.slot, l.isEmpty() ? 3 : 0);
    layout->setStretchFactor(physicalPlot.slot, p.isEmpty() ? 2 : 0);
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
    tablePane->setVisible(!series || series->hasLogical(device));
    if (!instant && !hoverTime)
        readout->setText(
            series && !series->hasLogical(device)
                ? tr("Hover over the chart to read every series.")
                : tr("Hover over the chart to read every series; click to list the allocations live at that time."));
}

void MemoryChartPanel::Private::updatePeakTexts()
{
    const QString unitName = xUnit.name;
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

void MemoryChartPanel::Private::refreshTable()
{
    if (queryCancel)
        queryCancel->store(true, std::memory_order_relaxed);
    queryCancel.reset();
    if (!series || !series->hasLogical(device)) {
        ++queryGeneration;
        model->clear();
        tableInstant.reset();
        updateTableTitle();
        Q_EMIT q->allocationsShown();
        return;
    }
    const std::optional<std::uint64_t> t = instant ? instant : selectionPeakTime();
    if (!t) {
        ++queryGeneration;
        model->clear();
        tableInstant.reset();
        updateTableTitle();
        Q_EMIT q->allocationsShown();
        return;
    }
    const quint64 generation = ++queryGeneration;
    if (!instant && device == MemorySeries::kAllDevices) {
        // The §8.1 peak lists them already.
        model->setPeak(trace, profile);
        tableInstant = t;
        updateTableTitle();
        Q_EMIT q->allocationsShown();
        return;
    }
    // A big trace has a million lifetimes to look through: off the GUI thread.
    const std::string name = deviceName().toStdString();
    const std::shared_ptr<const Trace> traceRef = trace;
    const std::shared_ptr<const MemoryProfile> profileRef = profile;
    const std::uint64_t time = *t;
    tableTitle->setText(tr("Finding the allocations live at %1…").arg(formatTimePoint(time, timeUnit)));
    queryCancel = std::make_shared<std::atomic<bool>>(false);
    runAbandonable(
        q,
        [traceRef, profileRef, cancel = queryCancel, time, name, generation] {
            LiveQuery out{generation, time, {}};
            if (!cancel->load(std::memory_order_relaxed))
                out.lifetimes = MemorySeries::liveLifetimesAt(*traceRef, *profileRef, time, name);
            return out;
        },
        [this](LiveQuery result) { onLiveQuery(std::move(result)); });
}

void MemoryChartPanel::Private::onLiveQuery(LiveQuery result)
{
    if (result.generation != queryGeneration)
        return; // superseded
    queryCancel.reset();
    model->setAllocations(trace, profile, result.timeNs, std::move(result.lifetimes));
    tableInstant = result.timeNs;
    updateTableTitle();
    Q_EMIT q->allocationsShown();
}

void MemoryChartPanel::Private::updateTableTitle()
{
    peakButton->setVisible(instant.has_value() && selectionPeakTime().has_value());
    if (!series || !series->hasLogical(device)) {
        tableTitle->setText(tr("Allocations live at an instant"));
        return;
    }
    if (!tableInstant) {
        tableTitle->setText(tr("No logical peak: no storage was allocated"));
        return;
    }
    const QString where = device == MemorySeries::kAllDevices ? QString() : tr(" on %1").arg(deviceName());
    const int n = model->rowCount();
    QString count = n == 1 ? tr("1 storage") : tr("%1 storages").arg(formatCount(std::uint64_t(n)));
    if (model->isFiltering())
        count = tr("keeping those alive in the time range…");
    else if (!model->timeRange().isEmpty())
        count = tr("%1 of %2 alive in the time range").arg(count, formatCount(std::uint64_t(model->liveCount())));
    const QString at = formatTimePoint(*tableInstant, timeUnit);
    if (instant)
        tableTitle->setText(
            tr("Allocations live at %1%2 (clicked): %3, %4").arg(at, where, formatBytes(model->totalBytes()), count));
    else
        tableTitle->setText(tr("Allocations live at the logical peak%1 (%2 at %3): %4")
                                .arg(where, formatBytes(model->totalBytes()), at, count));
}

void MemoryChartPanel::Private::renderTo(QPainter &painter, const QRectF &target)
{
    double y = target.top();
    double total = 0;
    std::vector<Plot *> shown;
    for (Plot *p : {&logicalPlot, &physicalPlot})
        if (p->slot->currentWidget() == p->view) {
            shown.push_back(p);
            total += p->view->height();
        }
    for (Plot *p : shown) {
        const double h = target.height() * double(p->view->height()) / std::max(total, 1.0);
        p->hoverLine->hide();
        p->view->render(&painter, QRectF(target.left(), y, target.width(), h), p->view->viewport()->rect());
        y += h;
    }
    placeCursorLines();
}

MemoryChartPanel::MemoryChartPanel(QWidget *parent)
    : QWidget(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->build();
    clear();
}

MemoryChartPanel::~MemoryChartPanel()
{
    // Workers still running own what they read; their watchers are children of this panel
    // and go with it, so their results are dropped. Nothing here waits for them.
    d->cancelJobs();
}

void MemoryChartPanel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile)
{
    std::shared_ptr<const MemorySeries> series;
    if (trace && profile)
        series = std::make_shared<const MemorySeries>(*trace, *profile);
    setTrace(std::move(trace), std::move(profile), std::move(series));
}

void MemoryChartPanel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile,
                                std::shared_ptr<const MemorySeries> series)
{
    clear();
    if (!trace || !profile || !series)
        return;
    d->trace = std::move(trace);
    d->profile = std::move(profile);
    d->series = std::move(series);
    d->showSeries();
}

void MemoryChartPanel::showPreparing()
{
    clear();
    d->placeholder->setText(tr("Preparing the memory chart…"));
}

void MemoryChartPanel::clear()
{
    d->cancelJobs();
    ++d->traceGeneration;
    d->trace.reset();
    d->profile.reset();
    d->series.reset();
    d->logical = {};
    d->physical = {};
    d->window = {};
    d->drawnWindow = {};
    d->buckets = 0;
    d->device = MemorySeries::kAllDevices;
    d->instant.reset();
    d->tableInstant.reset();
    d->hoverTime.reset();
    d->highlight = {};
    d->range = {};
    ++d->queryGeneration;
    ++d->bucketGeneration;
    d->readyWhenDrawn = false;
    d->bucketsInFlight = false;
    d->rebuildSeries();
    {
        const QSignalBlocker block(d->deviceBox);
        d->deviceBox->clear();
        d->deviceBox->addItem(tr("All devices"));
        d->deviceBox->setEnabled(false);
    }
    d->model->clear();
    d->peakLabel->clear();
    d->peakButton->hide();
    d->tableTitle->setText(tr("Allocations live at an instant"));
    d->tablePane->setVisible(true);
    d->resetButton->setEnabled(false);
    d->placeholder->setText(tr("No trace loaded"));
    d->chartStack->setCurrentWidget(d->placeholder);
    d->readout->setText(
        tr("Hover over the chart to read every series; click to list the allocations live at that time."));
}

void MemoryChartPanel::resetView()
{
    d->hidden.clear();
    d->instant.reset();
    setSelectedDevice(-1);
    if (d->series) {
        d->window = d->fullRange();
        d->hideCapacities();
        d->rebucket();
        d->refreshTable();
    }
}

QStringList MemoryChartPanel::deviceNames() const
{
    QStringList out;
    if (d->series)
        for (const std::string &name : d->series->devices())
            out << QString::fromStdString(name);
    return out;
}

int MemoryChartPanel::selectedDevice() const
{
    return d->device;
}

void MemoryChartPanel::setSelectedDevice(int device)
{
    const int count = d->series ? int(d->series->devices().size()) : 0;
    d->deviceBox->setCurrentIndex(device >= 0 && device < count ? device + 1 : 0);
}

TimeWindow MemoryChartPanel::window() const
{
    return d->window;
}

TimeWindow MemoryChartPanel::runWindow() const
{
    return d->fullRange();
}

void MemoryChartPanel::setWindow(const TimeWindow &window)
{
    const TimeWindow full = d->fullRange();
    if (full.isEmpty())
        return;
    TimeWindow w = window;
    w.begin = std::clamp(w.begin, full.begin, full.end - 1);
    w.end = std::clamp(w.end, w.begin + 1, full.end);
    if (w == d->window)
        return;
    d->window = w;
    d->scheduleRebucket();
    Q_EMIT windowChanged(w);
}

void MemoryChartPanel::setHighlightWindow(const TimeWindow &span)
{
    if (span == d->highlight)
        return;
    d->highlight = span;
    d->placeCursorLines();
}

TimeWindow MemoryChartPanel::highlightWindow() const
{
    return d->highlight;
}

void MemoryChartPanel::setTimeRange(const TimeWindow &range)
{
    if (range == d->range)
        return;
    d->range = range;
    d->placeCursorLines();
    // The live allocations list only the storages alive in the range, like the other lists.
    d->model->setTimeRange(range);
    d->updateTableTitle();
}

bool MemoryChartPanel::selectAllocationsOfSpan(qint64 spanIndex)
{
    QTableView *table = d->table;
    const int row = d->model->firstRowOfSpan(spanIndex);
    const QModelIndex index = row >= 0 ? d->proxy->mapFromSource(d->model->index(row, 0)) : QModelIndex();
    const QSignalBlocker block(table->selectionModel());
    if (!index.isValid()) {
        table->clearSelection();
        table->viewport()->update();
        return false;
    }
    table->setCurrentIndex(index);
    table->selectRow(index.row());
    table->scrollTo(index);
    table->viewport()->update();
    return true;
}

void MemoryChartPanel::resetZoom()
{
    setWindow(d->fullRange());
}

void MemoryChartPanel::selectInstant(std::uint64_t timeNs)
{
    if (!d->series)
        return;
    const TimeWindow run = d->fullRange();
    timeNs = std::clamp(timeNs, run.begin, run.end - 1);
    d->instant = timeNs;
    if (!d->window.contains(timeNs)) {
        // Keep the instant in view: move the window, keeping its length.
        const std::uint64_t half = d->window.length() / 2;
        const std::uint64_t begin = timeNs > run.begin + half ? timeNs - half : run.begin;
        setWindow({begin, begin + d->window.length()});
    }
    d->placeCursorLines();
    if (!d->hoverTime)
        d->readout->setText(readoutAt(timeNs));
    d->refreshTable();
}

void MemoryChartPanel::showPeak()
{
    d->instant.reset();
    d->placeCursorLines();
    if (const auto peak = d->selectionPeakTime(); peak && !d->window.contains(*peak))
        resetZoom();
    d->refreshTable();
}

std::optional<std::uint64_t> MemoryChartPanel::selectedInstant() const
{
    return d->instant;
}

std::optional<std::uint64_t> MemoryChartPanel::tableInstant() const
{
    return d->tableInstant;
}

QString MemoryChartPanel::tableTitle() const
{
    return d->tableTitle->text();
}

LiveAllocationsModel *MemoryChartPanel::allocationsModel() const
{
    return d->model;
}

QTableView *MemoryChartPanel::allocationsView() const
{
    return d->table;
}

TableActions *MemoryChartPanel::allocationsActions() const
{
    return d->tableActions;
}

QString MemoryChartPanel::readoutAt(std::uint64_t timeNs) const
{
    if (!d->series)
        return {};
    QStringList parts;
    parts << tr("At %1:").arg(formatTimePoint(timeNs, d->timeUnit));
    if (d->series->hasLogical(d->device)) {
        const std::optional<StackedColumn> c = d->series->logicalAt(d->device, timeNs);
        if (!c) {
            parts << tr("logical: nothing allocated yet");
        } else {
            QStringList categories;
            for (const Layer &l : d->layers) {
                const std::uint64_t below = l.stackIndex > 0 ? c->stack[std::size_t(l.stackIndex - 1)] : 0;
                categories << tr("%1 %2").arg(qtext(memoryCategoryName(l.category)),
                                              formatBytes(c->stack[std::size_t(l.stackIndex)] - below));
            }
            parts << tr("logical %1 (%2)").arg(formatBytes(c->stack.back()), categories.join(QStringLiteral(", ")));
        }
    }
    for (const PhysicalReading &r : d->series->physicalAt(d->device, timeNs)) {
        const QString name = QString::fromStdString(d->series->devices()[std::size_t(r.device)]);
        QStringList values;
        for (int m = 0; m < kPhysicalMetricCount; ++m) {
            if (const auto &v = r.values[std::size_t(m)])
                values << tr("%1 %2").arg(QLatin1StringView(metricName(PhysicalMetric(m))), formatBytes(v->bytes));
        }
        if (values.isEmpty())
            continue;
        parts << tr("%1 %2").arg(name, values.join(QStringLiteral(", ")));
    }
    return parts.join(QStringLiteral("  \u00B7  "));
}

bool MemoryChartPanel::setSeriesVisible(const QString &legendName, bool visible)
{
    bool known = false;
    for (const Layer &l : d->layers)
        known |= l.area->name() == legendName;
    for (const PhysicalSeries &s : d->physicalSeries)
        known |= s.legendName == legendName;
    if (known)
        d->toggleSeries(legendName, visible);
    return known;
}

void MemoryChartPanel::setTimeUnit(TimeUnit unit)
{
    if (unit == d->timeUnit)
        return;
    d->timeUnit = unit;
    d->model->setTimeUnit(unit);
    d->tableActions->fitColumns();
    d->rebucket();
    d->updateTableTitle();
    if (d->instant && !d->hoverTime)
        d->readout->setText(readoutAt(*d->instant));
}

QString MemoryChartPanel::exportImage(const QString &path, ImageFormat format)
{
    if (!d->series || d->chartStack->currentWidget() != d->plots)
        return tr("There is no chart to export.");
    const QSize size(d->plots->width(), d->logicalPlot.slot->height() + d->physicalPlot.slot->height());
    const QRectF target(QPointF(0, 0), QSizeF(size));
    if (format == ImageFormat::Svg) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(target);
        svg.setTitle(tr("Memory over time"));
        svg.setDescription(d->peakLabel->text());
        QPainter painter;
        if (!painter.begin(&svg))
            return tr("Cannot write %1").arg(path);
        d->renderTo(painter, target);
        painter.end();
        return {};
    }
    const qreal scale = devicePixelRatioF();
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(palette().color(QPalette::Base));
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        d->renderTo(painter, target);
    }
    if (!image.save(path, "PNG"))
        return tr("Cannot write %1").arg(path);
    return {};
}

void MemoryChartPanel::exportWithDialog(ImageFormat format)
{
    const bool svg = format == ImageFormat::Svg;
    const QString path = QFileDialog::getSaveFileName(
        this, svg ? tr("Export Chart as SVG") : tr("Export Chart as PNG"),
        svg ? QStringLiteral("memory.svg")
            : QStringLiteral("memory.png"), svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    const QString error = exportImage(path, format);
    d->peakLabel->setText(error.isEmpty() ? tr("Chart written to %1").arg(QDir::toNativeSeparators(path)) : error);
}

MemoryChartPanel::DrawnState MemoryChartPanel::drawnState() const
{
    DrawnState s;
    s.ready = d->series != nullptr;
    s.logicalKnown = d->logical.known;
    s.physicalKnown = d->physical.known;
    s.logicalNote = d->logicalPlot.note->text();
    s.physicalNote = d->physicalPlot.note->text();
    for (const Layer &l : d->layers) {
        s.layers << qtext(memoryCategoryName(l.category));
        // Drawn as steps, or as one column per bucket.
        s.layerPointCounts << (d->logical.downsampled ? int(d->logical.envelope.size()) : int(l.upper->count()));
    }
    for (const PhysicalSeries &p : d->physicalSeries) {
        const QString name = QString::fromStdString(d->series->devices()[std::size_t(p.device)]);
        s.physicalLines << QLatin1StringView(metricName(p.metric)) + u' ' + name;
        s.physicalPointCounts << (p.bandMode ? p.bandColumns : int(p.line->count()));
        s.physicalBands << p.bandMode;
        s.markersShown += p.line->pointsVisible() && p.line->count() > 1 ? 1 : 0;
    }
    s.downsampled = d->logical.downsampled;
    if (d->peakMarker->count() > 0) {
        s.peakTimeNs = d->logical.peakTimeNs;
        s.peakBytes = d->logical.peakBytes;
    }
    if (d->peakText->isVisible()) {
        s.peakLabelRect = d->peakBox->rect();
        // The label sits above the peak, which no logical line exceeds.
        const QPointF peakAt = d->logicalPlot.chart->mapToPosition(d->peakMarker->at(0), d->peakMarker);
        s.peakLabelClear = s.peakLabelRect.bottom() <= peakAt.y();
    }
    s.window = d->drawnWindow;
    s.buckets = d->buckets;
    s.logicalAxisMax = d->logicalPlot.y->max();
    s.logicalAxisTitle = d->logicalPlot.y->titleText();
    s.physicalAxisMax = d->physicalPlot.y->max();
    s.physicalAxisTitle = d->physicalPlot.y->titleText();
    s.timeAxisMin = d->bottomPlot().x->min();
    s.timeAxisMax = d->bottomPlot().x->max();
    s.timeAxisTitle = d->bottomPlot().x->titleText();
    s.logicalPlot = d->logicalPlot.chart->plotArea();
    s.physicalPlot = d->physicalPlot.chart->plotArea();
    for (const Plot *p : {&d->logicalPlot, &d->physicalPlot})
        for (QLegendMarker *m : p->chart->legend()->markers())
            if (m->isVisible())
                s.legend << m->label();
    for (const QString &h : std::as_const(d->hidden))
        s.hiddenSeries << h;
    s.hiddenSeries.sort();
    return s;
}

void MemoryChartPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    d->scheduleRebucket();
}

void MemoryChartPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        d->applyTheme();
        d->applyVisibility();
    }
}

} // namespace TraceInspector
