#!/usr/bin/env python3
"""Medians of runs.tsv per configuration, over the quiet runs only (other_cpu_s < 1: nothing
else ran beside them), as a Markdown table; the runs left out are counted."""
import csv
import statistics
import sys
from pathlib import Path

here = Path(__file__).parent
rows = list(csv.DictReader(open(here / "runs.tsv"), delimiter="\t"))
order = []
for r in rows:
    if r["config"] not in order:
        order.append(r["config"])
base = None
print("| config | ranks | working ranks | quiet runs (of) | makespan s (median) | wall s | CPU s | speed-up vs single-cpu1 | bytes per remote task | reply wait ms per chunk |")
print("|---|---|---|---|---|---|---|---|---|---|")
for c in order:
    all_runs = [r for r in rows if r["config"] == c]
    quiet = [r for r in all_runs if float(r["other_cpu_s"]) < 1.0]
    if not quiet:
        print(f"| {c} | | | 0 ({len(all_runs)}) | | | | | | |")
        continue
    med = lambda k: statistics.median(float(r[k]) for r in quiet)
    mk = med("makespan_ms") / 1e3
    if c == "single-cpu1":
        base = mk
    speed = f"{base / mk:.2f}" if base else ""
    chunks = [r for r in quiet if int(r["remote_tasks"]) > 0]
    per_chunk = ""
    if chunks:
        # chunks of 2 sources: remote chunks ≈ remote_tasks / 2
        per_chunk = f"{statistics.median(float(r['reply_wait_ms']) / (int(r['remote_tasks']) / 2) for r in chunks):.1f}"
    bpt = f"{med('run_bytes_per_remote_task'):.1f}" if chunks else "–"
    print(f"| {c} | {quiet[0]['ranks']} | {quiet[0]['working_ranks']} | {len(quiet)} ({len(all_runs)}) | {mk:.2f} | "
          f"{med('wall_s'):.2f} | {med('cpu_s'):.1f} | {speed} | {bpt} | {per_chunk} |")
checks = {r["checksum"] for r in rows}
print(f"\nchecksums: {', '.join(sorted(checks))} ({'all equal' if len(checks) == 1 else 'DIFFER'})", file=sys.stderr)
