// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include "core/loading/loadedtrace.h"

class QLabel;
class QTreeView;

namespace TraceInspector {

class MetadataModel;

/// The run header: meta fields, capture contract, comparison identity, tags, terminal, plus
/// a one-line health verdict once health analysis is done.
class MetadataPanel : public QWidget
{
    Q_OBJECT
public:
    explicit MetadataPanel(QWidget *parent = nullptr);
    ~MetadataPanel() override;

    void setLoadedTrace(LoadedTracePtr loaded);
    void clear();

    MetadataModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }

private:
    MetadataModel *m_model;
    QTreeView *m_view;
    QLabel *m_verdict;
    const Trace *m_shownTrace = nullptr;
};

} // namespace TraceInspector
