// SPDX-License-Identifier: MIT
#include "core/itemmodels/gradientkeymodel.h"

#include <algorithm>
#include <numeric>

#include "core/analysis/evidenceanalysis.h"
#include "core/analysis/health.h"
#include "core/itemmodels/modelroles.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// Display order of the states: the suspicious ones first when sorted ascending.
int stateRank(const GradientKeyEvidence &k)
{
    if (!k.state)
        return 0;
    switch (*k.state) {
    case GradientState::NonFinite: return 1;
    case GradientState::Missing: return 2;
    case GradientState::Zero: return 3;
    case GradientState::Present: return 4;
    }
    return 5;
}

} // namespace

GradientKeyModel::GradientKeyModel(QObject *parent)
    : FlatTableModel(parent)
{
}

GradientKeyModel::~GradientKeyModel() = default;

void GradientKeyModel::setEvidence(std::shared_ptr<const Trace> trace, std::shared_ptr<const EvidenceAnalysis> evidence,
                                   std::shared_ptr<const HealthReport> health)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_evidence = m_trace ? std::move(evidence) : nullptr;
    m_health = m_evidence ? std::move(health) : nullptr;
    resetRecords(m_evidence ? m_evidence->gradients.keys.size() : 0);
    endResetModel();
}

const GradientKeyEvidence *GradientKeyModel::keyAt(std::size_t record) const
{
    if (!m_evidence || record >= m_evidence->gradients.keys.size())
        return nullptr;
    return &m_evidence->gradients.keys[record];
}

QString GradientKeyModel::stateText(const GradientKeyEvidence &key)
{
    if (!key.state)
        return tr("not captured");
    switch (*key.state) {
    case GradientState::Present: return tr("present");
    case GradientState::Zero: return tr("zero");
    case GradientState::Missing: return tr("missing");
    case GradientState::NonFinite: return tr("non-finite");
    }
    return {};
}

QStringList GradientKeyModel::findingTexts(std::size_t record) const
{
    QStringList texts;
    const GradientKeyEvidence *k = keyAt(record);
    if (!k || !m_health)
        return texts;
    for (const std::uint32_t f : k->findings) {
        if (f < m_health->findings.size()) {
            const Problem &p = m_health->findings[f];
            texts << QStringLiteral("%1 [%2] %3").arg(qs(severityName(p.severity)), qs(p.code), qs(p.message));
        }
    }
    return texts;
}

int GradientKeyModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GradientKeyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case RootColumn: return tr("Root");
        case KeyColumn: return tr("Parameter key");
        case StateColumn: return tr("State");
        case NormColumn: return tr("Norm");
        case FamilyColumn: return tr("Family");
        case ExpectationColumn: return tr("Expectation");
        case RecordsColumn: return tr("Records");
        case FindingsColumn: return tr("Findings");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case StateColumn:
            return tr(
                "State of the first gradient record of the key; \"not captured\" when the manifest declares it but no record came");
        case FamilyColumn:
            return tr("Family from the gradient contract's manifest; empty when the key is not in the manifest");
        case RecordsColumn: return tr("Gradient records for the key (exactly one is expected)");
        default: return {};
        }
    }
    return {};
}

void GradientKeyModel::sortKeys(int column, std::vector<std::uint64_t> &keys, std::vector<std::uint8_t> &absent) const
{
    const std::vector<GradientKeyEvidence> &rows = m_evidence->gradients.keys;
    const auto byText = [&](auto textOf) {
        std::vector<std::uint32_t> order(rows.size());
        std::iota(order.begin(), order.end(), 0U);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return textOf(rows[a]) < textOf(rows[b]); });
        for (std::size_t r = 0; r < order.size(); ++r)
            keys[order[r]] = r;
    };
    switch (column) {
    case RootColumn: byText([](const GradientKeyEvidence &k) -> const std::string & { return k.root; }); break;
    case KeyColumn: byText([](const GradientKeyEvidence &k) -> const std::string & { return k.key; }); break;
    case FamilyColumn:
        byText([](const GradientKeyEvidence &k) -> const std::string & { return k.family; });
        for (std::size_t i = 0; i < rows.size(); ++i)
            absent[i] = !rows[i].inManifest;
        break;
    case StateColumn:
        for (std::size_t i = 0; i < rows.size(); ++i)
            keys[i] = std::uint64_t(stateRank(rows[i]));
        break;
    case NormColumn:
        for (std::size_t i = 0; i < rows.size(); ++i) {
            keys[i] = rows[i].norm ? doubleKey(*rows[i].norm) : 0;
            absent[i] = !rows[i].norm;
        }
        break;
    case ExpectationColumn:
        for (std::size_t i = 0; i < rows.size(); ++i) {
            keys[i] = rows[i].expectation ? std::uint64_t(*rows[i].expectation) : 0;
            absent[i] = !rows[i].expectation;
        }
        break;
    case RecordsColumn:
        for (std::size_t i = 0; i < rows.size(); ++i)
            keys[i] = rows[i].recordCount;
        break;
    case FindingsColumn:
        for (std::size_t i = 0; i < rows.size(); ++i)
            keys[i] = rows[i].findings.size();
        break;
    default: break;
    }
}

bool GradientKeyModel::recordMatches(std::size_t record, const TextFilter &filter) const
{
    const GradientKeyEvidence &k = m_evidence->gradients.keys[record];
    return filter.matches(k.root) || filter.matches(k.key) || filter.matches(k.family)
           || filter.matches(stateText(k).toStdString());
}

QVariant GradientKeyModel::display(std::size_t i, int column) const
{
    const GradientKeyEvidence &k = m_evidence->gradients.keys[i];
    switch (column) {
    case RootColumn: return qs(k.root);
    case KeyColumn: return qs(k.key);
    case StateColumn: return stateText(k);
    case NormColumn: return k.norm ? QVariant(QString::number(*k.norm, 'g', 6)) : QVariant();
    case FamilyColumn: return k.inManifest ? QVariant(qs(k.family)) : QVariant();
    case ExpectationColumn: return k.expectation ? QVariant(qs(familyExpectationName(*k.expectation))) : QVariant();
    case RecordsColumn: return formatCount(k.recordCount);
    case FindingsColumn: {
        if (k.findings.empty() || !m_health)
            return {};
        const Problem &first = m_health->findings[k.findings.front()];
        return k.findings.size() == 1 ? qs(first.code)
                                      : tr("%1 (+%n more)", nullptr, int(k.findings.size() - 1)).arg(qs(first.code));
    }
    default: return {};
    }
}

QVariant GradientKeyModel::recordData(std::size_t i, int column, int role) const
{
    const GradientKeyEvidence &k = m_evidence->gradients.keys[i];
    switch (role) {
    case Qt::DisplayRole: return display(i, column);
    case Qt::TextAlignmentRole:
        if (column == NormColumn || column == RecordsColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        if (column == FindingsColumn && !k.findings.empty())
            return findingTexts(i).join(u'\n');
        if (column == StateColumn && !k.inManifest && m_evidence->gradients.hasContract)
            return tr("Not in the gradient manifest");
        return {};
    case SortRole:
        switch (column) {
        case NormColumn: return k.norm ? QVariant(*k.norm) : QVariant();
        case RecordsColumn: return quint64(k.recordCount);
        default: return display(i, column);
        }
    case SeverityRole: {
        if (k.findings.empty() || !m_health)
            return {};
        bool error = false;
        for (const std::uint32_t f : k.findings)
            error = error || m_health->findings[f].severity == Severity::Error;
        return int(error ? Severity::Error : Severity::Warning);
    }
    case LineRole: return quint64(k.line);
    case SpanIndexRole: return qint64(-1); // gradient records name no span
    default: return {};
    }
}

} // namespace TraceInspector
