// SPDX-License-Identifier: MIT
#include "core/compat/floatformat.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace TraceInspector {

int writeJsonFloat(char *buf, double value)
{
    if (!std::isfinite(value)) {
        std::memcpy(buf, "null", 4);
        return 4;
    }
    char *out = buf;
    if (std::signbit(value)) {
        *out++ = '-';
        value = -value;
    }
    if (value == 0) {
        std::memcpy(out, "0.0", 3);
        return int(out - buf) + 3;
    }

    // std::to_chars without a precision yields the shortest round-trip digits; the
    // scientific form makes the digit string and the exponent easy to pick apart.
    char sci[32];
    const auto res = std::to_chars(sci, sci + sizeof sci, value, std::chars_format::scientific);
    const char *end = res.ptr;
    char digits[20];
    int length = 0;
    const char *p = sci;
    for (; p != end && *p != 'e'; ++p) {
        if (*p != '.')
            digits[length++] = *p;
    }
    int exp = 0;
    if (p != end) {
        ++p; // 'e'
        std::from_chars(*p == '+' ? p + 1 : p, end, exp);
    }

    if (exp >= -5 && exp <= 15) {
        if (length - 1 <= exp) {
            // 1234e7 -> 12340000000.0
            std::memcpy(out, digits, std::size_t(length));
            out += length;
            for (int i = length - 1; i < exp; ++i)
                *out++ = '0';
            *out++ = '.';
            *out++ = '0';
        } else if (exp >= 0) {
            // 1234e-2 -> 12.34
            std::memcpy(out, digits, std::size_t(exp + 1));
            out += exp + 1;
            *out++ = '.';
            std::memcpy(out, digits + exp + 1, std::size_t(length - exp - 1));
            out += length - exp - 1;
        } else {
            // 1234e-6 -> 0.001234
            *out++ = '0';
            *out++ = '.';
            for (int i = -1; i > exp; --i)
                *out++ = '0';
            std::memcpy(out, digits, std::size_t(length));
            out += length;
        }
        return int(out - buf);
    }

    *out++ = digits[0];
    if (length > 1) {
        *out++ = '.';
        std::memcpy(out, digits + 1, std::size_t(length - 1));
        out += length - 1;
    }
    *out++ = 'e';
    if (exp < 0) {
        *out++ = '-';
        exp = -exp;
    } else {
        *out++ = '+';
    }
    out = std::to_chars(out, out + 4, exp).ptr;
    return int(out - buf);
}

void appendJsonFloat(std::string &out, double value)
{
    char buf[kJsonFloatMaxChars];
    out.append(buf, std::size_t(writeJsonFloat(buf, value)));
}

std::string formatJsonFloat(double value)
{
    std::string s;
    appendJsonFloat(s, value);
    return s;
}

} // namespace TraceInspector
