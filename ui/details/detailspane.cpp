// SPDX-License-Identifier: MIT
#include "ui/details/detailspane.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include "core/analysis/spantree.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/recordfieldsmodel.h"
#include "core/itemmodels/spancontentsmodel.h"
#include "core/model/trace.h"
#include "ui/style/severitypalette.h"

namespace TraceInspector {
namespace {

RelatedKind relatedKindOf(Selection::Kind kind)
{
    switch (kind) {
    case Selection::Kind::Span: return RelatedKind::Span;
    case Selection::Kind::Op: return RelatedKind::Op;
    case Selection::Kind::DeviceInterval: return RelatedKind::DeviceInterval;
    case Selection::Kind::Tensor: return RelatedKind::Tensor;
    case Selection::Kind::MemoryEvent: return RelatedKind::Storage;
    case Selection::Kind::Gradient: return RelatedKind::Gradient;
    default: return RelatedKind::None;
    }
}

} // namespace

DetailsPane::DetailsPane(QWidget *parent)
    : QWidget(parent)
    , m_fields(new RecordFieldsModel(this))
    , m_contents(new SpanContentsModel(this))
    , m_contentsProxy(new QSortFilterProxyModel(this))
    , m_reader(new RawLineReader(this))
    , m_title(new QLabel(this))
    , m_fieldsView(new QTreeView(this))
    , m_tabs(new QTabWidget(this))
    , m_contentsView(new QTableView(this))
    , m_findingsView(new QListWidget(this))
    , m_raw(new QPlainTextEdit(this))
    , m_copyLine(new QPushButton(tr("Copy line"), this))
    , m_copyFields(new QPushButton(tr("Copy fields"), this))
{
    m_title->setTextFormat(Qt::PlainText);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);

    m_fieldsView->setModel(m_fields);
    m_fieldsView->setUniformRowHeights(true);
    m_fieldsView->setAlternatingRowColors(true);
    m_fieldsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_fieldsView->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_fieldsView->header()->setStretchLastSection(true);
    m_fieldsView->setAccessibleName(tr("Record fields"));

    m_contentsProxy->setSourceModel(m_contents);
    m_contentsProxy->setSortRole(SortRole);
    m_contentsView->setModel(m_contentsProxy);
    m_contentsView->setSortingEnabled(true);
    m_contentsView->sortByColumn(-1, Qt::AscendingOrder);
    m_contentsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_contentsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_contentsView->verticalHeader()->hide();
    m_contentsView->verticalHeader()->setDefaultSectionSize(m_contentsView->fontMetrics().height() + 6);
    // Fixed starting widths: ResizeToContents would measure up to a thousand rows on every
    // selection (the root span of a large trace lists thousands of tensors).
    QHeaderView *header = m_contentsView->horizontalHeader();
    const QFontMetrics fm = m_contentsView->fontMetrics();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->resizeSection(SpanContentsModel::KindColumn, fm.horizontalAdvance(QStringLiteral("tensor__")) + 12);
    for (int c :
         {int(SpanContentsModel::StartColumn), int(SpanContentsModel::DurationColumn),
          int(SpanContentsModel::SelfColumn), int(SpanContentsModel::ShareColumn), int(SpanContentsModel::BytesColumn)})
        header->resizeSection(c, fm.horizontalAdvance(QStringLiteral("12.345 678 s")) + 12);
    header->setSectionResizeMode(SpanContentsModel::NameColumn, QHeaderView::Stretch);
    m_contentsView->setWordWrap(false);
    m_contentsView->setAccessibleName(tr("Contents of the span"));
    m_findingsView->setAccessibleName(tr("Findings that name the selection"));
    m_findingsView->setWordWrap(true);

    m_tabs->addTab(m_contentsView, tr("Contents"));
    m_tabs->addTab(m_findingsView, tr("Findings"));

    m_raw->setReadOnly(true);
    m_raw->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_raw->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_raw->setPlaceholderText(tr("The raw JSONL line of the selected record"));
    m_raw->setAccessibleName(tr("Raw JSONL line"));
    m_copyLine->setToolTip(tr("Copy the raw JSONL line(s) to the clipboard"));
    m_copyFields->setToolTip(tr("Copy every field and derived value as text"));

    auto *rawBox = new QWidget(this);
    auto *rawLayout = new QVBoxLayout(rawBox);
    rawLayout->setContentsMargins(0, 0, 0, 0);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(new QLabel(tr("Raw JSONL"), rawBox));
    buttons->addStretch(1);
    buttons->addWidget(m_copyFields);
    buttons->addWidget(m_copyLine);
    rawLayout->addLayout(buttons);
    rawLayout->addWidget(m_raw);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_fieldsView);
    splitter->addWidget(m_tabs);
    splitter->addWidget(rawBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addWidget(splitter, 1);

    connect(m_reader, &RawLineReader::linesRead, this, &DetailsPane::onLinesRead);
    // The contents of a big trace's span grow once the tensor and memory index lands.
    connect(m_contents, &QAbstractItemModel::modelReset, this, [this] {
        m_tabs->setTabText(0, m_contents->spanIndex() >= 0 ? tr("Contents of the span (%1)").arg(m_contents->rowCount())
                                                           : tr("Contents"));
    });
    connect(m_copyLine, &QPushButton::clicked, this, &DetailsPane::copyRawLine);
    connect(m_copyFields, &QPushButton::clicked, this, &DetailsPane::copyFields);
    connect(m_contentsView, &QTableView::clicked, this, [this](const QModelIndex &index) {
        const Selection s = selectionOfContentsRow(index);
        if (s.isValid())
            Q_EMIT selectRequested(s);
    });
    connect(m_contentsView, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        const Selection s = selectionOfContentsRow(index);
        if (s.isValid())
            Q_EMIT activateRequested(s);
    });
    auto findingSelection = [this](QListWidgetItem *item) -> Selection {
        const int row = m_findingsView->row(item);
        if (!m_trace || !m_findings || row < 0 || std::size_t(row) >= m_findingRows.size())
            return {};
        const qint64 f = m_findingRows[std::size_t(row)];
        return Selection::fromProblem((*m_findings)[std::size_t(f)], f, *m_trace);
    };
    connect(m_findingsView, &QListWidget::itemClicked, this, [this, findingSelection](QListWidgetItem *item) {
        const Selection s = findingSelection(item);
        if (s.isValid())
            Q_EMIT selectRequested(s);
    });
    connect(m_findingsView, &QListWidget::itemDoubleClicked, this, [this, findingSelection](QListWidgetItem *item) {
        const Selection s = findingSelection(item);
        if (s.isValid())
            Q_EMIT activateRequested(s);
    });
    setSelection({});
}

DetailsPane::~DetailsPane() = default;

void DetailsPane::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                           const RecordExtents *extents)
{
    m_trace = std::move(trace);
    m_tree = std::move(tree);
    if (!m_trace || !m_tree) {
        m_trace.reset();
        m_tree.reset();
    }
    m_fields->setTrace(m_trace, m_tree, m_trace ? extents : nullptr);
    m_contents->setTrace(m_trace, m_tree);
    m_reader->setFile(m_trace ? QString::fromStdString(m_trace->path) : QString(), m_trace ? m_trace->fileBytes : 0);
    m_selection = Selection{Selection::Kind::None, -2, -2}; // force a refresh
    setSelection({});
}

void DetailsPane::prepareRawLines()
{
    m_reader->prepare();
}

bool DetailsPane::isRawLineIndexed() const
{
    return m_reader->isIndexed();
}

void DetailsPane::setFindings(std::shared_ptr<const std::vector<Problem>> findings)
{
    m_findings = std::move(findings);
    const Selection s = m_selection;
    m_selection = Selection{Selection::Kind::None, -2, -2};
    setSelection(s);
}

QString DetailsPane::rawText() const
{
    return m_raw->toPlainText();
}

QString DetailsPane::title() const
{
    return m_title->text();
}

int DetailsPane::findingCount() const
{
    return int(m_findingRows.size());
}

QList<quint64> DetailsPane::linesOf(const Selection &s) const
{
    if (!m_trace || !s.isRecord())
        return {};
    const auto i = std::size_t(s.index);
    const Trace &t = *m_trace;
    switch (s.kind) {
    case Selection::Kind::Span:
        if (i < t.spans.size()) {
            QList<quint64> lines{t.spans[i].startLine};
            if (t.spans[i].endLine != 0)
                lines << t.spans[i].endLine;
            return lines;
        }
        break;
    case Selection::Kind::Op:
        if (i < t.ops.size())
            return {t.ops[i].line};
        break;
    case Selection::Kind::DeviceInterval:
        if (i < t.deviceIntervals.size())
            return {t.deviceIntervals[i].line};
        break;
    case Selection::Kind::Tensor:
        if (i < t.tensors.size())
            return {t.tensors[i].line};
        break;
    case Selection::Kind::MemoryEvent:
        if (i < t.memory.size())
            return {t.memory[i].line};
        break;
    case Selection::Kind::Gradient:
        if (i < t.gradients.size())
            return {t.gradients[i].line};
        break;
    default: break;
    }
    return {};
}

void DetailsPane::setSelection(const Selection &selection)
{
    if (selection == m_selection)
        return;
    m_selection = selection;
    const Problem *finding = m_findings && selection.finding >= 0 && std::size_t(selection.finding) < m_findings->size()
                                 ? &(*m_findings)[std::size_t(selection.finding)]
                                 : nullptr;
    const RelatedKind kind = relatedKindOf(selection.kind);
    if (finding)
        m_fields->setProblem(*finding, kind, selection.index);
    else
        m_fields->setRecord(kind, selection.index);
    m_fieldsView->expandAll();
    m_title->setText(m_fields->title().isEmpty() ? tr("Nothing selected") : m_fields->title());

    // Contents: the span itself, or the span an op, tensor, interval or event belongs to.
    const qint64 span = m_trace && m_tree ? selection.spanIndex(*m_trace, *m_tree) : -1;
    m_contents->setSpan(span); // its reset names the tab
    updateFindings();

    // Raw lines: a finding's own line, else the record's lines.
    QList<quint64> lines = linesOf(selection);
    if (finding && finding->line > 0 && !lines.contains(finding->line))
        lines.prepend(finding->line);
    m_raw->clear();
    m_pendingRequest = 0;
    if (lines.isEmpty()) {
        m_raw->setPlaceholderText(selection.isValid() ? tr("This selection has no line of its own")
                                                      : tr("The raw JSONL line of the selected record"));
        m_copyLine->setEnabled(false);
        return;
    }
    if (!m_trace || m_trace->path.empty()) {
        m_raw->setPlainText(tr("The trace was not read from a file: there is no raw line to show."));
        m_copyLine->setEnabled(false);
        Q_EMIT rawLineShown();
        return;
    }
    m_raw->setPlaceholderText(tr("Reading line %1\u2026").arg(lines.front()));
    m_copyLine->setEnabled(false);
    m_pendingRequest = m_reader->request(lines);
}

void DetailsPane::onLinesRead(quint64 requestId, const QList<SourceLine> &lines, const QString &error)
{
    if (requestId != m_pendingRequest)
        return; // an answer for an older selection
    m_pendingRequest = 0;
    QString text;
    for (const SourceLine &line : lines) {
        if (!text.isEmpty())
            text += u'\n';
        text += QString::fromUtf8(line.text);
        if (line.truncated)
            text +=
                tr(" \u2026 (line %1 is longer than %2 bytes; cut)").arg(line.number).arg(RawLineReader::kMaxLineBytes);
    }
    if (!error.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral("\n")) + error;
    m_raw->setPlainText(text);
    QStringList numbers;
    for (const SourceLine &line : lines)
        numbers << QString::number(line.number);
    m_raw->setToolTip(
        numbers.isEmpty() ? QString() : tr("Line %1 of %2").arg(numbers.join(QStringLiteral(", ")), m_reader->path()));
    m_copyLine->setEnabled(!lines.isEmpty());
    Q_EMIT rawLineShown();
}

void DetailsPane::updateFindings()
{
    m_findingsView->clear();
    m_findingRows.clear();
    if (m_findings && m_trace && m_selection.isValid()) {
        const Selection &s = m_selection;
        const RelatedKind kind = relatedKindOf(s.kind);
        const std::string spanId = s.kind == Selection::Kind::Span && std::size_t(s.index) < m_trace->spans.size()
                                       ? std::string(m_trace->str(m_trace->spans[std::size_t(s.index)].id))
                                       : std::string();
        for (std::size_t f = 0; f < m_findings->size(); ++f) {
            const Problem &p = (*m_findings)[f];
            bool names = qint64(f) == s.finding;
            if (!names && kind != RelatedKind::None && p.relatedKind == kind) {
                names = p.relatedIndex != UINT64_MAX ? qint64(p.relatedIndex) == s.index
                                                     : (!spanId.empty() && p.relatedId == spanId);
            }
            if (!names)
                continue;
            auto *item =
                new QListWidgetItem(SeverityPalette::icon(p.severity), QStringLiteral("%1 \u00B7 line %2 \u00B7 %3")
                                                                           .arg(QString::fromStdString(p.ruleId))
                                                                           .arg(p.line)
                                                                           .arg(QString::fromStdString(p.message)));
            m_findingsView->addItem(item);
            m_findingRows.push_back(qint64(f));
        }
    }
    m_tabs->setTabText(1, m_findingRows.empty() ? tr("Findings") : tr("Findings (%1)").arg(m_findingRows.size()));
}

Selection DetailsPane::selectionOfContentsRow(const QModelIndex &proxyIndex) const
{
    const QModelIndex source = m_contentsProxy->mapToSource(proxyIndex);
    if (!source.isValid())
        return {};
    const auto kind = RelatedKind(source.data(SpanContentsModel::RecordKindRole).toInt());
    const qint64 index = source.data(SpanContentsModel::RecordIndexRole).toLongLong();
    switch (kind) {
    case RelatedKind::Span: return Selection::span(index);
    case RelatedKind::Op: return Selection::op(index);
    case RelatedKind::Tensor: return Selection::tensor(index);
    case RelatedKind::Storage: return Selection::memoryEvent(index);
    default: return {};
    }
}

void DetailsPane::copyRawLine()
{
    if (!m_raw->toPlainText().isEmpty())
        QApplication::clipboard()->setText(m_raw->toPlainText());
}

void DetailsPane::copyFields()
{
    QApplication::clipboard()->setText(m_fields->toText());
}

} // namespace TraceInspector
