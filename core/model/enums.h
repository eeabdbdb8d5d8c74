// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace TraceInspector {

// Wire enumerations of the trace format (TRACE_FORMAT.md §4.13). Each has a
// xxxName() giving the exact wire string and a parseXxx() accepting only that string.

enum class ExecutionPhase : std::uint8_t { Train, Infer };
enum class ExecutionStep : std::uint8_t { None, Forward, Backward, Optimizer }; // None = absent
enum class TimingMode : std::uint8_t { Host, DeviceSynchronized };
enum class SpanKind : std::uint8_t { Function, Op, Module };
enum class MemoryAction : std::uint8_t { Alloc, Free };
enum class MemoryCategory : std::uint8_t { Parameter, Activation, Gradient, Optimizer, Other };
inline constexpr int kMemoryCategoryCount = 5;
enum class GradientState : std::uint8_t { Present, Missing, Zero, NonFinite };
enum class RunOutcome : std::uint8_t { Complete, Failed };
enum class CoverageLevel : std::uint8_t { None, Partial, Complete }; // ordered
enum class MeasurementScope : std::uint8_t { Unknown, ProfiledWork, ProductionEquivalent };
enum class GradientFamilyExpectation : std::uint8_t { Active, Inactive, DataConditional };
enum class EdgeKind : std::uint8_t { Call, Data };

std::string_view phaseName(ExecutionPhase v);
std::string_view stepName(ExecutionStep v); // "" for None
std::string_view timingModeName(TimingMode v);
std::string_view spanKindName(SpanKind v);
std::string_view memoryActionName(MemoryAction v);
std::string_view memoryCategoryName(MemoryCategory v);
std::string_view gradientStateName(GradientState v);
std::string_view runOutcomeName(RunOutcome v);
std::string_view coverageLevelName(CoverageLevel v);
std::string_view measurementScopeName(MeasurementScope v);
std::string_view familyExpectationName(GradientFamilyExpectation v);
std::string_view edgeKindName(EdgeKind v);

std::optional<ExecutionPhase> parsePhase(std::string_view s);
std::optional<ExecutionStep> parseStep(std::string_view s); // never returns None
std::optional<TimingMode> parseTimingMode(std::string_view s);
std::optional<SpanKind> parseSpanKind(std::string_view s);
std::optional<MemoryAction> parseMemoryAction(std::string_view s);
std::optional<MemoryCategory> parseMemoryCategory(std::string_view s);
std::optional<GradientState> parseGradientState(std::string_view s);
std::optional<RunOutcome> parseRunOutcome(std::string_view s);
std::optional<CoverageLevel> parseCoverageLevel(std::string_view s);
std::optional<MeasurementScope> parseMeasurementScope(std::string_view s);
std::optional<GradientFamilyExpectation> parseFamilyExpectation(std::string_view s);
std::optional<EdgeKind> parseEdgeKind(std::string_view s);

/// serde's "expected ..." list for an enum, e.g. "`train` or `infer`", used in
/// `unknown variant` messages. \a typeName is the C++ enum name without namespace.
std::string_view enumExpectation(std::string_view typeName);

} // namespace TraceInspector
