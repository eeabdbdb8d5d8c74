// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>
#include <QHash>

#include <memory>
#include <vector>

#include "core/model/problem.h"

namespace TraceInspector {

/// Every problem of a load as a flat table: first the reader's problems (decode failures and
/// hard-rule violations, line order), then the health findings (analysis order).
///
/// The model shares the problem lists by pointer and never copies or changes them.
/// Roles: DisplayRole (text), SortRole (raw value), SeverityRole, LineRole,
/// RelatedKindRole, RelatedIndexRole, SpanIdRole (for span problems).
class ValidationIssueModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { SeverityColumn, LineColumn, ColumnColumn, RuleColumn, CodeColumn, MessageColumn, ColumnCount };
    Q_ENUM(Column)

    /// Where a row came from.
    enum class Source : quint8 { Reader, Health };

    explicit ValidationIssueModel(QObject *parent = nullptr);
    ~ValidationIssueModel() override;

    /// Replaces all rows. Either list may be null.
    void setProblems(std::shared_ptr<const std::vector<Problem>> readerProblems,
                     std::shared_ptr<const std::vector<Problem>> healthFindings);
    /// Replaces only the health findings, keeping the reader's problems (a later load stage).
    void setHealthFindings(std::shared_ptr<const std::vector<Problem>> healthFindings);
    void clear();

    /// The trace's path as the reader was given it: messages that repeat it (`… line N from
    /// PATH: cause`) show without it, since the panel names the file once. Tooltips and
    /// problemAt() keep upstream's exact text.
    void setTracePath(const QString &path);
    QString tracePath() const { return m_path; }
    /// Why the finding on \a row fired, shown after its message (see explainProblem()).
    void setReason(int row, const QString &reason);
    QString reason(int row) const { return m_reasons.value(row); }
    /// The message as shown: without the repeated path, with the reason when known.
    QString displayMessage(int row) const;

    /// The problem on \a row, or null when out of range.
    const Problem *problemAt(int row) const;
    Source sourceAt(int row) const;

    int errorCount() const { return m_errors; }
    int warningCount() const { return m_warnings; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void recount();
    int readerCount() const;

    std::shared_ptr<const std::vector<Problem>> m_reader;
    std::shared_ptr<const std::vector<Problem>> m_health;
    int m_errors = 0;
    int m_warnings = 0;
    QString m_path;
    QHash<int, QString> m_reasons;
};

} // namespace TraceInspector
