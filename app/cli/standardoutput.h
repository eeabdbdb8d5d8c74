// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace TraceInspector {

/// Standard output of candle-trace, written with write(2) so that a failure keeps its OS
/// reason (a full disk, a closed descriptor) instead of vanishing in stdio's buffer. The
/// first failure is sticky: later writes are dropped.
class StandardOutput
{
public:
    /// Writes \a text now. Returns false once anything failed.
    static bool write(std::string_view text);
    static bool ok();
    /// "write standard output: No space left on device" (empty while ok()).
    static std::string errorMessage();
};

/// Makes sure descriptors 0, 1 and 2 are open, so that no file this process opens takes
/// their place: a closed standard output must make writes fail, not land in the output
/// file. A closed descriptor is replaced by /dev/null opened in the direction that makes
/// its normal use fail with EBADF.
void reserveStandardDescriptors();
/// True when \a fd (0, 1 or 2) was closed when reserveStandardDescriptors() ran.
bool standardDescriptorWasClosed(int fd);

} // namespace TraceInspector
