// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QIcon>

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

    static QColor toneColor(Tone tone);      ///< strong accent (icon, border)
    static QColor toneBackground(Tone tone); ///< light fill for banners
    static QIcon toneIcon(Tone tone);
};

} // namespace TraceInspector
