// SPDX-License-Identifier: MIT
#pragma once

#include <QChartView>

#include <functional>

class QRubberBand;

namespace TraceInspector {

/// A chart view that reports mouse and keyboard gestures to the panel, which decides.
/// Positions are in pixels from the plot area's left edge.
class ChartView : public QChartView
{
public:
    std::function<void(double x, double factor)> onWheelZoom;
    std::function<void(double x0, double x1)> onBandZoom;
    std::function<void(double x0, double x1)> onBandSelect; // Shift+drag: a time range, no zoom
    std::function<void(double x)> onClick;
    std::function<void(double x)> onZoomOut;
    std::function<void(double x)> onHover;
    std::function<void()> onLeave;
    std::function<bool(QKeyEvent *)> onKey;
    std::function<void()> onResized;

    ChartView(QChart *chart, QWidget *parent);

    QRectF plot() const { return chart()->plotArea(); }

protected:
    void wheelEvent(QWheelEvent *e) override;
    void mousePressEvent(QMouseEvent *e) override;
    void mouseMoveEvent(QMouseEvent *e) override;
    void leaveEvent(QEvent *e) override;
    void mouseReleaseEvent(QMouseEvent *e) override;
    void keyPressEvent(QKeyEvent *e) override;
    void resizeEvent(QResizeEvent *e) override;

private:
    void updateBand(double x);

    QRubberBand *m_band = nullptr;
    double m_bandStart = 0;
    bool m_pressing = false;
    bool m_selectRange = false;
};

} // namespace TraceInspector
