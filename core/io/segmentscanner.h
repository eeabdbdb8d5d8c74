// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "core/io/decodedevent.h"
#include "core/io/decodedsegment.h"
#include "core/io/linedecoder.h"

namespace TraceInspector {

/// Splits bytes into physical lines (§2), decodes each non-blank line and files the
/// result into a DecodedSegment. Per-record derivations that need no stream context
/// happen here, on the reading thread: dense byte resolution (§7.1), tensor_stats
/// validity (§4.6) and host evidence (§6.3).
class SegmentScanner
{
public:
    explicit SegmentScanner(DecodedSegment &segment);

    /// Scans the complete lines of [data, data+length); with \a final a last line without
    /// LF counts too. Returns the bytes consumed. kDecoderPadding bytes past \a length
    /// must be readable; the lines scanned may be overwritten (LineDecoder::setWritableLines()).
    std::size_t scan(const char *data, std::size_t length, bool final);

    /// Reserves array capacity for \a totalBytes of input from the record mix seen in the
    /// first \a scannedBytes, so the arrays neither reallocate (copying hundreds of MB)
    /// nor keep doubling slack. The string table is sized for the segment's \a ownBytes.
    void reserveFor(std::uint64_t totalBytes, std::uint64_t ownBytes, std::uint64_t scannedBytes);

    /// Called between chunks once the arrays are reserved, with the bytes scanned so far and
    /// those of the segment still to come: an array whose records are expected to end within
    /// its next huge page gets 4 KiB pages from there on (adviseSmallPages()), so that the
    /// segment's last huge page of each array is not resident in full for a few records.
    void adviseTails(std::uint64_t scannedBytes, std::uint64_t remainingBytes);

    /// Gives back the pages of each array's room beyond its records, once the segment is
    /// scanned. An array's last huge page is resident in full; a segment that ends earlier
    /// than adviseTails() expected (another thread took over its back part, ReadPieces) left
    /// up to 2 MiB of room in each of a dozen arrays, ~5 MB over a 1 GB read's peak.
    void releaseTails();

    /// Files the verdict of a line too long to hold, of which \a head holds the first \a length
    /// bytes, when they decide it exactly as the whole line would: the line is not valid UTF-8
    /// (\a validUtf8, checked over the whole line by the caller), or the scan error of its
    /// first bytes lies well before their end (scan errors end a line at once, §5.1). Returns
    /// false, filing nothing, when the whole line is needed.
    bool fileLongLine(const char *head, std::size_t length, bool validUtf8);

private:
    void handleLine(const char *begin, std::size_t length);
    void fileFailure(std::uint64_t lineNo, std::string_view raw, std::string_view text);
    void file(DecodedEvent &ev, std::uint32_t line);
    std::optional<std::uint64_t> dtypeSizeOf(StringId dtype);
    bool tensorStatsValid(const TensorStats &s) const;

    DecodedSegment &m_segment;
    Trace &m_trace;
    LineDecoder m_decoder;
    DecodedEvent m_event;
    DecodeFailure m_failure;
    std::vector<std::int8_t> m_dtypeSizes; // StringId -> -2 not looked up, -1 unknown, else bytes
    std::size_t m_stringsBefore = 0;       // string count before the current line
    std::vector<bool> m_spanStarted;       // StringId -> a span_start of the segment had it
    std::uint32_t m_smallTails = 0;        // arrays adviseTails() gave 4 KiB pages, one bit each
};

} // namespace TraceInspector
