// SPDX-License-Identifier: MIT
#include "core/loading/problemdetails.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "core/display/format.h"
#include "core/compat/rustformat.h"
#include "core/io/linedecoder.h"
#include "core/loading/rawline.h"
#include "core/model/problem.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

bool hasRecordIndex(const std::string &rule)
{
    static const char *const rules[] = {"E-AFTER-TERMINAL",   "E-META-FIRST",   "E-META-DUP",       "E-SPAN-START-DUP",
                                        "E-SPAN-END-UNKNOWN", "E-SPAN-END-DUP", "E-TSTATS-INVALID", "E-TERMINAL-DUP"};
    for (const char *r : rules)
        if (rule == r)
            return true;
    return false;
}

QString number(double v)
{
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("infinity") : QStringLiteral("-infinity");
    return QString::number(v, 'g', 17);
}

/// The first §4.6 rule \a s breaks, in the order the table lists them.
QString tensorStatsReason(const Trace &scratch, const TensorStats &s)
{
    if (isRustBlank(scratch.str(s.label)))
        return ProblemExplanation::tr("label is empty after trimming whitespace");
    const auto dims = scratch.shapes.view(s.shape);
    std::uint64_t product = 1;
    for (const std::uint64_t d : dims) {
        if (d != 0 && product > UINT64_MAX / d)
            return ProblemExplanation::tr("the product of the shape %1 overflows a 64-bit count")
                .arg(formatShape(dims));
        product *= d;
    }
    if (product != s.elements)
        return ProblemExplanation::tr("elements is %1, but the shape %2 has %3 elements")
            .arg(QString::number(s.elements), formatShape(dims), QString::number(product));
    if (s.nonFinite > s.elements)
        return ProblemExplanation::tr("non_finite is %1, more than elements (%2)").arg(s.nonFinite).arg(s.elements);
    if (!std::isfinite(s.rms) || s.rms < 0)
        return ProblemExplanation::tr("rms is %1; it must be finite and not negative").arg(number(s.rms));
    if (!std::isfinite(s.absMax) || s.absMax < 0)
        return ProblemExplanation::tr("abs_max is %1; it must be finite and not negative").arg(number(s.absMax));
    if (!std::isfinite(s.mean))
        return ProblemExplanation::tr("mean is %1; it must be finite").arg(number(s.mean));
    return {};
}

} // namespace

bool explanationNeedsLine(const Problem &problem)
{
    return problem.ruleId == "E-TSTATS-INVALID";
}

ProblemExplanation explainProblem(const Problem &problem, const RawLine *raw)
{
    ProblemExplanation out;
    if (problem.ruleId == "E-TSTATS-INVALID" && raw && raw->ok && !raw->truncated) {
        const std::string_view text =
            rustTrim(std::string_view(raw->bytes.constData(), std::size_t(raw->bytes.size())));
        // The decoder reads a little past the end; it must find zeros there.
        std::vector<char> buffer(text.size() + kDecoderPadding, '\0');
        std::memcpy(buffer.data(), text.data(), text.size());
        Trace scratch;
        LineDecoder decoder(scratch);
        DecodedEvent event;
        DecodeFailure failure;
        if (decoder.decode(buffer.data(), text.size(), event, failure) && event.kind == EventKind::TensorStats)
            out.reason = tensorStatsReason(scratch, event.tensorStats);
    }
    if (hasRecordIndex(problem.ruleId) && problem.line > 0)
        out.note =
            ProblemExplanation::tr("The index counts records (non-blank lines) from 0; this record is on line %1.")
                .arg(problem.line);
    return out;
}

} // namespace TraceInspector
