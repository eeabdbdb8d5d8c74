// SPDX-License-Identifier: MIT
#include "ui/widgets/messagebanner.h"

#include <QAction>
#include <QPainter>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace TraceInspector {

MessageBanner::MessageBanner(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_title(new QLabel(this))
    , m_text(new QLabel(this))
    , m_actions(new QHBoxLayout)
    , m_close(new QToolButton(this))
{
    setFrameShape(QFrame::NoFrame);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);

    m_icon->setFixedSize(22, 22);
    m_icon->setAlignment(Qt::AlignTop | Qt::AlignHCenter);
    QFont bold = m_title->font();
    bold.setWeight(QFont::Bold);
    m_title->setFont(bold);
    m_title->setTextFormat(Qt::PlainText);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);

    m_close->setAutoRaise(true);
    m_close->setText(QStringLiteral("✕"));
    m_close->setToolTip(tr("Dismiss this message"));
    m_close->setAccessibleName(tr("Dismiss"));
    connect(m_close, &QToolButton::clicked, this, &MessageBanner::dismiss);

    auto *textColumn = new QVBoxLayout;
    textColumn->setSpacing(2);
    textColumn->addWidget(m_title);
    textColumn->addWidget(m_text);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(12, 6, 6, 6);
    layout->setSpacing(10);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addLayout(textColumn, 1);
    layout->addLayout(m_actions);
    layout->addWidget(m_close, 0, Qt::AlignTop);

    applyTone();
    hide();
}

void MessageBanner::showMessage(Tone tone, const QString &title, const QString &text)
{
    m_tone = tone;
    m_title->setText(title);
    m_title->setVisible(!title.isEmpty());
    m_text->setText(text);
    m_text->setVisible(!text.isEmpty());
    while (QLayoutItem *item = m_actions->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    applyTone();
    show();
}

void MessageBanner::addAction(QAction *action)
{
    auto *button = new QPushButton(action->text(), this);
    button->setToolTip(action->toolTip());
    connect(button, &QPushButton::clicked, action, &QAction::trigger);
    m_actions->addWidget(button, 0, Qt::AlignTop);
}

void MessageBanner::dismiss()
{
    if (isHidden())
        return;
    hide();
    Q_EMIT dismissed();
}

QString MessageBanner::title() const
{
    return m_title->text();
}

QString MessageBanner::text() const
{
    return m_text->text();
}

void MessageBanner::paintEvent(QPaintEvent *)
{
    // Painted from the palette of the moment (no style sheet, which would pin a palette):
    // a theme switch re-tones the banner like every other widget.
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor accent = SeverityPalette::toneColor(m_tone);
    const QRectF box = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    p.setPen(QPen(accent, 1));
    p.setBrush(SeverityPalette::toneBackground(m_tone, palette()));
    p.drawRoundedRect(box, 3, 3);
    p.setPen(Qt::NoPen);
    p.setBrush(accent);
    p.drawRoundedRect(QRectF(box.left(), box.top(), 4, box.height()), 2, 2);
}

void MessageBanner::applyTone()
{
    m_icon->setPixmap(SeverityPalette::toneIcon(m_tone).pixmap(20, 20));
    update();
}

} // namespace TraceInspector
