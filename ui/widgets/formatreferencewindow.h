// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLineEdit;
class QLabel;
class QTextBrowser;

namespace TraceInspector {

/// Help > Format Reference: docs/TRACE_FORMAT.md, the format's authority, shipped in the
/// application as a resource and shown rendered, with a find field (Ctrl+F, Return / F3
/// for the next match, Shift+F3 for the previous).
class FormatReferenceWindow : public QWidget
{
    Q_OBJECT
public:
    explicit FormatReferenceWindow(QWidget *parent = nullptr);
    ~FormatReferenceWindow() override;

    /// The Markdown shipped with the application (empty if the resource is missing).
    static QString markdown();
    QTextBrowser *browser() const { return m_browser; }
    /// Finds \a text after (or before) the cursor, wrapping around; false when absent.
    bool find(const QString &text, bool backward = false);

private:
    QTextBrowser *m_browser;
    QLineEdit *m_find;
    QLabel *m_status;
};

} // namespace TraceInspector
