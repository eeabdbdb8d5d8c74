// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>

#include <QWidget>

class QLabel;
class QModelIndex;
class QTreeView;

namespace TraceInspector {

struct Trace;
class SpanTree;
class SpanTreeModel;
class SpanFilterProxyModel;
class SpanItemDelegate;
class FilterLineEdit;

/// The span tree of a trace: a sortable QTreeView over SpanTreeModel with a debounced
/// filter that keeps the ancestors of matches. Open spans are italic and say "open";
/// dangling-parent and cycle spans carry a warning icon and explain themselves in the
/// tooltip. Span indices are indices into Trace::spans.
class SpanTreePanel : public QWidget
{
    Q_OBJECT
public:
    explicit SpanTreePanel(QWidget *parent = nullptr);
    ~SpanTreePanel() override;

    /// Shows \a trace with its \a tree (built from the same trace); null clears the panel.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree);
    void clear();

    /// Index of the current span, or -1.
    qint64 selectedSpan() const;
    QString filterText() const;

    QTreeView *view() const { return m_view; }
    FilterLineEdit *filterEdit() const { return m_filter; }
    SpanTreeModel *model() const { return m_model; }
    SpanFilterProxyModel *proxyModel() const { return m_proxy; }

public Q_SLOTS:
    /// Makes span \a spanIndex current: clears a filter that hides it, expands its
    /// ancestors and scrolls to it. Emits spanSelected() when the current span changes.
    void selectSpan(qint64 spanIndex);
    /// Applies \a text at once (no debounce).
    void setFilterText(const QString &text);

Q_SIGNALS:
    /// The current span changed (by the user or by selectSpan()); -1 when none.
    void spanSelected(qint64 spanIndex);
    /// The user activated a span (double click or Return).
    void spanActivated(qint64 spanIndex);

private:
    void applyFilter(const QString &text);
    void expandMatches();
    void expandTo(qint64 spanIndex);
    void updateStatus();
    qint64 spanOf(const QModelIndex &proxyIndex) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const SpanTree> m_tree;
    SpanTreeModel *m_model;
    SpanFilterProxyModel *m_proxy;
    SpanItemDelegate *m_itemDelegate;
    FilterLineEdit *m_filter;
    QLabel *m_status;
    QTreeView *m_view;
};

} // namespace TraceInspector
