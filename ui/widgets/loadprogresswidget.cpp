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
    m_phase->setMinimumWidth(220);
    m_phase->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_bar->setRange(0, 1000);
    m_bar->setTextVisible(true);
    m_bar->setFormat(QStringLiteral("%p%"));
    m_bar->setFixedWidth(180);
    m_bar->setMaximumHeight(16);
    m_cancel->setText(QStringLiteral("Cancel"));
    m_cancel->setToolTip(QStringLiteral("Stop loading this trace"));
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
    m_bar->setValue(0);
    m_phase->setText(phase);
    show();
}

void LoadProgressWidget::setProgress(int permille, const QString &phase)
{
    m_bar->setValue(qBound(0, permille, 1000));
    if (!phase.isEmpty())
        m_phase->setText(phase);
}

int LoadProgressWidget::permille() const
{
    return m_bar->value();
}

QString LoadProgressWidget::phase() const
{
    return m_phase->text();
}

} // namespace TraceInspector
