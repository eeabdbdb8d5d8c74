// SPDX-License-Identifier: MIT
#include "ui/widgets/scrollpage.h"

#include <QScrollArea>

namespace TraceInspector {

QWidget *scrollPage(QWidget *page, QWidget *parent)
{
    auto *scroll = new QScrollArea(parent);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(page);
    return scroll;
}

} // namespace TraceInspector
