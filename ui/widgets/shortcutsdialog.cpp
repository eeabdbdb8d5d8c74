// SPDX-License-Identifier: MIT
#include "ui/widgets/shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace TraceInspector {

namespace {

QString plain(QString text)
{
    return text.remove(u'&').remove(QStringLiteral("…"));
}

void addMenu(QTreeWidgetItem *parent, const QMenu *menu)
{
    for (QAction *a : menu->actions()) {
        if (a->isSeparator())
            continue;
        if (a->menu()) {
            addMenu(parent, a->menu());
            continue;
        }
        const QString keys = a->shortcuts().isEmpty()
                                 ? QString()
                                 : QKeySequence::listToString(a->shortcuts(), QKeySequence::NativeText)
                                       .replace(QStringLiteral("; "), QStringLiteral(" or "));
        auto *item = new QTreeWidgetItem(
            parent, {plain(a->text()), keys.isEmpty() ? QObject::tr("menu %1").arg(plain(menu->title())) : keys});
        item->setToolTip(0, a->toolTip());
    }
}

} // namespace

ShortcutsDialog::ShortcutsDialog(QWidget *window)
    : QDialog(window)
    , m_list(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    resize(620, 640);
    m_list->setColumnCount(2);
    m_list->setHeaderLabels({tr("Action"), tr("Keys")});
    m_list->setRootIsDecorated(true);
    m_list->setAlternatingRowColors(true);

    if (const auto *main = qobject_cast<const QMainWindow *>(window)) {
        for (QAction *top : main->menuBar()->actions()) {
            if (!top->menu())
                continue;
            auto *group = new QTreeWidgetItem(
                m_list, {tr("%1 menu (Alt+%2)").arg(plain(top->text()), plain(top->text()).left(1))});
            addMenu(group, top->menu());
        }
    }
    const auto addGroup = [this](const QString &title, const QList<QStringList> &rows) {
        auto *group = new QTreeWidgetItem(m_list, {title});
        for (const QStringList &r : rows)
            new QTreeWidgetItem(group, r);
    };
    addGroup(tr("Any table or tree"),
             {{tr("Copy the selected rows (tab-separated, with a header)"),
               QKeySequence(QKeySequence::Copy).toString(QKeySequence::NativeText)},
              {tr("Context menu: copy, copy row as JSON, export as CSV, select span"), tr("Menu or Shift+F10")},
              {tr("Select the span of the current row"), tr("Ctrl+J")},
              {tr("Move between panels"), tr("Tab, Shift+Tab; Alt+1 … Alt+6")}});
    addGroup(tr("Timeline (click it or Alt+5 first)"),
             {{tr("Zoom in / out"), tr("W / S, Up / Down, wheel")},
              {tr("Pan"), tr("A / D, Left / Right, drag, Shift+wheel")},
              {tr("Whole run / the selection"), tr("Home / F")},
              {tr("Select / zoom to a slice"), tr("click / double-click")},
              {tr("Select a time range / clear it"), tr("drag on the ruler / Escape")}});
    addGroup(tr("Span tree filter"), {{tr("Apply the filter at once"), tr("Return")},
                                      {tr("Clear the filter"), tr("Escape")},
                                      {tr("Next / previous match"), tr("F3 / Shift+F3")}});
    addGroup(tr("Memory chart (click it or Alt+3 first)"),
             {{tr("Move the instant whose allocations are listed"), tr("Left, Right (Shift: 10×)")},
              {tr("Instant at the window's start / end"), tr("Home, End")},
              {tr("Zoom in / out around the instant"), tr("+ / −")},
              {tr("Whole run"), tr("0")},
              {tr("Back to the logical peak"), tr("P")},
              {tr("Zoom to a band / zoom out"), tr("drag / right-click")},
              {tr("Select a time range"), tr("Shift+drag")}});
    m_list->expandAll();
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(false);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_list, 1);
    layout->addWidget(buttons);
}

ShortcutsDialog::~ShortcutsDialog() = default;

QStringList ShortcutsDialog::rows() const
{
    QStringList out;
    for (int g = 0; g < m_list->topLevelItemCount(); ++g) {
        const QTreeWidgetItem *group = m_list->topLevelItem(g);
        for (int i = 0; i < group->childCount(); ++i)
            out << group->text(0) + u'|' + group->child(i)->text(0) + u'|' + group->child(i)->text(1);
    }
    return out;
}

} // namespace TraceInspector
