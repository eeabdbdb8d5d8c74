// SPDX-License-Identifier: MIT
#pragma once

#include <QFrame>

#include "ui/style/severitypalette.h"

class QLabel;
class QHBoxLayout;
class QToolButton;

namespace TraceInspector {

/// An inline, non-modal message above the panels (like KMessageWidget): an icon, a bold
/// title, the explanation (selectable, wrapped), optional action buttons and a close button.
class MessageBanner : public QFrame
{
    Q_OBJECT
public:
    using Tone = SeverityPalette::Tone;

    explicit MessageBanner(QWidget *parent = nullptr);

    /// Shows the banner with \a title and \a text, replacing any previous message and actions.
    void showMessage(Tone tone, const QString &title, const QString &text);
    /// Adds a button for \a action (shown until the next showMessage()).
    void addAction(QAction *action);
    /// Hides the banner and emits dismissed() when it was visible.
    void dismiss();

    Tone tone() const { return m_tone; }
    QString title() const;
    QString text() const;

Q_SIGNALS:
    void dismissed();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void applyTone();

    Tone m_tone = Tone::Information;
    QLabel *m_icon;
    QLabel *m_title;
    QLabel *m_text;
    QHBoxLayout *m_actions;
    QToolButton *m_close;
};

} // namespace TraceInspector
