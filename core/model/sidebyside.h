// SPDX-License-Identifier: MIT
#pragma once

#include <exception>
#include <system_error>
#include <thread>

namespace TraceInspector {

/// Runs \a there on a thread of its own while \a here runs on the calling thread, and returns
/// once both are done. Both always run to their end, and the first exception either one threw
/// is rethrown afterwards (\a here's first): \a there may use the caller's locals, so it is
/// always waited for. When no thread can be started, both run on the calling thread, \a here
/// first.
///
/// For two halves of a serial step that share nothing they write (the arrays of a segment
/// merge, health beside the memory walk of check --all): on two cores the step takes the
/// longer half's time.
template<typename Here, typename There>
void runSideBySide(Here &&here, There &&there)
{
    std::exception_ptr thereError;
    const auto runThere = [&] {
        try {
            there();
        } catch (...) {
            thereError = std::current_exception();
        }
    };
    std::thread helper;
    try {
        helper = std::thread(runThere);
    } catch (const std::system_error &) {
        // No thread to be had: the calling thread runs both.
    }
    std::exception_ptr hereError;
    try {
        here();
    } catch (...) {
        hereError = std::current_exception();
    }
    if (helper.joinable())
        helper.join();
    else
        runThere();
    if (hereError)
        std::rethrow_exception(hereError);
    if (thereError)
        std::rethrow_exception(thereError);
}

} // namespace TraceInspector
