// SPDX-License-Identifier: MIT
#include "core/output/orderedblocks.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace TraceInspector {

namespace {

struct Slot {
    std::string text;
    bool ready = false;
};

} // namespace

bool OrderedBlockFormatter::run(std::size_t count, std::size_t blockItems, const FormatBlock &format, const Emit &emit,
                                unsigned threads)
{
    blockItems = std::max<std::size_t>(blockItems, 1);
    const std::size_t blocks = (count + blockItems - 1) / blockItems;
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, blocks));

    if (threads <= 1) {
        std::string text;
        for (std::size_t b = 0; b < blocks; ++b) {
            text.clear();
            format(b * blockItems, std::min(count, (b + 1) * blockItems), text);
            if (!emit(text))
                return false;
        }
        return true;
    }

    // Block b is formatted into slot b % slots once block b - slots has been emitted; two
    // slots per worker let the workers run ahead while the calling thread writes.
    const std::size_t slots = std::size_t(threads) * 2;
    std::vector<Slot> slot(slots);
    std::mutex mutex;
    std::condition_variable formatted; // a slot became ready
    std::condition_variable emitted;   // a slot became free, or the run stopped
    std::size_t nextBlock = 0;
    std::size_t emittedBlocks = 0;
    bool stop = false;
    std::exception_ptr error; // the first exception, rethrown on the calling thread

    const auto fail = [&](std::exception_ptr e) {
        {
            std::lock_guard lock(mutex);
            if (!error)
                error = std::move(e);
            stop = true;
        }
        formatted.notify_all();
        emitted.notify_all();
    };

    const auto work = [&] {
        for (;;) {
            std::size_t b;
            {
                std::unique_lock lock(mutex);
                if (stop || nextBlock >= blocks)
                    return;
                b = nextBlock++;
                emitted.wait(lock, [&] { return stop || b < emittedBlocks + slots; });
                if (stop)
                    return;
            }
            Slot &s = slot[b % slots];
            try {
                format(b * blockItems, std::min(count, (b + 1) * blockItems), s.text);
            } catch (...) {
                fail(std::current_exception());
                return;
            }
            {
                std::lock_guard lock(mutex);
                s.ready = true;
            }
            formatted.notify_one();
        }
    };

    std::vector<std::thread> workers;
    workers.reserve(threads);
    for (unsigned t = 0; t < threads; ++t)
        workers.emplace_back(work);

    bool ok = true;
    for (std::size_t b = 0; b < blocks; ++b) {
        Slot &s = slot[b % slots];
        {
            std::unique_lock lock(mutex);
            formatted.wait(lock, [&] { return s.ready || error; });
            if (error)
                break;
        }
        try {
            ok = emit(s.text);
        } catch (...) {
            fail(std::current_exception());
            break;
        }
        {
            std::lock_guard lock(mutex);
            s.ready = false;
            s.text.clear(); // keeps the capacity for block b + slots
            emittedBlocks = b + 1;
            if (!ok)
                stop = true;
        }
        emitted.notify_all();
        if (!ok)
            break;
    }
    {
        std::lock_guard lock(mutex);
        stop = true;
    }
    emitted.notify_all();
    for (std::thread &w : workers)
        w.join();
    if (error)
        std::rethrow_exception(error);
    return ok;
}

} // namespace TraceInspector
