// SPDX-License-Identifier: MIT
#include "ui/widgets/loadprogresswidget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

namespace TraceInspector {

LoadProgressWidget::LoadProgressWidget(QWidget *parent)
    : QWidget(parent)
    , m_phase(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_cancel(new QToolButton(this))
{
    m_phase->setMinimumWidth(340);
    m_phase->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_bar->setRange(0, 1000);
    m_bar->setTextVisible(true);
    m_bar->setFormat(QStringLiteral("%p%"));
    m_bar->setFixedWidth(180);
    m_bar->setMaximumHeight(16);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop loading this trace"));
    m_cancel->setObjectName(QStringLiteral("cancelLoadButton"));
    connect(m_cancel, &QToolButton::clicked, this, &LoadProgressWidget::cancelRequested);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 4, 0);
    layout->setSpacing(8);
    layout->addWidget(m_phase);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
}

void LoadProgressWidget::start(const QString &phase)
{
    m_bar->setRange(0, 1000);
    m_bar->setValue(0);
    m_phase->setText(phase);
    show();
}

void LoadProgressWidget::setProgress(const LoadProgress &progress)
{
    QString text = progress.step > 0
                       ? tr("Step %1 of %2 \u00B7 %3").arg(progress.step).arg(progress.stepCount).arg(progress.stepName)
                       : progress.stepName;
    if (!progress.detail.isEmpty())
        text += QStringLiteral(": ") + progress.detail;
    m_phase->setText(text);
    if (progress.stepPermille < 0) {
        m_bar->setRange(0, 0); // busy: this step cannot say how far it is
    } else {
        m_bar->setRange(0, 1000);
        m_bar->setValue(qBound(0, progress.stepPermille, 1000));
    }
}

int LoadProgressWidget::permille() const
{
    return m_bar->maximum() == 0 ? -1 : m_bar->value();
}

QString LoadProgressWidget::phase() const
{
    return m_phase->text();
}

} // namespace TraceInspector
