// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QTreeWidget;

namespace TraceInspector {

/// Help > Keyboard Shortcuts: every action of the window's menus with its keys (read from
/// the menus, so it never goes stale), then the keys that work inside the tables, the span
/// tree and the memory chart.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ShortcutsDialog(QWidget *window);
    ~ShortcutsDialog() override;

    QTreeWidget *list() const { return m_list; }
    /// Every (where, action, keys) row shown.
    QStringList rows() const;

private:
    QTreeWidget *m_list;
};

} // namespace TraceInspector
