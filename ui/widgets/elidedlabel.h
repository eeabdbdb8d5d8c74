// SPDX-License-Identifier: MIT
#pragma once

#include <QLabel>

namespace TraceInspector {

/// A one-line plain-text label that gives way: it asks for its whole text but takes any
/// width, eliding the text at the right end and showing all of it in its tooltip. Status
/// lines whose text grows with the data (match counts, sort progress, a trace's summary)
/// would otherwise raise the window's minimum width with every longer text, and the window
/// would grow past the screen.
class ElidedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    QSize minimumSizeHint() const override;
    /// Whether the text is cut at the current width.
    bool isElided() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;
};

} // namespace TraceInspector
