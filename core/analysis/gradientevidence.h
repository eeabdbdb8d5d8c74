// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/enums.h"

namespace TraceInspector {

struct Trace;
struct HealthReport;

/// One parameter key (root, key): what the gradient records say about it and what the run's
/// gradient contract expects (TRACE_FORMAT.md §4.10, §9.4, §10.4).
struct GradientKeyEvidence {
    std::string root;
    std::string key;
    /// State of the first gradient record of the pair (the one §10.4's family checks use);
    /// none when the manifest declares the pair but no record captured it.
    std::optional<GradientState> state;
    std::optional<double> norm;
    std::uint32_t recordCount = 0;
    std::uint32_t firstRecord = UINT32_MAX; ///< index into Trace::gradients
    std::uint64_t line = 0;                 ///< line of the first record, 0 when not captured
    bool inManifest = false;
    std::string family; ///< from the manifest; empty when undeclared or no contract
    std::optional<GradientFamilyExpectation> expectation;
    /// Indices into HealthReport::findings about this pair: its records' findings, a
    /// "not captured" manifest finding, and the findings of its family.
    std::vector<std::uint32_t> findings;
};

struct GradientFamilyEvidence {
    std::string family;
    GradientFamilyExpectation expectation = GradientFamilyExpectation::Active;
    std::uint64_t minPresent = 0;
    std::uint64_t members = 0;  ///< manifest entries
    std::uint64_t observed = 0; ///< of which captured
    std::uint64_t present = 0;  ///< of which state present
    std::vector<std::uint32_t> findings;
};

/// The manifest digest check of §9.4.
struct ManifestDigestCheck {
    std::string declared; ///< `manifest_sha256` as written
    std::string computed; ///< over the ordered manifest
    bool matches() const { return declared == computed; }
};

struct GradientEvidence {
    /// Observed pairs in order of their first record, then manifest pairs never captured in
    /// manifest order.
    std::vector<GradientKeyEvidence> keys;
    std::vector<GradientFamilyEvidence> families; ///< contract order
    /// The run's declared gradient coverage; none without a meta record.
    std::optional<CoverageLevel> declared;
    bool hasContract = false;
    std::optional<ManifestDigestCheck> digest; ///< when there is a contract
    /// Findings with codes about gradients that concern no single key or family (e.g.
    /// gradient_contract_missing), indices into HealthReport::findings.
    std::vector<std::uint32_t> contractFindings;

    std::size_t countInState(GradientState state) const;
    std::size_t notCapturedCount() const;
};

/// Groups the gradient records by (root, key) and joins the contract and \a health (null
/// before health analysis: no findings attached). Linear in gradients + manifest + findings.
GradientEvidence analyzeGradientEvidence(const Trace &trace, const HealthReport *health);

} // namespace TraceInspector
