// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QPalette>

#include <cstdint>
#include <string_view>

namespace TraceInspector {

/// The timeline's colours, derived from a palette so that a dark theme gets dark slices with
/// light text and a light theme light slices with dark text (house rule: colours from the
/// palette).
///
/// Slice colours are stable: the hue comes from a fixed hash (FNV-1a) of the name, never from
/// qHash (seeded per process) or from the order of appearance, so `matmul` has the same
/// colour in every trace and every session. The kind sets saturation and lightness: modules
/// are calm, functions medium, ops (and op spans) strong.
class TimelineColors
{
public:
    enum class Family : std::uint8_t { Module, Function, Op, Device };

    explicit TimelineColors(const QPalette &palette = QPalette());

    bool isDark() const { return m_dark; }
    static std::uint32_t stableHash(std::string_view text);

    QColor sliceFill(std::string_view name, Family family) const;
    /// Black or white text, whichever reads better on \a fill.
    static QColor textOn(const QColor &fill);
    /// Fill of a mark standing for several sub-pixel slices.
    QColor mergedFill() const { return m_merged; }

    QColor background() const { return m_background; }
    QColor alternateRow() const { return m_alternate; }
    QColor rulerBackground() const { return m_rulerBackground; }
    QColor rulerText() const { return m_rulerText; }
    QColor tick() const { return m_tick; }
    QColor grid() const { return m_grid; }
    QColor selection() const { return m_selection; }
    QColor related() const { return m_related; }
    QColor rangeFill() const { return m_rangeFill; }
    QColor rangeEdge() const { return m_rangeEdge; }
    QColor headerBackground() const { return m_headerBackground; }
    QColor headerText() const { return m_headerText; }
    QColor foreignAccent() const { return m_foreign; }
    QColor hover() const { return m_hover; }

private:
    bool m_dark = false;
    QColor m_background, m_alternate, m_rulerBackground, m_rulerText, m_tick, m_grid, m_selection, m_related,
        m_rangeFill, m_rangeEdge, m_headerBackground, m_headerText, m_foreign, m_merged, m_hover;
};

} // namespace TraceInspector
