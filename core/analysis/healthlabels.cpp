// SPDX-License-Identifier: MIT
#include <set>
#include <string_view>
#include <unordered_map>

#include "core/analysis/healthcontext.h"
#include "core/compat/rustformat.h"

namespace TraceInspector::HealthDetail {

namespace {

FindingText backticked(std::string_view prefix, std::string_view label, std::string_view suffix)
{
    return concat({prefix, "`", label, "`", suffix});
}

} // namespace

void labelFindings(HealthContext &ctx)
{
    const Trace &trace = ctx.trace;
    if (!trace.meta)
        return;
    const CaptureContract &contract = trace.meta->captureContract;
    const Severity severity = ctx.structural();

    // Count the spans named like a required label in one pass over the spans.
    std::unordered_map<StringId, std::uint64_t> nameCounts;
    for (const std::string &label : contract.requiredSemanticLabels) {
        const StringId id = trace.strings.find(label);
        if (id != kNoString) {
            ctx.scratch[id] |= LabelName;
            nameCounts.emplace(id, 0);
        }
    }
    if (!nameCounts.empty()) {
        for (const Span &s : trace.spans)
            if (ctx.scratch[s.name] & LabelName)
                ++nameCounts[s.name];
    }

    // Every check runs for every entry (TRACE_FORMAT.md §10.1, note below the table): a blank
    // label gets its "empty" finding and still its duplicate and cardinality findings, as
    // upstream does.
    std::set<std::string_view> required;
    for (const std::string &label : contract.requiredSemanticLabels) {
        if (isRustBlank(label))
            ctx.emitMeta(severity, "HW-LABEL-EMPTY", "empty_required_semantic_label",
                         "required semantic labels must not be empty", label);
        if (!required.insert(label).second)
            ctx.emitMeta(severity, "HW-LABEL-DUP", "duplicate_required_semantic_label",
                         backticked("required semantic label ", label, " is declared more than once"), label);
        const StringId id = trace.strings.find(label);
        const std::uint64_t count = id == kNoString ? 0 : nameCounts[id];
        if (count != 1)
            ctx.emitMeta(severity, "HW-LABEL-CARDINALITY", "required_semantic_label_cardinality",
                         concat({"required semantic label `", label, "` must occur exactly once; observed ",
                                 std::to_string(count)}),
                         label);
    }

    if (contract.gpuExpectedSemanticLabels.empty() && contract.cpuOnlySemanticLabels.empty())
        return;
    // `required` now holds every required label, blank ones included.
    std::set<std::string_view> classified;
    const std::pair<std::string_view, const std::vector<std::string> *> classes[] = {
        {"GPU-expected", &contract.gpuExpectedSemanticLabels},
        {"CPU-only", &contract.cpuOnlySemanticLabels},
    };
    for (const auto &[className, labels] : classes) {
        std::set<std::string_view> seen;
        for (const std::string &label : *labels) {
            // A blank entry is checked like any other and joins the classified set.
            if (isRustBlank(label))
                ctx.emitMeta(severity, "HW-CLASS-EMPTY", "empty_semantic_label_classification",
                             concat({className, " semantic labels must not be empty"}), label);
            if (!seen.insert(label).second)
                ctx.emitMeta(severity, "HW-CLASS-DUP", "duplicate_semantic_label_classification",
                             concat({className, " semantic label `", label, "` is declared more than once"}), label);
            if (!required.count(label))
                ctx.emitMeta(severity, "HW-CLASS-UNREQUIRED", "unrequired_semantic_label_classification",
                             concat({className, " semantic label `", label, "` is not a required application label"}),
                             label);
            if (!classified.insert(label).second)
                ctx.emitMeta(severity, "HW-CLASS-OVERLAP", "overlapping_semantic_label_classification",
                             backticked("semantic label ", label, " is classified as both GPU-expected and CPU-only"),
                             label);
        }
    }
    if (classified != required)
        ctx.emitMeta(severity, "HW-CLASS-PARTITION", "incomplete_semantic_label_partition",
                     "GPU-expected and CPU-only semantic labels must partition all required application labels");
}

} // namespace TraceInspector::HealthDetail
