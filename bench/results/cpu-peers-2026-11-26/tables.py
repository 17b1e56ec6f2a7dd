#!/usr/bin/env python3
"""Tables of one lease of scripts/cpu-peer-bench.sh: GAP's gapbs.txt beside our results.csv.

Usage: tables.py LEASE_DIR  (writes LEASE_DIR/tables.md and LEASE_DIR/summary.json)
GAP's 16-thread time is the lower of its tuning pass and its scaling pass at the best Δ (the
conservative choice for us); ours is the median (and min) of every timed run of the auto-Δ
`delta-stepping` row at that thread count; the ratio is GAP ms / our median ms.
"""
import csv
import json
import re
import statistics
import sys
from pathlib import Path

GRAPHS = {"ny": "NY", "lux": "lux", "kron21": "kron21", "urand21": "urand21"}


def gap(path):
    runs, best, cur = {}, {}, None
    for line in path.read_text().splitlines():
        m = re.match(r"## best graph=(\S+) delta=(\S+)", line)
        if m:
            best[m[1]] = int(m[2])
            continue
        m = re.match(r"## graph=(\S+) delta=(\S+) threads=(\d+)", line)
        if m:
            cur = (m[1], int(m[2]), int(m[3]))
            runs.setdefault(cur, [])
            continue
        m = re.match(r"Average Time:\s+(\S+)", line)
        if m and cur:
            runs[cur].append(float(m[1]) * 1e3)
    return runs, best


def ours(path):
    rows = list(csv.DictReader(path.open()))
    out = {}
    for r in rows:
        if not r["total_ms"] or r["skipped"] or r["error"]:
            continue
        key = (r["algorithm"], r["device"])
        out.setdefault(key, []).append(r)
    return out, rows


def variants(lease):
    """The same experiment run again with switches (folders `<graph>-<variant>`, see call.sh):
    our auto-Δ median (min) ms, rounds and barrier share per thread count, beside the plain run."""
    md = []
    for d in GRAPHS:
        runs = sorted(p.name for p in lease.iterdir() if p.is_dir() and p.name.startswith(d + "-"))
        if not runs:
            continue
        md.append(f"### {d}: the same runs with GAP's rules switched back on, one at a time (auto Δ)")
        md.append("| run | " + " | ".join(f"{t} threads" for t in [1, 2, 4, 8, 16]) + " | Dijkstra ms |")
        md.append("|---|" + "---:|" * 6)
        for name in [d] + runs:
            rows = [r for r in csv.DictReader((lease / name / "results.csv").open()) if r["total_ms"]]
            line = f"| {name} |"
            for t in [1, 2, 4, 8, 16]:
                rs = [r for r in rows if r["algorithm"] == "delta-stepping" and r["device"] == f"cpu-par:{t}"]
                ms = [float(r["total_ms"]) for r in rs]
                bs = [float(r["barrier_share"]) for r in rs if r["barrier_share"]]
                it = [int(r["iterations"]) for r in rs]
                if not ms:
                    line += " – |"
                    continue
                line += f" {statistics.median(ms):.2f} ({min(ms):.2f}), {statistics.median(it):.0f} rounds"
                line += f", {100 * statistics.median(bs):.0f} % |" if bs else " |"
            dij = [float(r["total_ms"]) for r in rows if r["algorithm"] == "dijkstra"]
            bad = sum(r["correct"] != "true" for r in rows)
            line += f" {statistics.median(dij):.2f} |" if dij else " – |"
            md.append(line + (f" {bad} wrong!" if bad else ""))
        md.append("")
    return md


def ab16(lease, runs, best):
    """Lease 5's A/B at 16 threads (folders `ab16-<binary>[-<switch>]/<graph>`, see call.sh): the
    lease-4 binary (`old`) and the lease-5 binary (`new`, stamped bin entries) on the same cells,
    our auto-Δ median (min) ms, rounds, barrier share, the one-thread fast path and GAP / ours."""
    dirs = sorted(p for p in lease.iterdir() if p.is_dir() and p.name.startswith("ab16-"))
    if not dirs:
        return []
    md = ["### A/B at 16 threads in one call (auto Δ; GAP's time of the same call at its best Δ)"]
    md.append("| graph | run | 16 threads median (min) ms, rounds, barrier | 1 thread (`cpu`) ms | Dijkstra ms | wrong | GAP / ours |")
    md.append("|---|---|---:|---:|---:|---:|---:|")
    for d, g in GRAPHS.items():
        g16 = [v for (gg, dd, tt), vs in runs.items() if gg == g and dd == best.get(g) and tt == 16 for v in vs]
        for run in dirs:
            f = run / d / "results.csv"
            if not f.exists():
                continue
            rows = [r for r in csv.DictReader(f.open()) if r["total_ms"]]
            pick = lambda a, dev: [r for r in rows if r["algorithm"] == a and r["device"] == dev]
            rs = pick("delta-stepping", "cpu-par:16")
            ms = [float(r["total_ms"]) for r in rs]
            it = [int(r["iterations"]) for r in rs]
            bs = [float(r["barrier_share"]) for r in rs if r["barrier_share"]]
            one = [float(r["total_ms"]) for r in pick("delta-stepping", "cpu")]
            dij = [float(r["total_ms"]) for r in pick("dijkstra", "cpu")]
            bad = sum(r["correct"] != "true" for r in rows)
            ratio = f"{min(g16) / statistics.median(ms):.2f}×" if (g16 and ms) else "–"
            md.append(
                f"| {g} | {run.name[5:]} | {statistics.median(ms):.2f} ({min(ms):.2f}), "
                f"{statistics.median(it):.0f}, {100 * statistics.median(bs):.0f} % | "
                f"{statistics.median(one):.2f} | {statistics.median(dij):.2f} | {bad} of {len(rows)} | {ratio} |"
            )
    md.append("")
    return md


def main():
    lease = Path(sys.argv[1])
    runs, best = gap(lease / "gapbs.txt")
    md, summary = [], {}
    for d, g in GRAPHS.items():
        csvp = lease / d / "results.csv"
        if not csvp.exists() or g not in best:
            continue
        cells, rows = ours(csvp)
        delta = best[g]
        timed = [r for r in rows if r["total_ms"] and not r["skipped"]]
        bad = sum(r["correct"] != "true" for r in timed)
        refs = sorted({a for a, _ in cells if a.startswith("delta-stepping:")})
        md.append(f"### {g}: GAP best Δ = {delta}; {len(timed)} timed runs of ours, {bad} not equal to Dijkstra")
        head = "| threads | GAP ms (Δ %d) | delta-stepping median (min) ms, barrier |" % delta
        head += "".join(f" {a} median (min) ms |" for a in refs) + " GAP / ours (auto) |"
        md.append(head)
        md.append("|---:|---:|---:|" + "---:|" * len(refs) + "---:|")
        entry = {"gap_best_delta": delta, "runs": len(timed), "incorrect": bad, "threads": {}}
        for t in [1, 2, 4, 8, 16]:
            g_ms = [v for (gg, dd, tt), vs in runs.items() if gg == g and dd == delta and tt == t for v in vs]
            g16 = min(g_ms) if g_ms else None

            def cell(a):
                rs = cells.get((a, f"cpu-par:{t}"), [])
                ms = [float(r["total_ms"]) for r in rs]
                bs = [float(r["barrier_share"]) for r in rs if r["barrier_share"]]
                if not ms:
                    return None, "–"
                med = statistics.median(ms)
                s = f"{med:.2f} ({min(ms):.2f})"
                if bs:
                    s += f", {100 * statistics.median(bs):.0f} %"
                return (med, min(ms), statistics.median(bs) if bs else None), s

            auto, auto_s = cell("delta-stepping")
            ratio = g16 / auto[0] if (g16 and auto) else None
            line = f"| {t} | {g16:.2f} | {auto_s} |" if g16 else f"| {t} | – | {auto_s} |"
            for a in refs:
                line += f" {cell(a)[1]} |"
            line += f" {ratio:.2f}× |" if ratio else " – |"
            md.append(line)
            entry["threads"][t] = {
                "gap_ms": g16,
                "ours_median_ms": auto[0] if auto else None,
                "ours_min_ms": auto[1] if auto else None,
                "ours_barrier_share": auto[2] if auto else None,
                "ratio": ratio,
                "refs": {a: cell(a)[0] for a in refs},
            }
        dij = [float(r["total_ms"]) for r in cells.get(("dijkstra", "cpu"), [])]
        entry["dijkstra_median_ms"] = statistics.median(dij) if dij else None
        summary[g] = entry
        md.append("")
    md += variants(lease)
    md += ab16(lease, runs, best)
    (lease / "tables.md").write_text("\n".join(md) + "\n")
    (lease / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
