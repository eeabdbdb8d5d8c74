// SPDX-License-Identifier: MIT
#pragma once

// Internal to the health analysis (health.cpp, healthgradients.cpp, healthlabels.cpp).

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/problem.h"
#include "core/model/problemlimiter.h"
#include "core/model/trace.h"

namespace TraceInspector::HealthDetail {

/// Per-StringId scratch bits shared by the passes (one byte per interned string instead of a
/// hash set per pass).
enum ScratchBit : std::uint8_t {
    KnownTensor = 1,
    GradientEventSeen = 2,
    LabelName = 4,
};

/// A finding's message. concat() builds it as the stored problem keeps it (cut at
/// ProblemLimiter::kMaxMessageBytes), so a message quoting a 200 MB id copies only the bytes
/// it keeps; any other text is cut when stored.
struct FindingText {
    FindingText(std::string full)
        : text(std::move(full))
    {
    }
    FindingText(const char *full)
        : text(full)
    {
    }
    std::string text;
    bool shortened = false; // already as ProblemLimiter::shorten() leaves it
};

struct HealthContext {
    const Trace &trace;
    bool failed = false;
    std::vector<Problem> &findings;
    std::vector<std::uint8_t> scratch; // indexed by StringId, ScratchBit flags
    ProblemLimiter limiter{};          // ten million unclosed spans must not mean ten million findings

    Severity structural() const { return failed ? Severity::Warning : Severity::Error; }

    void emit(Severity severity, std::string_view ruleId, std::string_view code, FindingText message,
              std::uint64_t line, RelatedKind kind = RelatedKind::None, std::string_view relatedId = {},
              std::uint64_t relatedIndex = UINT64_MAX);
    void emitMeta(Severity severity, std::string_view ruleId, std::string_view code, FindingText message,
                  std::string_view relatedId = {})
    {
        emit(severity, ruleId, code, std::move(message), trace.metaLine, RelatedKind::Meta, relatedId);
    }
};

FindingText concat(std::initializer_list<std::string_view> parts);

/// §10.4, per gradient record and then the contract checks (the contract part needs meta).
void gradientFindings(HealthContext &ctx);
/// Required semantic labels and their GPU/CPU classification (needs meta).
void labelFindings(HealthContext &ctx);

} // namespace TraceInspector::HealthDetail
