// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include "core/io/decodedsegment.h"
#include "core/io/readrange.h"

namespace TraceInspector {

/// How reading a range of the file ended.
struct RangeOutcome {
    int osError = 0;
    bool endedEarly = false; // the file ended before the size seen at open
};

/// A range of the file and the segment its lines decode into.
struct ReadPiece {
    explicit ReadPiece(const ReadRange &r);

    ReadRange range;
    DecodedSegment segment;
    RangeOutcome outcome;
    std::uint64_t reserveBytes; // what the segment's arrays are sized for
    bool finished = false;      // guarded by ReadPieces
};

/// The pieces a regular file is read in by several threads: one per thread at first, and
/// one more each time a thread that has finished takes over the unread back part of the
/// piece with the most left (ReadRange::takeBackPart()). The pieces' segments are merged in
/// file order afterwards; a piece taken over costs its share of that merge, so only parts
/// of at least the given size are taken.
class ReadPieces
{
public:
    ReadPieces(int fd, std::uint64_t minTakeOverBytes, const std::atomic<bool> *cancel);

    /// Adds a piece read from the start; only before the threads start.
    void add(const ReadRange &range);
    ReadPiece *at(std::size_t k);

    /// Marks \a done as read and returns a piece taken over from another, or null when no
    /// piece has enough left (or the read was cancelled).
    ReadPiece *finishAndTakeOver(ReadPiece *done);

    /// The segments in file order, with the outcomes of their pieces in \a outcomes; only
    /// after every thread has finished.
    std::vector<DecodedSegment> takeSegmentsInFileOrder(std::vector<RangeOutcome> &outcomes);

private:
    std::mutex m_mutex;
    std::deque<ReadPiece> m_pieces; // a deque: a piece stays where it is while others are added
    const int m_fd;
    const std::uint64_t m_minTakeOverBytes;
    const std::atomic<bool> *m_cancel;
};

} // namespace TraceInspector
