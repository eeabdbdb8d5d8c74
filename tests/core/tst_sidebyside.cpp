// SPDX-License-Identifier: MIT
#include <QTest>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/model/sidebyside.h"

using namespace TraceInspector;

class TestSideBySide : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bothRunAndErrorsComeBack_data();
    void bothRunAndErrorsComeBack();
};

void TestSideBySide::bothRunAndErrorsComeBack_data()
{
    QTest::addColumn<bool>("hereThrows");
    QTest::addColumn<bool>("thereThrows");
    QTest::addColumn<QString>("error"); // what the caller catches; empty: nothing

    QTest::newRow("no error") << false << false << QString();
    QTest::newRow("here throws") << true << false << QStringLiteral("here");
    QTest::newRow("there throws") << false << true << QStringLiteral("there");
    // Both failed: the caller hears of its own thread's first.
    QTest::newRow("both throw") << true << true << QStringLiteral("here");
}

void TestSideBySide::bothRunAndErrorsComeBack()
{
    QFETCH(bool, hereThrows);
    QFETCH(bool, thereThrows);
    QFETCH(QString, error);

    const std::thread::id caller = std::this_thread::get_id();
    std::thread::id hereThread;
    std::thread::id thereThread;
    std::atomic<bool> thereDone{false};
    QString caught;
    try {
        runSideBySide(
            [&] {
                hereThread = std::this_thread::get_id();
                if (hereThrows)
                    throw std::runtime_error("here");
            },
            [&] {
                // Slower than here: a caller that returned (or unwound) without waiting
                // would see it unfinished.
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                thereThread = std::this_thread::get_id();
                thereDone = true;
                if (thereThrows)
                    throw std::runtime_error("there");
            });
    } catch (const std::runtime_error &e) {
        caught = QString::fromUtf8(e.what());
    }
    QCOMPARE(caught, error);
    QVERIFY2(thereDone, "returned before the other half finished");
    QVERIFY(hereThread == caller);
    QVERIFY(thereThread != caller);
}

QTEST_GUILESS_MAIN(TestSideBySide)
#include "tst_sidebyside.moc"
