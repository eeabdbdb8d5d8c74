// SPDX-License-Identifier: MIT
#include "ui/timeline/timelinetooltip.h"

#include <QCoreApplication>

#include "core/display/format.h"
#include "core/analysis/spantree.h"
#include "core/model/trace.h"
#include "core/timeline/timelinelayout.h"
#include "core/timeline/timelineruler.h"

namespace TraceInspector::TimelineToolTip {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("TraceInspector::TimelineToolTip", text);
}

QString html(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size())).toHtmlEscaped();
}

QString row(const QString &label, const QString &value)
{
    return QStringLiteral("<tr><td style='padding-right:8px'>%1</td><td>%2</td></tr>").arg(label, value);
}

QString table(const QString &title, const QString &subtitle, const QString &rows)
{
    return QStringLiteral("<b>%1</b><br/><i>%2</i><table cellspacing='0'>%3</table>").arg(title, subtitle, rows);
}

} // namespace

QString exactTime(std::uint64_t ns)
{
    const RulerUnit unit = rulerUnit(ns);
    const int decimals = unit == RulerUnit::Seconds        ? 9
                         : unit == RulerUnit::Milliseconds ? 6
                         : unit == RulerUnit::Microseconds ? 3
                                                           : 0;
    return QString::fromStdString(formatRulerLabel(ns, unit, decimals));
}

QString durationText(std::uint64_t ns)
{
    if (ns < 1000)
        return formatDuration(ns);
    return tr("%1 (%2 ns)").arg(formatDuration(ns), formatCount(ns));
}

QString forItem(const Trace &trace, const SpanTree &tree, const TimelineLayout &layout, TimelineItem item)
{
    switch (item.kind) {
    case TimelineItemKind::Span: {
        const Span &s = trace.spans[item.index];
        QString subtitle = tr("span") + QStringLiteral(" \u00B7 ") + html(spanKindName(s.kind));
        if (s.measured)
            subtitle += QStringLiteral(" \u00B7 ") + tr("measured");
        if (s.step != ExecutionStep::None)
            subtitle += QStringLiteral(" \u00B7 ") + html(stepName(s.step));
        QString rows = row(tr("id"), html(trace.str(s.id))) + row(tr("start"), exactTime(s.startNs));
        if (tree.isOpen(item.index)) {
            rows += row(tr("duration"), tr("open: no span_end, drawn to the run's end"));
        } else {
            rows += row(tr("duration"), durationText(s.durationNs));
            rows += row(tr("self"), durationText(tree.selfNs(item.index).value_or(0)));
        }
        const auto ops = tree.opsOfSpan(item.index);
        if (!ops.empty()) {
            std::uint64_t in = 0;
            std::uint64_t out = 0;
            for (std::uint32_t o : ops) {
                in += trace.ops[o].inputDenseBytes;
                out += trace.ops[o].outputDenseBytes;
            }
            rows += row(
                tr("ops"),
                tr("%1 \u00B7 in %2 \u00B7 out %3").arg(formatCount(ops.size()), formatBytes(in), formatBytes(out)));
        }
        rows += row(tr("depth"), QString::number(tree.depth(item.index)));
        return table(html(trace.str(s.name)), subtitle, rows);
    }
    case TimelineItemKind::Op: {
        const Op &op = trace.ops[item.index];
        const std::uint32_t span = tree.spanOfOp(item.index);
        QString rows =
            row(tr("span"), span == SpanTree::kNoParent ? tr("unknown span %1").arg(html(trace.str(op.spanId)))
                                                        : html(trace.str(trace.spans[span].name)));
        rows += row(tr("start"), exactTime(op.timestampNs));
        rows += row(tr("duration"), durationText(op.durationNs));
        rows += row(tr("self"), durationText(op.durationNs));
        rows += row(tr("bytes"), tr("in %1 \u00B7 out %2")
                                     .arg(formatBytes(op.inputDenseBytes),
                                          op.hasOutputDenseBytes ? formatBytes(op.outputDenseBytes) : tr("unknown")));
        rows +=
            row(tr("output"), html(trace.str(op.dtype)) + QLatin1Char(' ') + formatShape(trace.shapes.view(op.shape))
                                  + QStringLiteral(" \u00B7 ") + html(trace.str(op.device)));
        return table(html(trace.str(op.opName)), tr("op"), rows);
    }
    case TimelineItemKind::DeviceInterval: {
        const DeviceInterval &d = trace.deviceIntervals[item.index];
        const std::uint32_t span = layout.spanOfInterval(item.index);
        const QString title =
            span == TimelineLayout::kNoSpan ? html(trace.str(d.spanId)) : html(trace.str(trace.spans[span].name));
        std::uint64_t origin = d.startNs;
        for (const auto &domain : layout.clockDomains()) {
            if (domain.clock == d.clockId)
                origin = domain.extent.begin;
        }
        QString rows =
            row(tr("span"), span == TimelineLayout::kNoSpan ? tr("unknown span %1").arg(html(trace.str(d.spanId)))
                                                            : html(trace.str(d.spanId)));
        rows += row(tr("device"),
                    tr("%1 \u00B7 stream %2 \u00B7 %3")
                        .arg(html(trace.str(d.device)), html(trace.str(d.streamId)), html(trace.str(d.backend))));
        rows += row(tr("clock"), tr("%1 (device clock, not host time)").arg(html(trace.str(d.clockId))));
        rows += row(tr("start"), tr("+%1 after the clock's first interval (start_ns %2)")
                                     .arg(exactTime(d.startNs - origin), QString::number(d.startNs)));
        rows += row(tr("duration"), durationText(d.durationNs));
        return table(title, tr("device interval"), rows);
    }
    }
    return {};
}

QString forMerged(std::uint32_t count, std::uint64_t firstStart, std::uint64_t lastEnd, bool deviceClock)
{
    QString text = QStringLiteral("<b>%1</b><br/>").arg(tr("%1 slices merged into this pixel").arg(formatCount(count)));
    text += tr("from %1 to %2%3")
                .arg(exactTime(firstStart), exactTime(lastEnd), deviceClock ? tr(" (device clock)") : QString());
    text += QStringLiteral("<br/><i>%1</i>").arg(tr("Zoom in to see them one by one."));
    return text;
}

} // namespace TraceInspector::TimelineToolTip
