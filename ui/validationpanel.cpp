// SPDX-License-Identifier: MIT
#include "ui/validationpanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/display/format.h"
#include "core/analysis/health.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/validationfilterproxymodel.h"
#include "core/itemmodels/validationgroupmodel.h"
#include "core/itemmodels/validationissuemodel.h"
#include "core/loading/problemdetails.h"
#include "core/analysis/problemlocator.h"
#include "core/loading/rawline.h"
#include "ui/style/severitydelegate.h"
#include "ui/style/severitypalette.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/tableactions.h"
#include "core/loading/workerpool.h"
#include "core/model/problemlimiter.h"

namespace TraceInspector {

namespace {

/// Whether \a stored is \a message as the problem list keeps it: whole, or, for a message
/// longer than 64 KB, a head of it followed by "… [N more bytes not shown]" (ProblemLimiter;
/// a decode error's line prefix is added after the cut, so the cut point varies).
bool storedFormOf(const std::string &stored, const std::string &message)
{
    if (stored == message)
        return true;
    constexpr std::string_view kMark = "… [";
    if (message.size() <= ProblemLimiter::kMaxMessageBytes || stored.size() >= message.size()
        || stored.size() < kMark.size() || stored.compare(stored.size() - 1, 1, "]") != 0)
        return false;
    const std::size_t mark = stored.rfind(kMark);
    return mark != std::string::npos
           && std::string_view(message).substr(0, mark) == std::string_view(stored).substr(0, mark);
}
constexpr int kFilterDelayMs = 250;
// Reasons are worked out from the lines up front for at most this many findings; any other
// is explained when selected.
constexpr std::size_t kReasonsUpFront = 500;
// Lines longer than this show cut, with their length.
constexpr qsizetype kLineBytesShown = 16 * 1024;
} // namespace

ValidationPanel::ValidationPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new ValidationIssueModel(this))
    , m_proxy(new ValidationFilterProxyModel(this))
    , m_groups(new ValidationGroupModel(this))
    , m_view(new QTreeView(this))
    , m_severity(new QComboBox(this))
    , m_filter(new QLineEdit(this))
    , m_groupBox(new QCheckBox(tr("&Group by rule"), this))
    , m_counts(new ElidedLabel(this))
    , m_file(new QLabel(this))
    , m_detail(new QTextBrowser(this))
    , m_filterTimer(new QTimer(this))
    , m_lineWatcher(new QFutureWatcher<RawLine>(this))
    , m_reasonWatcher(new QFutureWatcher<std::vector<std::pair<int, QString>>>(this))
{
    m_proxy->setSourceModel(m_model);
    m_groups->setSourceModel(m_proxy);

    m_severity->setObjectName(QStringLiteral("validationSeverity"));
    m_severity->addItem(tr("All severities"), QVariant::fromValue(ValidationFilterProxyModel::SeverityFilter::All));
    m_severity->addItem(tr("Errors only"), QVariant::fromValue(ValidationFilterProxyModel::SeverityFilter::Errors));
    m_severity->addItem(tr("Warnings only"), QVariant::fromValue(ValidationFilterProxyModel::SeverityFilter::Warnings));
    m_severity->setToolTip(tr("Show problems of this severity"));
    connect(m_severity, &QComboBox::currentIndexChanged, this, [this] {
        m_proxy->setSeverityFilter(m_severity->currentData().value<ValidationFilterProxyModel::SeverityFilter>());
        updateCounts();
    });

    m_filter->setObjectName(QStringLiteral("validationFilter"));
    m_filter->setPlaceholderText(tr("Filter by rule, code, line or message…"));
    m_filter->setClearButtonEnabled(true);
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(kFilterDelayMs);
    connect(m_filter, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_filterTimer, &QTimer::timeout, this, [this] {
        m_proxy->setText(m_filter->text());
        updateCounts();
    });
    m_groupBox->setObjectName(QStringLiteral("validationGroupByRule"));
    m_groupBox->setToolTip(tr("One row per rule with its count; expand a rule to see its findings"));
    connect(m_groupBox, &QCheckBox::toggled, this, &ValidationPanel::setGrouped);
    m_counts->setObjectName(QStringLiteral("validationCounts"));

    m_file->setObjectName(QStringLiteral("validationFile"));
    m_file->setTextFormat(Qt::PlainText);
    m_file->setWordWrap(true);
    m_file->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_view->setObjectName(QStringLiteral("validationView"));
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setSortingEnabled(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setItemDelegateForColumn(ValidationIssueModel::SeverityColumn, new SeverityDelegate(m_view));
    m_view->sortByColumn(ValidationIssueModel::LineColumn, Qt::AscendingOrder);
    // The message is what people read: it comes right after the rule and takes the room
    // left; the rarely known column position comes last.
    QHeaderView *header = m_view->header();
    header->moveSection(header->visualIndex(ValidationIssueModel::ColumnColumn), ValidationIssueModel::ColumnCount - 1);
    header->moveSection(header->visualIndex(ValidationIssueModel::MessageColumn),
                        header->visualIndex(ValidationIssueModel::RuleColumn) + 1);
    m_actions = new TableActions(m_view, QStringLiteral("problems"));
    m_actions->setIncludeHiddenColumns(true);
    m_actions->setColumnFits({{ValidationIssueModel::SeverityColumn, 10, 20, {}, false},
                              {ValidationIssueModel::LineColumn, 4, 10},
                              {ValidationIssueModel::RuleColumn, 10, 30},
                              {ValidationIssueModel::CodeColumn, 4, 24},
                              {ValidationIssueModel::ColumnColumn, 4, 8}},
                             ValidationIssueModel::MessageColumn);
    // Code and column are in the detail pane below; as columns they would take the room the
    // message needs. Hidden once the last section no longer stretches.
    header->setSectionHidden(ValidationIssueModel::CodeColumn, true);
    header->setSectionHidden(ValidationIssueModel::ColumnColumn, true);
    const auto locate = [this](const QModelIndex &row) {
        const int source = sourceRow(row);
        const Problem *p = m_model->problemAt(source);
        return p && m_loaded && m_loaded->trace ? locateProblem(*m_loaded->trace, *p) : ProblemLocation{};
    };
    m_actions->addRowAction(
        tr("Select &Span"), [this, locate](const QModelIndex &row) { Q_EMIT spanRequested(locate(row).spanIndex); },
        [locate](const QModelIndex &row) { return locate(row).spanIndex >= 0; }, QKeySequence(Qt::CTRL | Qt::Key_J));
    m_actions->addRowAction(
        tr("Select &Op"), [this, locate](const QModelIndex &row) { Q_EMIT opRequested(locate(row).opIndex); },
        [locate](const QModelIndex &row) { return locate(row).opIndex >= 0; });
    connect(m_view, &QTreeView::activated, this, &ValidationPanel::activate);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ValidationPanel::showDetail);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { Q_EMIT findingSelected(sourceRow(current)); });

    m_detail->setObjectName(QStringLiteral("validationDetail"));
    m_detail->setOpenLinks(false);
    m_detail->setPlaceholderText(tr("Select a finding to see its full message and its line in the file."));
    connect(m_lineWatcher, &QFutureWatcher<RawLine>::finished, this, &ValidationPanel::onLineRead);
    connect(m_reasonWatcher, &QFutureWatcher<std::vector<std::pair<int, QString>>>::finished, this, [this] {
        for (const auto &[row, reason] : m_reasonWatcher->result())
            m_model->setReason(row, reason);
        showDetail();
    });

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_severity);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_groupBox);
    bar->addWidget(m_counts);

    auto *listPane = new QWidget(this);
    auto *listLayout = new QVBoxLayout(listPane);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->setSpacing(2);
    listLayout->addWidget(m_file);
    listLayout->addWidget(m_view, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(listPane);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    updateCounts();
}

ValidationPanel::~ValidationPanel()
{
    for (QFutureWatcherBase *w :
         {static_cast<QFutureWatcherBase *>(m_lineWatcher), static_cast<QFutureWatcherBase *>(m_reasonWatcher)}) {
        w->disconnect();
        w->waitForFinished();
    }
}

void ValidationPanel::setLoadedTrace(LoadedTracePtr loaded)
{
    if (!loaded) {
        clear();
        return;
    }
    const bool sameLoad = m_loaded && m_loaded->generation == loaded->generation && m_loaded->path == loaded->path
                          && m_loaded->readProblems == loaded->readProblems;
    std::shared_ptr<const std::vector<Problem>> findings;
    if (loaded->health)
        findings = std::shared_ptr<const std::vector<Problem>>(loaded->health, &loaded->health->findings);
    if (sameLoad && loaded->health.get() == m_shownHealth) {
        m_loaded = std::move(loaded);
        return;
    }
    if (sameLoad) {
        m_model->setHealthFindings(findings);
    } else {
        m_model->setProblems(loaded->readProblems, findings);
        m_model->setTracePath(loaded->trace ? QString::fromStdString(loaded->trace->path) : loaded->path);
        m_file->setText(tr("Findings in %1").arg(QDir::toNativeSeparators(loaded->path)));
    }
    m_shownHealth = loaded->health.get();
    m_loaded = std::move(loaded);
    if (!sameLoad)
        explainTensorStats();
    if (isGrouped() && m_groups->groupCount() < 50)
        m_view->expandAll();
    updateCounts();
}

void ValidationPanel::explainTensorStats()
{
    // Which §4.6 rule each invalid tensor_stats record broke is in its line, which the trace
    // does not keep: read those lines (one pass over the file) off the GUI thread.
    std::vector<std::uint64_t> lines;
    std::vector<int> rows;
    for (int r = 0; r < m_model->rowCount() && rows.size() < kReasonsUpFront; ++r) {
        const Problem *p = m_model->problemAt(r);
        if (p && explanationNeedsLine(*p) && p->line > 0) {
            rows.push_back(r);
            lines.push_back(p->line);
        }
    }
    if (rows.empty() || !m_loaded)
        return;
    std::vector<Problem> problems;
    for (const int r : rows)
        problems.push_back(*m_model->problemAt(r));
    const QString path = m_loaded->path;
    m_reasonWatcher->setFuture(QtConcurrent::run(workerPool(), [path, lines, rows, problems] {
        const std::vector<RawLine> raw = RawLine::readMany(path, lines, kLineBytesShown);
        std::vector<std::pair<int, QString>> out;
        for (std::size_t i = 0; i < rows.size(); ++i)
            if (QString reason = explainProblem(problems[i], &raw[i]).reason; !reason.isEmpty())
                out.emplace_back(rows[i], std::move(reason));
        return out;
    }));
}

void ValidationPanel::clear()
{
    m_loaded.reset();
    m_shownHealth = nullptr;
    m_model->clear();
    m_file->clear();
    m_detail->clear();
    m_detailRow = -1;
    updateCounts();
}

void ValidationPanel::resetView()
{
    m_filterTimer->stop();
    m_filter->clear();
    m_proxy->setText(QString());
    m_severity->setCurrentIndex(0);
    setGrouped(false);
    m_view->sortByColumn(ValidationIssueModel::LineColumn, Qt::AscendingOrder);
    m_view->selectionModel()->clear();
    m_view->setCurrentIndex(QModelIndex());
    m_detail->clear();
    updateCounts();
}

void ValidationPanel::setGrouped(bool grouped)
{
    if (grouped == isGrouped())
        return;
    {
        const QSignalBlocker block(m_groupBox);
        m_groupBox->setChecked(grouped);
    }
    const int current = sourceRow(m_view->currentIndex());
    // The view keeps its header (and so the column order) across models.
    m_view->setModel(grouped ? static_cast<QAbstractItemModel *>(m_groups) : m_proxy);
    m_view->setRootIsDecorated(grouped);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ValidationPanel::showDetail);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &now) { Q_EMIT findingSelected(sourceRow(now)); });
    if (grouped && m_groups->groupCount() < 50)
        m_view->expandAll();
    if (current >= 0) {
        QModelIndex index = m_proxy->mapFromSource(m_model->index(current, 0));
        if (grouped)
            index = m_groups->mapFromSource(index);
        if (index.isValid()) {
            m_view->expand(index.parent());
            m_view->setCurrentIndex(index);
            m_view->scrollTo(index);
        }
    }
    m_actions->fitColumns();
}

bool ValidationPanel::isGrouped() const
{
    return m_view->model() == m_groups;
}

int ValidationPanel::sourceRow(const QModelIndex &viewIndex) const
{
    if (!viewIndex.isValid())
        return -1;
    QModelIndex proxyIndex = viewIndex;
    if (viewIndex.model() == m_groups)
        proxyIndex = m_groups->mapToSource(viewIndex);
    if (!proxyIndex.isValid())
        return -1; // a group row
    return m_proxy->mapToSource(proxyIndex).row();
}

const Problem *ValidationPanel::currentProblem() const
{
    return m_model->problemAt(sourceRow(m_view->currentIndex()));
}

bool ValidationPanel::selectProblem(const Problem &problem)
{
    int found = -1;
    for (int r = 0; r < m_model->rowCount() && found < 0; ++r) {
        const Problem *p = m_model->problemAt(r);
        if (p && p->line == problem.line && p->column == problem.column && p->severity == problem.severity
            && p->ruleId == problem.ruleId && storedFormOf(p->message, problem.message))
            found = r;
    }
    if (found < 0)
        return false;
    QModelIndex index = m_proxy->mapFromSource(m_model->index(found, 0));
    if (!index.isValid()) {
        // The filter hides it; showing what was asked for wins.
        m_filterTimer->stop();
        m_filter->clear();
        m_proxy->setText(QString());
        m_severity->setCurrentIndex(0);
        updateCounts();
        index = m_proxy->mapFromSource(m_model->index(found, 0));
    }
    if (isGrouped()) {
        index = m_groups->mapFromSource(index);
        m_view->expand(index.parent());
    }
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
    m_view->setFocus(Qt::OtherFocusReason);
    return true;
}

bool ValidationPanel::showFinding(int row)
{
    QModelIndex index =
        row >= 0 && row < m_model->rowCount() ? m_proxy->mapFromSource(m_model->index(row, 0)) : QModelIndex();
    if (index.isValid() && isGrouped()) {
        index = m_groups->mapFromSource(index);
        m_view->expand(index.parent());
    }
    // A finding the user's filter hides stays hidden: only the selection follows.
    if (!index.isValid()) {
        m_view->selectionModel()->clearSelection();
        return false;
    }
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
    return true;
}

int ValidationPanel::currentFinding() const
{
    return sourceRow(m_view->currentIndex());
}

void ValidationPanel::activate(const QModelIndex &viewIndex)
{
    const Problem *problem = m_model->problemAt(sourceRow(viewIndex));
    if (!problem || !m_loaded || !m_loaded->trace)
        return;
    Q_EMIT findingActivated(sourceRow(viewIndex));
    const ProblemLocation where = locateProblem(*m_loaded->trace, *problem);
    if (where.spanIndex >= 0)
        Q_EMIT spanRequested(where.spanIndex);
    if (where.opIndex >= 0)
        Q_EMIT opRequested(where.opIndex);
}

QString ValidationPanel::countText() const
{
    return m_counts->text();
}

QString ValidationPanel::detailText() const
{
    return m_detail->toPlainText();
}

void ValidationPanel::updateCounts()
{
    const int errors = m_model->errorCount();
    const int warnings = m_model->warningCount();
    const int total = errors + warnings;
    const auto both = [](int e, int w) {
        return tr("%1, %2").arg(tr("%1 error(s)", nullptr, e).arg(formatCount(std::uint64_t(e))),
                                tr("%1 warning(s)", nullptr, w).arg(formatCount(std::uint64_t(w))));
    };
    if (!m_loaded) {
        m_counts->setText(QString());
    } else if (total == 0) {
        m_counts->setText(m_loaded->health ? tr("No problems found") : tr("No load problems"));
    } else if (m_proxy->rowCount() == total) {
        m_counts->setText(both(errors, warnings));
    } else {
        // The count follows the filter: what is listed, out of everything found.
        int shownErrors = 0;
        const int shown = m_proxy->rowCount();
        for (int r = 0; r < shown; ++r) {
            const Problem *p = m_model->problemAt(m_proxy->mapToSource(m_proxy->index(r, 0)).row());
            shownErrors += p && p->severity == Severity::Error ? 1 : 0;
        }
        m_counts->setText(tr("%1 of %2 shown (%3)")
                              .arg(formatCount(std::uint64_t(shown)), formatCount(std::uint64_t(total)),
                                   both(shownErrors, shown - shownErrors)));
    }
    Q_EMIT countsChanged(errors, warnings);
}

void ValidationPanel::showDetail()
{
    const int row = sourceRow(m_view->currentIndex());
    const Problem *p = m_model->problemAt(row);
    m_detailRow = row;
    if (!p) {
        m_detail->clear();
        return;
    }
    const ProblemExplanation explanation = explainProblem(*p, nullptr);
    QString html = detailHeader(*p);
    if (const QString why = m_model->reason(row); !why.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(tr("Why: %1.").arg(why).toHtmlEscaped());
    if (!explanation.note.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(explanation.note.toHtmlEscaped());
    if (p->line == 0 || !m_loaded) {
        m_detail->setHtml(html);
        Q_EMIT detailShown();
        return;
    }
    m_detail->setHtml(html + QStringLiteral("<p><i>%1</i></p>").arg(tr("Reading line %1 of the file…").arg(p->line)));
    // The file may be a gigabyte: find the line off the GUI thread.
    const QString path = m_loaded->path;
    const std::uint64_t line = p->line;
    m_lineWatcher->setFuture(
        QtConcurrent::run(workerPool(), [path, line] { return RawLine::read(path, line, kLineBytesShown); }));
}

QString ValidationPanel::detailHeader(const Problem &p) const
{
    QString where = p.line > 0 ? tr(" · line %1").arg(p.line) : tr(" · the whole file");
    if (p.line > 0 && p.column > 0)
        where += tr(", column %1").arg(p.column);
    if (!p.code.empty())
        where += tr(" · code %1").arg(QString::fromStdString(p.code).toHtmlEscaped());
    return QStringLiteral("<p><b>%1 · %2</b>%3</p><p style='white-space:pre-wrap'>%4</p>")
        .arg(p.severity == Severity::Error ? tr("Error") : tr("Warning"),
             QString::fromStdString(p.ruleId).toHtmlEscaped(), where,
             QString::fromStdString(p.message).toHtmlEscaped());
}

void ValidationPanel::onLineRead()
{
    const RawLine raw = m_lineWatcher->result();
    const Problem *p = m_model->problemAt(m_detailRow);
    if (!p || p->line != raw.line)
        return; // another row was selected meanwhile
    QString html = detailHeader(*p);
    QString why = m_model->reason(m_detailRow);
    if (why.isEmpty() && explanationNeedsLine(*p))
        why = explainProblem(*p, &raw).reason;
    if (!why.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(tr("Why: %1.").arg(why).toHtmlEscaped());
    if (const QString note = explainProblem(*p, nullptr).note; !note.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(note.toHtmlEscaped());
    if (!raw.ok) {
        html += QStringLiteral("<p><i>%1</i></p>")
                    .arg(tr("Line %1 could not be read: %2").arg(raw.line).arg(raw.error).toHtmlEscaped());
    } else {
        const QColor mark = SeverityPalette::color(p->severity);
        QString text;
        // The column counts bytes of the trimmed line (§2): mark that byte.
        qsizetype lead = 0;
        while (lead < raw.bytes.size() && (raw.bytes[lead] == ' ' || raw.bytes[lead] == '\t'))
            ++lead;
        const qsizetype at = p->column > 0 ? lead + qsizetype(p->column) - 1 : -1;
        if (at >= 0 && at < raw.bytes.size()) {
            text = QString::fromUtf8(raw.bytes.left(at)).toHtmlEscaped()
                   + QStringLiteral("<span style='background:%1;color:%2'>%3</span>")
                         .arg(mark.name(), SeverityPalette::onToneColor().name(),
                              QString::fromUtf8(raw.bytes.mid(at, 1)).toHtmlEscaped())
                   + QString::fromUtf8(raw.bytes.mid(at + 1)).toHtmlEscaped();
        } else {
            text = QString::fromUtf8(raw.bytes).toHtmlEscaped();
        }
        html += QStringLiteral("<p><b>%1</b></p><pre style='white-space:pre-wrap'>%2</pre>")
                    .arg(raw.truncated ? tr("Line %1 as it is in the file (first %2 of %3 bytes):")
                                             .arg(raw.line)
                                             .arg(formatCount(std::uint64_t(raw.bytes.size())), formatCount(raw.length))
                                       : tr("Line %1 as it is in the file:").arg(raw.line),
                         text.isEmpty() ? tr("(blank)") : text);
    }
    m_detail->setHtml(html);
    Q_EMIT detailShown();
}

} // namespace TraceInspector
