// SPDX-License-Identifier: MIT
#include "ui/widgets/filterlineedit.h"

#include <QKeyEvent>
#include <QTimer>

namespace TraceInspector {

FilterLineEdit::FilterLineEdit(QWidget *parent)
    : QLineEdit(parent)
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    m_timer->setInterval(250);
    setClearButtonEnabled(true);
    connect(this, &QLineEdit::textChanged, m_timer, qOverload<>(&QTimer::start));
    connect(m_timer, &QTimer::timeout, this, &FilterLineEdit::flush);
    connect(this, &QLineEdit::returnPressed, this, &FilterLineEdit::flush);
}

FilterLineEdit::~FilterLineEdit() = default;

int FilterLineEdit::debounceInterval() const
{
    return m_timer->interval();
}

void FilterLineEdit::setDebounceInterval(int milliseconds)
{
    m_timer->setInterval(milliseconds);
}

void FilterLineEdit::flush()
{
    m_timer->stop();
    if (text() == m_applied)
        return;
    m_applied = text();
    Q_EMIT filterChanged(m_applied);
}

void FilterLineEdit::setFilterText(const QString &text)
{
    setText(text);
    flush();
}

void FilterLineEdit::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape && !text().isEmpty()) {
        setFilterText(QString());
        event->accept();
        return;
    }
    QLineEdit::keyPressEvent(event);
}

} // namespace TraceInspector
