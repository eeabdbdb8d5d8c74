// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include <QModelIndex>
#include <QObject>
#include <QPointer>
#include <QString>

class QAbstractItemModel;

namespace TraceInspector {

class AtomicFileWriter;

/// Writes rows of an item model as TSV (clipboard text) or CSV (a file), a slice at a time
/// on the GUI thread so that the millions of rows of a big trace never freeze the window:
/// models are read where they live, and each slice stops after a few milliseconds.
///
/// The first line holds the column headers. A cell is its DisplayRole text, or the given
/// role's value for a role column. The job stops with an error when the model changes
/// underneath it. Small jobs finish inside start().
class RowExportJob : public QObject
{
    Q_OBJECT
public:
    enum class Format { Tsv, Csv };
    /// One output column: a model column's text, or \a role of the row's column 0.
    struct Column {
        int column = 0;
        int role = Qt::DisplayRole;
        QString header;
    };

    RowExportJob(QAbstractItemModel *model, std::vector<Column> columns, Format format, QObject *parent = nullptr);
    ~RowExportJob() override;

    /// Rows [first, last] of the top level, range by range.
    void setRowRanges(std::vector<std::pair<int, int>> ranges);
    /// These rows (any column of the row), in this order.
    void setRows(const QModelIndexList &rows);
    /// Every row of the model, depth first (children right after their parent).
    void setAllRows();

    /// Writes to \a path by AtomicFileWriter's rules, like every file the app writes (the file
    /// appears only when complete; symlinks are written through; read-only files and other
    /// users' files are refused); default: text().
    void setOutputFile(const QString &path);
    /// Starts; finished() follows, possibly before start() returns.
    void start();
    void cancel();

    int rowsWritten() const { return m_written; }
    /// The text written when no output file was set.
    QString text() const { return m_text; }

    static QString csvField(const QString &text);
    static QString tsvField(const QString &text);

Q_SIGNALS:
    void progress(int rowsWritten);
    /// \a message says what went wrong, or what was written.
    void finished(bool ok, const QString &message);

private:
    bool nextRow(QModelIndex &row);
    void writeRow(const QModelIndex &row);
    void writeLine(const QStringList &fields);
    bool flushPending();
    void runSlice();
    void finish(bool ok, const QString &message);
    void abortChanged();

    QPointer<QAbstractItemModel> m_model;
    std::vector<Column> m_columns;
    Format m_format;
    QString m_text;
    QString m_path;
    std::unique_ptr<AtomicFileWriter> m_file;
    QByteArray m_pending; // UTF-8 not yet handed to m_file: one write per ~1 MiB, not per row

    enum class Source { Ranges, Rows, All } m_source = Source::All;
    std::vector<std::pair<int, int>> m_ranges;
    std::size_t m_rangeIndex = 0;
    int m_nextInRange = 0;
    QList<QPersistentModelIndex> m_rows;
    qsizetype m_rowIndex = 0;
    std::vector<std::pair<QModelIndex, int>> m_stack; // depth-first walk: parent, next row
    int m_written = 0;
    bool m_done = false;
    bool m_running = false;
};

} // namespace TraceInspector
