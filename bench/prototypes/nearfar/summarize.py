#!/usr/bin/env python3
"""Summarises one call of run.sh: nearfar.csv (ours, every run) and gapbs.txt (GAP's sssp output).

Usage: summarize.py RESULT_DIR  → writes RESULT_DIR/summary.json, RESULT_DIR/targets.json and prints
a Markdown table. Ours: median ms over the timed runs (rep ≥ 1; rep 0 is the warm-up that is checked
against Dijkstra) of every (graph, Δ, solo_work); GAP: its own "Average Time" over its trials and the
median of its "Trial Time" lines, per Δ; the best of each is compared.
"""
import csv
import json
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

GAP_NAME = {"NY": "NY", "grid4096": "grid4096", "k21": "kron21", "u21": "urand21"}


def ours(path):
    runs = defaultdict(list)
    bad = defaultdict(int)
    for r in csv.DictReader(open(path)):
        key = (r["graph"], int(r["delta"]), int(r["solo_work"]))
        bad[key] += int(r["mismatches"])
        if int(r["rep"]) >= 1:
            runs[key].append(r)
    out = []
    for (g, delta, sw), rs in runs.items():
        med = lambda f: statistics.median(float(x[f]) for x in rs)
        solo_n, grid_n = med("solo_steps"), med("grid_steps")
        ms = med("ms")
        phases = statistics.median(int(x["relax_steps"]) + int(x["split_steps"]) for x in rs)
        out.append({
            "graph": g, "n": int(rs[0]["n"]), "m": int(rs[0]["m"]), "delta": delta,
            "delta_per_mean_weight": float(rs[0]["delta_per_mean_weight"]), "solo_work": sw,
            "runs": len(rs), "sources": len({x["source"] for x in rs}), "median_ms": ms,
            "min_ms": min(float(x["ms"]) for x in rs), "phases": phases,
            "relax_steps": med("relax_steps"), "split_steps": med("split_steps"),
            "solo_steps": solo_n, "grid_steps": grid_n,
            "us_per_phase": ms * 1e3 / phases,
            "us_per_solo_phase": med("solo_us") / solo_n if solo_n else None,
            "us_per_grid_phase": med("grid_us") / grid_n if grid_n else None,
            "arcs_scanned_per_m": med("arcs_scanned") / int(rs[0]["m"]),
            "gteps": int(rs[0]["m"]) / (ms * 1e6), "mismatches": bad[(g, delta, sw)],
        })
    return out


def gap(path):
    res, cur = [], None
    for line in open(path):
        m = re.match(r"### (\S+) delta=(\d+)", line)
        if m:
            cur = {"graph": GAP_NAME.get(m.group(1), m.group(1)), "delta": int(m.group(2)), "trials": []}
            res.append(cur)
        elif cur and line.startswith("Trial Time:"):
            cur["trials"].append(float(line.split()[-1]) * 1e3)
        elif cur and line.startswith("Average Time:"):
            cur["average_ms"] = float(line.split()[-1]) * 1e3
    for r in res:
        r["median_ms"] = statistics.median(r["trials"]) if r["trials"] else None
    return res


def main():
    d = Path(sys.argv[1])
    rows = ours(d / "nearfar.csv")
    gaps = gap(d / "gapbs.txt")
    best = {}
    for g in ["NY", "grid4096", "kron21", "urand21"]:
        mine = [r for r in rows if r["graph"] == g]
        theirs = [r for r in gaps if r["graph"] == g and "average_ms" in r]
        if not mine or not theirs:
            continue
        b = min(mine, key=lambda r: r["median_ms"])
        gb = min(theirs, key=lambda r: r["average_ms"])
        best[g] = {"ours": b, "gap16": {k: gb[k] for k in ("delta", "average_ms", "median_ms")},
                   "gap_over_ours": gb["average_ms"] / b["median_ms"]}
    targets = []
    if "NY" in best:
        targets.append({"target": "NY: ours <= 1/2 GAP-16 time", "value": best["NY"]["ours"]["median_ms"],
                        "goal": best["NY"]["gap16"]["average_ms"] / 2,
                        "met": best["NY"]["ours"]["median_ms"] <= best["NY"]["gap16"]["average_ms"] / 2})
        targets.append({"target": "NY: us per phase of the persistent solver <= 2", "value": best["NY"]["ours"]["us_per_phase"],
                        "goal": 2.0, "met": best["NY"]["ours"]["us_per_phase"] <= 2.0})
    if "grid4096" in best:
        v = best["grid4096"]["gap_over_ours"]
        targets.append({"target": "grid 4096^2: GAP-16 time / ours >= 3", "value": v, "goal": 3.0, "met": v >= 3.0})
    for g, goal in (("kron21", 20.0), ("urand21", 25.0)):
        if g in best:
            v = best[g]["ours"]["gteps"]
            targets.append({"target": f"{g}: GTEPS >= {goal:g}", "value": v, "goal": goal, "met": v >= goal})
    json.dump({"configs": rows, "gap": gaps, "best": best}, open(d / "summary.json", "w"), indent=1)
    json.dump(targets, open(d / "targets.json", "w"), indent=1)
    print("| graph | GAP-16 (best Δ) | ours (best Δ, solo_work) | GAP / ours | phases | µs/phase (solo, grid) | arcs scanned / m | GTEPS | wrong |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for g, b in best.items():
        o = b["ours"]
        fmt = lambda x: "–" if x is None else f"{x:.1f}"
        print(f"| {g} | {b['gap16']['average_ms']:.2f} ms (Δ {b['gap16']['delta']}) | {o['median_ms']:.2f} ms "
              f"(Δ {o['delta']} = {o['delta_per_mean_weight']:g} w̄, {o['solo_work']}) | {b['gap_over_ours']:.2f}× | "
              f"{o['phases']:.0f} | {o['us_per_phase']:.1f} ({fmt(o['us_per_solo_phase'])}, {fmt(o['us_per_grid_phase'])}) | "
              f"{o['arcs_scanned_per_m']:.2f} | {o['gteps']:.2f} | {o['mismatches']} |")
    for t in targets:
        print(f"- {t['target']}: {t['value']:.2f} (goal {t['goal']:.2f}) — {'met' if t['met'] else 'NOT met'}")


if __name__ == "__main__":
    main()
