// SPDX-License-Identifier: MIT
#pragma once

#include <QPalette>

namespace TraceInspector {

/// A dark palette for the Fusion style, so the inspector can be checked (and used) in a dark
/// theme on any platform.
QPalette darkPalette();

/// Applies the palette named by the environment variable CANDLE_TRACE_INSPECTOR_PALETTE
/// ("dark", or "light" for Fusion's own) to the application, with the Fusion style. Does
/// nothing when the variable is unset. Returns whether a palette was applied.
bool applyPaletteFromEnvironment();

} // namespace TraceInspector
