// SPDX-License-Identifier: MIT
#include "ui/validationpanel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include "core/analysis/health.h"
#include "core/itemmodels/validationfilterproxymodel.h"
#include "core/itemmodels/validationissuemodel.h"
#include "core/loading/problemlocator.h"
#include "ui/style/severitydelegate.h"

namespace TraceInspector {

namespace {
constexpr int kFilterDelayMs = 250;
}

ValidationPanel::ValidationPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new ValidationIssueModel(this))
    , m_proxy(new ValidationFilterProxyModel(this))
    , m_view(new QTreeView(this))
    , m_severity(new QComboBox(this))
    , m_filter(new QLineEdit(this))
    , m_counts(new QLabel(this))
    , m_filterTimer(new QTimer(this))
{
    m_proxy->setSourceModel(m_model);

    m_severity->addItem(QStringLiteral("All severities"), QVariant::fromValue(ValidationFilterProxyModel::SeverityFilter::All));
    m_severity->addItem(QStringLiteral("Errors only"), QVariant::fromValue(ValidationFilterProxyModel::SeverityFilter::Errors));
    m_severity->addItem(QStringLiteral("Warnings only"),
                        QVariant::fromValue(ValidationFilterProxyModel::SeverityFilter::Warnings));
    m_severity->setToolTip(QStringLiteral("Show problems of this severity"));
    connect(m_severity, &QComboBox::currentIndexChanged, this, [this] {
        m_proxy->setSeverityFilter(m_severity->currentData().value<ValidationFilterProxyModel::SeverityFilter>());
    });

    m_filter->setPlaceholderText(QStringLiteral("Filter by rule, code, line or message…"));
    m_filter->setClearButtonEnabled(true);
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(kFilterDelayMs);
    connect(m_filter, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_filterTimer, &QTimer::timeout, this, [this] { m_proxy->setText(m_filter->text()); });

    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setSortingEnabled(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setItemDelegateForColumn(ValidationIssueModel::SeverityColumn, new SeverityDelegate(m_view));
    m_view->sortByColumn(ValidationIssueModel::LineColumn, Qt::AscendingOrder);
    // The message is what people read: it comes right after the rule, the rarely known
    // column position last.
    QHeaderView *header = m_view->header();
    header->setStretchLastSection(true);
    header->moveSection(header->visualIndex(ValidationIssueModel::ColumnColumn), ValidationIssueModel::ColumnCount - 1);
    header->moveSection(header->visualIndex(ValidationIssueModel::MessageColumn), header->visualIndex(ValidationIssueModel::RuleColumn) + 1);
    header->resizeSection(ValidationIssueModel::SeverityColumn, 92);
    header->resizeSection(ValidationIssueModel::LineColumn, 56);
    header->resizeSection(ValidationIssueModel::RuleColumn, 200);
    header->resizeSection(ValidationIssueModel::MessageColumn, 460);
    header->resizeSection(ValidationIssueModel::CodeColumn, 170);
    header->resizeSection(ValidationIssueModel::ColumnColumn, 60);
    connect(m_view, &QTreeView::activated, this, &ValidationPanel::activate);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_severity);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_counts);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    updateCounts();
}

ValidationPanel::~ValidationPanel() = default;

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
    if (sameLoad)
        m_model->setHealthFindings(findings);
    else
        m_model->setProblems(loaded->readProblems, findings);
    m_shownHealth = loaded->health.get();
    m_loaded = std::move(loaded);
    updateCounts();
}

void ValidationPanel::clear()
{
    m_loaded.reset();
    m_shownHealth = nullptr;
    m_model->clear();
    updateCounts();
}

void ValidationPanel::activate(const QModelIndex &proxyIndex)
{
    if (!proxyIndex.isValid() || !m_loaded || !m_loaded->trace)
        return;
    const QModelIndex source = m_proxy->mapToSource(proxyIndex);
    const Problem *problem = m_model->problemAt(source.row());
    if (!problem)
        return;
    const ProblemLocation where = locateProblem(*m_loaded->trace, *problem);
    if (where.spanIndex >= 0)
        Q_EMIT spanRequested(where.spanIndex);
    if (where.opIndex >= 0)
        Q_EMIT opRequested(where.opIndex);
}

void ValidationPanel::updateCounts()
{
    const int errors = m_model->errorCount();
    const int warnings = m_model->warningCount();
    if (!m_loaded)
        m_counts->setText(QString());
    else if (errors == 0 && warnings == 0)
        m_counts->setText(m_loaded->health ? QStringLiteral("No problems found") : QStringLiteral("No load problems"));
    else
        m_counts->setText(QStringLiteral("%1 %2, %3 %4")
                              .arg(errors)
                              .arg(errors == 1 ? QStringLiteral("error") : QStringLiteral("errors"))
                              .arg(warnings)
                              .arg(warnings == 1 ? QStringLiteral("warning") : QStringLiteral("warnings")));
    Q_EMIT countsChanged(errors, warnings);
}

} // namespace TraceInspector
