#!/usr/bin/env python3
"""Draws packaging/sssp-lab.png (256×256 RGBA): a small graph whose shortest-path tree from the
source (left, green) is drawn thick — the app's colours for settled, frontier and unreached
vertices. Standard library only (zlib + struct), so it runs anywhere:

    python3 packaging/icon.py packaging/sssp-lab.png
"""
import math
import struct
import sys
import zlib

S = 256
img = [[(0, 0, 0, 0) for _ in range(S)] for _ in range(S)]


def blend(x, y, rgb, a):
    if 0 <= x < S and 0 <= y < S and a > 0:
        r0, g0, b0, a0 = img[y][x]
        a1 = a + a0 * (1 - a)
        mix = lambda c, c0: int((c * a + c0 * a0 * (1 - a)) / a1) if a1 > 0 else 0
        img[y][x] = (mix(rgb[0], r0), mix(rgb[1], g0), mix(rgb[2], b0), a1)


def disc(cx, cy, r, rgb):
    for y in range(int(cy - r - 2), int(cy + r + 3)):
        for x in range(int(cx - r - 2), int(cx + r + 3)):
            d = math.hypot(x + 0.5 - cx, y + 0.5 - cy)
            blend(x, y, rgb, max(0.0, min(1.0, r - d + 0.5)))


def line(x0, y0, x1, y1, w, rgb):
    lo_x, hi_x = int(min(x0, x1) - w - 2), int(max(x0, x1) + w + 3)
    lo_y, hi_y = int(min(y0, y1) - w - 2), int(max(y0, y1) + w + 3)
    dx, dy = x1 - x0, y1 - y0
    ll = dx * dx + dy * dy
    for y in range(lo_y, hi_y):
        for x in range(lo_x, hi_x):
            px, py = x + 0.5, y + 0.5
            t = max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / ll))
            d = math.hypot(px - (x0 + t * dx), py - (y0 + t * dy))
            blend(x, y, rgb, max(0.0, min(1.0, w / 2 - d + 0.5)))


# Rounded dark background.
for y in range(S):
    for x in range(S):
        cx, cy = min(max(x + 0.5, 40), S - 40), min(max(y + 0.5, 40), S - 40)
        d = math.hypot(x + 0.5 - cx, y + 0.5 - cy)
        blend(x, y, (30, 36, 48), max(0.0, min(1.0, 40 - d + 0.5)))

v = {0: (52, 128), 1: (112, 60), 2: (118, 168), 3: (190, 52), 4: (178, 124), 5: (204, 204), 6: (110, 222)}
edges = [(0, 1), (0, 2), (1, 3), (1, 4), (2, 4), (4, 5), (2, 6), (3, 4), (6, 5)]
tree = {(0, 1), (0, 2), (1, 3), (2, 4), (2, 6)}
for a, b in edges:
    if (a, b) not in tree:
        line(*v[a], *v[b], 5, (96, 106, 122))
for a, b in tree:
    line(*v[a], *v[b], 11, (242, 178, 52))
colour = {0: (80, 200, 120), 1: (80, 160, 230), 2: (80, 160, 230), 3: (80, 160, 230), 4: (240, 120, 90),
          5: (150, 156, 170), 6: (240, 120, 90)}
for k, (x, y) in v.items():
    disc(x, y, 19 if k == 0 else 15, (20, 24, 32))
    disc(x, y, 15 if k == 0 else 11, colour[k])

raw = b"".join(b"\0" + b"".join(struct.pack("BBBB", r, g, b, int(a * 255)) for r, g, b, a in row) for row in img)
chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", S, S, 8, 6, 0, 0, 0))
       + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
with open(sys.argv[1] if len(sys.argv) > 1 else "sssp-lab.png", "wb") as f:
    f.write(png)
