#!/usr/bin/env python3
"""slides-plot-layout.py PNG...: is every plot's key outside its data area?

Reads plots drawn for the check (LAYOUT_CHECK=1 slides/plots/make-plots.sh
DIR: slides/plots/screen.gp then draws the border cyan and the key's text
magenta). In each image the data areas are the regions a cyan border encloses
(each panel of a multiplot has its own), the key is every magenta pixel; one
line per image whose key has pixels inside a data area, whose key cannot be
found, or that has no data area. Exit status 1 when anything is printed, 2 on
bad usage. Python's standard library only: the PNG is decoded here.
"""
import struct
import sys
import zlib

MIN_SIDE = 100  # a cyan region smaller than this is a tick label, not a border
MIN_KEY = 50    # fewer magenta pixels than this: no key was drawn


class PlotError(Exception):
    pass


def png_pixels(path):
    """(width, height, rows): rows[y] a bytes object of RGB(A) pixels, 8 bits each."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise PlotError("not a PNG")
    pos, idat, head = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = head
    if depth != 8 or colour not in (2, 6) or interlace:
        raise PlotError(f"a PNG of depth {depth}, colour type {colour}, interlace {interlace}: "
                        "only 8-bit RGB or RGBA without interlace is read")
    bpp = 3 if colour == 2 else 4
    return width, height, bpp, unfilter(zlib.decompress(b"".join(idat)), width * bpp, height, bpp)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def unfilter(raw, stride, height, bpp):
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            line[x] = (line[x] + (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]) & 0xFF
        rows.append(bytes(line))
        prev = line
    return rows


# Near the pure colours only: a plot's own colours blended with the white
# around them (purple lines, say) come close to neither.
def is_cyan(r, g, b):
    return r < 40 and g > 220 and b > 220


def is_magenta(r, g, b):
    return r > 230 and g < 60 and b > 230


def mask(width, height, bpp, rows, test):
    return {(x, y) for y in range(height) for x in range(width)
            if test(rows[y][x * bpp], rows[y][x * bpp + 1], rows[y][x * bpp + 2])}


def regions(points):
    """The bounding boxes (x0, y0, x1, y1) of the 8-connected groups of points."""
    left, boxes = set(points), []
    while left:
        todo = [left.pop()]
        x0 = x1 = todo[0][0]
        y0 = y1 = todo[0][1]
        while todo:
            x, y = todo.pop()
            x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    n = (x + dx, y + dy)
                    if n in left:
                        left.remove(n)
                        todo.append(n)
        boxes.append((x0, y0, x1, y1))
    return boxes


def check(path):
    """The problems of one image, as lines."""
    width, height, bpp, rows = png_pixels(path)
    areas = [b for b in regions(mask(width, height, bpp, rows, is_cyan))
             if b[2] - b[0] >= MIN_SIDE and b[3] - b[1] >= MIN_SIDE]
    key = mask(width, height, bpp, rows, is_magenta)
    if not areas:
        return [f"{path}: no data area (no cyan border): was it drawn with LAYOUT_CHECK=1?"]
    if len(key) < MIN_KEY:
        return [f"{path}: no key found (no magenta text): was it drawn with LAYOUT_CHECK=1?"]
    out = []
    for x0, y0, x1, y1 in areas:
        inside = [(x, y) for x, y in key if x0 < x < x1 and y0 < y < y1]
        if inside:
            out.append(f"{path}: {len(inside)} pixels of the key inside the data area "
                       f"({x0},{y0})-({x1},{y1}), from ({min(x for x, _ in inside)},{min(y for _, y in inside)})")
    return out


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__, file=sys.stderr)
        return 2
    problems = []
    for path in argv[1:]:
        try:
            problems += check(path)
        except (OSError, PlotError, zlib.error, struct.error, TypeError) as e:
            problems.append(f"{path}: cannot be read: {e}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
