// SPDX-License-Identifier: MIT
#include "core/display/format.h"

#include <QCoreApplication>

#include <algorithm>
#include <climits>
#include <cmath>
#include <iterator>
#include <utility>

#include "core/model/trace.h"

namespace TraceInspector {

namespace {

int significantDecimals(double v)
{
    return v < 10 ? 2 : (v < 100 ? 1 : 0);
}

double roundTo(double v, int decimals)
{
    const double scale = decimals == 2 ? 100.0 : (decimals == 1 ? 10.0 : 1.0);
    return std::round(v * scale) / scale;
}

// \a units[0] is the base unit (printed as an integer); each further unit is \a step times
// the previous one.
QString formatScaled(std::uint64_t value, double step, std::span<const QStringView> units)
{
    if (static_cast<double>(value) < step)
        return QString::number(value) + u' ' + units[0];
    double v = static_cast<double>(value);
    std::size_t unit = 0;
    while (unit + 1 < units.size() && v >= step) {
        v /= step;
        ++unit;
    }
    int decimals = significantDecimals(v);
    double rounded = roundTo(v, decimals);
    if (rounded >= step && unit + 1 < units.size()) {
        v /= step;
        ++unit;
        decimals = significantDecimals(v);
        rounded = roundTo(v, decimals);
    }
    if (significantDecimals(rounded) < decimals) {
        decimals = significantDecimals(rounded);
        rounded = roundTo(v, decimals);
    }
    return QString::number(rounded, 'f', decimals) + u' ' + units[unit];
}

constexpr QStringView kTimeUnits[] = {u"ns", u"\u00B5s", u"ms", u"s"};
constexpr QStringView kByteUnits[] = {u"B", u"KiB", u"MiB", u"GiB", u"TiB", u"PiB", u"EiB"};

} // namespace

QString formatDuration(std::uint64_t ns)
{
    return formatScaled(ns, 1000.0, kTimeUnits);
}

QString formatTimestamp(std::uint64_t ns)
{
    if (ns < 1000)
        return QString::number(ns) + u" ns";
    // Integer arithmetic keeps full precision for large ns values.
    std::uint64_t divisor = 1000;
    std::size_t unit = 1;
    while (unit + 1 < std::size(kTimeUnits) && ns / divisor >= 1000) {
        divisor *= 1000;
        ++unit;
    }
    std::uint64_t whole = 0;
    std::uint64_t frac = 0;
    for (;;) {
        const std::uint64_t milliUnits = divisor / 1000;
        whole = ns / divisor;
        frac = (ns % divisor + milliUnits / 2) / milliUnits; // rounded to 3 decimals
        if (frac == 1000) {
            ++whole;
            frac = 0;
        }
        if (whole < 1000 || unit + 1 >= std::size(kTimeUnits))
            break;
        divisor *= 1000; // rounding carried into the next unit (999.9996 ms -> 1.000 s)
        ++unit;
    }
    return QString::number(whole) + u'.' + QStringLiteral("%1").arg(frac, 3, 10, QLatin1Char('0')) + u' '
           + kTimeUnits[unit];
}

namespace {

constexpr QChar kGroupSeparator(0x202F); // NARROW NO-BREAK SPACE: groups, never a line break

QString groupedInteger(std::uint64_t value)
{
    QString digits = QString::number(value);
    if (digits.size() < 5)
        return digits;
    for (qsizetype pos = digits.size() - 3; pos > 0; pos -= 3)
        digits.insert(pos, kGroupSeparator);
    return digits;
}

/// ns per unit and decimals of the unit (log10 of ns per unit).
std::pair<std::uint64_t, int> unitScale(TimeUnit unit)
{
    switch (unit) {
    case TimeUnit::Seconds: return {1'000'000'000ull, 9};
    case TimeUnit::Milliseconds: return {1'000'000ull, 6};
    case TimeUnit::Microseconds: return {1'000ull, 3};
    case TimeUnit::Nanoseconds:
    case TimeUnit::Auto: break;
    }
    return {1, 0};
}

TimeUnit autoUnit(std::uint64_t ns)
{
    if (ns >= 1'000'000'000ull)
        return TimeUnit::Seconds;
    if (ns >= 1'000'000ull)
        return TimeUnit::Milliseconds;
    if (ns >= 1'000ull)
        return TimeUnit::Microseconds;
    return TimeUnit::Nanoseconds;
}

QString exactIn(std::uint64_t ns, TimeUnit unit, bool withUnit)
{
    const auto [divisor, decimals] = unitScale(unit);
    QString text = groupedInteger(ns / divisor);
    if (decimals > 0) {
        const QString frac = QStringLiteral("%1").arg(ns % divisor, decimals, 10, QLatin1Char('0'));
        text += u'.';
        for (int i = 0; i < decimals; i += 3) {
            if (i > 0)
                text += kGroupSeparator;
            text += QStringView(frac).mid(i, 3);
        }
    }
    if (withUnit)
        text += u' ' + timeUnitSymbol(unit);
    return text;
}

} // namespace

QString timeUnitSymbol(TimeUnit unit)
{
    switch (unit) {
    case TimeUnit::Seconds: return QStringLiteral("s");
    case TimeUnit::Milliseconds: return QStringLiteral("ms");
    case TimeUnit::Microseconds: return QStringLiteral("\u00B5s");
    case TimeUnit::Nanoseconds: return QStringLiteral("ns");
    case TimeUnit::Auto: break;
    }
    return {};
}

QString formatTimePoint(std::uint64_t ns, TimeUnit unit, bool withUnit)
{
    if (unit == TimeUnit::Auto) {
        unit = autoUnit(ns);
        withUnit = true; // an automatic unit changes from row to row
    }
    return exactIn(ns, unit, withUnit);
}

QString widestTimePoint(std::uint64_t maxNs, TimeUnit unit, bool withUnit)
{
    QString widest = formatTimePoint(maxNs, unit, withUnit);
    // Digits are equally wide in the fonts used; the longest text is the widest.
    for (const std::uint64_t candidate : {999ull, 999'999ull, 999'999'999ull}) {
        if (candidate > maxNs)
            break;
        const QString text = formatTimePoint(candidate, unit, withUnit);
        if (text.size() > widest.size())
            widest = text;
    }
    return widest;
}

QString formatDurationIn(std::uint64_t ns, TimeUnit unit, bool withUnit)
{
    if (unit == TimeUnit::Auto)
        return formatDuration(ns);
    return exactIn(ns, unit, withUnit);
}

MeasuredSpanCount countMeasuredSpans(const Trace &trace)
{
    MeasuredSpanCount count;
    for (const Span &s : trace.spans) {
        if (s.measured) {
            ++count.measured;
            count.closed += s.closed ? 1 : 0;
        }
    }
    return count;
}

QString measuredTimeText(std::size_t measuredSpans, std::size_t closedMeasuredSpans, std::uint64_t totalNs)
{
    if (measuredSpans == 0)
        return QCoreApplication::translate("Format", "measured time unknown (no measured span)");
    if (closedMeasuredSpans == 0)
        return QCoreApplication::translate("Format", "measured time unknown (measured spans never ended)");
    return QCoreApplication::translate("Format", "measured %1").arg(formatDuration(totalNs));
}

QString measuredTimeText(const Trace &trace, std::uint64_t totalNs)
{
    const MeasuredSpanCount count = countMeasuredSpans(trace);
    return measuredTimeText(count.measured, count.closed, totalNs);
}

QString formatBytes(std::uint64_t bytes)
{
    return formatScaled(bytes, 1024.0, kByteUnits);
}

QString formatBytesPerNs(double rate)
{
    if (std::isnan(rate) || rate < 0)
        return QStringLiteral("n/a");
    if (rate >= 1000)
        return formatCount(std::uint64_t(std::min(rate, 1.8e19) + 0.5)) + QStringLiteral(" B/ns");
    const int decimals = rate >= 100 ? 0 : rate >= 10 ? 1 : rate >= 1 ? 2 : 3;
    return QString::number(rate, 'f', decimals) + QStringLiteral(" B/ns");
}

QString formatPercent(double fraction)
{
    if (std::isnan(fraction) || fraction < 0)
        return QStringLiteral("n/a");
    const double percent = fraction * 100.0;
    if (percent == 0)
        return QStringLiteral("0%");
    if (percent < 0.05)
        return QStringLiteral("<0.1%");
    return QString::number(percent, 'f', 1) + u'%';
}

QString formatShape(std::span<const std::uint64_t> dims)
{
    QString text = QStringLiteral("[");
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i > 0)
            text += QStringLiteral(", ");
        text += QString::number(dims[i]);
    }
    text += u']';
    return text;
}

int numerusCount(std::uint64_t n)
{
    return int(std::min<std::uint64_t>(n, std::uint64_t(INT_MAX)));
}

QString formatCount(std::uint64_t value)
{
    QString digits = QString::number(value);
    for (qsizetype pos = digits.size() - 3; pos > 0; pos -= 3)
        digits.insert(pos, u',');
    return digits;
}

TextFilter::TextFilter(const QString &needle)
    : m_needle(needle.trimmed())
{
    m_ascii = std::all_of(m_needle.cbegin(), m_needle.cend(), [](QChar c) { return c.unicode() < 0x80; });
    if (m_ascii) {
        m_asciiLower.reserve(std::size_t(m_needle.size()));
        for (QChar c : std::as_const(m_needle)) {
            const char ch = static_cast<char>(c.unicode());
            m_asciiLower.push_back(ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch);
        }
    }
}

bool TextFilter::matches(std::string_view utf8) const
{
    if (m_needle.isEmpty())
        return true;
    if (!m_ascii)
        return QString::fromUtf8(utf8.data(), qsizetype(utf8.size())).contains(m_needle, Qt::CaseInsensitive);
    const auto fold = [](char ch) { return ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch; };
    const auto it = std::search(utf8.begin(), utf8.end(), m_asciiLower.begin(), m_asciiLower.end(),
                                [&fold](char hay, char needle) { return fold(hay) == needle; });
    return it != utf8.end();
}

} // namespace TraceInspector
