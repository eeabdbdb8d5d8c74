// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>

namespace TraceInspector {

/// The part [begin, end) of a regular file that one thread reads front to back, and whose
/// unread back part another thread may take over when it has finished its own (work
/// stealing). Split into equal halves, the two threads of a 1 GB read finished 6-270 ms
/// apart (a median of ~140 ms), one core idle all that time, though neither half was
/// denser: the difference was the machine's.
///
/// The owner claims each block before it reads it (claim()); the back part handed over
/// starts just after a newline beyond every claimed byte, so each part holds whole lines
/// and no byte is read by both threads.
class ReadRange
{
public:
    ReadRange(std::uint64_t begin, std::uint64_t end);

    std::uint64_t begin() const { return m_begin; }
    /// Where the range ends now: earlier once a back part was taken over.
    std::uint64_t end() const;
    /// The bytes not claimed yet.
    std::uint64_t unclaimed() const;

    /// For the owner: claims the bytes from \a offset (the end of its last claim, or
    /// begin()) up to \a want of them, and returns how many it may read; 0 at the end.
    std::uint64_t claim(std::uint64_t offset, std::uint64_t want);

    /// For another thread: takes over [split, end()) and ends this range at split, where
    /// split is just after the first newline of \a fd at or after the middle of the
    /// unclaimed rest. Nothing (nullopt) when the rest is under \a minBytes, when its
    /// second half has no newline before the end, or when the owner claimed past the
    /// newline meanwhile. Returns the part taken: [split, former end).
    std::optional<ReadRange> takeBackPart(int fd, std::uint64_t minBytes);

    ReadRange(const ReadRange &other);
    ReadRange &operator=(const ReadRange &) = delete;

private:
    mutable std::mutex m_mutex;
    const std::uint64_t m_begin;
    std::uint64_t m_claimed; // every byte before it is the owner's
    std::uint64_t m_end;
};

/// The offset just after the first newline of \a fd in [from, end), or nullopt when there
/// is none (or the file cannot be read there).
std::optional<std::uint64_t> afterNextNewline(int fd, std::uint64_t from, std::uint64_t end);

} // namespace TraceInspector
