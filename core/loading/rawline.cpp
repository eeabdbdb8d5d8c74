// SPDX-License-Identifier: MIT
#include "core/loading/rawline.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <numeric>

#include <QFile>

namespace TraceInspector {
namespace {

QString onlyLines(std::uint64_t count)
{
    return RawLine::tr("the file has only %n line(s)", nullptr, int(std::min<std::uint64_t>(count, INT_MAX)));
}

} // namespace

RawLine RawLine::read(const QString &path, std::uint64_t line, qsizetype maxBytes)
{
    return readMany(path, {line}, maxBytes).front();
}

std::vector<RawLine> RawLine::readMany(const QString &path, std::vector<std::uint64_t> lines, qsizetype maxBytes)
{
    std::vector<RawLine> out(lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i)
        out[i].line = lines[i];
    // Visit the wanted lines in file order.
    std::vector<std::size_t> order(lines.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(), [&lines](std::size_t a, std::size_t b) { return lines[a] < lines[b]; });
    std::size_t next = 0;
    while (next < order.size() && lines[order[next]] == 0) {
        out[order[next]].error = tr("not tied to a line");
        ++next;
    }
    if (next == order.size())
        return out;

    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        for (; next < order.size(); ++next)
            out[order[next]].error = tr("cannot open %1: %2").arg(path, file.errorString());
        return out;
    }
    constexpr qint64 kBlock = 4 << 20;
    QByteArray block(kBlock, Qt::Uninitialized);
    std::uint64_t current = 1; // the line the next byte belongs to
    bool sawBytes = false;     // of the current line
    const auto finishLine = [&](bool ended) {
        // Every wanted copy of this line number gets the text collected for the first.
        RawLine &first = out[order[next]];
        if (!ended && first.length == 0 && !sawBytes) {
            first.error = onlyLines(current - 1);
        } else {
            // §2: a CR right before the LF belongs to the line break.
            if (first.length == std::uint64_t(first.bytes.size()) && first.bytes.endsWith('\r')) {
                first.bytes.chop(1);
                --first.length;
            }
            first.truncated = first.length > std::uint64_t(first.bytes.size());
            first.ok = true;
        }
        const std::size_t firstIndex = order[next];
        for (++next; next < order.size() && lines[order[next]] == current; ++next)
            out[order[next]] = out[firstIndex];
    };
    bool done = false;
    while (!done) {
        const qint64 n = file.read(block.data(), kBlock);
        if (n < 0) {
            for (; next < order.size(); ++next)
                out[order[next]].error = tr("cannot read %1: %2").arg(path, file.errorString());
            return out;
        }
        if (n == 0)
            break;
        const char *p = block.constData();
        const char *end = p + n;
        while (p < end) {
            const void *nl = std::memchr(p, '\n', std::size_t(end - p));
            const char *stop = nl ? static_cast<const char *>(nl) : end;
            if (current == lines[order[next]]) {
                RawLine &r = out[order[next]];
                const qsizetype room = std::max<qsizetype>(maxBytes - r.bytes.size(), 0);
                r.bytes.append(p, std::min<qsizetype>(room, stop - p));
                r.length += std::uint64_t(stop - p);
            }
            sawBytes = sawBytes || stop > p;
            if (!nl) {
                p = end;
                break;
            }
            if (current == lines[order[next]]) {
                finishLine(true);
                if (next == order.size()) {
                    done = true;
                    break;
                }
            }
            ++current;
            sawBytes = false;
            p = stop + 1;
        }
    }
    if (next < order.size() && current == lines[order[next]])
        finishLine(false); // the last line, without a line break (or none at all)
    for (; next < order.size(); ++next)
        out[order[next]].error = onlyLines(sawBytes ? current : current - 1);
    return out;
}

} // namespace TraceInspector
