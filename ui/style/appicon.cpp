// SPDX-License-Identifier: MIT
#include "ui/style/appicon.h"

#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace TraceInspector {
namespace {

// Coordinates are those of the 256×256 SVG.
QPixmap paint(int size)
{
    QPixmap pm(size, size);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.scale(size / 256.0, size / 256.0);
    p.setPen(Qt::NoPen);

    QLinearGradient bg(0, 8, 0, 248);
    bg.setColorAt(0, QColor(0x2b, 0x4f, 0x7a));
    bg.setColorAt(1, QColor(0x16, 0x30, 0x4f));
    p.setBrush(bg);
    p.drawRoundedRect(QRectF(8, 8, 240, 240), 44, 44);

    const auto bar = [&p](qreal x, qreal y, qreal w, QColor c) {
        p.setBrush(c);
        p.drawRoundedRect(QRectF(x, y, w, 26), 5, 5);
    };
    bar(36, 188, 184, QColor(0x4f, 0x9d, 0xdf));
    bar(36, 156, 110, QColor(0x6f, 0xb6, 0xee));
    bar(152, 156, 68, QColor(0x6f, 0xb6, 0xee));
    bar(36, 124, 64, QColor(0xa5, 0xd3, 0xf6));
    bar(106, 124, 40, QColor(0xa5, 0xd3, 0xf6));
    bar(152, 124, 40, QColor(0xa5, 0xd3, 0xf6));

    const QColor wax(0xf4, 0xf1, 0xea);
    p.setBrush(wax);
    p.drawRoundedRect(QRectF(58, 74, 20, 44), 3, 3);
    QLinearGradient flameFill(0, 30, 0, 70);
    flameFill.setColorAt(0, QColor(0xff, 0xe0, 0x8a));
    flameFill.setColorAt(1, QColor(0xff, 0x8f, 0x1f));
    QPainterPath flame;
    flame.moveTo(68, 30);
    flame.cubicTo(82, 48, 84, 58, 68, 70);
    flame.cubicTo(52, 58, 56, 46, 68, 30);
    p.setBrush(flameFill);
    p.drawPath(flame);

    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(wax, 12));
    p.drawEllipse(QPointF(176, 82), 30, 30);
    p.setPen(QPen(wax, 14, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(QPointF(197, 104), QPointF(220, 127));
    return pm;
}

} // namespace

QIcon AppIcon::icon()
{
    static const QIcon icon = [] {
        QIcon i;
        for (int size : {16, 24, 32, 48, 64, 128, 256})
            i.addPixmap(paint(size));
        return i;
    }();
    return icon;
}

} // namespace TraceInspector
