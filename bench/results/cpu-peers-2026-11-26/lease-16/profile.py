#!/usr/bin/env python3
"""Thread 0's profile of helper-fold (SSSP_SEED001_PROFILE=1 lines in call3/profile-k*.stderr):
TSC cycles per vertex by part, median of the runs, and the parts as a share of the one-thread
total (helper-fold on one thread is the baseline's loop: the paper's Table 2 split)."""
import re, statistics as st, sys
from collections import defaultdict
parts = ["extract", "decrease", "scan", "fold", "publish"]
for f in sys.argv[1:]:
    runs = defaultdict(list)
    for line in open(f):
        if not line.startswith("helper-fold profile:"):
            continue
        kv = dict(re.findall(r"(\w+) ([\d.]+)", line.split(":", 1)[1].replace("cycles ", "")))
        runs[(int(kv["n"]), int(kv["threads"]))].append(kv)
    print(f"### {f}\n")
    print("| n | threads | " + " | ".join(f"{p} cyc/v" for p in parts) + " | sum cyc/v | vs 1 thread | spared | folded/v |")
    print("|---|---:|" + "---:|" * (len(parts) + 4))
    one = {}
    for (n, t) in sorted(runs):
        med = {p: st.median(float(r[p]) for r in runs[(n, t)]) / n for p in parts}
        total = sum(med.values())
        if t == 1:
            one[n] = total
        sp = st.median(float(r["spared"]) for r in runs[(n, t)]) / n
        fo = st.median(float(r["folded"]) for r in runs[(n, t)]) / n
        print(f"| {n} | {t} | " + " | ".join(f"{med[p]:.0f}" for p in parts)
              + f" | {total:.0f} | {total / one[n]:.2f} | {sp:.1%} | {fo:.2f} |")
    print()
