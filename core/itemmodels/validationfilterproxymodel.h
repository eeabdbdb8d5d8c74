// SPDX-License-Identifier: MIT
#pragma once

#include <QSortFilterProxyModel>

namespace TraceInspector {

/// Filters validation rows by severity and by text (rule, code or message, case-insensitive)
/// and sorts by SortRole.
class ValidationFilterProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    enum class SeverityFilter { All, Errors, Warnings };
    Q_ENUM(SeverityFilter)

    explicit ValidationFilterProxyModel(QObject *parent = nullptr);

    SeverityFilter severityFilter() const { return m_severity; }
    void setSeverityFilter(SeverityFilter filter);

    QString text() const { return m_text; }
    /// Rows whose rule id, code or message contains \a text. Empty shows everything.
    void setText(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    SeverityFilter m_severity = SeverityFilter::All;
    QString m_text;
};

} // namespace TraceInspector
