// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/io/fileidentity.h"
#include "core/io/inputerror.h"

namespace TraceInspector {

/// Called about every 100 ms while a stream has no data: how long this wait has lasted and
/// how many bytes came before it. Lets a caller say that it is waiting (a FIFO whose writer
/// has not opened it yet) instead of looking hung.
using WaitSink = std::function<void(std::uint64_t waitedMs, std::uint64_t bytesSoFar)>;

/// What every wait of a TraceSource listens to.
struct WaitControl {
    const std::atomic<bool> *cancel = nullptr; ///< polled at least every 100 ms while waiting
    WaitSink waiting;
};

/// An input opened for reading a trace, without ever blocking in open().
///
/// A regular file with a size is read by position (TraceReader splits it over threads).
/// Everything else that can be read to an end is a stream, read once from start to end:
/// pipes (`<(cat f)`, `cat f | candle-trace check /dev/stdin`), FIFOs, sockets, and regular
/// files that report no size (procfs). A FIFO is opened with O_NONBLOCK so that open()
/// returns even when no writer has opened it yet; every wait for data is a poll() that
/// gives up when the cancel flag is set. Devices (/dev/zero, /dev/urandom, terminals) are
/// refused: they may never end, and the reader would report a wrong verdict or never one.
class TraceSource
{
public:
    enum class Kind : std::uint8_t { RegularFile, Stream };

    /// Opens \a path. Check error() before using the source.
    static TraceSource open(const std::string &path);
    /// Reads from \a fd, which stays open (standard input); \a displayPath names it.
    static TraceSource fromDescriptor(int fd, const std::string &displayPath);

    TraceSource(TraceSource &&other) noexcept;
    TraceSource &operator=(TraceSource &&other) noexcept;
    TraceSource(const TraceSource &) = delete;
    TraceSource &operator=(const TraceSource &) = delete;
    ~TraceSource();

    const std::string &path() const { return m_path; }
    const InputError &error() const { return m_error; }
    bool isOpen() const { return m_fd >= 0 && !m_error; }
    Kind kind() const { return m_kind; }
    bool isFifo() const { return m_fifo; }
    int descriptor() const { return m_fd; }
    /// Bytes of a regular file when it was opened (0 for streams).
    std::uint64_t sizeAtOpen() const { return m_size; }
    std::optional<FileIdentity> identity() const { return m_identity; }

    /// For a regular file: true while its size and modification time are those seen at
    /// open; \a sizeNow receives the current size.
    bool unchangedSinceOpen(std::uint64_t *sizeNow) const;

    /// Up to \a maxBytes from the start of the input into \a head, without consuming them:
    /// a stream keeps what it read for the next readSome() calls. Waits for a stream's
    /// first whole line, then takes what is there without waiting again. Returns false on a read
    /// error (see error()) or when cancelled.
    bool peek(std::size_t maxBytes, std::string &head, const WaitControl &wait);
    /// True when peek() saw the whole input.
    bool peekedAll() const { return m_peekedAll; }

    /// Reads the next bytes of the input sequentially (after what peek() kept). Returns the
    /// number of bytes, 0 at the end, or -1 on a read error (error() says which) or when
    /// cancelled (error() stays empty).
    std::int64_t readSome(char *buffer, std::size_t length, const WaitControl &wait);

private:
    TraceSource() = default;
    void classify();
    /// Bytes read, 0 at the end, -1 on error or cancel; with \a mayWait false, -2 when
    /// nothing is there yet.
    std::int64_t readFromDescriptor(char *buffer, std::size_t length, const WaitControl &wait, bool mayWait);

    std::string m_path;
    InputError m_error;
    int m_fd = -1;
    bool m_ownsFd = false;
    bool m_fifo = false;
    bool m_peekedAll = false;
    Kind m_kind = Kind::Stream;
    std::uint64_t m_size = 0;
    std::int64_t m_mtimeNs = 0;
    std::optional<FileIdentity> m_identity;
    std::uint64_t m_consumed = 0; // bytes handed out by readSome()
    std::uint64_t m_fromFd = 0;   // bytes read from the descriptor
    std::string m_pending;        // peeked stream bytes not yet handed out
    std::size_t m_pendingPos = 0;
};

} // namespace TraceInspector
