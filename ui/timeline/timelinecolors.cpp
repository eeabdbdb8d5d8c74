// SPDX-License-Identifier: MIT
#include "ui/timeline/timelinecolors.h"

#include <algorithm>

namespace TraceInspector {
namespace {

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

QColor withAlpha(QColor c, int alpha)
{
    c.setAlpha(alpha);
    return c;
}

} // namespace

TimelineColors::TimelineColors(const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const QColor window = palette.color(QPalette::Window);
    const QColor windowText = palette.color(QPalette::WindowText);
    const QColor highlight = palette.color(QPalette::Highlight);
    m_dark = base.lightnessF() < 0.5;
    m_background = base;
    m_alternate = mix(base, text, 0.035);
    m_rulerBackground = window;
    m_rulerText = windowText;
    m_tick = mix(window, windowText, 0.55);
    m_grid = withAlpha(mix(base, text, 0.5), 40);
    m_selection = highlight;
    m_related = mix(highlight, text, 0.25);
    m_rangeFill = withAlpha(highlight, 45);
    m_rangeEdge = highlight;
    m_headerBackground = mix(window, windowText, 0.08);
    m_headerText = windowText;
    // A warm accent that reads on both backgrounds marks axes that are not host time.
    m_foreign = m_dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xb3, 0x5c, 0x00);
    m_merged = mix(base, text, m_dark ? 0.45 : 0.4);
    m_hover = withAlpha(text, 70);
}

std::uint32_t TimelineColors::stableHash(std::string_view text)
{
    std::uint32_t h = 2166136261u;
    for (char c : text) {
        h ^= std::uint8_t(c);
        h *= 16777619u;
    }
    return h;
}

QColor TimelineColors::sliceFill(std::string_view name, Family family) const
{
    const std::uint32_t h = stableHash(name);
    // Spread hues by the golden angle so that similar hashes still look apart.
    const int hue = int((h % 360u) * 137u % 360u);
    const int jitter = int((h >> 16) % 7u) - 3; // small lightness variation between names
    struct Tone {
        int saturation;
        int value;
    };
    Tone tone{};
    switch (family) {
    case Family::Module: tone = m_dark ? Tone{90, 110} : Tone{60, 235}; break;
    case Family::Function: tone = m_dark ? Tone{120, 125} : Tone{85, 240}; break;
    case Family::Op: tone = m_dark ? Tone{150, 140} : Tone{115, 245}; break;
    case Family::Device: tone = m_dark ? Tone{140, 135} : Tone{105, 240}; break;
    }
    return QColor::fromHsv(hue, tone.saturation, std::clamp(tone.value + jitter * 3, 0, 255));
}

QColor TimelineColors::textOn(const QColor &fill)
{
    // Relative luminance (sRGB weights); 0.5 splits well for these fills.
    const double l = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return l > 0.5 ? QColor(0x1a, 0x1a, 0x1a) : QColor(0xf2, 0xf2, 0xf2);
}

} // namespace TraceInspector
