// SPDX-License-Identifier: MIT
#include "core/io/eventschema.h"

#include <array>

#include "core/model/enums.h"

namespace TraceInspector {
namespace {

using W = WireType;
constexpr Presence R = Presence::Required;
constexpr Presence O = Presence::Optional;
constexpr Presence D = Presence::Defaulted;

constexpr std::uint8_t en(WireEnum e)
{
    return static_cast<std::uint8_t>(e);
}
constexpr std::uint8_t st(WireStruct s)
{
    return static_cast<std::uint8_t>(s);
}

template<std::size_t N>
constexpr std::uint32_t requiredMask(const std::array<FieldSpec, N> &fields)
{
    static_assert(N <= 32);
    std::uint32_t mask = 0;
    for (std::size_t i = 0; i < N; ++i) {
        if (fields[i].presence == Presence::Required)
            mask |= 1u << i;
    }
    return mask;
}

// §4.1: `schema`, then the flattened TraceRunMeta.
constexpr std::array<FieldSpec, 15> kMeta{{
    {"schema", W::String, R},
    {"run_id", W::String, R},
    {"correlation_id", W::String, R},
    {"entrypoint", W::String, R},
    {"phase", W::Enum, R, en(WireEnum::ExecutionPhase)},
    {"timestamp", W::String, R},
    {"capture_step", W::U64, R},
    {"warmup_steps", W::U64, R},
    {"device", W::String, R},
    {"measured_region_device_synchronized", W::Bool, D},
    {"timing_mode", W::Enum, R, en(WireEnum::TimingMode)},
    {"capture_contract", W::Struct, R, st(WireStruct::CaptureContract)},
    {"comparison_identity", W::Struct, O, st(WireStruct::ComparisonIdentity)},
    {"tags", W::StringMap, R},
    {"candle_version", W::String, O},
}};
constexpr std::array<FieldSpec, 11> kCaptureContract{{
    {"measurement_scope", W::Enum, R, en(WireEnum::MeasurementScope)},
    {"operations", W::Enum, R, en(WireEnum::CoverageLevel)},
    {"tensors", W::Enum, D, en(WireEnum::CoverageLevel)},
    {"gradients", W::Enum, D, en(WireEnum::CoverageLevel)},
    {"gradient_contract", W::Struct, O, st(WireStruct::GradientContract)},
    {"logical_memory", W::Enum, R, en(WireEnum::CoverageLevel)},
    {"physical_memory", W::Enum, R, en(WireEnum::CoverageLevel)},
    {"device_timing", W::Enum, R, en(WireEnum::CoverageLevel)},
    {"required_semantic_labels", W::Strings, D},
    {"gpu_expected_semantic_labels", W::Strings, D},
    {"cpu_only_semantic_labels", W::Strings, D},
}};
constexpr std::array<FieldSpec, 11> kComparisonIdentity{{
    {"implementation_id", W::String, O},
    {"workload_id", W::String, R},
    {"model_id", W::String, R},
    {"config_id", W::String, R},
    {"data_id", W::String, R},
    {"seed_policy", W::String, R},
    {"physical_batch", W::U64, R},
    {"accumulation_steps", W::U64, R},
    {"precision", W::String, R},
    {"device_state", W::String, R},
    {"pair_id", W::String, O},
}};
constexpr std::array<FieldSpec, 3> kGradientContract{{
    {"manifest_sha256", W::String, R},
    {"expected", W::StructList, R, st(WireStruct::ExpectedGradient)},
    {"families", W::StructList, R, st(WireStruct::GradientFamilyContract)},
}};
constexpr std::array<FieldSpec, 3> kExpectedGradient{{
    {"root", W::String, R},
    {"key", W::String, R},
    {"family", W::String, R},
}};
constexpr std::array<FieldSpec, 3> kFamilyContract{{
    {"family", W::String, R},
    {"expectation", W::Enum, R, en(WireEnum::GradientFamilyExpectation)},
    {"min_present", W::Usize, R},
}};

// §4.2–§4.12.
constexpr std::array<FieldSpec, 7> kSpanStart{{
    {"id", W::String, R},
    {"parent_id", W::String, O},
    {"name", W::String, R},
    {"start_ns", W::U64, R},
    {"span_kind", W::Enum, R, en(WireEnum::SpanKind)},
    {"measured", W::Bool, D},
    {"step", W::Enum, O, en(WireEnum::ExecutionStep)},
}};
constexpr std::array<FieldSpec, 2> kSpanEnd{{
    {"id", W::String, R},
    {"duration_ns", W::U64, D},
}};
constexpr std::array<FieldSpec, 11> kOp{{
    {"span_id", W::String, R},
    {"op_name", W::String, R},
    {"inputs", W::StringIds, D},
    {"output", W::String, O},
    {"shape", W::Shape, R},
    {"dtype", W::String, R},
    {"device", W::String, R},
    {"duration_ns", W::U64, R},
    {"timestamp_ns", W::U64, D},
    {"output_dense_bytes", W::U64, O},
    {"input_dense_bytes", W::U64, R},
}};
constexpr std::array<FieldSpec, 9> kTensor{{
    {"span_id", W::String, R},
    {"tensor_id", W::String, R},
    {"label", W::String, O},
    {"shape", W::Shape, R},
    {"dtype", W::String, R},
    {"device", W::String, R},
    {"requires_grad", W::Bool, D},
    {"dense_bytes", W::U64, O},
    {"category", W::Enum, D, en(WireEnum::MemoryCategory)},
}};
// §4.6 / §14 Q1: the order the reference build uses.
constexpr std::array<FieldSpec, 9> kTensorStats{{
    {"span_id", W::String, R},
    {"label", W::String, R},
    {"shape", W::Shape, R},
    {"dtype", W::String, R},
    {"elements", W::U64, R},
    {"non_finite", W::U64, R},
    {"rms", W::F64, R},
    {"abs_max", W::F64, R},
    {"mean", W::F64, R},
}};
constexpr std::array<FieldSpec, 11> kMemory{{
    {"timestamp_ns", W::U64, R},
    {"storage_id", W::String, R},
    {"tensor_id", W::String, R},
    {"span_id", W::String, R},
    {"op_name", W::String, O},
    {"device", W::String, R},
    {"bytes", W::U64, R},
    {"action", W::Enum, R, en(WireEnum::MemoryAction)},
    {"shape", W::Shape, D},
    {"dtype", W::String, R},
    {"category", W::Enum, D, en(WireEnum::MemoryCategory)},
}};
constexpr std::array<FieldSpec, 6> kDeviceMemory{{
    {"timestamp_ns", W::U64, R},
    {"device", W::String, R},
    {"used_bytes", W::U64, O},
    {"free_bytes", W::U64, O},
    {"reserved_bytes", W::U64, O},
    {"capacity_bytes", W::U64, O},
}};
constexpr std::array<FieldSpec, 7> kDeviceInterval{{
    {"span_id", W::String, R},
    {"device", W::String, R},
    {"stream_id", W::String, R},
    {"clock_id", W::String, R},
    {"backend", W::String, R},
    {"start_ns", W::U64, R},
    {"duration_ns", W::U64, R},
}};
constexpr std::array<FieldSpec, 5> kGradient{{
    {"event_id", W::String, R},
    {"root", W::String, R},
    {"key", W::String, R},
    {"state", W::Enum, R, en(WireEnum::GradientState)},
    {"norm", W::F64, O},
}};
constexpr std::array<FieldSpec, 3> kCallEdge{{
    {"from_span", W::String, R},
    {"to_span", W::String, R},
    {"host_duration_ns", W::U64, R},
}};
constexpr std::array<FieldSpec, 2> kDataEdge{{
    {"from_tensor", W::String, R},
    {"to_tensor", W::String, R},
}};
constexpr std::array<FieldSpec, 3> kTerminal{{
    {"outcome", W::Enum, R, en(WireEnum::RunOutcome)},
    {"timestamp_ns", W::U64, R},
    {"reason", W::String, O},
}};

template<std::size_t N>
constexpr StructSpec spec(std::string_view typeName, const std::array<FieldSpec, N> &fields)
{
    return StructSpec{typeName, std::span<const FieldSpec>(fields), requiredMask(fields)};
}

// Edge has no table of its own: its fields depend on `edge_kind`.
constexpr std::array<FieldSpec, 0> kNoFields{};

constexpr StructSpec kEventSpecs[] = {
    spec("struct variant TraceEvent::Meta", kMeta),
    spec("struct SpanStartEvent", kSpanStart),
    spec("struct SpanEndEvent", kSpanEnd),
    spec("struct OpEvent", kOp),
    spec("struct TensorEvent", kTensor),
    spec("struct TensorStatsEvent", kTensorStats),
    spec("struct MemoryEvent", kMemory),
    spec("struct DeviceMemoryEvent", kDeviceMemory),
    spec("struct DeviceIntervalEvent", kDeviceInterval),
    spec("struct GradientEvent", kGradient),
    spec("enum EdgeEvent", kNoFields),
    spec("struct TerminalEvent", kTerminal),
};
constexpr StructSpec kEdgeSpecs[] = {
    spec("struct variant EdgeEvent::Call", kCallEdge),
    spec("struct variant EdgeEvent::Data", kDataEdge),
};
constexpr StructSpec kStructSpecs[] = {
    spec("struct CaptureContract", kCaptureContract),       spec("struct ComparisonIdentity", kComparisonIdentity),
    spec("struct GradientContract", kGradientContract),     spec("struct ExpectedGradient", kExpectedGradient),
    spec("struct GradientFamilyContract", kFamilyContract),
};

template<auto Parse>
int lookupIndex(std::string_view text)
{
    const auto v = Parse(text);
    return v ? static_cast<int>(*v) : -1;
}

// Indexed by WireEnum; the wire strings themselves live with the enums (core/model/enums).
constexpr EnumSpec kEnumSpecs[] = {
    {"ExecutionPhase", &lookupIndex<&parsePhase>},
    {"ExecutionStep", &lookupIndex<&parseStep>},
    {"TimingMode", &lookupIndex<&parseTimingMode>},
    {"SpanKind", &lookupIndex<&parseSpanKind>},
    {"MemoryAction", &lookupIndex<&parseMemoryAction>},
    {"MemoryCategory", &lookupIndex<&parseMemoryCategory>},
    {"GradientState", &lookupIndex<&parseGradientState>},
    {"RunOutcome", &lookupIndex<&parseRunOutcome>},
    {"CoverageLevel", &lookupIndex<&parseCoverageLevel>},
    {"MeasurementScope", &lookupIndex<&parseMeasurementScope>},
    {"GradientFamilyExpectation", &lookupIndex<&parseFamilyExpectation>},
};

constexpr std::string_view kKindNames[] = {
    "meta",   "span_start",    "span_end",        "op",       "tensor", "tensor_stats",
    "memory", "device_memory", "device_interval", "gradient", "edge",   "terminal"};

} // namespace

const StructSpec &eventSpec(EventKind kind)
{
    return kEventSpecs[static_cast<std::size_t>(kind)];
}

const StructSpec &edgeVariantSpec(EdgeKind kind)
{
    return kEdgeSpecs[static_cast<std::size_t>(kind)];
}

const StructSpec &structSpec(WireStruct s)
{
    return kStructSpecs[static_cast<std::size_t>(s)];
}

const EnumSpec &enumSpec(WireEnum e)
{
    return kEnumSpecs[static_cast<std::size_t>(e)];
}

std::string_view eventKindName(EventKind kind)
{
    return kKindNames[static_cast<std::size_t>(kind)];
}

int eventKindFromName(std::string_view name)
{
    for (std::size_t k = 0; k < std::size(kKindNames); ++k) {
        if (kKindNames[k] == name)
            return static_cast<int>(k);
    }
    return -1;
}

std::string_view eventKindExpectation()
{
    return enumExpectation("TraceEvent");
}

} // namespace TraceInspector
