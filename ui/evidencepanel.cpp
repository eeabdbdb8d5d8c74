// SPDX-License-Identifier: MIT
#include "ui/evidencepanel.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/analysis/devicetime.h"
#include "core/analysis/evidenceanalysis.h"
#include "core/analysis/health.h"
#include "core/itemmodels/capabilitymodel.h"
#include "core/itemmodels/outsidedeviceworkmodel.h"
#include "core/display/format.h"
#include "core/itemmodels/viewcoverage.h"
#include "core/model/trace.h"
#include "ui/delegates/capabilitydelegate.h"
#include "ui/style/severitypalette.h"
#include "ui/widgets/scrollpage.h"

namespace TraceInspector {

namespace {

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

enum GapRole { SpanIndexOfGap = Qt::UserRole + 1 };

} // namespace

EvidencePanel::EvidencePanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new CapabilityModel(this))
    , m_contract(new QLabel(this))
    , m_matrix(new QTableView(this))
    , m_gaps(new QTreeWidget(this))
    , m_views(new QTreeWidget(this))
    , m_outsideModel(new OutsideDeviceWorkModel(this))
    , m_outsideDevice(new QTreeView(this))
{
    setObjectName(QStringLiteral("evidencePanel"));
    m_contract->setObjectName(QStringLiteral("captureContract"));
    m_contract->setTextFormat(Qt::PlainText);
    m_contract->setWordWrap(true);
    m_contract->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_matrix->setObjectName(QStringLiteral("capabilityMatrix"));
    m_matrix->setModel(m_model);
    m_matrix->setItemDelegateForColumn(CapabilityModel::LevelColumn, new CapabilityDelegate(m_matrix));
    m_matrix->verticalHeader()->hide();
    m_matrix->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_matrix->setAlternatingRowColors(true);
    m_matrix->setWordWrap(false);
    m_matrix->horizontalHeader()->setStretchLastSection(true);
    m_matrix->verticalHeader()->setDefaultSectionSize(m_matrix->fontMetrics().height() + 6);

    m_gaps->setObjectName(QStringLiteral("evidenceGaps"));
    m_gaps->setRootIsDecorated(false);
    m_gaps->setHeaderLabels({tr("Gap"), tr("Plane"), tr("What is missing")});
    m_gaps->setAlternatingRowColors(true);
    m_views->setObjectName(QStringLiteral("viewCoverage"));
    m_views->setRootIsDecorated(false);
    m_views->setHeaderLabels({tr("View"), tr("Coverage"), tr("Detail")});
    m_views->setAlternatingRowColors(true);
    m_outsideDevice->setObjectName(QStringLiteral("outsideDeviceWork"));
    m_outsideDevice->setModel(m_outsideModel);
    m_outsideDevice->setUniformRowHeights(true);
    m_outsideDevice->setAlternatingRowColors(true);
    m_outsideDevice->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_outsideDevice->setSelectionMode(QAbstractItemView::SingleSelection);
    m_outsideDevice->setAccessibleName(tr("Device work outside every span"));
    m_outsideDevice->setToolTip(
        tr("Device intervals whose span_id names no span of the trace: the span tree cannot "
           "attribute this work. Busy time is the union of the intervals per device, stream and "
           "clock, so overlapping intervals count once. Expand a lane to list its intervals; a "
           "click selects one in every view."));

    auto *matrixTitle = new QLabel(tr("Capability matrix"), this);
    auto *gapsTitle = new QLabel(tr("Evidence gaps"), this);
    auto *viewsTitle = new QLabel(tr("Coverage of each view"), this);
    auto *outsideTitle = new QLabel(tr("Device work outside every span"), this);
    for (QLabel *title : {matrixTitle, gapsTitle, viewsTitle, outsideTitle}) {
        QFont f = title->font();
        f.setBold(true);
        title->setFont(f);
    }
    const auto section = [this](QLabel *title, QWidget *body) {
        auto *w = new QWidget(this);
        auto *l = new QVBoxLayout(w);
        l->setContentsMargins(0, 0, 0, 0);
        l->setSpacing(2);
        l->addWidget(title);
        l->addWidget(body, 1);
        return w;
    };
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(section(matrixTitle, m_matrix));
    split->addWidget(section(gapsTitle, m_gaps));
    split->addWidget(section(viewsTitle, m_views));
    split->addWidget(section(outsideTitle, m_outsideDevice));
    split->setChildrenCollapsible(false);
    // Small minimums: the panel shares the window's height with the timeline and the chart,
    // and a small screen must still hold the whole window.
    for (QWidget *body : std::initializer_list<QWidget *>{m_matrix, m_gaps, m_views, m_outsideDevice})
        body->setMinimumHeight(3 * fontMetrics().height());
    // The matrix is the point of the panel: it gets the room, gaps and views what is left.
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 3);
    split->setStretchFactor(3, 1);

    // The four sections need ~240 px to show a row each. In a shorter panel they scroll as a
    // page rather than raise the window's least height past a 768-pixel screen's. The
    // contract stays outside: a scroll area sizes a page with a word-wrapped label to its
    // preferred height, not to the room there is.
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_contract);
    layout->addWidget(scrollPage(split, this), 1);

    connect(m_outsideDevice->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (m_showing)
                    return;
                const qint64 interval = m_outsideModel->intervalAt(current);
                if (interval < 0)
                    return;
                if (m_outsideModel->isLaneRow(current))
                    m_outsideDevice->expand(current);
                Q_EMIT deviceIntervalSelected(interval);
            });
    connect(m_gaps, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        const qint64 span = item->data(0, SpanIndexOfGap).toLongLong();
        if (span >= 0 && item->data(0, SpanIndexOfGap).isValid())
            Q_EMIT spanActivated(span);
    });
    clear();
}

EvidencePanel::~EvidencePanel() = default;

QString EvidencePanel::contractText() const
{
    return m_contract->text();
}

void EvidencePanel::clear()
{
    m_loaded.reset();
    m_model->setEvidence(nullptr);
    m_gaps->clear();
    m_views->clear();
    setOutsideNote(QString());
    m_contract->setText(tr("No trace loaded."));
}

void EvidencePanel::setLoadedTrace(LoadedTracePtr loaded)
{
    if (!loaded || !loaded->trace) {
        clear();
        return;
    }
    if (m_loaded && m_loaded->evidence == loaded->evidence && m_loaded->trace == loaded->trace
        && m_loaded->deviceTime == loaded->deviceTime)
        return;
    m_loaded = loaded;
    showOutsideDeviceWork();
    const Trace &trace = *loaded->trace;
    QStringList lines;
    if (!trace.meta) {
        lines << tr(
            "No meta record: the capture contract is unknown; every captured plane is of unknown completeness.");
    } else {
        const TraceMeta &m = *trace.meta;
        const CaptureContract &c = m.captureContract;
        lines << tr("Capture contract: measurement scope %1, %2 phase, timing mode %3%4.")
                     .arg(qs(measurementScopeName(c.measurementScope)), qs(phaseName(m.phase)),
                          qs(timingModeName(m.timingMode)),
                          m.measuredRegionDeviceSynchronized ? tr(", measured region device-synchronized") : QString());
        lines
            << tr("Declared coverage: operations %1, tensors %2, gradients %3, logical memory %4, physical memory %5, "
                  "device timing %6.")
                   .arg(qs(coverageLevelName(c.operations)), qs(coverageLevelName(c.tensors)),
                        qs(coverageLevelName(c.gradients)), qs(coverageLevelName(c.logicalMemory)),
                        qs(coverageLevelName(c.physicalMemory)), qs(coverageLevelName(c.deviceTiming)));
        if (!c.requiredSemanticLabels.empty()) {
            QStringList labels;
            for (const std::string &l : c.requiredSemanticLabels)
                labels << qs(l);
            lines << tr("Required semantic labels: %1").arg(labels.join(QStringLiteral(", ")));
        }
    }
    if (loaded->health) {
        lines << (loaded->health->structurallyValid ? tr("Structurally valid") : tr("Not structurally valid"))
                     + QStringLiteral("; ")
                     + (loaded->health->captureComplete ? tr("capture complete.") : tr("capture not complete."));
    }
    m_contract->setText(lines.join(u'\n'));

    m_model->setEvidence(loaded->evidence);
    m_gaps->clear();
    m_views->clear();
    if (!loaded->evidence) {
        m_gaps->addTopLevelItem(new QTreeWidgetItem(QStringList{tr("Computing the evidence analysis…")}));
        return;
    }
    const CapabilityMatrix &matrix = loaded->evidence->capabilities;
    QList<QTreeWidgetItem *> gapItems;
    for (const EvidenceGap &gap : matrix.gaps) {
        QString message = qs(gap.message);
        if (gap.code == "declared_not_captured" && gap.plane)
            message = tr("The capture contract declares %1 coverage of %2, but no records were captured.")
                          .arg(qs(coverageLevelName(*matrix.plane(*gap.plane).declared)),
                               ViewCoverageText::planeTitle(*gap.plane).toLower());
        else if (gap.code == "captured_not_declared" && gap.plane)
            message = tr("%1 records of %2 were captured although the capture contract declares none.")
                          .arg(matrix.plane(*gap.plane).records)
                          .arg(ViewCoverageText::planeTitle(*gap.plane).toLower());
        auto *item = new QTreeWidgetItem(
            QStringList{qs(gap.code), gap.plane ? ViewCoverageText::planeTitle(*gap.plane) : QString(), message});
        item->setIcon(0, SeverityPalette::icon(Severity::Warning));
        item->setToolTip(2, message);
        if (loaded->health && gap.finding < loaded->health->findings.size()) {
            const Problem &p = loaded->health->findings[gap.finding];
            if (p.relatedKind == RelatedKind::Span)
                item->setData(0, SpanIndexOfGap, qint64(trace.findSpan(std::string_view(p.relatedId))));
        }
        gapItems << item;
    }
    if (gapItems.isEmpty())
        gapItems << new QTreeWidgetItem(
            QStringList{tr("none"), QString(), tr("Every plane the contract declares was captured.")});
    m_gaps->addTopLevelItems(gapItems);

    QList<QTreeWidgetItem *> viewItems;
    for (int v = 0; v < kInspectorViewCount; ++v) {
        const ViewCoverage c = ViewCoverageText::coverage(matrix, InspectorView(v));
        auto *item = new QTreeWidgetItem(QStringList{ViewCoverageText::viewName(InspectorView(v)), c.text, c.detail});
        item->setIcon(1, SeverityPalette::toneIcon(!c.captured ? SeverityPalette::Tone::Warning
                                                   : c.level == CapabilityLevel::Complete
                                                       ? SeverityPalette::Tone::Success
                                                       : SeverityPalette::Tone::Information));
        item->setToolTip(2, c.detail);
        viewItems << item;
    }
    m_views->addTopLevelItems(viewItems);
    for (QTreeWidget *tree : {m_gaps, m_views}) {
        tree->resizeColumnToContents(0);
        tree->resizeColumnToContents(1);
    }
    m_matrix->resizeColumnsToContents();
}

void EvidencePanel::setOutsideNote(const QString &note)
{
    m_outsideModel->setNote(note);
    if (!note.isEmpty())
        m_outsideDevice->setFirstColumnSpanned(0, QModelIndex(), true);
}

void EvidencePanel::showOutsideDeviceWork()
{
    const Trace &trace = *m_loaded->trace;
    if (trace.deviceIntervals.empty()) {
        setOutsideNote(tr("Not captured: the trace has no device intervals."));
        return;
    }
    const DeviceTime *device = m_loaded->deviceTime.get();
    if (!device) {
        setOutsideNote(tr("Computing the device time…"));
        return;
    }
    if (device->outside().empty()) {
        // Spelled out rather than %n: "interval(s)" would show as is where no translation loads.
        setOutsideNote(device->intervalCount() == 1 ? tr("None: the one device interval belongs to a span.")
                                                    : tr("None: each of the %1 device intervals belongs to a span.")
                                                          .arg(formatCount(device->intervalCount())));
        return;
    }
    m_outsideModel->setDeviceTime(m_loaded->trace, m_loaded->deviceTime);
    m_outsideDevice->setFirstColumnSpanned(0, QModelIndex(), false);
    for (int c = 0; c < OutsideDeviceWorkModel::ColumnCount; ++c)
        m_outsideDevice->resizeColumnToContents(c);
}

void EvidencePanel::showDeviceInterval(qint64 interval)
{
    const QModelIndex row = m_outsideModel->indexOfInterval(interval);
    m_showing = true;
    if (row.isValid()) {
        m_outsideDevice->expand(row.parent());
        m_outsideDevice->setCurrentIndex(row);
        m_outsideDevice->scrollTo(row);
    } else {
        m_outsideDevice->selectionModel()->clear();
    }
    m_showing = false;
}

} // namespace TraceInspector
