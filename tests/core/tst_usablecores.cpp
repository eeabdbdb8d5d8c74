// SPDX-License-Identifier: MIT
#include <QTest>

#include <sched.h>

#include <algorithm>
#include <thread>

#include "core/io/usablecores.h"

using namespace TraceInspector;

class TestUsableCores : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void quota_data();
    void quota();
    void withinTheMachine();
    void followsTheAffinityMask();
};

void TestUsableCores::quota_data()
{
    QTest::addColumn<QString>("quota");
    QTest::addColumn<QString>("period");
    QTest::addColumn<int>("cpus"); // 0: no quota
    QTest::newRow("v2, no quota") << "max"
                                  << "100000" << 0;
    QTest::newRow("v1, no quota") << "-1"
                                  << "100000" << 0;
    QTest::newRow("two CPUs") << "200000"
                              << "100000" << 2;
    QTest::newRow("one and a half: two") << "150000"
                                         << "100000" << 2;
    QTest::newRow("half a CPU: one") << "50000"
                                     << "100000" << 1;
    QTest::newRow("as read from a file") << "400000\n"
                                         << "100000\n"
                                         << 4;
    QTest::newRow("no period") << "100000"
                               << "0" << 0;
    QTest::newRow("empty") << ""
                           << "100000" << 0;
    QTest::newRow("not a number") << "2e5"
                                  << "100000" << 0;
    QTest::newRow("a number and more") << "200000 100000"
                                       << "100000" << 0;
}

void TestUsableCores::quota()
{
    QFETCH(QString, quota);
    QFETCH(QString, period);
    QFETCH(int, cpus);
    const std::string q = quota.toStdString();
    const std::string p = period.toStdString();
    const std::optional<unsigned> got = cpusOfQuota(q, p);
    QCOMPARE(got.has_value(), cpus > 0);
    if (got)
        QCOMPARE(int(*got), cpus);
}

void TestUsableCores::withinTheMachine()
{
    const unsigned cores = usableCores();
    QVERIFY(cores >= 1);
    QVERIFY(cores <= std::max(1u, std::thread::hardware_concurrency()));
}

// taskset -c 0 (or a container's cpuset): one CPU, one core to use, whatever the machine has.
void TestUsableCores::followsTheAffinityMask()
{
    cpu_set_t before;
    CPU_ZERO(&before);
    QCOMPARE(sched_getaffinity(0, sizeof before, &before), 0);
    int first = 0;
    while (!CPU_ISSET(first, &before))
        ++first;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    QCOMPARE(sched_setaffinity(0, sizeof one, &one), 0);
    const unsigned cores = usableCores();
    QCOMPARE(sched_setaffinity(0, sizeof before, &before), 0);
    QCOMPARE(cores, 1u);
    QVERIFY(usableCores() <= unsigned(CPU_COUNT(&before)));
}

QTEST_GUILESS_MAIN(TestUsableCores)
#include "tst_usablecores.moc"
