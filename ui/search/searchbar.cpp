// SPDX-License-Identifier: MIT
#include "ui/search/searchbar.h"

#include "ui/style/severitypalette.h"

#include <QAction>
#include <QGuiApplication>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

#include "core/display/format.h"
#include "core/model/trace.h"
#include "core/loading/workerpool.h"

namespace TraceInspector {
namespace {

constexpr int kDebounceMs = 250;

} // namespace

SearchBar::SearchBar(QWidget *parent)
    : QWidget(parent)
    , m_edit(new QLineEdit(this))
    , m_caseButton(new QToolButton(this))
    , m_regexButton(new QToolButton(this))
    , m_previousButton(new QToolButton(this))
    , m_nextButton(new QToolButton(this))
    , m_status(new QLabel(this))
    , m_debounce(new QTimer(this))
    , m_findAction(new QAction(tr("Find\u2026"), this))
    , m_nextAction(new QAction(tr("Find Next"), this))
    , m_previousAction(new QAction(tr("Find Previous"), this))
{
    qRegisterMetaType<TraceInspector::Selection>();
    m_edit->setPlaceholderText(tr("Find spans, ops, tensor ids\u2026"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setAccessibleName(tr("Search text"));
    m_edit->setToolTip(tr("Searches span names and ids, op names and tensor ids"));
    m_caseButton->setText(QStringLiteral("Aa"));
    m_caseButton->setCheckable(true);
    m_caseButton->setToolTip(tr("Match case"));
    m_caseButton->setAccessibleName(tr("Match case"));
    m_regexButton->setText(QStringLiteral(".*"));
    m_regexButton->setCheckable(true);
    m_regexButton->setToolTip(tr("Regular expression (ECMAScript)"));
    m_regexButton->setAccessibleName(tr("Regular expression"));
    m_previousButton->setArrowType(Qt::UpArrow);
    m_previousButton->setToolTip(tr("Previous match (Shift+F3)"));
    m_previousButton->setAccessibleName(tr("Previous match"));
    m_nextButton->setArrowType(Qt::DownArrow);
    m_nextButton->setToolTip(tr("Next match (F3)"));
    m_nextButton->setAccessibleName(tr("Next match"));
    m_status->setMinimumWidth(m_status->fontMetrics().horizontalAdvance(QStringLiteral("000,000 of 000,000")));

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_caseButton);
    layout->addWidget(m_regexButton);
    layout->addWidget(m_status);
    layout->addWidget(m_previousButton);
    layout->addWidget(m_nextButton);

    // The platform's bindings, plus the keys the issue promises everywhere.
    auto bindings = [](QKeySequence::StandardKey key, const QKeySequence &always) {
        QList<QKeySequence> keys = QKeySequence::keyBindings(key);
        if (!keys.contains(always))
            keys.append(always);
        return keys;
    };
    m_findAction->setShortcuts(bindings(QKeySequence::Find, QKeySequence(Qt::CTRL | Qt::Key_F)));
    m_nextAction->setShortcuts(bindings(QKeySequence::FindNext, QKeySequence(Qt::Key_F3)));
    m_previousAction->setShortcuts(bindings(QKeySequence::FindPrevious, QKeySequence(Qt::SHIFT | Qt::Key_F3)));
    for (QAction *a : {m_findAction, m_nextAction, m_previousAction})
        a->setShortcutContext(Qt::WindowShortcut);
    connect(m_findAction, &QAction::triggered, this, &SearchBar::activateFind);
    connect(m_nextAction, &QAction::triggered, this, &SearchBar::findNext);
    connect(m_previousAction, &QAction::triggered, this, &SearchBar::findPrevious);
    connect(m_nextButton, &QToolButton::clicked, this, &SearchBar::findNext);
    connect(m_previousButton, &QToolButton::clicked, this, &SearchBar::findPrevious);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, &SearchBar::startSearch);
    connect(m_edit, &QLineEdit::textChanged, this, &SearchBar::scheduleSearch);
    connect(m_caseButton, &QToolButton::toggled, this, &SearchBar::scheduleSearch);
    connect(m_regexButton, &QToolButton::toggled, this, &SearchBar::scheduleSearch);
    connect(m_edit, &QLineEdit::returnPressed, this, [this] {
        if (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier)
            findPrevious();
        else
            findNext();
    });
    updateStatus();
}

SearchBar::~SearchBar()
{
    if (m_cancel)
        m_cancel->store(true);
}

void SearchBar::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    if (m_cancel)
        m_cancel->store(true);
    ++m_generation;
    m_running = false;
    m_matches.clear();
    m_current = -1;
    m_error.clear();
    m_dirty = true;
    if (!m_edit->text().isEmpty())
        startSearch();
    updateStatus();
}

QString SearchBar::text() const
{
    return m_edit->text();
}

bool SearchBar::isCaseSensitive() const
{
    return m_caseButton->isChecked();
}

bool SearchBar::isRegex() const
{
    return m_regexButton->isChecked();
}

void SearchBar::setText(const QString &text)
{
    m_edit->setText(text);
}

void SearchBar::setCaseSensitive(bool on)
{
    m_caseButton->setChecked(on);
}

void SearchBar::setRegex(bool on)
{
    m_regexButton->setChecked(on);
}

void SearchBar::activateFind()
{
    show();
    m_edit->setFocus(Qt::ShortcutFocusReason);
    m_edit->selectAll();
}

Selection SearchBar::selectionOf(const SearchMatch &match)
{
    switch (match.kind) {
    case SearchMatch::Kind::Span: return Selection::span(match.index);
    case SearchMatch::Kind::Op: return Selection::op(match.index);
    case SearchMatch::Kind::Tensor: return Selection::tensor(match.index);
    }
    return {};
}

void SearchBar::scheduleSearch()
{
    m_dirty = true;
    m_debounce->start();
    updateStatus();
}

void SearchBar::startSearch()
{
    m_debounce->stop();
    if (m_cancel)
        m_cancel->store(true);
    const quint64 generation = ++m_generation;
    m_matches.clear();
    m_current = -1;
    m_error.clear();
    m_dirty = false;
    if (!m_trace || m_edit->text().isEmpty()) {
        m_running = false;
        m_pendingStep = 0;
        updateStatus();
        Q_EMIT searchFinished(0);
        return;
    }
    SearchQuery query;
    query.text = m_edit->text().toStdString();
    query.caseSensitive = isCaseSensitive();
    query.regex = isRegex();
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    m_running = true;
    updateStatus();
    std::shared_ptr<const Trace> trace = m_trace;
    // A QFutureWatcher, not QFuture::then(context): Qt 6.4 can drop a context continuation
    // attached to a future that has already finished.
    auto *watcher = new QFutureWatcher<SearchResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation || watcher->future().resultCount() == 0)
            return; // a newer query or trace superseded this one
        SearchResult result = watcher->result();
        if (result.cancelled)
            return;
        m_running = false;
        m_cancel.reset();
        m_matches = std::move(result.matches);
        m_error = QString::fromStdString(result.error);
        m_current = -1;
        updateStatus();
        Q_EMIT searchFinished(int(m_matches.size()));
        if (const int pending = std::exchange(m_pendingStep, 0))
            step(pending);
    });
    watcher->setFuture(QtConcurrent::run(
        workerPool(), [trace, query, cancel] { return TraceSearch::run(*trace, query, cancel.get()); }));
}

void SearchBar::findNext()
{
    step(1);
}

void SearchBar::findPrevious()
{
    step(-1);
}

void SearchBar::step(int direction)
{
    // Text typed but not searched yet: search now, then move.
    if (m_dirty || m_running) {
        m_pendingStep = direction;
        if (m_dirty)
            startSearch();
        return;
    }
    if (m_matches.empty())
        return;
    const int n = int(m_matches.size());
    if (m_current < 0)
        m_current = direction > 0 ? 0 : n - 1;
    else
        m_current = ((m_current + direction) % n + n) % n;
    updateStatus();
    Q_EMIT matchSelected(selectionOf(m_matches[std::size_t(m_current)]));
}

void SearchBar::updateStatus()
{
    QPalette pal = m_status->palette();
    pal.setColor(QPalette::WindowText, palette().color(QPalette::WindowText));
    if (!m_error.isEmpty()) {
        m_status->setText(tr("invalid"));
        m_status->setToolTip(m_error);
        pal.setColor(QPalette::WindowText, SeverityPalette::toneColor(SeverityPalette::Tone::Error));
    } else if (m_running) {
        m_status->setText(tr("searching\u2026"));
        m_status->setToolTip({});
    } else if (m_edit->text().isEmpty() || m_dirty) {
        m_status->setText({});
        m_status->setToolTip({});
    } else if (m_matches.empty()) {
        m_status->setText(tr("no matches"));
        m_status->setToolTip({});
    } else {
        m_status->setText(
            m_current < 0
                ? tr("%1 match(es)", nullptr, numerusCount(m_matches.size())).arg(formatCount(m_matches.size()))
                : tr("%1 of %2").arg(formatCount(std::uint64_t(m_current) + 1), formatCount(m_matches.size())));
        m_status->setToolTip({});
    }
    m_status->setPalette(pal);
    const bool any = !m_matches.empty() || m_dirty;
    m_nextButton->setEnabled(any);
    m_previousButton->setEnabled(any);
}

void SearchBar::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        hide();
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace TraceInspector
