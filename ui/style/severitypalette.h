// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QIcon>
#include <QPalette>

#include "core/model/problem.h"

namespace TraceInspector {

/// Turns meaning into presentation (house rule 2): the colours and icons for severities and
/// banner kinds. Icons are painted, so they stay sharp at every scale factor and need no
/// image-format plugin.
class SeverityPalette
{
public:
    enum class Tone { Information, Warning, Error, Success };

    static QColor color(Severity severity);
    static QIcon icon(Severity severity);

    static QColor toneColor(Tone tone); ///< strong accent (icon, border)
    /// A quiet fill for banners: the accent faintly over the palette's base, so it is light
    /// in a light theme and dark in a dark one, and the palette's text stays readable on it.
    static QColor toneBackground(Tone tone, const QPalette &palette);
    /// Text and glyphs drawn on the strong accent itself (badges, a marked byte).
    static QColor onToneColor();
    static QIcon toneIcon(Tone tone);
};

} // namespace TraceInspector
