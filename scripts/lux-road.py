#!/usr/bin/env python3
"""Writes luxembourg.osm (DIMACS10, OpenStreetMap streets: METIS graph + .xyz in metres) as a
DIMACS .gr road network whose arc weights are the Euclidean lengths of the street segments in
metres, rounded, at least 1 (as the DIMACS 9th challenge's distance graphs). Every undirected
edge becomes two arcs. Usage: lux-road.py GRAPH.gz XYZ.gz OUT.gr"""
import gzip, math, sys

graph, xyz, out = sys.argv[1:4]
with gzip.open(xyz, "rt") as f:
    pts = [tuple(map(float, l.split()[:2])) for l in f if l.strip() and l[0] not in "%#"]
arcs = []
with gzip.open(graph, "rt") as f:
    lines = (l for l in f if not l.lstrip().startswith("%"))
    n, m = map(int, next(lines).split()[:2])
    assert n == len(pts), (n, len(pts))
    for u, line in zip(range(1, n + 1), lines):
        for v in map(int, line.split()):
            (x1, y1), (x2, y2) = pts[u - 1], pts[v - 1]
            arcs.append((u, v, max(1, round(math.hypot(x1 - x2, y1 - y2)))))
assert len(arcs) == 2 * m, (len(arcs), m)
with open(out, "w") as f:
    f.write(f"c luxembourg.osm (DIMACS10) with Euclidean arc lengths in metres (scripts/lux-road.py)\n")
    f.write(f"p sp {n} {len(arcs)}\n")
    f.writelines(f"a {u} {v} {w}\n" for u, v, w in arcs)
