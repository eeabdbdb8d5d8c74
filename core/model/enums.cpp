// SPDX-License-Identifier: MIT
#include "core/model/enums.h"

#include <array>

namespace TraceInspector {
namespace {

template<typename E, std::size_t N>
std::optional<E> lookup(const std::array<std::string_view, N> &names, std::string_view s)
{
    for (std::size_t i = 0; i < N; ++i) {
        if (names[i] == s)
            return static_cast<E>(i);
    }
    return std::nullopt;
}

constexpr std::array<std::string_view, 2> kPhase{"train", "infer"};
constexpr std::array<std::string_view, 3> kStep{"forward", "backward", "optimizer"};
constexpr std::array<std::string_view, 2> kTiming{"host", "device_synchronized"};
constexpr std::array<std::string_view, 3> kSpanKind{"function", "op", "module"};
constexpr std::array<std::string_view, 2> kAction{"alloc", "free"};
constexpr std::array<std::string_view, 5> kCategory{"parameter", "activation", "gradient", "optimizer", "other"};
constexpr std::array<std::string_view, 4> kGradState{"present", "missing", "zero", "non_finite"};
constexpr std::array<std::string_view, 2> kOutcome{"complete", "failed"};
constexpr std::array<std::string_view, 3> kCoverage{"none", "partial", "complete"};
constexpr std::array<std::string_view, 3> kScope{"unknown", "profiled_work", "production_equivalent"};
constexpr std::array<std::string_view, 3> kExpectation{"active", "inactive", "data_conditional"};
constexpr std::array<std::string_view, 2> kEdge{"call", "data"};

template<typename E, std::size_t N>
std::string_view nameOf(const std::array<std::string_view, N> &names, E v)
{
    return names[static_cast<std::size_t>(v)];
}

} // namespace

std::string_view phaseName(ExecutionPhase v)
{
    return nameOf(kPhase, v);
}
std::string_view stepName(ExecutionStep v)
{
    return v == ExecutionStep::None ? std::string_view() : kStep[static_cast<std::size_t>(v) - 1];
}
std::string_view timingModeName(TimingMode v)
{
    return nameOf(kTiming, v);
}
std::string_view spanKindName(SpanKind v)
{
    return nameOf(kSpanKind, v);
}
std::string_view memoryActionName(MemoryAction v)
{
    return nameOf(kAction, v);
}
std::string_view memoryCategoryName(MemoryCategory v)
{
    return nameOf(kCategory, v);
}
std::string_view gradientStateName(GradientState v)
{
    return nameOf(kGradState, v);
}
std::string_view runOutcomeName(RunOutcome v)
{
    return nameOf(kOutcome, v);
}
std::string_view coverageLevelName(CoverageLevel v)
{
    return nameOf(kCoverage, v);
}
std::string_view measurementScopeName(MeasurementScope v)
{
    return nameOf(kScope, v);
}
std::string_view familyExpectationName(GradientFamilyExpectation v)
{
    return nameOf(kExpectation, v);
}
std::string_view edgeKindName(EdgeKind v)
{
    return nameOf(kEdge, v);
}

std::optional<ExecutionPhase> parsePhase(std::string_view s)
{
    return lookup<ExecutionPhase>(kPhase, s);
}
std::optional<ExecutionStep> parseStep(std::string_view s)
{
    if (auto i = lookup<int>(kStep, s))
        return static_cast<ExecutionStep>(*i + 1);
    return std::nullopt;
}
std::optional<TimingMode> parseTimingMode(std::string_view s)
{
    return lookup<TimingMode>(kTiming, s);
}
std::optional<SpanKind> parseSpanKind(std::string_view s)
{
    return lookup<SpanKind>(kSpanKind, s);
}
std::optional<MemoryAction> parseMemoryAction(std::string_view s)
{
    return lookup<MemoryAction>(kAction, s);
}
std::optional<MemoryCategory> parseMemoryCategory(std::string_view s)
{
    return lookup<MemoryCategory>(kCategory, s);
}
std::optional<GradientState> parseGradientState(std::string_view s)
{
    return lookup<GradientState>(kGradState, s);
}
std::optional<RunOutcome> parseRunOutcome(std::string_view s)
{
    return lookup<RunOutcome>(kOutcome, s);
}
std::optional<CoverageLevel> parseCoverageLevel(std::string_view s)
{
    return lookup<CoverageLevel>(kCoverage, s);
}
std::optional<MeasurementScope> parseMeasurementScope(std::string_view s)
{
    return lookup<MeasurementScope>(kScope, s);
}
std::optional<GradientFamilyExpectation> parseFamilyExpectation(std::string_view s)
{
    return lookup<GradientFamilyExpectation>(kExpectation, s);
}
std::optional<EdgeKind> parseEdgeKind(std::string_view s)
{
    return lookup<EdgeKind>(kEdge, s);
}

std::string_view enumExpectation(std::string_view typeName)
{
    // serde lists variants as `a` or `b` (two) / one of `a`, `b`, `c` (more).
    struct Entry {
        std::string_view type, text;
    };
    static constexpr Entry kTexts[] = {
        {"ExecutionPhase", "`train` or `infer`"},
        {"ExecutionStep", "one of `forward`, `backward`, `optimizer`"},
        {"TimingMode", "`host` or `device_synchronized`"},
        {"SpanKind", "one of `function`, `op`, `module`"},
        {"MemoryAction", "`alloc` or `free`"},
        {"MemoryCategory", "one of `parameter`, `activation`, `gradient`, `optimizer`, `other`"},
        {"GradientState", "one of `present`, `missing`, `zero`, `non_finite`"},
        {"RunOutcome", "`complete` or `failed`"},
        {"CoverageLevel", "one of `none`, `partial`, `complete`"},
        {"MeasurementScope", "one of `unknown`, `profiled_work`, `production_equivalent`"},
        {"GradientFamilyExpectation", "one of `active`, `inactive`, `data_conditional`"},
        {"EdgeKind", "`call` or `data`"},
        {"TraceEvent", "one of `meta`, `span_start`, `span_end`, `op`, `tensor`, `tensor_stats`, `memory`, "
                       "`device_memory`, `device_interval`, `gradient`, `edge`, `terminal`"},
    };
    for (const Entry &e : kTexts) {
        if (e.type == typeName)
            return e.text;
    }
    return {};
}

} // namespace TraceInspector
