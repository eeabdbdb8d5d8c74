// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include <atomic>
#include <memory>
#include <vector>

#include "core/timeline/tracesearch.h"
#include "ui/selection/selection.h"

class QAction;
class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

namespace TraceInspector {

struct Trace;

/// Search over span names and ids, op names and tensor ids (TraceSearch), with case and
/// regex toggles, a match count and next/previous.
///
/// Typing searches after a short pause, off the GUI thread (a newer query supersedes an
/// older one). Return or F3 goes to the next match, Shift+Return or Shift+F3 to the
/// previous one, wrapping around; each emits matchSelected() with the match as a Selection.
/// Esc hides the bar. findAction() (Ctrl+F) shows and focuses it; add it and the next and
/// previous actions to the window so their shortcuts work everywhere.
class SearchBar : public QWidget
{
    Q_OBJECT
public:
    explicit SearchBar(QWidget *parent = nullptr);
    ~SearchBar() override;

    void setTrace(std::shared_ptr<const Trace> trace);

    QAction *findAction() const { return m_findAction; }
    QAction *findNextAction() const { return m_nextAction; }
    QAction *findPreviousAction() const { return m_previousAction; }

    QString text() const;
    bool isCaseSensitive() const;
    bool isRegex() const;
    /// True while a search runs in the background.
    bool isSearching() const { return m_running; }
    const std::vector<SearchMatch> &matches() const { return m_matches; }
    /// Position of the current match in matches(), or -1.
    int currentMatch() const { return m_current; }
    /// The query's error (an invalid regex), or empty.
    QString errorText() const { return m_error; }
    QLineEdit *lineEdit() const { return m_edit; }
    QLabel *statusLabel() const { return m_status; }

    static Selection selectionOf(const SearchMatch &match);

public Q_SLOTS:
    void setText(const QString &text);
    void setCaseSensitive(bool on);
    void setRegex(bool on);
    /// Shows the bar and puts the cursor in the field.
    void activateFind();
    void findNext();
    void findPrevious();

Q_SIGNALS:
    /// The current match moved (next/previous): select and reveal it.
    void matchSelected(const TraceInspector::Selection &selection);
    /// A search finished with \a count matches (0 also on error).
    void searchFinished(int count);

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void scheduleSearch();
    void startSearch();
    void step(int direction);
    void updateStatus();

    std::shared_ptr<const Trace> m_trace;
    QLineEdit *m_edit;
    QToolButton *m_caseButton;
    QToolButton *m_regexButton;
    QToolButton *m_previousButton;
    QToolButton *m_nextButton;
    QLabel *m_status;
    QTimer *m_debounce;
    QAction *m_findAction;
    QAction *m_nextAction;
    QAction *m_previousAction;

    std::vector<SearchMatch> m_matches;
    int m_current = -1;
    QString m_error;
    quint64 m_generation = 0;
    bool m_running = false;
    bool m_dirty = false;  // the text or options changed since the last finished search
    int m_pendingStep = 0; // next/previous asked for while a search ran
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace TraceInspector
