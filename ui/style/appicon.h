// SPDX-License-Identifier: MIT
#pragma once

#include <QIcon>

namespace TraceInspector {

/// The application icon (the design of resources/icons/candle-trace-inspector.svg), painted
/// at the usual sizes so the window icon needs no SVG plugin.
class AppIcon
{
public:
    static QIcon icon();
};

} // namespace TraceInspector
