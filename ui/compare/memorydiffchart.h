// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include "core/diff/memorydiff.h"

namespace TraceInspector {

/// Both runs' logical live bytes on one time axis (each run's time from its own start), with
/// each peak marked. Painted directly: two step curves of at most a few thousand points each
/// (MemoryDiff reduces them), so no chart library is needed.
class MemoryDiffChart : public QWidget
{
    Q_OBJECT
public:
    explicit MemoryDiffChart(QWidget *parent = nullptr);
    ~MemoryDiffChart() override;

    void setMemoryDiff(const MemoryDiff &diff);
    const MemoryDiff &memoryDiff() const { return m_diff; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    MemoryDiff m_diff;
};

} // namespace TraceInspector
