// SPDX-License-Identifier: MIT
#pragma once

#include <QFrame>

#include "core/itemmodels/viewcoverage.h"

class QLabel;

namespace TraceInspector {

/// One line above a view saying how well its data was captured: "Captured: complete",
/// "Captured: partial", or "Not captured" with the reason, so that a view without data
/// never reads as an empty result. Colours come from the palette and the severity tones.
class CoverageBadge : public QFrame
{
    Q_OBJECT
public:
    explicit CoverageBadge(QWidget *parent = nullptr);
    ~CoverageBadge() override;

    void setCoverage(const ViewCoverage &coverage);
    /// Hides the badge (no analysis yet).
    void clear();
    bool isCaptured() const { return m_coverage.captured; }
    QString text() const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    ViewCoverage m_coverage;
    QLabel *m_icon;
    QLabel *m_text;
};

} // namespace TraceInspector
