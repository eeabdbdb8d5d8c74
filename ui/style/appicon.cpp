// SPDX-License-Identifier: MIT
#include "ui/style/appicon.h"

#include <QSize>

namespace TraceInspector {

QIcon AppIcon::icon()
{
    static const QIcon icon = [] {
        QIcon i;
        // The PNGs rendered from the SVG (packaging/render-icons.sh), the same files the theme
        // gets installed; Qt picks the nearest size, so no SVG image plugin is needed.
        for (int size : kSizes) {
            i.addFile(QStringLiteral(":/icons/hicolor/%1x%1/apps/io.github.candle_graph.trace_inspector.png").arg(size),
                      QSize(size, size));
        }
        return i;
    }();
    return icon;
}

} // namespace TraceInspector
