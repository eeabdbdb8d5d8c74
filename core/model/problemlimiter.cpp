// SPDX-License-Identifier: MIT
#include "core/model/problemlimiter.h"

namespace TraceInspector {

ProblemLimiter::RuleState &ProblemLimiter::stateOf(std::string_view ruleId, Severity severity)
{
    // Problems of one rule tend to come in runs: try the last rule first.
    if (m_last < m_rules.size() && m_rules[m_last].ruleId == ruleId && m_rules[m_last].severity == severity)
        return m_rules[m_last];
    for (std::size_t i = 0; i < m_rules.size(); ++i) {
        if (m_rules[i].ruleId == ruleId && m_rules[i].severity == severity) {
            m_last = i;
            return m_rules[i];
        }
    }
    m_last = m_rules.size();
    RuleState &s = m_rules.emplace_back();
    s.ruleId = ruleId;
    s.severity = severity;
    return s;
}

bool ProblemLimiter::admit(std::string_view ruleId, Severity severity, std::size_t textBytes)
{
    RuleState &s = stateOf(ruleId, severity);
    ++s.seen;
    if (s.exhausted)
        return false;
    if (s.stored >= kMaxPerRule || textBytes > kMaxTextBytesPerRule - s.textBytes) {
        s.exhausted = true;
        return false;
    }
    ++s.stored;
    s.textBytes += textBytes;
    return true;
}

bool ProblemLimiter::wouldStore(std::string_view ruleId, Severity severity) const
{
    for (const RuleState &s : m_rules) {
        if (s.ruleId == ruleId && s.severity == severity)
            return !s.exhausted && s.stored < kMaxPerRule;
    }
    return true;
}

void ProblemLimiter::addOmitted(std::string_view ruleId, Severity severity, std::uint64_t count)
{
    if (count == 0)
        return;
    RuleState &s = stateOf(ruleId, severity);
    s.seen += count;
    // What a segment omitted follows what it stored: this rule stores nothing more.
    s.exhausted = true;
}

std::vector<OmittedProblems> ProblemLimiter::omitted() const
{
    std::vector<OmittedProblems> out;
    for (const RuleState &s : m_rules) {
        if (s.seen > s.stored)
            out.push_back({s.ruleId, s.severity, s.seen - s.stored});
    }
    return out;
}

std::uint64_t ProblemLimiter::omittedCount() const
{
    std::uint64_t n = 0;
    for (const RuleState &s : m_rules)
        n += s.seen - s.stored;
    return n;
}

namespace {

/// Where shorten() cuts \a text: kMaxMessageBytes, backed up so no UTF-8 character is split.
std::size_t cutOf(std::string_view text)
{
    return ProblemLimiter::wholeCharacterPrefix(text, ProblemLimiter::kMaxMessageBytes);
}

void appendNotShown(std::string &out, std::size_t dropped)
{
    out += "… [" + std::to_string(dropped) + " more bytes not shown]";
}

} // namespace

std::size_t ProblemLimiter::wholeCharacterPrefix(std::string_view text, std::size_t limit)
{
    if (text.size() <= limit)
        return text.size();
    std::size_t cut = limit;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return cut;
}

bool ProblemLimiter::shorten(std::string &text)
{
    if (text.size() <= kMaxMessageBytes)
        return false;
    const std::size_t cut = cutOf(text);
    const std::size_t dropped = text.size() - cut;
    text.resize(cut);
    appendNotShown(text, dropped);
    // The cut text would otherwise keep the block of the whole one (a 200 MB value).
    text.shrink_to_fit();
    return true;
}

std::string ProblemLimiter::shortJoin(std::initializer_list<std::string_view> parts)
{
    std::size_t length = 0;
    for (std::string_view part : parts)
        length += part.size();
    const bool cut = length > kMaxMessageBytes;
    std::string out;
    // Up to the byte at kMaxMessageBytes: cutOf() looks at it.
    const std::size_t keep = cut ? kMaxMessageBytes + 1 : length;
    out.reserve(keep);
    for (std::string_view part : parts) {
        if (out.size() + part.size() >= keep) {
            out.append(part.substr(0, keep - out.size()));
            break;
        }
        out.append(part);
    }
    return cut ? shortenedFrom(std::move(out), length) : out;
}

std::string ProblemLimiter::shortenedFrom(std::string head, std::size_t length)
{
    if (length <= kMaxMessageBytes)
        return head;
    const std::size_t at = cutOf(head);
    head.resize(at);
    appendNotShown(head, length - at);
    head.shrink_to_fit();
    return head;
}

bool ProblemLimiter::store(Problem &&problem, std::vector<Problem> &out)
{
    shorten(problem.message);
    return storeShortened(std::move(problem), out);
}

bool ProblemLimiter::storeCopy(Problem &problem, std::vector<Problem> &out)
{
    std::string message = std::move(problem.message);
    std::string related = std::move(problem.relatedId);
    Problem copy = problem;
    problem.message = std::move(message);
    problem.relatedId = std::move(related);
    if (keepsRelatedId(problem.relatedId))
        copy.relatedId = problem.relatedId;
    const std::string_view text = problem.message;
    if (text.size() <= kMaxMessageBytes) {
        copy.message = text;
    } else {
        const std::size_t cut = cutOf(text);
        copy.message = text.substr(0, cut);
        appendNotShown(copy.message, text.size() - cut);
    }
    return storeShortened(std::move(copy), out);
}

bool ProblemLimiter::storeShortened(Problem &&problem, std::vector<Problem> &out)
{
    if (!keepsRelatedId(problem.relatedId))
        std::string().swap(problem.relatedId);
    if (!admit(problem.ruleId, problem.severity, problem.message.size() + problem.relatedId.size()))
        return false;
    out.push_back(std::move(problem));
    return true;
}

void mergeOmitted(std::vector<OmittedProblems> &into, const std::vector<OmittedProblems> &more)
{
    for (const OmittedProblems &m : more) {
        bool found = false;
        for (OmittedProblems &o : into) {
            if (o.ruleId == m.ruleId && o.severity == m.severity) {
                o.count += m.count;
                found = true;
                break;
            }
        }
        if (!found)
            into.push_back(m);
    }
}

} // namespace TraceInspector
