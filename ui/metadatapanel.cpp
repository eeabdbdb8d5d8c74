// SPDX-License-Identifier: MIT
#include "ui/metadatapanel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

#include "core/analysis/health.h"
#include "core/itemmodels/metadatamodel.h"
#include "ui/style/severitypalette.h"
#include "ui/widgets/tableactions.h"

namespace TraceInspector {

MetadataPanel::MetadataPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new MetadataModel(this))
    , m_view(new QTreeView(this))
    , m_verdict(new QLabel(this))
{
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->header()->setStretchLastSection(true);
    m_view->header()->resizeSection(MetadataModel::FieldColumn, 230);
    m_view->setObjectName(QStringLiteral("metadataView"));
    new TableActions(m_view, QStringLiteral("run-metadata"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::PlainText);
    m_verdict->setContentsMargins(4, 2, 4, 2);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(m_verdict);
    layout->addWidget(m_view, 1);
    m_verdict->hide();
}

MetadataPanel::~MetadataPanel() = default;

void MetadataPanel::setLoadedTrace(LoadedTracePtr loaded)
{
    if (!loaded || !loaded->trace) {
        clear();
        return;
    }
    if (loaded->trace.get() != m_shownTrace) {
        m_model->setTrace(loaded->trace);
        m_shownTrace = loaded->trace.get();
        m_view->expandToDepth(0);
        m_view->resizeColumnToContents(MetadataModel::FieldColumn);
    }
    if (loaded->health) {
        const HealthReport &h = *loaded->health;
        const bool good = h.structurallyValid && h.captureComplete;
        const QString verdict = QStringLiteral("%1 · %2").arg(
            h.structurallyValid ? tr("Structurally valid") : tr("Structurally invalid"),
            h.captureComplete ? QStringLiteral("capture complete") : QStringLiteral("capture incomplete"));
        const auto tone = good ? SeverityPalette::Tone::Success : SeverityPalette::Tone::Error;
        m_verdict->setText(verdict);
        m_verdict->setStyleSheet(
            QStringLiteral("QLabel { color: %1; font-weight: 600; }").arg(SeverityPalette::toneColor(tone).name()));
        m_verdict->show();
    } else {
        m_verdict->hide();
    }
}

void MetadataPanel::clear()
{
    m_model->setTrace(nullptr);
    m_shownTrace = nullptr;
    m_verdict->hide();
}

} // namespace TraceInspector
