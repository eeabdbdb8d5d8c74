// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractItemModel>
#include <QString>

#include <memory>
#include <vector>

namespace TraceInspector {

struct Trace;

/// The run header of a trace as a two-column tree (field, value): file facts, run metadata,
/// capture contract (with the gradient contract), comparison identity, tags and the
/// terminal record. Field names are the wire names so they can be found in the file.
///
/// The tree is built once per trace (the meta record is small); internalId is the node index.
class MetadataModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { FieldColumn, ValueColumn, ColumnCount };
    Q_ENUM(Column)

    explicit MetadataModel(QObject *parent = nullptr);
    ~MetadataModel() override;

    /// Rebuilds the tree from \a trace; null clears it.
    void setTrace(std::shared_ptr<const Trace> trace);

    /// The index of the top-level group titled \a title (e.g. "Tags"), or invalid.
    QModelIndex groupIndex(const QString &title) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node {
        QString field;
        QString value;
        QString toolTip;
        quint32 parent = 0; // node index; kRoot for top level
        quint32 row = 0;
        std::vector<quint32> children;
    };
    static constexpr quint32 kRoot = 0xffffffffu;

    const std::vector<quint32> &childrenOf(const QModelIndex &parent) const;
    quint32 add(quint32 parent, const QString &field, const QString &value = {}, const QString &toolTip = {});
    void build(const Trace &trace);

    std::vector<Node> m_nodes;
    std::vector<quint32> m_roots;
};

} // namespace TraceInspector
