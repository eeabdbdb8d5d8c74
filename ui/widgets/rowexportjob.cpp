// SPDX-License-Identifier: MIT
#include "ui/widgets/rowexportjob.h"

#include <QAbstractItemModel>
#include <QElapsedTimer>
#include <QTimer>

#include "core/display/format.h"
#include "core/output/atomicfilewriter.h"
#include "ui/widgets/outputerrortext.h"

namespace TraceInspector {

namespace {
// A slice never holds the GUI thread longer than this.
constexpr int kSliceMs = 25;
constexpr qsizetype kWriteChunk = 1 << 20;
} // namespace

RowExportJob::RowExportJob(QAbstractItemModel *model, std::vector<Column> columns, Format format, QObject *parent)
    : QObject(parent)
    , m_model(model)
    , m_columns(std::move(columns))
    , m_format(format)
{
    if (m_model) {
        connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, &RowExportJob::abortChanged);
        connect(m_model, &QAbstractItemModel::layoutAboutToBeChanged, this, &RowExportJob::abortChanged);
        connect(m_model, &QAbstractItemModel::rowsAboutToBeRemoved, this, &RowExportJob::abortChanged);
        connect(m_model, &QAbstractItemModel::rowsAboutToBeInserted, this, &RowExportJob::abortChanged);
    }
}

RowExportJob::~RowExportJob() = default; // an unfinished file's temporary is removed by AtomicFileWriter

void RowExportJob::setRowRanges(std::vector<std::pair<int, int>> ranges)
{
    m_source = Source::Ranges;
    m_ranges = std::move(ranges);
}

void RowExportJob::setRows(const QModelIndexList &rows)
{
    m_source = Source::Rows;
    m_rows.clear();
    m_rows.reserve(rows.size());
    for (const QModelIndex &i : rows)
        m_rows.append(i.siblingAtColumn(0));
}

void RowExportJob::setAllRows()
{
    m_source = Source::All;
    m_stack.clear();
    m_stack.emplace_back(QModelIndex(), 0);
}

void RowExportJob::setOutputFile(const QString &path)
{
    m_path = path;
}

QString RowExportJob::csvField(const QString &text)
{
    // RFC 4180: quote when a separator, a quote, a line break or edge blanks would change the meaning.
    const bool quote = text.contains(u',') || text.contains(u'"') || text.contains(u'\n') || text.contains(u'\r')
                       || (!text.isEmpty() && (text.front().isSpace() || text.back().isSpace()));
    if (!quote)
        return text;
    QString out = text;
    out.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return u'"' + out + u'"';
}

QString RowExportJob::tsvField(const QString &text)
{
    QString out = text;
    for (QChar &c : out)
        if (c == u'\t' || c == u'\n' || c == u'\r')
            c = u' ';
    return out;
}

void RowExportJob::start()
{
    if (!m_model) {
        finish(false, tr("Nothing to export: the table is empty."));
        return;
    }
    if (!m_path.isEmpty()) {
        m_file = std::make_unique<AtomicFileWriter>(OutputErrorText::localPath(m_path));
        if (!m_file->open()) {
            const QString reason = OutputErrorText::reason(m_file->error());
            m_file.reset();
            finish(false, tr("Cannot write %1: %2").arg(m_path, reason));
            return;
        }
    }
    QStringList headers;
    for (const Column &c : m_columns)
        headers << c.header;
    writeLine(headers);
    m_running = true;
    runSlice();
}

void RowExportJob::cancel()
{
    if (m_running)
        finish(false, tr("Cancelled."));
}

void RowExportJob::abortChanged()
{
    if (m_running)
        finish(false, tr("The table changed while it was being written; nothing was written."));
}

bool RowExportJob::nextRow(QModelIndex &row)
{
    switch (m_source) {
    case Source::Ranges:
        while (m_rangeIndex < m_ranges.size()) {
            const auto [first, last] = m_ranges[m_rangeIndex];
            if (m_nextInRange < first)
                m_nextInRange = first;
            if (m_nextInRange <= last) {
                row = m_model->index(m_nextInRange++, 0);
                return row.isValid();
            }
            ++m_rangeIndex;
        }
        return false;
    case Source::Rows:
        while (m_rowIndex < m_rows.size()) {
            row = m_rows[m_rowIndex++];
            if (row.isValid())
                return true;
        }
        return false;
    case Source::All:
        while (!m_stack.empty()) {
            auto &[parent, next] = m_stack.back();
            if (next >= m_model->rowCount(parent)) {
                m_stack.pop_back();
                continue;
            }
            row = m_model->index(next++, 0, parent);
            if (m_model->hasChildren(row))
                m_stack.emplace_back(row, 0);
            return true;
        }
        return false;
    }
    return false;
}

void RowExportJob::writeLine(const QStringList &fields)
{
    QString line;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (i > 0)
            line += m_format == Format::Csv ? u',' : u'\t';
        line += m_format == Format::Csv ? csvField(fields[i]) : tsvField(fields[i]);
    }
    // CSV records end in CRLF (RFC 4180); clipboard text in plain newlines.
    line += m_format == Format::Csv ? QStringLiteral("\r\n") : QStringLiteral("\n");
    if (m_file) {
        m_pending += line.toUtf8();
        if (m_pending.size() >= kWriteChunk)
            flushPending();
    } else {
        m_text += line;
    }
}

bool RowExportJob::flushPending()
{
    // A write error is sticky in AtomicFileWriter; commit() reports it too.
    const bool ok = m_file->write(std::string_view(m_pending.constData(), std::size_t(m_pending.size())));
    m_pending.clear();
    return ok;
}

void RowExportJob::writeRow(const QModelIndex &row)
{
    QStringList fields;
    fields.reserve(qsizetype(m_columns.size()));
    for (const Column &c : m_columns) {
        const QModelIndex cell = c.role == Qt::DisplayRole ? row.siblingAtColumn(c.column) : row.siblingAtColumn(0);
        fields << cell.data(c.role).toString();
    }
    writeLine(fields);
    ++m_written;
}

void RowExportJob::runSlice()
{
    if (!m_running)
        return;
    QElapsedTimer clock;
    clock.start();
    QModelIndex row;
    while (true) {
        if (!m_model) {
            finish(false, tr("The table went away while it was being written."));
            return;
        }
        if (!nextRow(row))
            break;
        writeRow(row);
        if ((m_written & 255) == 0 && clock.elapsed() >= kSliceMs) {
            Q_EMIT progress(m_written);
            QTimer::singleShot(0, this, &RowExportJob::runSlice);
            return;
        }
    }
    if (m_file) {
        if (!flushPending() || !m_file->commit()) {
            finish(false, tr("Cannot write %1: %2").arg(m_path, OutputErrorText::reason(m_file->error())));
            return;
        }
        m_file.reset();
    }
    finish(true,
           tr("%1 row(s)", nullptr, numerusCount(std::uint64_t(m_written))).arg(formatCount(std::uint64_t(m_written))));
}

void RowExportJob::finish(bool ok, const QString &message)
{
    if (m_done)
        return;
    m_done = true;
    m_running = false;
    if (!ok && m_file) {
        m_file->discard();
        m_file.reset();
    }
    Q_EMIT finished(ok, message);
}

} // namespace TraceInspector
