// SPDX-License-Identifier: MIT
#include "ui/widgets/coveragebadge.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>

#include "ui/style/severitypalette.h"

namespace TraceInspector {

namespace {

SeverityPalette::Tone toneOf(const ViewCoverage &c)
{
    if (!c.captured)
        return SeverityPalette::Tone::Warning;
    switch (c.level) {
    case CapabilityLevel::Complete: return SeverityPalette::Tone::Success;
    case CapabilityLevel::Partial:
    case CapabilityLevel::Unknown: return SeverityPalette::Tone::Information;
    case CapabilityLevel::Absent: return SeverityPalette::Tone::Warning;
    }
    return SeverityPalette::Tone::Information;
}

} // namespace

CoverageBadge::CoverageBadge(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
{
    setObjectName(QStringLiteral("coverageBadge"));
    m_text->setObjectName(QStringLiteral("coverageBadgeText"));
    m_text->setTextFormat(Qt::PlainText);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(6);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    hide();
}

CoverageBadge::~CoverageBadge() = default;

QString CoverageBadge::text() const
{
    return m_text->text();
}

void CoverageBadge::setCoverage(const ViewCoverage &coverage)
{
    m_coverage = coverage;
    const int size = fontMetrics().height();
    m_icon->setPixmap(SeverityPalette::toneIcon(toneOf(coverage)).pixmap(size, size));
    m_text->setText(coverage.detail.isEmpty() ? coverage.text : tr("%1 — %2").arg(coverage.text, coverage.detail));
    setToolTip(coverage.detail);
    show();
    update();
}

void CoverageBadge::clear()
{
    m_coverage = {};
    m_text->clear();
    hide();
}

void CoverageBadge::paintEvent(QPaintEvent *event)
{
    QFrame::paintEvent(event);
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(palette().color(QPalette::AlternateBase));
    p.setPen(QPen(SeverityPalette::toneColor(toneOf(m_coverage)), 1));
    p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
}

} // namespace TraceInspector
