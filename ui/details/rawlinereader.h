// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>

#include <memory>

namespace TraceInspector {

/// One physical line of a trace file, as read back for the details pane.
struct SourceLine {
    quint64 number = 0;     ///< 1-based
    QByteArray text;        ///< without the line break
    bool truncated = false; ///< cut at RawLineReader::kMaxLineBytes
};

/// Reads physical lines of a trace file by number, off the GUI thread.
///
/// Records keep only their 1-based line number, so finding a line means counting line
/// breaks. The first request scans the file once and keeps a sparse index (the offset of
/// every kIndexStride-th line: a few thousand numbers for a 1 GB file); every later request
/// seeks to the nearest indexed line and reads on from there. The file must be the one that
/// was loaded: when its size differs from what the load saw, nothing is read and the error
/// says that the file changed.
class RawLineReader : public QObject
{
    Q_OBJECT
public:
    static constexpr quint64 kIndexStride = 4096;
    static constexpr qsizetype kMaxLineBytes = 1 << 20;

    explicit RawLineReader(QObject *parent = nullptr);
    ~RawLineReader() override;

    /// The file to read from and its size when it was loaded (0 = do not check).
    void setFile(const QString &path, quint64 expectedBytes);
    QString path() const;
    /// Builds the line index in the background now rather than at the first request.
    void prepare();
    /// Whether the line index of the file is built (by prepare() or a request).
    bool isIndexed() const;

    /// What the background reads share (the file and its index); opaque.
    struct Shared;

    /// Reads \a lines (1-based) in the background; the answer arrives as linesRead() with
    /// the returned id. A newer request does not cancel older ones.
    quint64 request(const QList<quint64> &lines);

    /// The blocking read behind request(): for tests and tools.
    static QList<SourceLine> readLines(const QString &path, quint64 expectedBytes, const QList<quint64> &lines,
                                       QString *error);

Q_SIGNALS:
    /// \a error is empty on success; lines past the end of the file are left out and named
    /// in \a error.
    void linesRead(quint64 requestId, const QList<TraceInspector::SourceLine> &lines, const QString &error);

private:
    std::shared_ptr<Shared> m_shared;
    quint64 m_nextRequest = 0;
};

} // namespace TraceInspector

Q_DECLARE_METATYPE(TraceInspector::SourceLine)
