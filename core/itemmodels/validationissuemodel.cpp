// SPDX-License-Identifier: MIT
#include "core/itemmodels/validationissuemodel.h"

#include <limits>

#include "core/itemmodels/modelroles.h"

namespace TraceInspector {
namespace {

int clampedSize(const std::shared_ptr<const std::vector<Problem>> &list)
{
    if (!list)
        return 0;
    return int(std::min<std::size_t>(list->size(), std::size_t(std::numeric_limits<int>::max() / 2)));
}

QString severityText(Severity s)
{
    return s == Severity::Error ? ValidationIssueModel::tr("Error") : ValidationIssueModel::tr("Warning");
}

} // namespace

ValidationIssueModel::ValidationIssueModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

ValidationIssueModel::~ValidationIssueModel() = default;

void ValidationIssueModel::setProblems(std::shared_ptr<const std::vector<Problem>> readerProblems,
                                       std::shared_ptr<const std::vector<Problem>> healthFindings)
{
    beginResetModel();
    m_reader = std::move(readerProblems);
    m_health = std::move(healthFindings);
    m_reasons.clear();
    recount();
    endResetModel();
}

void ValidationIssueModel::setHealthFindings(std::shared_ptr<const std::vector<Problem>> healthFindings)
{
    const int first = readerCount();
    const int oldCount = clampedSize(m_health);
    if (oldCount > 0) {
        beginRemoveRows({}, first, first + oldCount - 1);
        m_health.reset();
        endRemoveRows();
    }
    const int newCount = clampedSize(healthFindings);
    if (newCount > 0) {
        beginInsertRows({}, first, first + newCount - 1);
        m_health = std::move(healthFindings);
        endInsertRows();
    } else {
        m_health = std::move(healthFindings);
    }
    recount();
}

void ValidationIssueModel::clear()
{
    setProblems(nullptr, nullptr);
    m_path.clear();
}

void ValidationIssueModel::setTracePath(const QString &path)
{
    if (path == m_path)
        return;
    m_path = path;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, MessageColumn), index(rowCount() - 1, MessageColumn), {Qt::DisplayRole});
}

void ValidationIssueModel::setReason(int row, const QString &reason)
{
    if (row < 0 || row >= rowCount() || m_reasons.value(row) == reason)
        return;
    m_reasons.insert(row, reason);
    Q_EMIT dataChanged(index(row, MessageColumn), index(row, MessageColumn), {Qt::DisplayRole, Qt::ToolTipRole});
}

QString ValidationIssueModel::displayMessage(int row) const
{
    const Problem *p = problemAt(row);
    if (!p)
        return {};
    QString text = QString::fromStdString(p->message);
    // Only the exact " from PATH" of the line rules; any other text stays as upstream wrote it.
    if (!m_path.isEmpty() && (p->ruleId == "E-LINE-PARSE" || p->ruleId == "E-LINE-READ")) {
        const QString from = QStringLiteral(" from ") + m_path;
        const qsizetype at = text.indexOf(from);
        if (at >= 0 && (at + from.size() == text.size() || text.at(at + from.size()) == u':'))
            text.remove(at, from.size());
    }
    const QString why = m_reasons.value(row);
    if (!why.isEmpty())
        text += QStringLiteral(" \u2014 ") + why;
    return text;
}

int ValidationIssueModel::readerCount() const
{
    return clampedSize(m_reader);
}

void ValidationIssueModel::recount()
{
    m_errors = 0;
    m_warnings = 0;
    const int rows = rowCount();
    for (int r = 0; r < rows; ++r) {
        if (problemAt(r)->severity == Severity::Error)
            ++m_errors;
        else
            ++m_warnings;
    }
}

const Problem *ValidationIssueModel::problemAt(int row) const
{
    if (row < 0)
        return nullptr;
    const int reader = readerCount();
    if (row < reader)
        return &(*m_reader)[std::size_t(row)];
    if (row - reader < clampedSize(m_health))
        return &(*m_health)[std::size_t(row - reader)];
    return nullptr;
}

ValidationIssueModel::Source ValidationIssueModel::sourceAt(int row) const
{
    return row < readerCount() ? Source::Reader : Source::Health;
}

int ValidationIssueModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : readerCount() + clampedSize(m_health);
}

int ValidationIssueModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ValidationIssueModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Problem *p = problemAt(index.row());
    if (!p)
        return {};

    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn: return severityText(p->severity);
        case LineColumn: return p->line == 0 ? QString() : QString::number(p->line);
        case ColumnColumn: return p->column == 0 ? QString() : QString::number(p->column);
        case RuleColumn: return QString::fromStdString(p->ruleId);
        case CodeColumn: return QString::fromStdString(p->code);
        case MessageColumn: return displayMessage(index.row());
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == LineColumn && p->line == 0)
            return tr("Not tied to a line: concerns the whole file");
        if (index.column() == MessageColumn || index.column() == RuleColumn) {
            const QString origin = sourceAt(index.row()) == Source::Reader ? tr("Load") : tr("Health");
            QString tip = QStringLiteral("%1 · %2\n%3")
                              .arg(origin, QString::fromStdString(p->ruleId), QString::fromStdString(p->message));
            if (const QString why = m_reasons.value(index.row()); !why.isEmpty())
                tip += u'\n' + why;
            return tip;
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case SeverityColumn: return int(p->severity);
        case LineColumn:
            // Whole-file problems sort after every line.
            return p->line == 0 ? std::numeric_limits<quint64>::max() : quint64(p->line);
        case ColumnColumn: return quint64(p->column);
        case RuleColumn: return QString::fromStdString(p->ruleId);
        case CodeColumn: return QString::fromStdString(p->code);
        case MessageColumn: return QString::fromStdString(p->message);
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == LineColumn || index.column() == ColumnColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case SeverityRole: return int(p->severity);
    case LineRole: return quint64(p->line);
    case RelatedKindRole: return int(p->relatedKind);
    case RelatedIndexRole: return p->relatedIndex == UINT64_MAX ? qint64(-1) : qint64(p->relatedIndex);
    case SpanIdRole:
        if (p->relatedKind == RelatedKind::Span)
            return QString::fromStdString(p->relatedId);
        return {};
    }
    return {};
}

QVariant ValidationIssueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case SeverityColumn: return tr("Severity");
        case LineColumn: return tr("Line");
        case ColumnColumn: return tr("Column");
        case RuleColumn: return tr("Rule");
        case CodeColumn: return tr("Code");
        case MessageColumn: return tr("Message");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case LineColumn: return tr("1-based physical line in the trace file");
        case RuleColumn: return tr("E-* rejects the trace, H-* is a health error, W-* a health warning");
        case CodeColumn: return tr("Upstream code of a health finding");
        }
    }
    return {};
}

} // namespace TraceInspector
