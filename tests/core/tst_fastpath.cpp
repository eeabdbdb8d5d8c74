// SPDX-License-Identifier: MIT
// The line decoder's fast path (core/io/fastlinescanner.h) against the exact decoder: every
// line of the spec examples, of generated traces (valid and --corrupt) and thousands of
// mutations of them (byte flips, truncations, key reorders, whitespace, duplicated and
// dropped members, odd values) must give the same verdict, the same cause and column, the
// same record and the same interned tables whichever path reads it.
#include <QTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <cstring>
#include <string>
#include <vector>

#include "core/io/fastlinescanner.h"
#include "core/io/linedecoder.h"
#include "core/model/trace.h"
#include "tests/testutils/generator.h"

using namespace TraceInspector;

class tst_FastPath : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameResults_data();
    void sameResults();
    void usualLinesTakeTheFastPath();
    void numbersOfEveryLength();
    void stringsOfEveryLength();
    void keysWithOneByteChanged();
};

namespace {

/// Everything a decode left behind, with ids resolved to text, so a difference in either
/// the values or the interning shows.
class Describer
{
public:
    explicit Describer(const Trace &t)
        : m_t(t)
    {
    }
    std::string s(StringId id) { return std::to_string(id) + "'" + std::string(m_t.str(id)) + "'"; }
    std::string shape(ShapeId id)
    {
        std::string r = std::to_string(id) + "[";
        for (std::uint64_t d : m_t.shapes.view(id))
            r += std::to_string(d) + ",";
        return r + "]";
    }
    std::string ids(ListRef ref)
    {
        std::string r = std::to_string(ref.offset) + "/" + std::to_string(ref.count) + "[";
        for (StringId id : m_t.idLists.view(ref))
            r += s(id) + ",";
        return r + "]";
    }
    static std::string u(std::uint64_t v) { return std::to_string(v); }
    static std::string f(double v)
    {
        std::uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        return std::to_string(bits); // bit-exact, -0.0 included
    }
    std::string event(const DecodedEvent &e)
    {
        std::string r = std::to_string(int(e.kind)) + ":";
        switch (e.kind) {
        case EventKind::Meta:
        case EventKind::Terminal: return r; // only the exact decoder reads them
        case EventKind::SpanStart: {
            const Span &x = e.span;
            return r + s(x.id) + s(x.parentId) + s(x.name) + u(std::uint64_t(x.kind)) + u(std::uint64_t(x.step))
                   + u(x.measured) + u(x.startNs);
        }
        case EventKind::SpanEnd: return r + s(e.spanEndId) + u(e.spanEndDurationNs);
        case EventKind::Op: {
            const Op &x = e.op;
            return r + s(x.spanId) + s(x.opName) + ids(x.inputs) + s(x.output) + shape(x.shape) + s(x.dtype)
                   + s(x.device) + u(x.durationNs) + u(x.timestampNs) + u(x.hasOutputDenseBytes) + u(x.outputDenseBytes)
                   + u(x.inputDenseBytes);
        }
        case EventKind::Tensor: {
            const Tensor &x = e.tensor;
            return r + s(x.spanId) + s(x.tensorId) + s(x.label) + shape(x.shape) + s(x.dtype) + s(x.device)
                   + u(x.requiresGrad) + u(x.hasDenseBytes) + u(x.denseBytes) + u(std::uint64_t(x.category));
        }
        case EventKind::TensorStats: {
            const TensorStats &x = e.tensorStats;
            return r + s(x.spanId) + s(x.label) + shape(x.shape) + s(x.dtype) + u(x.elements) + u(x.nonFinite)
                   + f(x.rms) + f(x.absMax) + f(x.mean);
        }
        case EventKind::Memory: {
            const MemoryEvent &x = e.memory;
            return r + u(x.timestampNs) + s(x.storageId) + s(x.tensorId) + s(x.spanId) + s(x.opName) + s(x.device)
                   + u(x.bytes) + u(std::uint64_t(x.action)) + shape(x.shape) + s(x.dtype)
                   + u(std::uint64_t(x.category));
        }
        case EventKind::DeviceMemory: {
            const DeviceMemorySample &x = e.deviceMemory;
            return r + u(x.timestampNs) + s(x.device) + u(x.present) + u(x.usedBytes) + u(x.freeBytes)
                   + u(x.reservedBytes) + u(x.capacityBytes);
        }
        case EventKind::DeviceInterval: {
            const DeviceInterval &x = e.deviceInterval;
            return r + s(x.spanId) + s(x.device) + s(x.streamId) + s(x.clockId) + s(x.backend) + u(x.startNs)
                   + u(x.durationNs);
        }
        case EventKind::Gradient: {
            const Gradient &x = e.gradient;
            return r + s(x.eventId) + s(x.root) + s(x.key) + u(std::uint64_t(x.state)) + u(x.hasNorm) + f(x.norm);
        }
        case EventKind::Edge: {
            const Edge &x = e.edge;
            return r + u(std::uint64_t(x.kind)) + s(x.from) + s(x.to) + u(x.hostDurationNs);
        }
        }
        return r;
    }

private:
    const Trace &m_t;
};

/// One decoder of each kind, each with its own trace: fed the same lines in the same order,
/// the tables must grow identically.
struct Pair {
    Trace exactTrace;
    Trace fastTrace;
    LineDecoder exact{exactTrace, DecoderPath::ExactOnly};
    LineDecoder fast{fastTrace, DecoderPath::FastThenExact};
    DecodedEvent exactEvent;
    DecodedEvent fastEvent;
    std::vector<char> buffer;
    std::size_t lines = 0;

    /// Empty when both agree, else what differs. The padding past the line is \a padding
    /// (the rest of a long line cut short, when it is a digit).
    std::string compare(const std::string &line, char padding = '\0')
    {
        ++lines;
        buffer.assign(line.begin(), line.end());
        buffer.resize(line.size() + kDecoderPadding, padding);
        DecodeFailure ef;
        DecodeFailure ff;
        const bool eok = exact.decode(buffer.data(), line.size(), exactEvent, ef);
        const bool fok = fast.decode(buffer.data(), line.size(), fastEvent, ff);
        std::string e =
            eok ? "OK " + Describer(exactTrace).event(exactEvent)
                : "FAIL " + ef.cause + " col " + std::to_string(ef.column) + (ef.invalidUtf8 ? " utf8" : "");
        std::string f =
            fok ? "OK " + Describer(fastTrace).event(fastEvent)
                : "FAIL " + ff.cause + " col " + std::to_string(ff.column) + (ff.invalidUtf8 ? " utf8" : "");
        e += " tables " + std::to_string(exactTrace.strings.size()) + "/" + std::to_string(exactTrace.shapes.size());
        f += " tables " + std::to_string(fastTrace.strings.size()) + "/" + std::to_string(fastTrace.shapes.size());
        if (e == f)
            return {};
        return "line: " + line + "\nexact: " + e + "\nfast:  " + f;
    }
};

/// Top-level members of a compact object line (without the braces), or empty when the line
/// is not a simple object.
std::vector<std::string> splitMembers(const std::string &line)
{
    std::vector<std::string> out;
    if (line.size() < 2 || line.front() != '{' || line.back() != '}')
        return out;
    int depth = 0;
    bool inString = false;
    std::size_t start = 1;
    for (std::size_t i = 1; i + 1 < line.size(); ++i) {
        const char c = line[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '[' || c == '{')
            ++depth;
        else if (c == ']' || c == '}')
            --depth;
        else if (c == ',' && depth == 0) {
            out.push_back(line.substr(start, i - start));
            start = i + 1;
        }
    }
    out.push_back(line.substr(start, line.size() - 1 - start));
    return out;
}

std::string joinMembers(const std::vector<std::string> &members)
{
    std::string r = "{";
    for (std::size_t i = 0; i < members.size(); ++i)
        r += (i ? "," : "") + members[i];
    return r + "}";
}

/// Mutations of one line: every kind of deviation from the usual shape, and some that keep it.
std::vector<std::string> mutations(const std::string &line)
{
    std::vector<std::string> out;
    // Byte flips: characters that matter to JSON, at every position.
    static const char kFlips[] = {'"', ',', '}', ']', '[', ' ', '0', '9', '-', '.', 'e', 'n', '\\', 'x', '\t', '\x01'};
    for (std::size_t i = 0; i < line.size(); ++i) {
        for (char c : kFlips) {
            if (line[i] == c)
                continue;
            std::string m = line;
            m[i] = c;
            out.push_back(std::move(m));
        }
        // Truncations, and whitespace after every byte.
        out.push_back(line.substr(0, i));
        out.push_back(line.substr(0, i + 1) + " " + line.substr(i + 1));
    }
    out.push_back(line + " x");
    out.push_back(line + "}");
    // A non-ASCII byte sequence inside the line (valid UTF-8) and a broken one.
    if (line.size() > 12) {
        out.push_back(line.substr(0, 12) + "\xc3\xa9" + line.substr(12));
        out.push_back(line.substr(0, 12) + "\xc3" + line.substr(12));
    }
    const std::vector<std::string> members = splitMembers(line);
    if (members.size() < 2)
        return out;
    // Key reorders: adjacent swaps (the kind tag too), and the reversed order.
    for (std::size_t i = 0; i + 1 < members.size(); ++i) {
        std::vector<std::string> m = members;
        std::swap(m[i], m[i + 1]);
        out.push_back(joinMembers(m));
    }
    out.push_back(joinMembers(std::vector<std::string>(members.rbegin(), members.rend())));
    for (std::size_t i = 1; i < members.size(); ++i) {
        // Dropped, duplicated, unknown-renamed members; null, escaped and odd values.
        std::vector<std::string> m = members;
        m.erase(m.begin() + std::ptrdiff_t(i));
        out.push_back(joinMembers(m));
        m = members;
        m.insert(m.begin() + std::ptrdiff_t(i), members[i]);
        out.push_back(joinMembers(m));
        const std::size_t colon = members[i].find("\":");
        if (colon == std::string::npos)
            continue;
        const std::string key = members[i].substr(0, colon + 2);
        const std::string value = members[i].substr(colon + 2);
        static const char *kValues[] = {"null",
                                        "true",
                                        "false",
                                        "0",
                                        "00",
                                        "01",
                                        "-1",
                                        "-0",
                                        "1.5",
                                        "1e3",
                                        "1E-400",
                                        "18446744073709551615",
                                        "18446744073709551616",
                                        "9999999999999999999",
                                        "12345678901234567890",
                                        "\"\"",
                                        "\"a\\u0041\"",
                                        "\"\\\"\"",
                                        "[]",
                                        "[1,2]",
                                        "[\"a\",\"b\"]",
                                        "[1,]",
                                        "{}",
                                        "{\"value\":null}",
                                        "\"alloc\"",
                                        "\"call\""};
        for (const char *v : kValues) {
            m = members;
            m[i] = key + v;
            out.push_back(joinMembers(m));
        }
        m = members;
        m[i] = key + " " + value;
        out.push_back(joinMembers(m));
        m = members;
        m[i] = "\"x" + members[i].substr(1);
        out.push_back(joinMembers(m));
        if (value.size() > 2 && value.front() == '"') {
            m = members;
            m[i] = key + "\"\\u00" + [&] {
                static const char kHex[] = "0123456789abcdef";
                const auto c = static_cast<unsigned char>(value[1]);
                return std::string{kHex[c >> 4], kHex[c & 15]};
            }() + value.substr(2);
            out.push_back(joinMembers(m)); // the same text, escaped
        }
    }
    return out;
}

std::vector<std::string> readLines(const QString &path)
{
    std::vector<std::string> lines;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return lines;
    const QList<QByteArray> parts = f.readAll().split('\n');
    for (const QByteArray &l : parts) {
        QByteArray t = l;
        if (t.endsWith('\r'))
            t.chop(1);
        if (!t.trimmed().isEmpty())
            lines.push_back(t.toStdString());
    }
    return lines;
}

} // namespace

void tst_FastPath::sameResults_data()
{
    QTest::addColumn<QString>("source");  // "examples" or generator arguments
    QTest::addColumn<int>("mutateEvery"); // mutate every Nth line (0: none)
    QTest::newRow("spec examples") << QStringLiteral("examples") << 1;
    QTest::newRow("generated") << QStringLiteral("--events 20000 --seed 3") << 97;
    QTest::newRow("generated corrupt") << QStringLiteral("--events 20000 --seed 5 --corrupt 0.05") << 53;
    QTest::newRow("generated cpu only, 17 digits")
        << QStringLiteral("--events 5000 --seed 7 --devices 1 --float-digits 17") << 131;
}

void tst_FastPath::sameResults()
{
    QFETCH(QString, source);
    QFETCH(int, mutateEvery);
    std::vector<std::string> lines;
    if (source == QLatin1String("examples")) {
        const QDir dir(QStringLiteral(TI_EXAMPLES_DIR));
        const QStringList files = dir.entryList({QStringLiteral("*.jsonl")}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        for (const QString &name : files) {
            for (std::string &l : readLines(dir.filePath(name)))
                lines.push_back(std::move(l));
        }
    } else {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString out = tmp.filePath(QStringLiteral("trace.jsonl"));
        TI_GENERATE(source.split(u' ') + QStringList{QStringLiteral("--out"), out, QStringLiteral("--quiet")});
        lines = readLines(out);
    }
    QVERIFY(lines.size() > 10);
    Pair pair;
    std::size_t mutated = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string diff = pair.compare(lines[i]);
        QVERIFY2(diff.empty(), diff.c_str());
        if (mutateEvery == 0 || i % std::size_t(mutateEvery) != 0)
            continue;
        for (const std::string &m : mutations(lines[i])) {
            const std::string mdiff = pair.compare(m);
            QVERIFY2(mdiff.empty(), mdiff.c_str());
            ++mutated;
        }
    }
    // The tables as a whole, entry by entry.
    QCOMPARE(pair.fastTrace.strings.size(), pair.exactTrace.strings.size());
    for (StringId id = 0; id < pair.exactTrace.strings.size(); ++id)
        QVERIFY(pair.fastTrace.strings.view(id) == pair.exactTrace.strings.view(id));
    QCOMPARE(pair.fastTrace.shapes.size(), pair.exactTrace.shapes.size());
    for (ShapeId id = 0; id < pair.exactTrace.shapes.size(); ++id) {
        const auto a = pair.fastTrace.shapes.view(id);
        const auto b = pair.exactTrace.shapes.view(id);
        QVERIFY(std::equal(a.begin(), a.end(), b.begin(), b.end()));
    }
    QVERIFY(mutated > 1000);
    qInfo("%zu lines compared, %zu of them mutations", pair.lines, mutated);
}

// The point of the fast path: a writer's lines take it. If they did not, the equivalence
// above would prove nothing about the fast path.
void tst_FastPath::usualLinesTakeTheFastPath()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString out = tmp.filePath(QStringLiteral("trace.jsonl"));
    TI_GENERATE({QStringLiteral("--events"), QStringLiteral("20000"), QStringLiteral("--seed"), QStringLiteral("3"),
                 QStringLiteral("--out"), out, QStringLiteral("--quiet")});
    const std::vector<std::string> lines = readLines(out);
    FastLineScanner scanner;
    std::size_t fast = 0;
    std::size_t metaOrTerminal = 0;
    std::vector<char> buffer;
    for (const std::string &l : lines) {
        buffer.assign(l.begin(), l.end());
        buffer.resize(l.size() + kDecoderPadding, '\0');
        if (scanner.scan(buffer.data(), buffer.data() + l.size()))
            ++fast;
        else if (l.rfind("{\"kind\":\"meta\"", 0) == 0 || l.rfind("{\"kind\":\"terminal\"", 0) == 0)
            ++metaOrTerminal;
        else
            QFAIL(("a usual line took the exact path: " + l).c_str());
    }
    QCOMPARE(fast + metaOrTerminal, lines.size());
    QVERIFY(fast > 19000);
}

// Unsigned members are read 8 digits at a time: every length up to past 20 digits, leading
// zeros, fractions and exponents after the digits, the number at the line's end with digits
// in the padding after it, must read as the exact decoder reads them.
void tst_FastPath::numbersOfEveryLength()
{
    std::vector<std::string> numbers{"0",
                                     "00",
                                     "01",
                                     "0.5",
                                     "0e1",
                                     "7.",
                                     "1e3",
                                     "1E3",
                                     "12.5",
                                     "18446744073709551615",
                                     "18446744073709551616",
                                     "9999999999999999999"};
    const std::string digits = "123456789012345678901234";
    for (std::size_t n = 1; n <= 24; ++n) {
        numbers.push_back(digits.substr(0, n));
        numbers.push_back(std::string(n, '9'));
        numbers.push_back("1" + std::string(n - 1, '0'));
        numbers.push_back(digits.substr(0, n) + ".0");
        numbers.push_back(digits.substr(0, n) + "e2");
    }
    Pair pair;
    for (const std::string &v : numbers) {
        const std::string lines[] = {
            R"({"kind":"span_end","id":"s1","duration_ns":)" + v + "}",
            R"({"kind":"span_end","duration_ns":)" + v + R"(,"id":"s1"})",
            R"({"kind":"op","span_id":"s1","op":"add","timestamp_ns":)" + v
                + R"(,"duration_ns":5,"output":"t1","dtype":"f32","shape":[2,3],"device":"cpu","inputs":["t0"]})",
        };
        for (const std::string &line : lines) {
            for (char padding : {'\0', '7'}) {
                const std::string d = pair.compare(line, padding);
                QVERIFY2(d.empty(), d.c_str());
                // Cut within or after the number: the digits past the cut are the padding's.
                const std::string cut = line.substr(0, line.find(v) + v.size());
                const std::string dc = pair.compare(cut, padding);
                QVERIFY2(dc.empty(), dc.c_str());
            }
        }
    }
}

// Strings are scanned 16 bytes at a time: a quote, backslash or control character at every
// position of strings up to past two loads, other bytes (DEL, UTF-8) that are not special,
// and lines cut inside the string with quotes in the padding after the cut, must read as
// the exact decoder reads them.
void tst_FastPath::stringsOfEveryLength()
{
    Pair pair;
    const std::string specials[] = {"\\n", "\"", "\\\"", "\x01", "\x1f", "\t", "\x7f", "\xc3\xa9", "\xe2\x82\xac"};
    for (std::size_t n = 0; n <= 40; ++n) {
        std::vector<std::string> names{std::string(n, 'x')};
        for (const std::string &sp : specials) {
            for (std::size_t at = 0; at <= n; ++at)
                names.push_back(std::string(at, 'y') + sp + std::string(n - at, 'z'));
        }
        for (const std::string &name : names) {
            const std::string line = R"({"kind":"span_start","id":"s1","name":")" + name
                                     + R"(","start_ns":1,"span_kind":"function","parent_id":"root"})";
            for (char padding : {'\0', '"'}) {
                const std::string d = pair.compare(line, padding);
                QVERIFY2(d.empty(), d.c_str());
                const std::string cut = line.substr(0, line.find(name) + name.size());
                const std::string dc = pair.compare(cut, padding);
                QVERIFY2(dc.empty(), dc.c_str());
            }
        }
    }
}

// Keys are compared 8 and 4 bytes at a time, overlapping: a key with any one byte changed
// (to a letter, so that it stays a plain key) must not pass for the field's.
void tst_FastPath::keysWithOneByteChanged()
{
    Pair pair;
    const std::string lines[] = {
        R"({"kind":"memory","timestamp_ns":1873293,"storage_id":"st142","tensor_id":"t167","span_id":"s147","op_name":"to_dtype","device":"cuda:0","bytes":50331648,"action":"alloc","shape":[1,12,1024,1024],"dtype":"f32","category":"activation"})",
        R"({"kind":"edge","edge_kind":"call","from_span":"s143","to_span":"s146","host_duration_ns":13453})",
    };
    for (const std::string &line : lines) {
        QVERIFY2(pair.compare(line).empty(), line.c_str());
        // Every byte inside a key (between a quote after `{` or `,` and the quote before `:`).
        for (std::size_t at = 1; at < line.size(); ++at) {
            const std::size_t open = line.rfind('"', at - 1);
            const std::size_t close = line.find('"', at);
            if (open == std::string::npos || open == 0 || close == std::string::npos
                || (line[open - 1] != '{' && line[open - 1] != ',') || close + 1 >= line.size()
                || line[close + 1] != ':' || at == close)
                continue;
            std::string changed = line;
            changed[at] = line[at] == 'q' ? 'x' : 'q';
            const std::string d = pair.compare(changed);
            QVERIFY2(d.empty(), d.c_str());
        }
    }
}

QTEST_APPLESS_MAIN(tst_FastPath)
#include "tst_fastpath.moc"
