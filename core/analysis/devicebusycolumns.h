// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>

#include "core/model/escapednarrowarray.h"

namespace TraceInspector {

/// Busy time of one lane: the length of the union of its intervals, so overlapping and nested
/// intervals count once.
struct DeviceBusy {
    std::uint32_t lane = 0;      // index into DeviceTime::lanes()
    std::uint32_t intervals = 0; // interval records counted (saturating)
    std::uint64_t busyNs = 0;    // union length (saturating)
    friend bool operator==(const DeviceBusy &, const DeviceBusy &) = default;
};

/// Many DeviceBusy values (a row per span, one entry per lane) in 8 bytes each, not 16: the
/// lane and the interval count in 2 bytes, the busy time in 4, each with the rare value that
/// does not fit kept aside (EscapedNarrowArray). The 1 GB trace has ~950 thousand of them,
/// which the window keeps for as long as it shows the trace.
class DeviceBusyColumns
{
public:
    /// The entries [first, first + count) as a read-only range of DeviceBusy values.
    class Row
    {
    public:
        class Iterator
        {
        public:
            using iterator_category = std::input_iterator_tag;
            using value_type = DeviceBusy;
            using difference_type = std::ptrdiff_t;
            using pointer = void;
            using reference = DeviceBusy;

            Iterator() = default;
            Iterator(const DeviceBusyColumns *columns, std::size_t at)
                : m_columns(columns)
                , m_at(at)
            {
            }
            DeviceBusy operator*() const { return m_columns->at(m_at); }
            Iterator &operator++()
            {
                ++m_at;
                return *this;
            }
            Iterator operator++(int)
            {
                Iterator before = *this;
                ++m_at;
                return before;
            }
            friend bool operator==(const Iterator &a, const Iterator &b) { return a.m_at == b.m_at; }

        private:
            const DeviceBusyColumns *m_columns = nullptr;
            std::size_t m_at = 0;
        };

        Row() = default;
        Row(const DeviceBusyColumns *columns, std::size_t first, std::size_t count)
            : m_columns(columns)
            , m_first(first)
            , m_count(count)
        {
        }
        std::size_t size() const { return m_count; }
        bool empty() const { return m_count == 0; }
        DeviceBusy operator[](std::size_t k) const { return m_columns->at(m_first + k); }
        Iterator begin() const { return {m_columns, m_first}; }
        Iterator end() const { return {m_columns, m_first + m_count}; }

    private:
        const DeviceBusyColumns *m_columns = nullptr;
        std::size_t m_first = 0;
        std::size_t m_count = 0;
    };

    std::size_t size() const { return m_lane.size(); }
    /// Before finish() only.
    void resize(std::size_t size)
    {
        m_lane.resize(size);
        m_intervals.resize(size);
        m_busyNs.resize(size);
    }
    /// Before finish() only.
    void set(std::size_t i, const DeviceBusy &busy)
    {
        m_lane.set(i, busy.lane);
        m_intervals.set(i, busy.intervals);
        m_busyNs.set(i, busy.busyNs);
    }
    void finish()
    {
        m_lane.finish();
        m_intervals.finish();
        m_busyNs.finish();
    }
    DeviceBusy at(std::size_t i) const { return {m_lane[i], m_intervals[i], m_busyNs[i]}; }
    Row row(std::size_t first, std::size_t count) const { return {this, first, count}; }
    std::size_t memoryUsage() const
    {
        return m_lane.memoryUsage() + m_intervals.memoryUsage() + m_busyNs.memoryUsage();
    }

private:
    EscapedNarrowArray<std::uint16_t, std::uint32_t> m_lane;
    EscapedNarrowArray<std::uint16_t, std::uint32_t> m_intervals;
    EscapedNarrowArray<std::uint32_t, std::uint64_t> m_busyNs;
};

} // namespace TraceInspector
