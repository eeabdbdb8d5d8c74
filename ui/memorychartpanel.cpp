// SPDX-License-Identifier: MIT
#include "ui/memorychartpanel.h"

#include <cmath>
#include <functional>

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFutureWatcher>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPushButton>
#include <QRegularExpression>
#include <QRubberBand>
#include <QScatterSeries>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/analysis/format.h"
#include "core/analysis/memoryprofile.h"
#include "core/analysis/memoryseries.h"
#include "core/itemmodels/modelroles.h"
#include "core/model/trace.h"
#include "ui/peakallocationsmodel.h"

namespace TraceInspector {

namespace {

// Qualitative colours, long-lived categories in cool tones at the bottom of the stack.
QColor categoryColor(MemoryCategory c)
{
    switch (c) {
    case MemoryCategory::Parameter:
        return QColor(0x4c, 0x72, 0xb0);
    case MemoryCategory::Optimizer:
        return QColor(0x81, 0x72, 0xb3);
    case MemoryCategory::Gradient:
        return QColor(0xdd, 0x84, 0x52);
    case MemoryCategory::Activation:
        return QColor(0x55, 0xa8, 0x68);
    case MemoryCategory::Other:
        return QColor(0x93, 0x93, 0x93);
    }
    return Qt::gray;
}

QColor deviceColor(int i)
{
    static const QColor colors[] = {QColor(0x22, 0x22, 0x22), QColor(0xb0, 0x3a, 0x2e), QColor(0x1f, 0x5f, 0x8b),
                                    QColor(0x7d, 0x3c, 0x98), QColor(0x9a, 0x7d, 0x0a), QColor(0x11, 0x78, 0x64)};
    return colors[std::size_t(i) % std::size(colors)];
}

const QColor kPeakColor(0xc0, 0x39, 0x2b);

struct Unit {
    double factor = 1;
    QString name;
};

/// Time unit for axis labels, chosen by the magnitude of the times shown.
Unit timeUnit(const TimeWindow &w)
{
    const std::uint64_t m = w.end;
    if (m >= 10'000'000'000ull)
        return {1e9, QStringLiteral("s")};
    if (m >= 10'000'000ull)
        return {1e6, QStringLiteral("ms")};
    if (m >= 10'000ull)
        return {1e3, QStringLiteral("µs")};
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

QString qtext(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

/// The chart view: wheel zoom, band zoom, right-click zoom out and hover, reported through
/// callbacks so the panel owns every decision.
class ChartView : public QChartView
{
public:
    std::function<void(double x, double factor)> onWheelZoom;
    std::function<void(double x0, double x1)> onBandZoom;
    std::function<void(double x)> onZoomOut;
    std::function<void(double x, QPoint global)> onHover;
    std::function<void()> onResized;

    explicit ChartView(QChart *chart, QWidget *parent)
        : QChartView(chart, parent)
    {
        setRenderHint(QPainter::Antialiasing);
        setMouseTracking(true);
        setRubberBand(QChartView::NoRubberBand);
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
        if (e->button() == Qt::LeftButton && plot().contains(e->position())) {
            m_bandStart = e->position().x();
            m_banding = true;
            updateBand(e->position().x());
            m_band->show();
            e->accept();
            return;
        }
        QChartView::mousePressEvent(e);
    }
    void mouseMoveEvent(QMouseEvent *e) override
    {
        if (m_banding)
            updateBand(e->position().x());
        else if (onHover && plot().contains(e->position()))
            onHover(e->position().x() - plot().left(), e->globalPosition().toPoint());
        QChartView::mouseMoveEvent(e);
    }
    void mouseReleaseEvent(QMouseEvent *e) override
    {
        if (e->button() == Qt::LeftButton && m_banding) {
            m_banding = false;
            m_band->hide();
            const double x = std::clamp(e->position().x(), plot().left(), plot().right());
            if (std::abs(x - m_bandStart) >= 4 && onBandZoom)
                onBandZoom(m_bandStart - plot().left(), x - plot().left());
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
        m_band->setGeometry(QRectF(QPointF(std::min(x, m_bandStart), p.top()), QPointF(std::max(x, m_bandStart), p.bottom()))
                                .toRect());
    }

    QRubberBand *m_band = nullptr;
    double m_bandStart = 0;
    bool m_banding = false;
};

struct Layer {
    MemoryCategory category;
    int stackIndex;
    QLineSeries *upper;
    QLineSeries *lower;
    QAreaSeries *area;
};

struct PhysicalLine {
    QLineSeries *series;
    QString label;
};

struct Prepared {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const MemoryProfile> profile;
    std::shared_ptr<const MemorySeries> series;
};

} // namespace

struct MemoryChartPanel::Private {
    MemoryChartPanel *q = nullptr;

    // Data.
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const MemoryProfile> profile;
    std::shared_ptr<const MemorySeries> series;
    quint64 generation = 0;
    TimeWindow window;       // requested
    TimeWindow drawnWindow;  // what the series show
    int device = MemorySeries::kAllDevices;
    LogicalChartData logical;
    PhysicalChartData physical;
    Unit xUnit, yUnit, y2Unit;
    int buckets = 0;

    // Widgets.
    QComboBox *deviceBox = nullptr;
    QPushButton *resetButton = nullptr;
    QLabel *peakLabel = nullptr;
    QLabel *logicalNote = nullptr;
    QLabel *physicalNote = nullptr;
    QStackedWidget *chartStack = nullptr;
    QLabel *placeholder = nullptr;
    QChart *chart = nullptr;
    ChartView *view = nullptr;
    QValueAxis *axisX = nullptr;
    QValueAxis *axisY = nullptr;
    QValueAxis *axisY2 = nullptr;
    QScatterSeries *peakMarker = nullptr;
    QGraphicsSimpleTextItem *peakText = nullptr;
    std::vector<Layer> layers;
    std::vector<PhysicalLine> physicalLines;
    QLabel *tableTitle = nullptr;
    QTableView *table = nullptr;
    PeakAllocationsModel *model = nullptr;
    QSortFilterProxyModel *proxy = nullptr;
    QTimer *rebucketTimer = nullptr;
    QFutureWatcher<Prepared> *watcher = nullptr;

    void build();
    void onPrepared();
    void rebuildSeries();
    void rebucket();
    void scheduleRebucket() { rebucketTimer->start(); }
    int plotWidth() const;
    void zoomAt(double x, double factor);
    void showHover(double x, QPoint global);
    void updateNotes();
    void placePeakText();
    void updatePeakTexts();
    void applyDeviceFilter();
    TimeWindow fullRange() const;
};

TimeWindow MemoryChartPanel::Private::fullRange() const
{
    if (!series)
        return {};
    TimeWindow r = series->fullRange();
    // A trace whose memory records share one timestamp still gets a visible time axis.
    constexpr std::uint64_t kMinimum = 1000;
    if (!r.isEmpty() && r.length() < kMinimum) {
        const std::uint64_t pad = (kMinimum - r.length()) / 2;
        r.begin = r.begin > pad ? r.begin - pad : 0;
        r.end = r.begin + kMinimum;
    }
    return r;
}

void MemoryChartPanel::Private::build()
{
    auto *title = new QLabel(QStringLiteral("<b>Memory over time</b>"), q);
    deviceBox = new QComboBox(q);
    deviceBox->setObjectName(QStringLiteral("memoryDeviceSelector"));
    deviceBox->setToolTip(QStringLiteral("Show the memory of one device or of all devices"));
    deviceBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    resetButton = new QPushButton(QStringLiteral("Reset zoom"), q);
    resetButton->setObjectName(QStringLiteral("memoryResetZoom"));
    resetButton->setToolTip(QStringLiteral("Show the whole trace (wheel or drag to zoom, right-click to zoom out)"));
    peakLabel = new QLabel(q);
    peakLabel->setObjectName(QStringLiteral("memoryPeakLabel"));
    peakLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(title);
    top->addSpacing(12);
    top->addWidget(new QLabel(QStringLiteral("Device:"), q));
    top->addWidget(deviceBox);
    top->addSpacing(12);
    top->addWidget(peakLabel, 1);
    top->addWidget(resetButton);

    const QString noteStyle = QStringLiteral("QLabel { color: #7a5b00; background: #fff6d6; border: 1px solid #ecd9a0;"
                                             " border-radius: 3px; padding: 2px 6px; }");
    logicalNote = new QLabel(q);
    logicalNote->setObjectName(QStringLiteral("logicalMemoryNote"));
    logicalNote->setStyleSheet(noteStyle);
    physicalNote = new QLabel(q);
    physicalNote->setObjectName(QStringLiteral("physicalMemoryNote"));
    physicalNote->setStyleSheet(noteStyle);
    auto *notes = new QHBoxLayout;
    notes->setContentsMargins(0, 0, 0, 0);
    notes->addWidget(logicalNote);
    notes->addWidget(physicalNote);
    notes->addStretch(1);

    chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->legend()->setShowToolTips(true);
    QFont legendFont = chart->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    chart->legend()->setFont(legendFont);
    axisX = new QValueAxis(chart);
    axisY = new QValueAxis(chart);
    axisY2 = new QValueAxis(chart);
    for (QValueAxis *a : {axisX, axisY, axisY2}) {
        a->setTickCount(6);
        a->setMinorTickCount(1);
        QPen grid = a->gridLinePen();
        grid.setColor(QColor(0xe4, 0xe4, 0xe4));
        a->setGridLinePen(grid);
        QPen minor = a->minorGridLinePen();
        minor.setColor(QColor(0xf2, 0xf2, 0xf2));
        a->setMinorGridLinePen(minor);
    }
    axisY2->setGridLineVisible(false);
    axisY2->setMinorGridLineVisible(false);
    axisY2->setLabelsColor(QColor(0x55, 0x55, 0x55));
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    chart->addAxis(axisY2, Qt::AlignRight);

    peakMarker = new QScatterSeries(chart);
    peakMarker->setName(QStringLiteral("logical peak"));
    peakMarker->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    peakMarker->setMarkerSize(9);
    peakMarker->setColor(kPeakColor);
    peakMarker->setBorderColor(Qt::white);
    // A label of our own: Qt Charts centres point labels, which cuts them off at the edges.
    peakText = new QGraphicsSimpleTextItem(chart);
    QFont labelFont = peakText->font();
    labelFont.setBold(true);
    peakText->setFont(labelFont);
    peakText->setBrush(kPeakColor);
    peakText->setZValue(20);
    peakText->hide();
    QObject::connect(chart, &QChart::plotAreaChanged, q, [this] { placePeakText(); });

    view = new ChartView(chart, q);
    view->setObjectName(QStringLiteral("memoryChartView"));
    view->setMinimumHeight(180);
    view->onWheelZoom = [this](double x, double factor) { zoomAt(x, factor); };
    view->onZoomOut = [this](double x) { zoomAt(x, 2.0); };
    view->onBandZoom = [this](double x0, double x1) {
        q->setWindow(windowBetween(window, double(plotWidth()), x0, x1));
    };
    view->onHover = [this](double x, QPoint global) { showHover(x, global); };
    view->onResized = [this] { scheduleRebucket(); };

    placeholder = new QLabel(q);
    placeholder->setObjectName(QStringLiteral("memoryPlaceholder"));
    placeholder->setAlignment(Qt::AlignCenter);
    placeholder->setWordWrap(true);
    placeholder->setStyleSheet(QStringLiteral("QLabel { color: #666; font-size: 11pt; }"));
    chartStack = new QStackedWidget(q);
    chartStack->addWidget(placeholder);
    chartStack->addWidget(view);

    tableTitle = new QLabel(q);
    tableTitle->setObjectName(QStringLiteral("peakTableTitle"));
    model = new PeakAllocationsModel(q);
    proxy = new QSortFilterProxyModel(q);
    proxy->setSourceModel(model);
    proxy->setSortRole(SortRole);
    proxy->setFilterRole(DeviceRole);
    proxy->setFilterKeyColumn(PeakAllocationsModel::DeviceColumn);
    table = new QTableView(q);
    table->setObjectName(QStringLiteral("peakAllocationsTable"));
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(PeakAllocationsModel::BytesColumn, Qt::DescendingOrder);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setStretchLastSection(false);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->horizontalHeader()->setSectionResizeMode(PeakAllocationsModel::TensorIdsColumn, QHeaderView::Stretch);
    const int em = table->fontMetrics().horizontalAdvance(QLatin1Char('M'));
    const int widths[] = {12, 7, 7, 8, 16, 12, 9, 8};
    for (int c = 0; c < PeakAllocationsModel::ColumnCount; ++c)
        table->setColumnWidth(c, widths[c] * em);
    QObject::connect(table, &QTableView::activated, q, [this](const QModelIndex &index) {
        const QString span = index.data(SpanIdRole).toString();
        if (!span.isEmpty())
            emit q->spanActivated(span);
    });

    auto *tablePane = new QWidget(q);
    auto *tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 4, 0, 0);
    tableLayout->setSpacing(2);
    tableLayout->addWidget(tableTitle);
    tableLayout->addWidget(table);

    auto *chartPane = new QWidget(q);
    auto *chartLayout = new QVBoxLayout(chartPane);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->setSpacing(4);
    chartLayout->addLayout(notes);
    chartLayout->addWidget(chartStack, 1);

    auto *splitter = new QSplitter(Qt::Vertical, q);
    splitter->addWidget(chartPane);
    splitter->addWidget(tablePane);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
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
    QObject::connect(deviceBox, &QComboBox::currentIndexChanged, q, [this](int index) {
        const int wanted = index <= 0 ? MemorySeries::kAllDevices : index - 1;
        if (wanted == device)
            return;
        device = wanted;
        rebuildSeries();
        applyDeviceFilter();
        rebucket();
    });

    watcher = new QFutureWatcher<Prepared>(q);
    QObject::connect(watcher, &QFutureWatcher<Prepared>::finished, q, [this] { onPrepared(); });
}

int MemoryChartPanel::Private::plotWidth() const
{
    const double w = view->plot().width();
    // Before the first layout the plot area is empty; a typical width keeps the data useful.
    return w >= 16 ? int(w) : 1000;
}

void MemoryChartPanel::Private::zoomAt(double x, double factor)
{
    if (!series)
        return;
    const std::uint64_t anchor = xToTime(window, double(plotWidth()), x);
    q->setWindow(zoomWindow(window, anchor, factor, fullRange(), 100));
}

void MemoryChartPanel::Private::onPrepared()
{
    const Prepared p = watcher->result();
    if (p.trace != trace || p.profile != profile)
        return; // a newer setTrace() is pending
    series = p.series;
    {
        const QSignalBlocker block(deviceBox);
        deviceBox->clear();
        deviceBox->addItem(QStringLiteral("All devices"));
        for (const std::string &name : series->devices())
            deviceBox->addItem(QString::fromStdString(name));
        deviceBox->setCurrentIndex(0);
        deviceBox->setEnabled(series->devices().size() > 1);
    }
    device = MemorySeries::kAllDevices;
    window = fullRange();
    model->setProfile(trace, profile);
    applyDeviceFilter();
    rebuildSeries();
    rebucket();
    chartStack->setCurrentWidget(series->hasLogical() || series->hasPhysical() ? static_cast<QWidget *>(view)
                                                                                  : placeholder);
    emit q->chartReady();
}

void MemoryChartPanel::Private::rebuildSeries()
{
    // Series are recreated only when the selection changes; zooming just replaces points.
    // Attaching a series resets the axis range; with dynamic ticks still set for an
    // earlier, much shorter window, Qt Charts would lay out millions of ticks.
    axisX->setTickType(QValueAxis::TicksFixed);
    for (Layer &l : layers) {
        chart->removeSeries(l.area);
        delete l.area; // owns its line series
    }
    layers.clear();
    for (PhysicalLine &l : physicalLines) {
        chart->removeSeries(l.series);
        delete l.series;
    }
    physicalLines.clear();
    if (chart->series().contains(peakMarker))
        chart->removeSeries(peakMarker);
    peakText->hide();
    if (!series)
        return;

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
            fill.setAlpha(200);
            area->setBrush(fill);
            QPen border(categoryColor(cat).darker(125));
            border.setWidthF(1.0);
            area->setPen(border);
            chart->addSeries(area);
            area->attachAxis(axisX);
            area->attachAxis(axisY);
            layers.push_back({cat, k, upper, lower, area});
        }
    }
    if (series->hasPhysical(device)) {
        const PhysicalChartData probe = series->physical(device, {}, 0);
        const bool severalDevices = probe.devices.size() > 1;
        for (const PhysicalDeviceSeries &dev : probe.devices) {
            const QString name = QString::fromStdString(series->devices()[std::size_t(dev.device)]);
            const QColor color = deviceColor(severalDevices ? dev.device : 0);
            const auto add = [&](const QString &what, const QColor &penColor, Qt::PenStyle style, double width) {
                auto *line = new QLineSeries;
                line->setName(QStringLiteral("%1 %2").arg(name, what));
                QPen pen(penColor);
                pen.setStyle(style);
                pen.setWidthF(width);
                line->setPen(pen);
                chart->addSeries(line);
                line->attachAxis(axisX);
                line->attachAxis(axisY2);
                physicalLines.push_back({line, what + QLatin1Char(' ') + name});
            };
            if (dev.hasUsed)
                add(QStringLiteral("used"), color, Qt::DashLine, 1.6);
            if (dev.hasReserved) {
                // Same hue, paler and dotted: it pairs with its device's "used" line.
                const auto pale = [](float c) { return c * 0.55f + 0.27f; };
                add(QStringLiteral("reserved"), QColor::fromRgbF(pale(color.redF()), pale(color.greenF()), pale(color.blueF())),
                    Qt::DotLine, 1.8);
            }
        }
    }
    chart->addSeries(peakMarker);
    peakMarker->attachAxis(axisX);
    peakMarker->attachAxis(axisY);
    for (QLegendMarker *m : chart->legend()->markers(peakMarker))
        m->setVisible(false); // the marker labels itself
    axisY2->setVisible(!physicalLines.empty());
    axisY->setVisible(!layers.empty());
    updateNotes();
}

void MemoryChartPanel::Private::rebucket()
{
    if (!series)
        return;
    if (window.isEmpty())
        window = fullRange();
    buckets = plotWidth();
    drawnWindow = window;
    logical = series->logical(device, window, buckets);
    physical = series->physical(device, window, buckets);

    xUnit = timeUnit(window);
    yUnit = byteUnit(std::max<std::uint64_t>(logical.maxBytes, 1));
    y2Unit = byteUnit(std::max<std::uint64_t>(physical.maxBytes, 1));
    const double xf = xUnit.factor;

    for (const Layer &l : layers) {
        QList<QPointF> up, low;
        up.reserve(qsizetype(logical.columns.size()));
        if (l.lower)
            low.reserve(qsizetype(logical.columns.size()));
        // The layer below is the stack level under this category (absent categories are 0).
        for (const StackedColumn &c : logical.columns) {
            const double x = double(c.timeNs) / xf;
            up.append(QPointF(x, double(c.stack[std::size_t(l.stackIndex)]) / yUnit.factor));
            if (l.lower)
                low.append(QPointF(x, l.stackIndex > 0 ? double(c.stack[std::size_t(l.stackIndex - 1)]) / yUnit.factor : 0.0));
        }
        l.upper->replace(up);
        if (l.lower)
            l.lower->replace(low);
    }
    std::size_t line = 0;
    for (const PhysicalDeviceSeries &dev : physical.devices) {
        for (const auto &[has, points] : {std::pair{dev.hasUsed, &dev.used}, std::pair{dev.hasReserved, &dev.reserved}}) {
            if (!has || line >= physicalLines.size())
                continue;
            QList<QPointF> pts;
            pts.reserve(qsizetype(points->size()));
            for (const ChartPoint &p : *points)
                pts.append(QPointF(double(p.timeNs) / xf, double(p.bytes) / y2Unit.factor));
            // Sparse samples are drawn as dots too: a lone sample makes no line.
            QLineSeries *target = physicalLines[line++].series;
            target->setPointsVisible(pts.size() <= 64);
            target->replace(pts);
        }
    }

    QList<QPointF> marker;
    if (logical.known && logical.peakTimeNs && window.contains(*logical.peakTimeNs)) {
        marker.append(QPointF(double(*logical.peakTimeNs) / xf, double(*logical.peakBytes) / yUnit.factor));
        peakText->setText(QStringLiteral("peak %1").arg(formatBytes(*logical.peakBytes)));
    }
    peakMarker->replace(marker);

    // Axes: the window exactly, bytes from 0 with head room for the peak label.
    // Ticks on round values (1, 2 or 5 × 10^k) whatever the window.
    const double span = std::max(double(window.length()) / xf, 1e-9);
    const double raw = span / 6;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double norm = raw / magnitude;
    const double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude;
    const int decimals = std::clamp(-int(std::floor(std::log10(step) + 1e-9)), 0, 9);
    // Range first, ticks after: the other order lays out old-interval ticks over the new range.
    axisX->setTickType(QValueAxis::TicksFixed);
    axisX->setRange(double(window.begin) / xf, double(window.end) / xf);
    axisX->setTickAnchor(0);
    axisX->setTickInterval(step);
    axisX->setTickType(QValueAxis::TicksDynamic);
    axisX->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
    axisX->setTitleText(QStringLiteral("Time since run start (%1)").arg(xUnit.name));
    const auto setBytesAxis = [](QValueAxis *a, std::uint64_t max, const Unit &u, const QString &title) {
        const double top = std::max(double(max) / u.factor * 1.12, 1.0);
        a->setRange(0, top);
        a->applyNiceNumbers();
        a->setLabelFormat(QStringLiteral("%.4g"));
        a->setTitleText(title.arg(u.name));
    };
    setBytesAxis(axisY, logical.maxBytes, yUnit, QStringLiteral("Logical (%1)"));
    setBytesAxis(axisY2, physical.maxBytes, y2Unit, QStringLiteral("Device (%1)"));
    resetButton->setEnabled(window != fullRange());
    updatePeakTexts();
    placePeakText();
}

void MemoryChartPanel::Private::placePeakText()
{
    if (peakMarker->count() == 0 || !chart->series().contains(peakMarker)) {
        peakText->hide();
        return;
    }
    const QRectF plot = chart->plotArea();
    const QPointF at = chart->mapToPosition(peakMarker->at(0), peakMarker);
    const QRectF box = peakText->boundingRect();
    double x = at.x() + 8;
    if (x + box.width() > plot.right() - 2)
        x = at.x() - 8 - box.width();
    const double y = std::max(plot.top() + 2, at.y() - box.height() - 4);
    peakText->setPos(x, y);
    peakText->show();
}

void MemoryChartPanel::Private::updateNotes()
{
    QString l, p;
    if (series) {
        const QString where = device == MemorySeries::kAllDevices
            ? QStringLiteral("in this trace")
            : QStringLiteral("for %1").arg(QString::fromStdString(series->devices()[std::size_t(device)]));
        if (!series->hasLogical(device))
            l = QStringLiteral("Logical memory: unknown (no memory records %1)").arg(where);
        if (!series->hasPhysical(device))
            p = QStringLiteral("Physical memory: unknown (no device_memory samples %1)").arg(where);
    }
    logicalNote->setText(l);
    logicalNote->setVisible(!l.isEmpty());
    physicalNote->setText(p);
    physicalNote->setVisible(!p.isEmpty());
    placeholder->setText(l + QLatin1Char('\n') + p);
    if (series && !series->hasLogical() && !series->hasPhysical())
        chartStack->setCurrentWidget(placeholder);
    else if (series)
        chartStack->setCurrentWidget(view);
}

void MemoryChartPanel::Private::updatePeakTexts()
{
    if (logical.known && logical.peakBytes) {
        const QString who = device == MemorySeries::kAllDevices
            ? QStringLiteral("Logical peak")
            : QStringLiteral("Logical peak on %1").arg(QString::fromStdString(series->devices()[std::size_t(device)]));
        peakLabel->setText(QStringLiteral("%1: <b>%2</b> at %3").arg(who, formatBytes(*logical.peakBytes),
                                                                    formatTimestamp(*logical.peakTimeNs)));
    } else if (logical.known) {
        peakLabel->setText(QStringLiteral("No logical peak (no storage was allocated)"));
    } else {
        peakLabel->clear();
    }
    const auto &peak = profile && profile->logical ? profile->logical->peak() : std::optional<LogicalMemoryPeak>();
    if (peak) {
        const int shown = proxy->rowCount();
        const std::size_t n = peak->liveAllocations.size();
        QString text = QStringLiteral("Allocations live at the logical peak (%1 at %2): %3 %4")
                           .arg(formatBytes(peak->liveBytes), formatTimestamp(peak->timestampNs), formatCount(n),
                                n == 1 ? QStringLiteral("storage") : QStringLiteral("storages"));
        if (device != MemorySeries::kAllDevices)
            text += QStringLiteral(", %1 on %2").arg(formatCount(std::uint64_t(shown)),
                                                     QString::fromStdString(series->devices()[std::size_t(device)]));
        tableTitle->setText(text);
    } else {
        tableTitle->setText(profile && profile->logical ? QStringLiteral("No logical peak: no storage was allocated")
                                                        : QStringLiteral("No allocations to show: no memory records"));
    }
}

void MemoryChartPanel::Private::applyDeviceFilter()
{
    if (device == MemorySeries::kAllDevices || !series) {
        proxy->setFilterRegularExpression(QRegularExpression());
        return;
    }
    const QString name = QString::fromStdString(series->devices()[std::size_t(device)]);
    proxy->setFilterRegularExpression(QRegularExpression(QRegularExpression::anchoredPattern(QRegularExpression::escape(name))));
}

void MemoryChartPanel::Private::showHover(double x, QPoint global)
{
    if (!series || window.isEmpty())
        return;
    const std::uint64_t t = xToTime(window, double(plotWidth()), x);
    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(formatTimestamp(t));
    if (logical.known && !logical.columns.empty()) {
        // The last column at or before t (columns are in time order).
        const auto it = std::upper_bound(logical.columns.begin(), logical.columns.end(), t,
                                         [](std::uint64_t v, const StackedColumn &c) { return v < c.timeNs; });
        if (it != logical.columns.begin()) {
            const StackedColumn &c = *std::prev(it);
            lines << QStringLiteral("Logical live%1: <b>%2</b>")
                         .arg(logical.downsampled ? QStringLiteral(" (≈, bucketed)") : QString(), formatBytes(c.stack.back()));
            for (const Layer &l : layers) {
                const std::uint64_t below = l.stackIndex > 0 ? c.stack[std::size_t(l.stackIndex - 1)] : 0;
                const std::uint64_t mine = c.stack[std::size_t(l.stackIndex)] - below;
                if (mine > 0)
                    lines << QStringLiteral("&nbsp;&nbsp;%1: %2").arg(qtext(memoryCategoryName(l.category)), formatBytes(mine));
            }
        }
    }
    for (const PhysicalDeviceSeries &dev : physical.devices) {
        const QString name = QString::fromStdString(series->devices()[std::size_t(dev.device)]);
        for (const auto &[label, points] : {std::pair{QStringLiteral("used"), &dev.used},
                                            std::pair{QStringLiteral("reserved"), &dev.reserved}}) {
            const auto it = std::upper_bound(points->begin(), points->end(), t,
                                             [](std::uint64_t v, const ChartPoint &p) { return v < p.timeNs; });
            if (it == points->begin())
                continue;
            const ChartPoint &p = *std::prev(it);
            lines << QStringLiteral("%1 %2: %3 <span style='color:#777'>(sample at %4)</span>")
                         .arg(name, label, formatBytes(p.bytes), formatTimestamp(p.timeNs));
        }
    }
    QToolTip::showText(global, lines.join(QStringLiteral("<br>")), view);
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
    d->watcher->disconnect();
    d->watcher->waitForFinished();
}

void MemoryChartPanel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile)
{
    clear();
    if (!trace || !profile)
        return;
    d->trace = trace;
    d->profile = profile;
    d->placeholder->setText(QStringLiteral("Preparing the memory chart…"));
    d->watcher->setFuture(QtConcurrent::run([trace, profile] {
        return Prepared{trace, profile, std::make_shared<const MemorySeries>(*trace, *profile)};
    }));
}

void MemoryChartPanel::clear()
{
    d->trace.reset();
    d->profile.reset();
    d->series.reset();
    d->logical = {};
    d->physical = {};
    d->window = {};
    d->drawnWindow = {};
    d->buckets = 0;
    d->device = MemorySeries::kAllDevices;
    d->rebuildSeries();
    {
        const QSignalBlocker block(d->deviceBox);
        d->deviceBox->clear();
        d->deviceBox->addItem(QStringLiteral("All devices"));
        d->deviceBox->setEnabled(false);
    }
    d->model->clear();
    d->peakLabel->clear();
    d->tableTitle->setText(QStringLiteral("Allocations live at the logical peak"));
    d->resetButton->setEnabled(false);
    d->logicalNote->hide();
    d->physicalNote->hide();
    d->placeholder->setText(QStringLiteral("No trace loaded"));
    d->chartStack->setCurrentWidget(d->placeholder);
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
}

void MemoryChartPanel::resetZoom()
{
    setWindow(d->fullRange());
}

MemoryChartPanel::DrawnState MemoryChartPanel::drawnState() const
{
    DrawnState s;
    s.ready = d->series != nullptr;
    s.logicalKnown = d->logical.known;
    s.physicalKnown = d->physical.known;
    s.logicalNote = d->logicalNote->text();
    s.physicalNote = d->physicalNote->text();
    for (const Layer &l : d->layers) {
        s.layers << qtext(memoryCategoryName(l.category));
        s.layerPointCounts << int(l.upper->count());
    }
    for (const PhysicalLine &l : d->physicalLines) {
        s.physicalLines << l.label;
        s.physicalPointCounts << int(l.series->count());
    }
    s.downsampled = d->logical.downsampled;
    if (d->peakMarker->count() > 0) {
        s.peakTimeNs = d->logical.peakTimeNs;
        s.peakBytes = d->logical.peakBytes;
    }
    s.window = d->drawnWindow;
    s.buckets = d->buckets;
    return s;
}

void MemoryChartPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    d->scheduleRebucket();
}

} // namespace TraceInspector
