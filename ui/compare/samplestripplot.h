// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include "core/comparison/samplestatistics.h"

namespace TraceInspector {

/// The two distributions of a replicated comparison (issue #15 item 7): one strip per side
/// on a shared time axis, a dot per run's sample, the median as a bar and the p95 as a tick.
/// Colours come from the palette (DeltaPalette's baseline and candidate series).
class SampleStripPlot : public QWidget
{
    Q_OBJECT
public:
    explicit SampleStripPlot(QWidget *parent = nullptr);
    ~SampleStripPlot() override;

    void setSamples(const SampleStatistics &baseline, const SampleStatistics &candidate);
    void clear();
    bool isEmpty() const { return m_baseline.samplesNs.empty() && m_candidate.samplesNs.empty(); }
    /// The axis range drawn, [lowest, highest] sample with a margin.
    std::pair<double, double> axisRange() const;

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    SampleStatistics m_baseline;
    SampleStatistics m_candidate;
};

} // namespace TraceInspector
