// SPDX-License-Identifier: MIT
#include "ui/widgets/formatreferencewindow.h"

#include <QAction>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

namespace TraceInspector {

FormatReferenceWindow::FormatReferenceWindow(QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_browser(new QTextBrowser(this))
    , m_find(new QLineEdit(this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("formatReferenceWindow"));
    setWindowTitle(tr("Trace Format Reference"));
    resize(980, 820);
    m_browser->setObjectName(QStringLiteral("formatReferenceText"));
    m_browser->setOpenExternalLinks(true);
    const QString text = markdown();
    if (text.isEmpty())
        m_browser->setPlainText(tr("The format reference (TRACE_FORMAT.md) is missing from this build."));
    else
        // No raw HTML: the reference writes types as `array<string>`, which would be taken
        // for an HTML tag and swallow the rest of the document.
        m_browser->document()->setMarkdown(text, QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub
                                                                                 | QTextDocument::MarkdownNoHTML));
    m_browser->moveCursor(QTextCursor::Start); // open at the title, not where the import left off

    m_find->setObjectName(QStringLiteral("formatReferenceFind"));
    m_find->setPlaceholderText(tr("Find in the reference (Return: next, Shift+Return: previous)"));
    m_find->setClearButtonEnabled(true);
    connect(m_find, &QLineEdit::returnPressed, this, [this] { find(m_find->text()); });
    auto *focusFind = new QAction(this);
    focusFind->setShortcut(QKeySequence::Find);
    connect(focusFind, &QAction::triggered, this, [this] {
        m_find->setFocus(Qt::ShortcutFocusReason);
        m_find->selectAll();
    });
    auto *next = new QAction(this);
    next->setShortcuts(QKeySequence::FindNext);
    connect(next, &QAction::triggered, this, [this] { find(m_find->text()); });
    auto *previous = new QAction(this);
    previous->setShortcuts({QKeySequence::FindPrevious, QKeySequence(Qt::SHIFT | Qt::Key_Return)});
    connect(previous, &QAction::triggered, this, [this] { find(m_find->text(), true); });
    auto *close = new QAction(this);
    close->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(close, &QAction::triggered, this, &QWidget::close);
    addActions({focusFind, next, previous, close});

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_find, 1);
    bar->addWidget(m_status);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(m_browser, 1);
}

FormatReferenceWindow::~FormatReferenceWindow() = default;

QString FormatReferenceWindow::markdown()
{
    QFile file(QStringLiteral(":/docs/TRACE_FORMAT.md"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

bool FormatReferenceWindow::find(const QString &text, bool backward)
{
    if (text.isEmpty())
        return false;
    const QTextDocument::FindFlags flags = backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    bool found = m_browser->find(text, flags);
    if (!found) {
        // Wrap around once.
        QTextCursor cursor = m_browser->textCursor();
        cursor.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
        m_browser->setTextCursor(cursor);
        found = m_browser->find(text, flags);
    }
    m_status->setText(found ? QString() : tr("Not found"));
    return found;
}

} // namespace TraceInspector
