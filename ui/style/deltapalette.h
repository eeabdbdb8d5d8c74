// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QPalette>

namespace TraceInspector {

/// Colours for "faster" and "slower" in the A/B comparison views. The hue carries the meaning
/// (green faster, red slower); lightness and saturation come from the palette, so the text
/// keeps its contrast against Base in a light and in a dark theme.
class DeltaPalette
{
public:
    /// Text colour for a decrease (candidate faster or smaller).
    static QColor faster(const QPalette &palette);
    /// Text colour for an increase (candidate slower or larger).
    static QColor slower(const QPalette &palette);
    /// faster(), slower(), or the palette's Text for 0.
    static QColor forDelta(qint64 delta, const QPalette &palette);
    /// The baseline and candidate curves of the memory view: the baseline in a muted tone of
    /// Text, the candidate in Highlight.
    static QColor baselineSeries(const QPalette &palette);
    static QColor candidateSeries(const QPalette &palette);
    /// Whether \a palette is dark (its Base is darker than its Text).
    static bool isDark(const QPalette &palette);
};

} // namespace TraceInspector
