// SPDX-License-Identifier: MIT
#include "ui/widgets/startpage.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/widgets/loadprogresswidget.h"

namespace TraceInspector {

StartPage::StartPage(QWidget *parent)
    : QWidget(parent)
    , m_recent(new QListWidget(this))
    , m_recentTitle(new QLabel(tr("Recent traces"), this))
    , m_sample(new QPushButton(tr("Open Sample Trace"), this))
    , m_progress(new LoadProgressWidget(this))
{
    m_progress->hide();
    connect(m_progress, &LoadProgressWidget::cancelRequested, this, &StartPage::cancelRequested);
    auto *title = new QLabel(tr("Candle Trace Inspector"), this);
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 2.0);
    titleFont.setWeight(QFont::DemiBold);
    title->setFont(titleFont);

    auto *subtitle =
        new QLabel(tr("Inspect candle-graph execution traces (trace/10 and trace/9): span hierarchy, operations, "
                      "memory over time and validation results."),
                   this);
    subtitle->setWordWrap(true);

    auto *open = new QPushButton(tr("Open Trace…"), this);
    open->setDefault(true);
    connect(open, &QPushButton::clicked, this, &StartPage::openRequested);
    connect(m_sample, &QPushButton::clicked, this, &StartPage::openSampleRequested);

    auto *hint = new QLabel(tr("You can also drop a .jsonl trace file anywhere on this window."), this);
    hint->setEnabled(false);

    QFont sectionFont = m_recentTitle->font();
    sectionFont.setWeight(QFont::DemiBold);
    m_recentTitle->setFont(sectionFont);
    m_recent->setFrameShape(QFrame::NoFrame);
    m_recent->setSpacing(3);
    m_recent->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_recent->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    connect(m_recent, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { Q_EMIT openFileRequested(item->data(Qt::UserRole).toString()); });

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(open);
    buttons->addWidget(m_sample);
    buttons->addStretch();

    auto *column = new QVBoxLayout;
    column->setSpacing(12);
    column->addWidget(title);
    column->addWidget(subtitle);
    column->addSpacing(8);
    column->addLayout(buttons);
    column->addWidget(hint);
    column->addWidget(m_progress, 0, Qt::AlignLeft);
    column->addSpacing(16);
    column->addWidget(m_recentTitle);
    column->addWidget(m_recent);

    auto *content = new QWidget(this);
    content->setLayout(column);
    content->setMaximumWidth(720);

    auto *outer = new QVBoxLayout(this);
    outer->addStretch(1);
    auto *row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(content, 4);
    row->addStretch(1);
    outer->addLayout(row);
    outer->addStretch(2);

    setRecentFiles({});
    setSampleAvailable(false);
}

void StartPage::setRecentFiles(const QStringList &files)
{
    m_recent->clear();
    for (const QString &path : files) {
        const QFileInfo info(path);
        auto *item = new QListWidgetItem(
            QStringLiteral("%1 — %2").arg(info.fileName(), QDir::toNativeSeparators(info.absolutePath())));
        item->setData(Qt::UserRole, path);
        item->setToolTip(path);
        m_recent->addItem(item);
    }
    // As tall as its entries: a mostly empty white box looks broken.
    const int rowHeight = files.isEmpty() ? 0 : m_recent->sizeHintForRow(0) + 2 * m_recent->spacing();
    m_recent->setFixedHeight(int(files.size()) * rowHeight + 2 * m_recent->frameWidth() + 4);
    m_recent->setVisible(!files.isEmpty());
    m_recentTitle->setVisible(!files.isEmpty());
}

void StartPage::setSampleAvailable(bool available)
{
    m_sample->setVisible(available);
}

} // namespace TraceInspector
