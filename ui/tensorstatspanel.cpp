// SPDX-License-Identifier: MIT
#include "ui/tensorstatspanel.h"

#include <QHeaderView>
#include <QTableView>

#include "core/display/format.h"
#include "core/itemmodels/tensorstatsmodel.h"
#include "ui/style/severitydelegate.h"
#include "ui/widgets/filterlineedit.h"
#include "ui/widgets/tableactions.h"

namespace TraceInspector {

TensorStatsPanel::TensorStatsPanel(QWidget *parent)
    : EvidenceTablePanel(InspectorView::TensorStats, new TensorStatsModel, parent)
    , m_model(static_cast<TensorStatsModel *>(model()))
{
    setObjectName(QStringLiteral("tensorStatsPanel"));
    filterEdit()->setPlaceholderText(tr("Filter by label, dtype, span or flag (non-finite, range, rms)"));
    using Fit = TableActions::ColumnFit;
    actions()->setColumnFits({Fit{TensorStatsModel::ScoreColumn, 4, 6}, Fit{TensorStatsModel::FlagsColumn, 6, 28},
                              Fit{TensorStatsModel::LabelColumn, 8, 30}, Fit{TensorStatsModel::ShapeColumn, 5, 20},
                              Fit{TensorStatsModel::DtypeColumn, 4, 8}, Fit{TensorStatsModel::ElementsColumn, 5, 12},
                              Fit{TensorStatsModel::NonFiniteColumn, 4, 10}, Fit{TensorStatsModel::RmsColumn, 5, 12},
                              Fit{TensorStatsModel::RmsZColumn, 4, 8}, Fit{TensorStatsModel::AbsMaxColumn, 5, 12},
                              Fit{TensorStatsModel::RangeColumn, 4, 8}, Fit{TensorStatsModel::MeanColumn, 5, 12},
                              Fit{TensorStatsModel::OpColumn, 5, 16}, Fit{TensorStatsModel::SpanColumn, 8, 30}},
                             TensorStatsModel::LabelColumn);
    view()->setItemDelegateForColumn(TensorStatsModel::FlagsColumn, new SeverityDelegate(view()));
    updateStatus();
}

TensorStatsPanel::~TensorStatsPanel() = default;

void TensorStatsPanel::setLoadedTrace(LoadedTracePtr loaded)
{
    const void *trace = loaded ? loaded->trace.get() : nullptr;
    const void *evidence = loaded ? loaded->evidence.get() : nullptr;
    if (trace != m_shownTrace || evidence != m_shownEvidence) {
        const bool firstVerdicts = evidence && !m_shownEvidence;
        m_shownTrace = trace;
        m_shownEvidence = evidence;
        m_model->setTrace(loaded ? loaded->trace : nullptr, loaded ? loaded->evidence : nullptr);
        // The point of the view is the outliers: most suspicious first, unless the user
        // already chose an order.
        if (firstVerdicts && view()->horizontalHeader()->sortIndicatorSection() < 0)
            view()->sortByColumn(TensorStatsModel::ScoreColumn, Qt::DescendingOrder);
    }
    updateBadge(loaded);
    updateStatus();
}

void TensorStatsPanel::clear()
{
    m_shownTrace = m_shownEvidence = nullptr;
    m_model->setTrace(nullptr);
    updateBadge(nullptr);
    updateStatus();
}

QString TensorStatsPanel::countText(int shown, std::size_t total) const
{
    const QString flagged =
        m_model->hasVerdicts() ? tr(", %n flagged", nullptr, int(m_model->flaggedCount())) : QString();
    if (std::size_t(shown) == total)
        return tr("%1 record(s)", nullptr, shown).arg(formatCount(std::uint64_t(shown))) + flagged;
    return tr("%1 of %2 record(s)", nullptr, numerusCount(total))
               .arg(formatCount(std::uint64_t(shown)), formatCount(total))
           + flagged;
}

} // namespace TraceInspector
