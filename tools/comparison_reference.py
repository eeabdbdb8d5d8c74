#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reference values for the replicated comparison's statistics (docs/COMPARISON.md §5).

A hand transcription of upstream's rules (candle_graph src/comparison.rs at 78b848e) into
Python, independent of the C++ code, used once to compute the expected values that
tests/core/tst_comparison.cpp holds. Python floats are IEEE f64 and int -> float conversion
rounds to nearest, as Rust's `as f64` does, so the results are bit-identical.

    tools/comparison_reference.py stats 10 11 12 13 100
    tools/comparison_reference.py unpaired 100,102,99,101,103 75,80,78,79,77
    tools/comparison_reference.py paired 100,104,98 97,101,99     (pairs in pair-ID order)

Floats are printed with repr() (shortest round trip), the same digits as serde_json.
"""
import math
import sys

MASK = (1 << 64) - 1
SEED = 0x4D595DF4D0F33173
ITERATIONS = 10_000


def percentile(values, q):
    if not values:
        return 0.0
    v = sorted(values)
    position = q * float(len(v) - 1)
    lower = math.floor(position)
    upper = math.ceil(position)
    weight = position - float(lower)
    return float(v[lower]) * (1.0 - weight) + float(v[upper]) * weight


def rust_round(x):
    # f64::round: half away from zero
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def statistics(samples):
    median = percentile(samples, 0.5)
    p95 = percentile(samples, 0.95)
    center = int(rust_round(median))
    mad = percentile([abs(s - center) for s in samples], 0.5)
    return median, p95, mad


def median_sorted(values):
    if not values:
        return 0.0
    n = len(values)
    if n % 2 == 0:
        return (float(values[n // 2 - 1]) + float(values[n // 2])) / 2.0
    return float(values[n // 2])


class Rng:
    def __init__(self):
        self.state = SEED

    def index(self, length):
        s = self.state
        s ^= (s << 13) & MASK
        s ^= s >> 7
        s ^= (s << 17) & MASK
        self.state = s
        return s % length


def bootstrap(baseline, candidate, pairs):
    rng = Rng()
    deltas = []
    for _ in range(ITERATIONS):
        if pairs is not None:
            sample = []
            for _ in range(len(pairs)):
                b, c = pairs[rng.index(len(pairs))]
                sample.append(c - b)
            sample.sort()
            deltas.append(median_sorted(sample))
        else:
            bs = [baseline[rng.index(len(baseline))] for _ in range(len(baseline))]
            cs = [candidate[rng.index(len(candidate))] for _ in range(len(candidate))]
            deltas.append(percentile(cs, 0.5) - percentile(bs, 0.5))
    deltas.sort()
    return deltas[249], deltas[9749]


def ints(text):
    return [int(x) for x in text.split(",")]


def main(argv):
    if len(argv) >= 2 and argv[1] == "stats":
        print(*[repr(x) for x in statistics([int(x) for x in argv[2:]])])
    elif len(argv) == 4 and argv[1] in ("unpaired", "paired"):
        b, c = ints(argv[2]), ints(argv[3])
        pairs = list(zip(b, c)) if argv[1] == "paired" else None
        if pairs is not None:
            delta = median_sorted(sorted(cv - bv for bv, cv in pairs))
        else:
            delta = statistics(c)[0] - statistics(b)[0]
        lo, hi = bootstrap(b, c, pairs)
        print("median_delta", repr(delta), "lower", repr(lo), "upper", repr(hi))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
