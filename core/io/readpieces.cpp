// SPDX-License-Identifier: MIT
#include "core/io/readpieces.h"

#include <algorithm>
#include <numeric>
#include <optional>

namespace TraceInspector {

ReadPiece::ReadPiece(const ReadRange &r)
    : range(r)
    , reserveBytes(r.end() - r.begin())
{
    segment.startsFile = r.begin() == 0;
}

ReadPieces::ReadPieces(int fd, std::uint64_t minTakeOverBytes, const std::atomic<bool> *cancel)
    : m_fd(fd)
    , m_minTakeOverBytes(minTakeOverBytes)
    , m_cancel(cancel)
{
}

void ReadPieces::add(const ReadRange &range)
{
    const std::lock_guard lock(m_mutex);
    m_pieces.emplace_back(range);
}

ReadPiece *ReadPieces::at(std::size_t k)
{
    const std::lock_guard lock(m_mutex);
    return &m_pieces.at(k);
}

ReadPiece *ReadPieces::finishAndTakeOver(ReadPiece *done)
{
    const std::lock_guard lock(m_mutex);
    done->finished = true;
    if (m_cancel && m_cancel->load(std::memory_order_relaxed))
        return nullptr;
    // A failed attempt means the owner claimed past the split meanwhile; by the next
    // attempt it has less left, so a few are enough.
    for (int attempt = 0; attempt < 3; ++attempt) {
        ReadPiece *fullest = nullptr;
        std::uint64_t most = 0;
        for (ReadPiece &p : m_pieces) {
            if (p.finished)
                continue;
            const std::uint64_t left = p.range.unclaimed();
            if (left > most) {
                most = left;
                fullest = &p;
            }
        }
        if (!fullest || most < m_minTakeOverBytes)
            return nullptr;
        if (std::optional<ReadRange> part = fullest->range.takeBackPart(m_fd, m_minTakeOverBytes))
            return &m_pieces.emplace_back(*part);
    }
    return nullptr;
}

std::vector<DecodedSegment> ReadPieces::takeSegmentsInFileOrder(std::vector<RangeOutcome> &outcomes)
{
    const std::lock_guard lock(m_mutex);
    std::vector<std::size_t> order(m_pieces.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(),
              [this](std::size_t a, std::size_t b) { return m_pieces[a].range.begin() < m_pieces[b].range.begin(); });
    std::vector<DecodedSegment> segments;
    segments.reserve(order.size());
    outcomes.clear();
    for (std::size_t k : order) {
        segments.push_back(std::move(m_pieces[k].segment));
        outcomes.push_back(m_pieces[k].outcome);
    }
    m_pieces.clear();
    return segments;
}

} // namespace TraceInspector
