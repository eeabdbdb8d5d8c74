// SPDX-License-Identifier: MIT
#include "ui/selection/selectionmodel.h"

#include <QAction>
#include <QKeySequence>

namespace TraceInspector {

SelectionModel::SelectionModel(QObject *parent)
    : QObject(parent)
    , m_back(new QAction(tr("Back"), this))
    , m_forward(new QAction(tr("Forward"), this))
{
    qRegisterMetaType<TraceInspector::Selection>();
    qRegisterMetaType<TraceInspector::TimeWindow>();
    // The platform's bindings, plus Alt+Left / Alt+Right everywhere.
    auto bindings = [](QKeySequence::StandardKey key, const QKeySequence &always) {
        QList<QKeySequence> keys = QKeySequence::keyBindings(key);
        if (!keys.contains(always))
            keys.append(always);
        return keys;
    };
    m_back->setShortcuts(bindings(QKeySequence::Back, QKeySequence(Qt::ALT | Qt::Key_Left)));
    m_back->setToolTip(
        tr("Go back to the previous selection (%1)").arg(m_back->shortcut().toString(QKeySequence::NativeText)));
    m_forward->setShortcuts(bindings(QKeySequence::Forward, QKeySequence(Qt::ALT | Qt::Key_Right)));
    m_forward->setToolTip(
        tr("Go forward to the next selection (%1)").arg(m_forward->shortcut().toString(QKeySequence::NativeText)));
    m_back->setShortcutContext(Qt::WindowShortcut);
    m_forward->setShortcutContext(Qt::WindowShortcut);
    connect(m_back, &QAction::triggered, this, &SelectionModel::back);
    connect(m_forward, &QAction::triggered, this, &SelectionModel::forward);
    updateActions();
}

SelectionModel::~SelectionModel() = default;

bool SelectionModel::canGoBack() const
{
    return m_position > 0 || (m_position == 0 && !m_current.isValid());
}

bool SelectionModel::canGoForward() const
{
    return m_position + 1 < int(m_history.size());
}

void SelectionModel::select(const Selection &selection)
{
    if (!selection.isValid()) {
        clearSelection();
        return;
    }
    if (selection == m_current)
        return;
    if (m_position < 0 || m_history[std::size_t(m_position)] != selection) {
        m_history.resize(std::size_t(m_position + 1));
        m_history.push_back(selection);
        if (int(m_history.size()) > kHistoryLimit)
            m_history.erase(m_history.begin());
        m_position = int(m_history.size()) - 1;
        Q_EMIT historyChanged();
    }
    setCurrent(selection);
}

void SelectionModel::activate(const Selection &selection)
{
    select(selection);
    if (selection.isValid())
        Q_EMIT activated(selection);
}

void SelectionModel::clearSelection()
{
    setCurrent(Selection{});
}

void SelectionModel::setTimeRange(const TimeWindow &range)
{
    const TimeWindow next = range.isEmpty() ? TimeWindow{} : range;
    if (next == m_range)
        return;
    m_range = next;
    Q_EMIT timeRangeChanged(m_range);
}

void SelectionModel::clearTimeRange()
{
    setTimeRange(TimeWindow{});
}

void SelectionModel::back()
{
    if (!canGoBack())
        return;
    // From a cleared selection, back returns to the last one recorded.
    if (m_current.isValid())
        --m_position;
    setCurrent(m_history[std::size_t(m_position)]);
    Q_EMIT historyChanged();
}

void SelectionModel::forward()
{
    if (!canGoForward())
        return;
    ++m_position;
    setCurrent(m_history[std::size_t(m_position)]);
    Q_EMIT historyChanged();
}

void SelectionModel::reset()
{
    m_history.clear();
    m_position = -1;
    setCurrent(Selection{});
    clearTimeRange();
    Q_EMIT historyChanged();
}

void SelectionModel::setCurrent(const Selection &selection)
{
    if (selection == m_current) {
        updateActions();
        return;
    }
    const Selection previous = m_current;
    m_current = selection;
    updateActions();
    Q_EMIT selectionChanged(m_current, previous);
}

void SelectionModel::updateActions()
{
    m_back->setEnabled(canGoBack());
    m_forward->setEnabled(canGoForward());
}

} // namespace TraceInspector
