// SPDX-License-Identifier: MIT
#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/model/packedu64.h"
#include "core/model/records.h"

using namespace TraceInspector;

class tst_PackedU64 : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrips_data();
    void roundTrips();
    void memoryEventKeepsEveryValue();
};

void tst_PackedU64::roundTrips_data()
{
    QTest::addColumn<quint64>("value");
    QTest::newRow("zero") << quint64(0);
    QTest::newRow("one") << quint64(1);
    QTest::newRow("low half full") << quint64(0xFFFFFFFFull);
    QTest::newRow("high half one") << quint64(0x100000000ull);
    QTest::newRow("both halves") << quint64(0x123456789ABCDEF0ull);
    QTest::newRow("i64 max") << quint64(0x7FFFFFFFFFFFFFFFull);
    QTest::newRow("u64 max") << quint64(UINT64_MAX);
}

void tst_PackedU64::roundTrips()
{
    QFETCH(quint64, value);
    const PackedU64 packed(value);
    QCOMPARE(packed.value(), std::uint64_t(value));
    QCOMPARE(std::uint64_t(packed), std::uint64_t(value));
    PackedU64 assigned;
    QCOMPARE(assigned.value(), std::uint64_t(0));
    assigned = value;
    QCOMPARE(assigned.value(), std::uint64_t(value));
}

void tst_PackedU64::memoryEventKeepsEveryValue()
{
    // Records at every 4-byte offset of an array: each one's 64-bit members read back whole,
    // and neighbours do not overlap (the array is what the reader fills).
    static_assert(alignof(MemoryEvent) == 4);
    std::vector<MemoryEvent> events(7);
    for (std::size_t i = 0; i < events.size(); ++i) {
        events[i].timestampNs = UINT64_MAX - i;
        events[i].bytes = (std::uint64_t(i) << 32) | 0xFFFFFFFFu;
        events[i].line = std::uint32_t(i + 1);
    }
    for (std::size_t i = 0; i < events.size(); ++i) {
        QCOMPARE(events[i].timestampNs.value(), UINT64_MAX - i);
        QCOMPARE(events[i].bytes.value(), (std::uint64_t(i) << 32) | 0xFFFFFFFFu);
        QCOMPARE(events[i].line, std::uint32_t(i + 1));
    }
    const std::uint64_t latest = std::max(events[2].timestampNs.value(), std::uint64_t(5));
    QCOMPARE(latest, UINT64_MAX - 2);
}

QTEST_GUILESS_MAIN(tst_PackedU64)
#include "tst_packedu64.moc"
