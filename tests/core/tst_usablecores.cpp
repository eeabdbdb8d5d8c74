// SPDX-License-Identifier: MIT
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
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
    void cgroupLimit_data();
    void cgroupLimit();
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

// A cgroup tree of its own: "v2/" holds cgroup v2's files, "cpu/" v1's cpu controller's and
// "cpu,cpuacct/" where that controller is mounted with cpuacct.
void TestUsableCores::cgroupLimit_data()
{
    QTest::addColumn<QString>("selfCgroup");
    QTest::addColumn<QString>("files"); // "path=text;path=text"
    QTest::addColumn<int>("cpus");      // 0: no quota
    QTest::newRow("v2, nowhere a quota") << "0::/a/b\n"
                                         << "v2/cpu.max=max 100000;v2/a/cpu.max=max 100000;v2/a/b/cpu.max=max 100000"
                                         << 0;
    QTest::newRow("v2, its own") << "0::/a/b\n"
                                 << "v2/a/cpu.max=max 100000;v2/a/b/cpu.max=300000 100000" << 3;
    QTest::newRow("v2, a parent's is tighter") << "0::/a/b\n"
                                               << "v2/a/cpu.max=150000 100000;v2/a/b/cpu.max=400000 100000" << 2;
    QTest::newRow("v2, the root's (a container's namespace)") << "0::/\n"
                                                              << "v2/cpu.max=100000 100000" << 1;
    QTest::newRow("v2, no files") << "0::/a\n"
                                  << "" << 0;
    QTest::newRow("v1, its own") << "4:cpu,cpuacct:/x\n3:memory:/y\n"
                                 << "cpu/x/cpu.cfs_quota_us=50000;cpu/x/cpu.cfs_period_us=100000" << 1;
    QTest::newRow("v1, a parent's")
        << "4:cpu:/x/y\n"
        << "cpu/x/y/cpu.cfs_quota_us=-1;cpu/x/y/cpu.cfs_period_us=100000;cpu/x/cpu.cfs_quota_us=250000;cpu/x/cpu.cfs_period_us=100000"
        << 3;
    QTest::newRow("v1, mounted with cpuacct")
        << "2:cpuacct,cpu:/x\n"
        << "cpu,cpuacct/x/cpu.cfs_quota_us=200000;cpu,cpuacct/x/cpu.cfs_period_us=100000" << 2;
    QTest::newRow("v1, cpuacct and cpuset are not cpu")
        << "2:cpuacct:/x\n3:cpuset:/x\n"
        << "cpu/x/cpu.cfs_quota_us=100000;cpu/x/cpu.cfs_period_us=100000" << 0;
    QTest::newRow("hybrid, v1's quota and v2 without one")
        << "1:cpu:/x\n0::/x\n"
        << "cpu/x/cpu.cfs_quota_us=400000;cpu/x/cpu.cfs_period_us=100000;v2/x/cpu.max=max 100000" << 4;
    QTest::newRow("both, the tighter")
        << "1:cpu:/x\n0::/x\n"
        << "cpu/x/cpu.cfs_quota_us=400000;cpu/x/cpu.cfs_period_us=100000;v2/x/cpu.max=200000 100000" << 2;
    QTest::newRow("a line without colons") << "garbage\n0::/a"
                                           << "v2/a/cpu.max=500000 100000" << 5;
}

void TestUsableCores::cgroupLimit()
{
    QFETCH(QString, selfCgroup);
    QFETCH(QString, files);
    QFETCH(int, cpus);
    QTemporaryDir tree;
    QVERIFY(tree.isValid());
    for (const QString &file : files.split(u';', Qt::SkipEmptyParts)) {
        const qsizetype eq = file.indexOf(u'=');
        const QString path = tree.filePath(file.left(eq));
        QVERIFY(QDir().mkpath(QFileInfo(path).path()));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(file.mid(eq + 1).toUtf8() + "\n");
    }
    CgroupView view;
    view.selfCgroup = selfCgroup.toStdString();
    view.v2Root = tree.filePath(QStringLiteral("v2")).toStdString();
    view.v1CpuRoots = {tree.filePath(QStringLiteral("cpu")).toStdString(),
                       tree.filePath(QStringLiteral("cpu,cpuacct")).toStdString()};
    const std::optional<unsigned> got = cgroupCpuLimit(view);
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
