// SPDX-License-Identifier: MIT
#pragma once

#include <QIcon>

#include <array>

namespace TraceInspector {

/// The application icon: resources/icons/candle-trace-inspector.svg rendered to PNG at the
/// hicolor sizes and compiled in as Qt resources.
class AppIcon
{
public:
    static constexpr std::array kSizes{16, 22, 24, 32, 48, 64, 128, 256, 512};

    static QIcon icon();
};

} // namespace TraceInspector
