// SPDX-License-Identifier: MIT
#include "ui/style/severitypalette.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

#include <array>

namespace TraceInspector {
namespace {

enum class Glyph { Exclamation, Info, Check };

void drawGlyph(QPainter &p, Glyph glyph, const QRectF &r)
{
    const qreal w = r.width();
    p.setPen(Qt::NoPen);
    p.setBrush(SeverityPalette::onToneColor());
    switch (glyph) {
    case Glyph::Exclamation: {
        const QRectF bar(r.center().x() - w * 0.07, r.top() + w * 0.22, w * 0.14, w * 0.36);
        p.drawRoundedRect(bar, w * 0.05, w * 0.05);
        p.drawEllipse(QPointF(r.center().x(), r.top() + w * 0.72), w * 0.08, w * 0.08);
        break;
    }
    case Glyph::Info: {
        p.drawEllipse(QPointF(r.center().x(), r.top() + w * 0.28), w * 0.08, w * 0.08);
        const QRectF bar(r.center().x() - w * 0.07, r.top() + w * 0.42, w * 0.14, w * 0.36);
        p.drawRoundedRect(bar, w * 0.05, w * 0.05);
        break;
    }
    case Glyph::Check: {
        QPen pen(SeverityPalette::onToneColor(), w * 0.13, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        QPainterPath path;
        path.moveTo(r.left() + w * 0.28, r.top() + w * 0.52);
        path.lineTo(r.left() + w * 0.44, r.top() + w * 0.68);
        path.lineTo(r.left() + w * 0.73, r.top() + w * 0.36);
        p.drawPath(path);
        break;
    }
    }
}

QPixmap paintBadge(int size, const QColor &color, bool triangle, Glyph glyph)
{
    QPixmap pm(size, size);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF r(0.5, 0.5, size - 1.0, size - 1.0);
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    if (triangle) {
        QPainterPath path;
        path.moveTo(r.center().x(), r.top() + size * 0.04);
        path.lineTo(r.right(), r.bottom() - size * 0.06);
        path.lineTo(r.left(), r.bottom() - size * 0.06);
        path.closeSubpath();
        p.drawPath(path);
        const QRectF inner(r.left(), r.top() + size * 0.12, r.width(), r.height());
        drawGlyph(p, glyph, inner);
    } else {
        p.drawEllipse(r);
        drawGlyph(p, glyph, r);
    }
    return pm;
}

QIcon makeIcon(const QColor &color, bool triangle, Glyph glyph)
{
    QIcon icon;
    for (int size : {16, 20, 24, 32, 48, 64})
        icon.addPixmap(paintBadge(size, color, triangle, glyph));
    return icon;
}

} // namespace

QColor SeverityPalette::color(Severity severity)
{
    return toneColor(severity == Severity::Error ? Tone::Error : Tone::Warning);
}

QIcon SeverityPalette::icon(Severity severity)
{
    return toneIcon(severity == Severity::Error ? Tone::Error : Tone::Warning);
}

QColor SeverityPalette::toneColor(Tone tone)
{
    switch (tone) {
    case Tone::Information: return QColor(0x1f, 0x6f, 0xb8);
    case Tone::Warning: return QColor(0xc7, 0x7c, 0x02);
    case Tone::Error: return QColor(0xc6, 0x28, 0x28);
    case Tone::Success: return QColor(0x2e, 0x7d, 0x32);
    }
    return {};
}

QColor SeverityPalette::toneBackground(Tone tone, const QPalette &palette)
{
    // 14 % of the accent is enough to tell the tones apart and keeps the contrast of the
    // palette's text with the base (light on dark, dark on light).
    constexpr double kAccent = 0.14;
    const QColor accent = toneColor(tone);
    const QColor base = palette.color(QPalette::Base);
    const auto mix = [](double a, double b) { return int(a * kAccent + b * (1.0 - kAccent) + 0.5); };
    return QColor(mix(accent.redF() * 255, base.redF() * 255), mix(accent.greenF() * 255, base.greenF() * 255),
                  mix(accent.blueF() * 255, base.blueF() * 255));
}

QColor SeverityPalette::onToneColor()
{
    return Qt::white;
}

QIcon SeverityPalette::toneIcon(Tone tone)
{
    static const std::array<QIcon, 4> icons{
        makeIcon(toneColor(Tone::Information), false, Glyph::Info),
        makeIcon(toneColor(Tone::Warning), true, Glyph::Exclamation),
        makeIcon(toneColor(Tone::Error), false, Glyph::Exclamation),
        makeIcon(toneColor(Tone::Success), false, Glyph::Check),
    };
    return icons[std::size_t(tone)];
}

} // namespace TraceInspector
