// SPDX-License-Identifier: MIT
// The window on hostile files: a trace that changes while it is read (offer to reload),
// closing while a FIFO has no writer, and File > Export under the same output-file rules
// as candle-trace normalize (symlinks, read-only targets, the opened trace via a hard link).
#include <QApplication>
#include <QFileInfo>
#include <QStandardPaths>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include "ui/exportcontroller.h"
#include "ui/mainwindow.h"
#include "ui/widgets/messagebanner.h"

using namespace TraceInspector;

class TestMainWindowInputs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void changedFileOffersReload();
    void closingWhileAFifoHasNoWriter();
    void exportWritesThroughSymlink();
    void exportAsksBeforeReplacingReadOnlyFile();
    void exportSeesTheOpenedTraceThroughAHardLink();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

QString example(const char *name)
{
    return QStringLiteral(TI_EXAMPLES_DIR "/") + QLatin1StringView(name);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

bool openAndWait(MainWindow &window, const QString &path)
{
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(path);
    return finished.wait(20000) && finished.at(0).at(0).toBool();
}

/// Answers the next modal message box with \a button once it shows up.
void answerNextMessageBox(QMessageBox::StandardButton button, QString *text)
{
    QTimer::singleShot(0, qApp, [button, text] {
        const auto poll = [button, text](const auto &self) -> void {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box) {
                QTimer::singleShot(20, qApp, [self] { self(self); });
                return;
            }
            *text = box->text();
            box->button(button)->click();
        };
        poll(poll);
    });
}

QPushButton *bannerButton(MessageBanner *banner, const QString &text)
{
    const auto buttons = banner->findChildren<QPushButton *>();
    for (QPushButton *b : buttons) {
        if (b->text() == text && b->isVisibleTo(banner))
            return b;
    }
    return nullptr;
}

} // namespace

void TestMainWindowInputs::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestMainWindowInputs::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

// Defect 3: a trace still being written showed errors it does not have. Now the window
// says that it changed while it was read and offers to read it again.
void TestMainWindowInputs::changedFileOffersReload()
{
    const QString path = m_dir->filePath(QStringLiteral("growing.jsonl"));
    const QByteArray valid = readAll(example("01_valid_trace10_forward.jsonl"));
    QByteArray bytes = valid.left(valid.indexOf('\n') + 1);
    for (int i = 0; i < 200000; ++i)
        bytes += "{\"kind\":\"span_start\",\"id\":\"s" + QByteArray::number(i)
                 + "\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"function\"}\n";
    QVERIFY(writeAll(path, bytes));
    std::atomic<bool> stop{false};
    std::atomic<int> appended{0};
    std::thread appender([&] {
        QFile f(path);
        if (!f.open(QIODevice::Append))
            return;
        for (int i = 0; !stop; ++i) {
            f.write("{\"kind\":\"span_end\",\"id\":\"s" + QByteArray::number(i) + "\",\"duration_ns\":1}\n");
            f.flush();
            ++appended;
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    });
    QTRY_VERIFY(appended.load() > 0);

    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(path);
    QVERIFY(finished.wait(20000));
    stop = true;
    appender.join();
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QCOMPARE(window.messageBanner()->title(), QStringLiteral("The file changed while it was read"));
    // Buttons added to a visible banner are shown by the event loop.
    QTRY_VERIFY(bannerButton(window.messageBanner(), QStringLiteral("Reload")));
    QPushButton *reload = bannerButton(window.messageBanner(), QStringLiteral("Reload"));

    // The writer is done: the span_ends it wrote close spans, and the trace still lacks a
    // terminal, so the reload shows a trace the strict rules reject, with its real errors.
    reload->click();
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.at(1).at(0).toBool(), true);
    QVERIFY(window.loadedTrace());
    QCOMPARE(window.loadedTrace()->path, path);
    QVERIFY(window.loadedTrace()->strictError);
    QCOMPARE(window.loadedTrace()->strictError->ruleId, std::string("E-TERMINAL-MISSING"));
}

// Defect 1: with a FIFO that has no writer, Cancel and closing the window waited for good.
void TestMainWindowInputs::closingWhileAFifoHasNoWriter()
{
    const QString fifo = m_dir->filePath(QStringLiteral("fifo"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    auto window = std::make_unique<MainWindow>();
    window->show();
    QSignalSpy progress(window->loader(), &TraceLoader::progressChanged);
    window->openFile(fifo);
    QTRY_VERIFY_WITH_TIMEOUT(progress.count() >= 2, 5000);
    QVERIFY(window->isLoading());
    QElapsedTimer clock;
    clock.start();
    window->close();
    window.reset();
    QVERIFY2(clock.elapsed() < 2000, qPrintable(QStringLiteral("closing took %1 ms").arg(clock.elapsed())));
}

// Defect 5 in the GUI: QSaveFile replaced a symlink with a regular file.
void TestMainWindowInputs::exportWritesThroughSymlink()
{
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, example("01_valid_trace10_forward.jsonl")));
    const QString real = m_dir->filePath(QStringLiteral("real.jsonl"));
    const QString link = m_dir->filePath(QStringLiteral("link.jsonl"));
    QVERIFY(writeAll(real, "old\n"));
    QVERIFY(QFile::link(real, link));
    QSignalSpy exported(&window, &MainWindow::exportFinished);
    window.exportNormalizedTo(link);
    QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, 20000);
    QCOMPARE(exported.at(0).at(0).value<ExportOutcome>().status, ExportOutcome::Status::Written);
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(readAll(real), readAll(example("01_valid_trace10_forward.normalized")));
}

// A read-only file is replaced only when the user says so (the CLI's --force), and keeps
// its permissions.
void TestMainWindowInputs::exportAsksBeforeReplacingReadOnlyFile()
{
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, example("01_valid_trace10_forward.jsonl")));
    const QString target = m_dir->filePath(QStringLiteral("readonly.jsonl"));
    QVERIFY(writeAll(target, "keep me\n"));
    QVERIFY(QFile::setPermissions(target, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));

    QCOMPARE(ExportController::exportTo(*window.loadedTrace(), target).status,
             ExportOutcome::Status::NeedsConfirmation);
    QCOMPARE(readAll(target), QByteArray("keep me\n"));

    QSignalSpy exported(&window, &MainWindow::exportFinished);
    QString asked;
    answerNextMessageBox(QMessageBox::Cancel, &asked);
    window.exportNormalizedTo(target);
    QTRY_COMPARE(exported.count(), 1);
    QVERIFY2(asked.contains(QStringLiteral("read-only")), qPrintable(asked));
    QCOMPARE(exported.at(0).at(0).value<ExportOutcome>().status, ExportOutcome::Status::NeedsConfirmation);
    QCOMPARE(readAll(target), QByteArray("keep me\n"));

    asked.clear();
    answerNextMessageBox(QMessageBox::Yes, &asked);
    window.exportNormalizedTo(target);
    QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 2, 20000);
    QVERIFY(!asked.isEmpty());
    QCOMPARE(exported.at(1).at(0).value<ExportOutcome>().status, ExportOutcome::Status::Written);
    QCOMPARE(readAll(target), readAll(example("01_valid_trace10_forward.normalized")));
    QCOMPARE(QFileInfo(target).permissions()
                 & (QFileDevice::WriteOwner | QFileDevice::WriteGroup | QFileDevice::WriteOther),
             QFileDevice::Permissions());
}

// The same-file check compared canonical paths, which differ for hard links: exporting to
// a hard link of the opened trace replaced it without asking.
void TestMainWindowInputs::exportSeesTheOpenedTraceThroughAHardLink()
{
    const QString opened = m_dir->filePath(QStringLiteral("opened.jsonl"));
    const QString hard = m_dir->filePath(QStringLiteral("hard.jsonl"));
    const QByteArray original = readAll(example("01_valid_trace10_forward.jsonl"));
    QVERIFY(writeAll(opened, original));
    QCOMPARE(::link(QFile::encodeName(opened).constData(), QFile::encodeName(hard).constData()), 0);
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, opened));
    QVERIFY(ExportController::isSameFile(hard, opened));
    const ExportOutcome direct = ExportController::exportTo(*window.loadedTrace(), hard, false);
    QCOMPARE(direct.status, ExportOutcome::Status::NeedsConfirmation);
    QCOMPARE(direct.question, ExportOutcome::Question::ReplaceOpenedTrace);
    QCOMPARE(readAll(opened), original);
}

QTEST_MAIN(TestMainWindowInputs)
#include "tst_mainwindowinputs.moc"
