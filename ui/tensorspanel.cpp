// SPDX-License-Identifier: MIT
#include "ui/tensorspanel.h"

#include "core/display/format.h"
#include "core/itemmodels/tensortablemodel.h"
#include "ui/widgets/filterlineedit.h"
#include "ui/widgets/tableactions.h"

namespace TraceInspector {

TensorsPanel::TensorsPanel(QWidget *parent)
    : EvidenceTablePanel(InspectorView::Tensors, new TensorTableModel, parent)
    , m_model(static_cast<TensorTableModel *>(model()))
{
    setObjectName(QStringLiteral("tensorsPanel"));
    filterEdit()->setPlaceholderText(tr("Filter tensors by id, label, dtype, device, category, op, span or storage"));
    using Fit = TableActions::ColumnFit;
    actions()->setColumnFits(
        {Fit{TensorTableModel::IdColumn, 6, 24}, Fit{TensorTableModel::LabelColumn, 6, 30},
         Fit{TensorTableModel::ShapeColumn, 5, 20}, Fit{TensorTableModel::DtypeColumn, 4, 8},
         Fit{TensorTableModel::DeviceColumn, 4, 10}, Fit{TensorTableModel::BytesColumn, 6, 12},
         Fit{TensorTableModel::CategoryColumn, 6, 10}, Fit{TensorTableModel::RequiresGradColumn, 3, 4},
         Fit{TensorTableModel::OpColumn, 5, 16}, Fit{TensorTableModel::SpanColumn, 8, 30},
         Fit{TensorTableModel::StorageColumn, 6, 18}, Fit{TensorTableModel::AllocColumn, 6, 14, {}, false},
         Fit{TensorTableModel::FreeColumn, 6, 14, {}, false}, Fit{TensorTableModel::AgeAtPeakColumn, 6, 12, {}, false}},
        TensorTableModel::LabelColumn);
    updateStatus();
}

TensorsPanel::~TensorsPanel() = default;

void TensorsPanel::setLoadedTrace(LoadedTracePtr loaded)
{
    const void *trace = loaded ? loaded->trace.get() : nullptr;
    const void *evidence = loaded ? loaded->evidence.get() : nullptr;
    if (trace != m_shownTrace || evidence != m_shownEvidence) {
        m_shownTrace = trace;
        m_shownEvidence = evidence;
        m_model->setTrace(loaded ? loaded->trace : nullptr, loaded ? loaded->evidence : nullptr);
    }
    updateBadge(loaded);
    updateStatus();
}

void TensorsPanel::clear()
{
    m_shownTrace = m_shownEvidence = nullptr;
    m_model->setTrace(nullptr);
    updateBadge(nullptr);
    updateStatus();
}

QString TensorsPanel::countText(int shown, std::size_t total) const
{
    if (std::size_t(shown) == total)
        return tr("%1 tensor(s)", nullptr, shown).arg(formatCount(std::uint64_t(shown)));
    return tr("%1 of %2 tensor(s)", nullptr, numerusCount(total))
        .arg(formatCount(std::uint64_t(shown)), formatCount(total));
}

} // namespace TraceInspector
