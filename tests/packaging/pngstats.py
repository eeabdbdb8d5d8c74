#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints `WIDTH HEIGHT COLOURS` for a PNG: its size and how many distinct colours a grid of
sample pixels has (a blank or one-colour picture has 1). Standard library only, so the packaging
test needs no image tool. Exit status 1 with a message when the file is no complete PNG."""
import struct
import sys
import zlib


def fail(message):
    print(f"pngstats.py: {sys.argv[1]}: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 2:
        print("usage: pngstats.py FILE.png", file=sys.stderr)
        sys.exit(2)
    try:
        with open(sys.argv[1], "rb") as f:
            data = f.read()
    except OSError as e:
        fail(e.strerror)
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("not a PNG (signature)")
    pos, header, idat, complete = 8, None, bytearray(), False
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if len(body) != length:
            break
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            complete = True
            break
        pos += 12 + length
    if header is None or not complete:
        fail("truncated (no IHDR or no IEND chunk)")
    width, height, depth, colour_type, _, _, interlace = header
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour_type)
    if depth != 8 or channels is None or interlace != 0:
        fail(f"unsupported layout (depth {depth}, colour type {colour_type}, interlace {interlace})")
    raw = zlib.decompress(bytes(idat))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        filter_type, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if filter_type == 1:
                line[i] = (line[i] + left) & 0xFF
            elif filter_type == 2:
                line[i] = (line[i] + up) & 0xFF
            elif filter_type == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif filter_type == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
                line[i] = (line[i] + predictor) & 0xFF
            elif filter_type != 0:
                fail(f"bad filter type {filter_type} in row {y}")
        rows.append(line)
        previous = line
    colours = set()
    for y in range(0, height, max(1, height // 40)):
        for x in range(0, width, max(1, width // 40)):
            colours.add(bytes(rows[y][x * channels:(x + 1) * channels]))
    print(width, height, len(colours))


if __name__ == "__main__":
    main()
