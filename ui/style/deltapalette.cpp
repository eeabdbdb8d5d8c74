// SPDX-License-Identifier: MIT
#include "ui/style/deltapalette.h"

namespace TraceInspector {

namespace {

constexpr int kGreenHue = 130;
constexpr int kRedHue = 4;

/// A colour of \a hue readable on the palette's Base: light on a dark base, dark on a light one.
QColor readable(int hue, const QPalette &palette)
{
    const bool dark = DeltaPalette::isDark(palette);
    return QColor::fromHsl(hue, dark ? 170 : 200, dark ? 165 : 85);
}

} // namespace

bool DeltaPalette::isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < palette.color(QPalette::Text).lightness();
}

QColor DeltaPalette::faster(const QPalette &palette)
{
    return readable(kGreenHue, palette);
}

QColor DeltaPalette::slower(const QPalette &palette)
{
    return readable(kRedHue, palette);
}

QColor DeltaPalette::forDelta(qint64 delta, const QPalette &palette)
{
    if (delta < 0)
        return faster(palette);
    if (delta > 0)
        return slower(palette);
    return palette.color(QPalette::Text);
}

QColor DeltaPalette::baselineSeries(const QPalette &palette)
{
    const QColor text = palette.color(QPalette::Text);
    const QColor base = palette.color(QPalette::Base);
    // Halfway between Text and Base: visible, but clearly the "other" run.
    return QColor((text.red() + base.red()) / 2, (text.green() + base.green()) / 2, (text.blue() + base.blue()) / 2);
}

QColor DeltaPalette::candidateSeries(const QPalette &palette)
{
    return palette.color(QPalette::Highlight);
}

} // namespace TraceInspector
