// SPDX-License-Identifier: MIT
#pragma once

#include <QLineEdit>

class QTimer;

namespace TraceInspector {

/// A search field that reports its text only after typing pauses (default 250 ms), so a
/// filter over millions of rows is not re-run for every key stroke. Return applies the
/// text at once; Escape clears it.
class FilterLineEdit : public QLineEdit
{
    Q_OBJECT
public:
    explicit FilterLineEdit(QWidget *parent = nullptr);
    ~FilterLineEdit() override;

    int debounceInterval() const;
    void setDebounceInterval(int milliseconds);
    /// The text last reported through filterChanged().
    QString appliedText() const { return m_applied; }

public Q_SLOTS:
    /// Reports a pending change now.
    void flush();
    /// Sets the text and reports it at once (no debounce).
    void setFilterText(const QString &text);

Q_SIGNALS:
    void filterChanged(const QString &text);

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    QTimer *m_timer;
    QString m_applied;
};

} // namespace TraceInspector
