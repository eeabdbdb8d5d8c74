// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractProxyModel>
#include <QPointer>

#include <vector>

namespace TraceInspector {

class ValidationFilterProxyModel;

/// The rows of a ValidationFilterProxyModel (filtered and sorted) grouped by rule: one top-
/// level row per rule id, in the order the rule first appears, with its rows as children in
/// the proxy's order. A group row names the rule with its count ("E-LINE-PARSE", "57
/// problems"), its worst severity and first line; the children are the proxy's rows.
///
/// The grouping is rebuilt (a model reset) whenever the proxy changes its rows or order; a
/// change of row data is passed on.
class ValidationGroupModel : public QAbstractProxyModel
{
    Q_OBJECT
public:
    explicit ValidationGroupModel(QObject *parent = nullptr);
    ~ValidationGroupModel() override;

    /// \a source must be a ValidationFilterProxyModel over a ValidationIssueModel.
    void setSourceModel(QAbstractItemModel *source) override;

    int groupCount() const { return int(m_groups.size()); }
    /// Rows in group \a group.
    int groupSize(int group) const;
    QString groupRule(int group) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    struct Group {
        QString rule;
        int worstSeverity = 1; // TraceInspector::Severity as int; Error (0) is worst
        quint64 firstLine = 0;
        std::vector<int> rows; // source (filter proxy) rows
    };
    void rebuild();

    QPointer<ValidationFilterProxyModel> m_filter;
    std::vector<Group> m_groups;
    std::vector<std::pair<int, int>> m_place; // per source row: group, row in group
};

} // namespace TraceInspector
