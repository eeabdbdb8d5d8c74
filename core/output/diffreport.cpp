// SPDX-License-Identifier: MIT
#include "core/output/diffreport.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/analysis/spantree.h"
#include "core/diff/tracediff.h"
#include "core/model/trace.h"
#include "core/output/jsonwriter.h"
#include "core/output/textescape.h"

namespace TraceInspector {

namespace {

/// Matched spans ranked by self-time change: regressions (largest increase first) or
/// improvements (largest decrease first), at most \a top, zero changes left out.
std::vector<const SpanDelta *> rankSpans(const TraceDiff &d, bool regressions, std::size_t top)
{
    std::vector<const SpanDelta *> rows;
    for (const SpanDelta &s : d.matched) {
        const auto delta = s.selfDeltaNs();
        if (delta && (regressions ? *delta > 0 : *delta < 0))
            rows.push_back(&s);
    }
    const auto key = [regressions](const SpanDelta *s) { return regressions ? *s->selfDeltaNs() : -*s->selfDeltaNs(); };
    const std::size_t n = std::min(top, rows.size());
    std::partial_sort(rows.begin(), rows.begin() + std::ptrdiff_t(n), rows.end(),
                      [&](const SpanDelta *a, const SpanDelta *b) {
                          return key(a) != key(b) ? key(a) > key(b) : a->baseline < b->baseline;
                      });
    rows.resize(n);
    return rows;
}

std::vector<const OpGroupDelta *> rankGroups(const TraceDiff &d, bool regressions, std::size_t top)
{
    std::vector<const OpGroupDelta *> rows;
    for (const OpGroupDelta &g : d.opGroups) {
        if (regressions ? g.deltaNs() > 0 : g.deltaNs() < 0)
            rows.push_back(&g);
    }
    const auto key = [regressions](const OpGroupDelta *g) { return regressions ? g->deltaNs() : -g->deltaNs(); };
    // opGroups is sorted by its text key, so equal changes keep a stable order.
    std::stable_sort(rows.begin(), rows.end(),
                     [&](const OpGroupDelta *a, const OpGroupDelta *b) { return key(a) > key(b); });
    rows.resize(std::min(top, rows.size()));
    return rows;
}

std::string duration(std::int64_t ns, bool sign = false)
{
    const char *prefix = ns < 0 ? "-" : (sign ? "+" : "");
    const std::uint64_t a = ns < 0 ? std::uint64_t(0) - std::uint64_t(ns) : std::uint64_t(ns);
    char buf[64];
    if (a < 1000)
        std::snprintf(buf, sizeof buf, "%s%" PRIu64 " ns", prefix, a);
    else if (a < 1000000)
        std::snprintf(buf, sizeof buf, "%s%.3f us", prefix, double(a) / 1e3);
    else if (a < 1000000000)
        std::snprintf(buf, sizeof buf, "%s%.3f ms", prefix, double(a) / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%s%.3f s", prefix, double(a) / 1e9);
    return buf;
}

std::string percent(std::uint64_t base, std::int64_t delta)
{
    if (base == 0)
        return "new";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", double(delta) * 100.0 / double(base));
    return buf;
}

std::string optionalDuration(const std::optional<std::uint64_t> &ns)
{
    return ns ? duration(std::int64_t(std::min<std::uint64_t>(*ns, INT64_MAX))) : std::string("open");
}

std::string groupName(const OpGroupDelta &g)
{
    return oneLine(g.name + " " + g.shape + " " + g.dtype + " " + g.device);
}

void appendSpanRows(std::string &out, const DiffReportInput &in, const std::vector<const SpanDelta *> &rows)
{
    if (rows.empty())
        out += "  (none)\n";
    for (const SpanDelta *s : rows) {
        const std::int64_t delta = *s->selfDeltaNs();
        out += "  " + duration(delta, true) + " (" + percent(*s->baselineSelfNs, delta) + ")  self "
               + duration(std::int64_t(*s->baselineSelfNs)) + " -> " + duration(std::int64_t(*s->candidateSelfNs))
               + ", total " + optionalDuration(s->baselineTotalNs) + " -> " + optionalDuration(s->candidateTotalNs)
               + "  " + oneLine(spanPath(in.baseline, in.baselineTree, s->baseline)) + "\n";
    }
}

void appendGroupRows(std::string &out, const std::vector<const OpGroupDelta *> &rows)
{
    if (rows.empty())
        out += "  (none)\n";
    for (const OpGroupDelta *g : rows) {
        out += "  " + duration(g->deltaNs(), true) + " (" + percent(g->baselineNs, g->deltaNs()) + ")  "
               + duration(std::int64_t(g->baselineNs)) + " -> " + duration(std::int64_t(g->candidateNs)) + ", "
               + std::to_string(g->baselineCount) + " -> " + std::to_string(g->candidateCount) + " ops  "
               + groupName(*g) + "\n";
    }
}

void appendUnmatched(std::string &out, const char *title, const Trace &trace, const SpanTree &tree,
                     const std::vector<UnmatchedSpan> &tops, std::size_t top)
{
    if (tops.empty())
        return;
    out += std::string("\n") + title + " (" + std::to_string(tops.size()) + " subtrees):\n";
    for (std::size_t i = 0; i < std::min(top, tops.size()); ++i) {
        const UnmatchedSpan &u = tops[i];
        out += "  " + optionalDuration(u.totalNs) + "  " + std::to_string(u.spans)
               + (u.spans == 1 ? " span  " : " spans  ") + oneLine(spanPath(trace, tree, u.index)) + "\n";
    }
    if (tops.size() > top)
        out += "  ... " + std::to_string(tops.size() - top) + " more\n";
}

void writeOptional(JsonWriter &w, const char *key, const std::optional<std::uint64_t> &v)
{
    w.key(key);
    if (v)
        w.u64(*v);
    else
        w.null();
}

void writeSpanRows(JsonWriter &w, const DiffReportInput &in, const std::vector<const SpanDelta *> &rows)
{
    w.beginArray();
    for (const SpanDelta *s : rows) {
        w.beginObject();
        w.key("path").string(spanPath(in.baseline, in.baselineTree, s->baseline));
        w.key("baseline_id").string(in.baseline.str(in.baseline.spans[s->baseline].id));
        w.key("candidate_id").string(in.candidate.str(in.candidate.spans[s->candidate].id));
        writeOptional(w, "baseline_self_ns", s->baselineSelfNs);
        writeOptional(w, "candidate_self_ns", s->candidateSelfNs);
        w.key("self_delta_ns").i64(*s->selfDeltaNs());
        writeOptional(w, "baseline_total_ns", s->baselineTotalNs);
        writeOptional(w, "candidate_total_ns", s->candidateTotalNs);
        w.key("total_delta_ns");
        if (const auto t = s->totalDeltaNs())
            w.i64(*t);
        else
            w.null();
        w.endObject();
    }
    w.endArray();
}

void writeGroupRows(JsonWriter &w, const std::vector<const OpGroupDelta *> &rows)
{
    w.beginArray();
    for (const OpGroupDelta *g : rows) {
        w.beginObject();
        w.key("op").string(g->name);
        w.key("shape").string(g->shape);
        w.key("dtype").string(g->dtype);
        w.key("device").string(g->device);
        w.key("baseline_count").u64(g->baselineCount);
        w.key("candidate_count").u64(g->candidateCount);
        w.key("baseline_ns").u64(g->baselineNs);
        w.key("candidate_ns").u64(g->candidateNs);
        w.key("delta_ns").i64(g->deltaNs());
        w.endObject();
    }
    w.endArray();
}

void writeUnmatched(JsonWriter &w, const Trace &trace, const SpanTree &tree, const std::vector<UnmatchedSpan> &tops,
                    std::size_t top)
{
    w.beginArray();
    for (std::size_t i = 0; i < std::min(top, tops.size()); ++i) {
        w.beginObject();
        w.key("path").string(spanPath(trace, tree, tops[i].index));
        w.key("id").string(trace.str(trace.spans[tops[i].index].id));
        w.key("spans").u64(tops[i].spans);
        writeOptional(w, "total_ns", tops[i].totalNs);
        w.endObject();
    }
    w.endArray();
}

} // namespace

std::string diffReportText(const DiffReportInput &in)
{
    const TraceDiff &d = in.diff;
    const SpanMatch &m = d.spans;
    std::string out;
    out += "baseline:  " + in.baselineFile + " (" + std::to_string(in.baselineTree.spanCount()) + " spans, "
           + std::to_string(d.baselineOps) + " ops)\n";
    out += "candidate: " + in.candidateFile + " (" + std::to_string(in.candidateTree.spanCount()) + " spans, "
           + std::to_string(d.candidateOps) + " ops)\n";
    out += "spans: " + std::to_string(m.matched) + " of " + std::to_string(in.candidateTree.spanCount()) + " matched"
           + (m.matchedByLabel > 0 ? " (" + std::to_string(m.matchedByLabel) + " by semantic label)" : std::string())
           + "; " + std::to_string(m.candidateOnly) + " only in candidate, " + std::to_string(m.baselineOnly)
           + " only in baseline\n";
    out += "ops: " + std::to_string(d.matchedOps) + " of " + std::to_string(d.candidateOps)
           + " matched within matched spans (by op name and ordinal)\n";
    const std::int64_t measuredDelta = std::int64_t(std::min<std::uint64_t>(d.candidateMeasuredNs, INT64_MAX))
                                       - std::int64_t(std::min<std::uint64_t>(d.baselineMeasuredNs, INT64_MAX));
    out += "measured total: " + duration(std::int64_t(d.baselineMeasuredNs)) + " -> "
           + duration(std::int64_t(d.candidateMeasuredNs)) + " (" + duration(measuredDelta, true) + ", "
           + percent(d.baselineMeasuredNs, measuredDelta) + ")\n";
    out += "indicative: one run each; for a statistical verdict compare replicated runs\n";
    out += "\ntop regressions by span path (self time):\n";
    appendSpanRows(out, in, rankSpans(d, true, in.top));
    out += "\ntop improvements by span path (self time):\n";
    appendSpanRows(out, in, rankSpans(d, false, in.top));
    out += "\ntop regressions by op group (total time; op, shape, dtype, device):\n";
    appendGroupRows(out, rankGroups(d, true, in.top));
    out += "\ntop improvements by op group (total time):\n";
    appendGroupRows(out, rankGroups(d, false, in.top));
    appendUnmatched(out, "only in baseline", in.baseline, in.baselineTree, d.onlyInBaseline, in.top);
    appendUnmatched(out, "only in candidate", in.candidate, in.candidateTree, d.onlyInCandidate, in.top);
    return out;
}

void writeDiffReportJson(JsonWriter &w, const DiffReportInput &in)
{
    const TraceDiff &d = in.diff;
    w.beginObject();
    w.key("baseline").beginObject();
    w.key("file").string(in.baselineFile);
    w.key("spans").u64(in.baselineTree.spanCount());
    w.key("ops").u64(d.baselineOps);
    w.key("measured_ns").u64(d.baselineMeasuredNs);
    w.endObject();
    w.key("candidate").beginObject();
    w.key("file").string(in.candidateFile);
    w.key("spans").u64(in.candidateTree.spanCount());
    w.key("ops").u64(d.candidateOps);
    w.key("measured_ns").u64(d.candidateMeasuredNs);
    w.endObject();
    w.key("match").beginObject();
    w.key("matched_spans").u64(d.spans.matched);
    w.key("label_matched_spans").u64(d.spans.matchedByLabel);
    w.key("baseline_only_spans").u64(d.spans.baselineOnly);
    w.key("candidate_only_spans").u64(d.spans.candidateOnly);
    w.key("matched_ops").u64(d.matchedOps);
    w.endObject();
    w.key("indicative").boolean(true);
    w.key("span_regressions");
    writeSpanRows(w, in, rankSpans(d, true, in.top));
    w.key("span_improvements");
    writeSpanRows(w, in, rankSpans(d, false, in.top));
    w.key("op_group_regressions");
    writeGroupRows(w, rankGroups(d, true, in.top));
    w.key("op_group_improvements");
    writeGroupRows(w, rankGroups(d, false, in.top));
    w.key("only_in_baseline");
    writeUnmatched(w, in.baseline, in.baselineTree, d.onlyInBaseline, in.top);
    w.key("only_in_candidate");
    writeUnmatched(w, in.candidate, in.candidateTree, d.onlyInCandidate, in.top);
    w.endObject().endLine();
}

} // namespace TraceInspector
