// SPDX-License-Identifier: MIT
#pragma once

class QWidget;

namespace TraceInspector {

/// Puts \a page in a frameless scroll area owned by \a parent: the page fills the area when
/// there is room and scrolls as a whole when there is not. For a panel of several sections
/// whose least height would otherwise raise the main window's above a small screen's.
QWidget *scrollPage(QWidget *page, QWidget *parent);

} // namespace TraceInspector
