#!/usr/bin/env python3
"""Per-phase medians of a lab results.csv as a markdown table: total, relax, minimum and update
ms per graph × algorithm × device (GPU phases are kernel times from events / timestamps).

    scripts/phase-table.py bench/results/frontier-balanced/results.csv
"""
import collections
import csv
import statistics
import sys

rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["total_ms"]]
cells = collections.OrderedDict()
for r in rows:
    cells.setdefault((r["graph"], r["algorithm"], r["device"]), []).append(r)


def med(v, col):
    xs = [float(x[col]) for x in v if x[col]]
    return f"{statistics.median(xs):.3f}" if xs else "–"


print("| graph | algorithm | device | runs | total ms | relax ms | minimum ms | update ms |")
print("|---|---|---|---:|---:|---:|---:|---:|")
for (g, a, d), v in cells.items():
    cols = " | ".join(med(v, c) for c in ("total_ms", "relax_ms", "minimum_ms", "update_ms"))
    print(f"| {g} | {a} | {d} | {len(v)} | {cols} |")
