// SPDX-License-Identifier: MIT
#include "core/itemmodels/metadatamodel.h"

#include <QLocale>

#include <algorithm>
#include <climits>

#include <string_view>

#include "core/model/trace.h"

namespace TraceInspector {
namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString yesNo(bool b)
{
    return b ? QStringLiteral("true") : QStringLiteral("false");
}

QString number(std::uint64_t v)
{
    return QString::number(v);
}

const QString &notDeclared()
{
    static const QString text = MetadataModel::tr("— (not declared)");
    return text;
}

QString optionalText(const std::optional<std::string> &s)
{
    return s ? qs(*s) : notDeclared();
}

int clampedCount(std::size_t n)
{
    return int(std::min<std::size_t>(n, INT_MAX));
}

QString bytesWithExact(std::uint64_t bytes)
{
    return MetadataModel::tr("%1 (%2 bytes)")
        .arg(QLocale::system().formattedDataSize(qint64(bytes), 1, QLocale::DataSizeSIFormat),
             QLocale::system().toString(qulonglong(bytes)));
}

} // namespace

MetadataModel::MetadataModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

MetadataModel::~MetadataModel() = default;

void MetadataModel::setTrace(std::shared_ptr<const Trace> trace)
{
    beginResetModel();
    m_nodes.clear();
    m_roots.clear();
    if (trace)
        build(*trace);
    endResetModel();
}

quint32 MetadataModel::add(quint32 parent, const QString &field, const QString &value, const QString &toolTip)
{
    const auto id = quint32(m_nodes.size());
    std::vector<quint32> &siblings = parent == kRoot ? m_roots : m_nodes[parent].children;
    Node node;
    node.field = field;
    node.value = value;
    node.toolTip = toolTip;
    node.parent = parent;
    node.row = quint32(siblings.size());
    siblings.push_back(id);
    m_nodes.push_back(std::move(node));
    return id;
}

void MetadataModel::build(const Trace &trace)
{
    const quint32 file = add(kRoot, tr("File"));
    add(file, QStringLiteral("path"), QString::fromStdString(trace.path));
    add(file, QStringLiteral("size"), bytesWithExact(trace.fileBytes));
    add(file, QStringLiteral("lines"), number(trace.lineCount), tr("Physical lines, blank lines included"));
    add(file, QStringLiteral("records"), number(trace.recordCount), tr("Non-blank lines that decoded"));

    const quint32 run = add(kRoot, tr("Run"));
    if (!trace.meta) {
        m_nodes[run].value = tr("No meta record: the run is not described");
    } else {
        const TraceMeta &m = *trace.meta;
        if (m.schemaBytesNotKept == 0) {
            add(run, QStringLiteral("schema"), qs(m.schema));
        } else {
            // An unsupported schema too long to keep twice: the rejection quotes it whole.
            add(run, QStringLiteral("schema"),
                tr("%1… [%2 more bytes: the rejection (E-SCHEMA-UNSUPPORTED) quotes the whole schema]")
                    .arg(qs(m.schema), QLocale::system().toString(qulonglong(m.schemaBytesNotKept))),
                tr("The schema is not supported, and too long to be kept here as well as in the rejection "
                   "message, which quotes it whole"));
        }
        add(run, QStringLiteral("run_id"), qs(m.runId));
        add(run, QStringLiteral("correlation_id"), qs(m.correlationId));
        add(run, QStringLiteral("entrypoint"), qs(m.entrypoint));
        add(run, QStringLiteral("phase"), qs(phaseName(m.phase)));
        add(run, QStringLiteral("timestamp"), qs(m.timestamp));
        add(run, QStringLiteral("capture_step"), number(m.captureStep), tr("One-based selected invocation"));
        add(run, QStringLiteral("warmup_steps"), number(m.warmupSteps));
        add(run, QStringLiteral("device"), qs(m.device));
        add(run, QStringLiteral("measured_region_device_synchronized"), yesNo(m.measuredRegionDeviceSynchronized));
        add(run, QStringLiteral("timing_mode"), qs(timingModeName(m.timingMode)));
        add(run, QStringLiteral("candle_version"), optionalText(m.candleVersion));

        const CaptureContract &c = m.captureContract;
        const quint32 contract = add(kRoot, tr("Capture contract"));
        add(contract, QStringLiteral("measurement_scope"), qs(measurementScopeName(c.measurementScope)));
        add(contract, QStringLiteral("operations"), qs(coverageLevelName(c.operations)));
        add(contract, QStringLiteral("tensors"), qs(coverageLevelName(c.tensors)));
        add(contract, QStringLiteral("gradients"), qs(coverageLevelName(c.gradients)));
        add(contract, QStringLiteral("logical_memory"), qs(coverageLevelName(c.logicalMemory)));
        add(contract, QStringLiteral("physical_memory"), qs(coverageLevelName(c.physicalMemory)));
        add(contract, QStringLiteral("device_timing"), qs(coverageLevelName(c.deviceTiming)));
        const auto addLabels = [this, contract](const QString &name, const std::vector<std::string> &labels) {
            const quint32 list = add(
                contract, name, labels.empty() ? tr("none") : tr("%n label(s)", nullptr, clampedCount(labels.size())));
            for (std::size_t i = 0; i < labels.size(); ++i)
                add(list, QStringLiteral("[%1]").arg(i), qs(labels[i]));
        };
        addLabels(QStringLiteral("required_semantic_labels"), c.requiredSemanticLabels);
        addLabels(QStringLiteral("gpu_expected_semantic_labels"), c.gpuExpectedSemanticLabels);
        addLabels(QStringLiteral("cpu_only_semantic_labels"), c.cpuOnlySemanticLabels);
        if (!c.gradientContract) {
            add(contract, QStringLiteral("gradient_contract"), notDeclared());
        } else {
            const GradientContract &g = *c.gradientContract;
            const quint32 gc = add(contract, QStringLiteral("gradient_contract"));
            add(gc, QStringLiteral("manifest_sha256"), qs(g.manifestSha256));
            const quint32 expected =
                add(gc, QStringLiteral("expected"), tr("%n gradient(s)", nullptr, clampedCount(g.expected.size())));
            for (const ExpectedGradient &e : g.expected)
                add(expected, QStringLiteral("%1 / %2").arg(qs(e.root), qs(e.key)), qs(e.family));
            const quint32 families =
                add(gc, QStringLiteral("families"), tr("%n family(ies)", nullptr, clampedCount(g.families.size())));
            for (const GradientFamilyContract &f : g.families)
                add(families, qs(f.family),
                    tr("%1, min_present %2").arg(qs(familyExpectationName(f.expectation))).arg(f.minPresent));
        }

        const quint32 identity = add(kRoot, tr("Comparison identity"));
        if (!m.comparisonIdentity) {
            m_nodes[identity].value = notDeclared();
        } else {
            const ComparisonIdentity &ci = *m.comparisonIdentity;
            add(identity, QStringLiteral("implementation_id"), optionalText(ci.implementationId));
            add(identity, QStringLiteral("workload_id"), qs(ci.workloadId));
            add(identity, QStringLiteral("model_id"), qs(ci.modelId));
            add(identity, QStringLiteral("config_id"), qs(ci.configId));
            add(identity, QStringLiteral("data_id"), qs(ci.dataId));
            add(identity, QStringLiteral("seed_policy"), qs(ci.seedPolicy));
            add(identity, QStringLiteral("physical_batch"), number(ci.physicalBatch));
            add(identity, QStringLiteral("accumulation_steps"), number(ci.accumulationSteps));
            add(identity, QStringLiteral("precision"), qs(ci.precision));
            add(identity, QStringLiteral("device_state"), qs(ci.deviceState));
            add(identity, QStringLiteral("pair_id"), optionalText(ci.pairId));
        }

        const quint32 tags =
            add(kRoot, tr("Tags"), m.tags.empty() ? tr("none") : tr("%n tag(s)", nullptr, clampedCount(m.tags.size())));
        for (const auto &[key, value] : m.tags)
            add(tags, qs(key), qs(value));
    }

    const quint32 terminal = add(kRoot, tr("Terminal"));
    if (!trace.terminal) {
        m_nodes[terminal].value = tr("No terminal record: the capture did not finish");
    } else {
        const Terminal &t = *trace.terminal;
        m_nodes[terminal].value = qs(runOutcomeName(t.outcome));
        add(terminal, QStringLiteral("outcome"), qs(runOutcomeName(t.outcome)));
        add(terminal, QStringLiteral("timestamp_ns"), number(t.timestampNs));
        add(terminal, QStringLiteral("reason"), optionalText(t.reason));
        add(terminal, QStringLiteral("line"), number(t.line));
    }
}

const std::vector<quint32> &MetadataModel::childrenOf(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return m_roots;
    return m_nodes[std::size_t(parent.internalId())].children;
}

QModelIndex MetadataModel::groupIndex(const QString &title) const
{
    for (quint32 id : m_roots) {
        if (m_nodes[id].field == title)
            return createIndex(int(m_nodes[id].row), 0, quintptr(id));
    }
    return {};
}

QModelIndex MetadataModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (parent.isValid() && (parent.column() != 0 || parent.model() != this))
        return {};
    const std::vector<quint32> &children = childrenOf(parent);
    if (std::size_t(row) >= children.size())
        return {};
    return createIndex(row, column, quintptr(children[std::size_t(row)]));
}

QModelIndex MetadataModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    const Node &node = m_nodes[std::size_t(child.internalId())];
    if (node.parent == kRoot)
        return {};
    return createIndex(int(m_nodes[node.parent].row), 0, quintptr(node.parent));
}

int MetadataModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(childrenOf(parent).size());
}

int MetadataModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant MetadataModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node &node = m_nodes[std::size_t(index.internalId())];
    switch (role) {
    case Qt::DisplayRole: return index.column() == FieldColumn ? node.field : node.value;
    case Qt::ToolTipRole:
        if (!node.toolTip.isEmpty())
            return node.toolTip;
        return index.column() == ValueColumn && !node.value.isEmpty() ? node.value : QVariant();
    }
    return {};
}

QVariant MetadataModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case FieldColumn: return tr("Field");
    case ValueColumn: return tr("Value");
    }
    return {};
}

} // namespace TraceInspector
