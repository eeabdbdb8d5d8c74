// SPDX-License-Identifier: MIT
#pragma once

// The main window with the bundled sample trace loaded and its memory chart drawn, for the
// tests of what the chart draws at a window size (legends, axes).

#include <QSignalSpy>
#include <QSize>
#include <QTest>

#include "ui/mainwindow.h"
#include "ui/memorychart/memorychartpanel.h"

namespace TraceInspector::TestFixtures {

/// Shows \a window at \a size (its minimum size when empty) and loads the sample trace until
/// the memory chart has drawn its buckets. On failure the test has failed: callers check
/// QTest::currentTestFailed(). Call only when MainWindow::sampleTracePath() names a file.
inline void showSampleDrawn(MainWindow &window, QSize size)
{
    window.resize(size.isEmpty() ? window.minimumSizeHint() : size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(MainWindow::sampleTracePath());
    QVERIFY(finished.wait(60000));
    QTRY_VERIFY(window.memoryChartPanel()->drawnState().buckets > 0);
}

} // namespace TraceInspector::TestFixtures
