// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include <vector>

namespace TraceInspector {

/// Histogram of gradient norms on a log10 axis (norms span many orders of magnitude), one
/// bar per decade half. Zero, missing, non-finite and uncaptured keys have no norm to place
/// on a log axis: they are counted in words beside the bars, not as a bar at zero. With no
/// norms at all it says so instead of drawing empty axes. Colours from the palette.
class GradientHistogram : public QWidget
{
    Q_OBJECT
public:
    explicit GradientHistogram(QWidget *parent = nullptr);
    ~GradientHistogram() override;

    /// \a norms: the finite positive norms; \a unplaced: a note for the keys without one
    /// (e.g. "3 zero, 1 missing").
    void setNorms(std::vector<double> norms, const QString &unplaced);
    void clear();

    struct Bin {
        double lowLog10 = 0; ///< bin covers [10^low, 10^(low + width))
        int count = 0;
    };
    const std::vector<Bin> &bins() const { return m_bins; }
    double binWidthLog10() const { return m_width; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::vector<Bin> m_bins;
    double m_width = 0.5;
    int m_maxCount = 0;
    std::size_t m_normCount = 0;
    QString m_unplaced;
};

} // namespace TraceInspector
