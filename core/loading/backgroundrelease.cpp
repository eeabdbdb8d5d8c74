// SPDX-License-Identifier: MIT
#include "core/loading/backgroundrelease.h"

#include "core/loading/workerpool.h"

#include <QThreadPool>

namespace TraceInspector {

void releaseInBackground(std::shared_ptr<const void> reference)
{
    if (!reference)
        return;
    // Only this reference may be moved into the task: a copy left here would be the last.
    workerPool()->start([reference = std::move(reference)]() mutable { reference.reset(); });
}

} // namespace TraceInspector
