#!/usr/bin/env python3
"""Medians, spreads and bootstrap intervals of scripts/cpu-ab-interleave.sh's output (issue 31).

Usage: [NEW_LABEL=… OLD_LABEL=…] [OUT_DIR=…] cpu-ab-stats.py DIR [DIR…]
  -> OUT_DIR (default the first DIR)/tables.md, summary.json, outliers.txt

Several DIRs (the calls of one lease, e.g. lease-8/call1 lease-8/call2) are merged: their rounds
are pooled (a round is keyed by its folder and number, so two calls may both count from 1).

Per graph and round: GAP's median trial time at each of its two Δ (5 trials, one process each),
our median of the repetitions of one process for the binary's default ("new") and each A/B side
(`ab-<switch>-<graph>` folders of the interleave script; lease 6's "old" side too). GAP's Δ is the one with the lower median over all its trials. The ratio of a round is
GAP's round median / ours; the interval is a bootstrap over rounds (10 000 resamples, fixed seed)
of the ratio of the medians over rounds, 5th to 95th percentile. "≥ GAP" counts as met with
confidence only when the interval's lower end is ≥ 1. A/B: the default's median over the side's
(> 1 = the switch faster), bootstrapped the same way. Stalls: runs slower than 2× their side's
median (lease 6's measure), and runs slower than 2× the default's median.
"""
import csv, glob, json, os, random, re, statistics as st, sys

dirs = sys.argv[1:]
d = os.environ.get("OUT_DIR", dirs[0])
random.seed(31)


def q(xs, p):
    xs = sorted(xs)
    k = (len(xs) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def boot(num, den, n=10000):
    """90 % interval of median(num)/median(den) over rounds resampled in pairs (same rounds)."""
    rs = sorted(num) and [r for r in num if r in den]
    if len(rs) < 3:
        return (float("nan"), float("nan"))
    vals = []
    for _ in range(n):
        s = [random.choice(rs) for _ in rs]
        vals.append(st.median(num[r] for r in s) / st.median(den[r] for r in s))
    return (q(vals, 0.05), q(vals, 0.95))


def gap(g):
    per = {}  # delta -> (folder, round) -> [ms]
    cur = None
    lines = [(i, line) for i, src in enumerate(dirs) if os.path.exists(f"{src}/gap-{g}.txt")
             for line in open(f"{src}/gap-{g}.txt")]
    for i, line in lines:
        m = re.match(r"## graph=\S+ delta=(\d+) threads=\d+ round=(\d+)", line)
        if m:
            cur = per.setdefault(int(m[1]), {}).setdefault((i, int(m[2])), [])
        elif line.startswith("Trial Time:") and cur is not None:
            cur.append(float(line.split()[2]) * 1e3)
    return per


def ours(tag):
    per, rounds_, barrier, rows, bad = {}, [], [], 0, 0
    for i, f in [(i, f) for i, src in enumerate(dirs) for f in glob.glob(f"{src}/{tag}/r*/results.csv")]:
        r = (i, int(re.search(r"/r(\d+)/results.csv", f)[1]))
        for row in csv.DictReader(open(f)):
            if row["algorithm"] != "delta-stepping" or row["error"] or not row["total_ms"]:
                continue
            rows += 1
            bad += row["correct"] != "true"
            per.setdefault(r, []).append(float(row["total_ms"]))
            rounds_.append(int(row["iterations"]))
            if row["barrier_share"]:
                barrier.append(float(row["barrier_share"]))
    return per, rounds_, barrier, rows, bad


out, md, stalls = {}, [], ["# Runs slower than 2x their side's median (and than 2x the default's median); 16 threads"]
md.append("| graph | side | rounds | median ms | IQR ms | min ms | runs | > 2× median |")
md.append("|---|---|---:|---:|---:|---:|---:|---:|")
ratios, abs_ = [], []


def env_of(tag):
    """The switch a side ran with, from the interleave script's log (`env=…`)."""
    for src in dirs:
        try:
            for line in open(f"{src}/log.txt"):
                m = re.match(rf"## ours={re.escape(tag)} round=\d+ at=\d+ env=(.*)", line)
                if m:
                    return m[1].strip()
        except OSError:
            pass
    return None


for g in sorted({os.path.basename(f)[4:-4] for src in dirs for f in glob.glob(f"{src}/gap-*.txt")}):
    gp = gap(g)
    gp = {dl: rr for dl, rr in gp.items() if any(rr.values())}
    if not gp:
        continue
    best = min(gp, key=lambda dl: st.median([x for v in gp[dl].values() for x in v]))
    res = {"gap": {}, "ours": {}}
    gmed = {}
    for dl, rr in sorted(gp.items()):
        allt = [x for v in rr.values() for x in v]
        big = sum(x > 2 * st.median(allt) for x in allt)
        res["gap"][dl] = {"median_ms": st.median(allt), "q1": q(allt, .25), "q3": q(allt, .75), "min": min(allt),
                          "trials": len(allt), "rounds": len(rr), "over_2x_median": big}
        md.append(f"| {g} | GAP Δ {dl}{' (best)' if dl == best else ''} | {len(rr)} | {st.median(allt):.2f} | {q(allt, .25):.2f}–{q(allt, .75):.2f} | {min(allt):.2f} | {len(allt)} | {big} ({100 * big / len(allt):.0f} %) |")
        stalls.append(f"{g} GAP delta={dl}: n={len(allt)} median={st.median(allt):.2f} min={min(allt):.2f} q1={q(allt, .25):.2f} >2x median: {big} ({100 * big / len(allt):.0f} %)")
        if dl == best:
            gmed = {r: st.median(v) for r, v in rr.items()}
    tags = ["new"] + sorted({os.path.basename(p)[:-len(g) - 1] for src in dirs for p in glob.glob(f"{src}/ab-*-{g}")}) + ["old"]
    omed, new_all = {}, None
    for tag in tags:
        per, rn, bs, rows, bad = ours(f"{tag}-{g}")
        if not per:
            continue
        allt = [x for v in per.values() for x in v]
        new_all = new_all or allt
        big = sum(x > 2 * st.median(allt) for x in allt)
        big_new = sum(x > 2 * st.median(new_all) for x in allt)
        omed[tag] = {r: st.median(v) for r, v in per.items()}
        env = env_of(f"{tag}-{g}")
        if tag == "new":
            label = os.environ.get("NEW_LABEL", "the binary's default")
        elif tag == "old":
            label = os.environ.get("OLD_LABEL", "with AB_ENV")
        else:
            label = env or tag
        res["ours"][tag] = {"label": label, "median_ms": st.median(allt), "q1": q(allt, .25), "q3": q(allt, .75),
                            "min": min(allt), "runs": rows, "rounds_of_processes": len(per), "incorrect": bad,
                            "ds_rounds_median": st.median(rn), "barrier_share_median": st.median(bs) if bs else None,
                            "over_2x_median": big, "over_2x_default_median": big_new}
        md.append(f"| {g} | ours, {label} | {len(per)} | {st.median(allt):.2f} | {q(allt, .25):.2f}–{q(allt, .75):.2f} | {min(allt):.2f} | {rows} ({bad} wrong; Δ-rounds {st.median(rn):.0f}, barrier {100 * st.median(bs) if bs else float('nan'):.0f} %) | {big} ({100 * big / rows:.0f} %) |")
        stalls.append(f"{g} ours {label}: n={rows} median={st.median(allt):.2f} min={min(allt):.2f} q1={q(allt, .25):.2f} >2x median: {big} ({100 * big / rows:.0f} %); >2x the default's median: {big_new} ({100 * big_new / rows:.0f} %)")
    for tag, om in omed.items():
        common = [r for r in om if r in gmed]
        if not common:
            continue
        per_round = [gmed[r] / om[r] for r in common]
        lo, hi = boot({r: gmed[r] for r in common}, {r: om[r] for r in common})
        ratio = st.median(gmed[r] for r in common) / st.median(om[r] for r in common)
        res["ours"][tag]["ratio_gap_over_ours"] = {"ratio_of_medians": ratio, "boot90": [lo, hi],
                                                   "per_round_median": st.median(per_round), "per_round_q1": q(per_round, .25),
                                                   "per_round_q3": q(per_round, .75), "rounds": len(common)}
        ratios.append(f"| {g} | {res['ours'][tag]['label']} | {len(common)} | **{ratio:.2f}×** | {lo:.2f}–{hi:.2f} | {st.median(per_round):.2f} ({q(per_round, .25):.2f}–{q(per_round, .75):.2f}) | {'yes' if lo >= 1 else 'no'} | {'yes' if lo >= 1.5 else 'no'} |")
        if tag != "new" and "new" in omed:
            common = [r for r in omed["new"] if r in om]
            lo, hi = boot({r: omed["new"][r] for r in common}, {r: om[r] for r in common})
            ratio = st.median(omed["new"][r] for r in common) / st.median(om[r] for r in common)
            res["ours"][tag]["default_over_this"] = {"ratio_of_medians": ratio, "boot90": [lo, hi], "rounds": len(common)}
            abs_.append(f"| {g} | {res['ours'][tag]['label']} | {len(common)} | {ratio:.3f}× | {lo:.3f}–{hi:.3f} | {'faster' if lo > 1 else 'slower' if hi < 1 else 'undecided'} |")
    res["gap_best_delta"] = best
    out[g] = res

md.append("")
md.append("| graph | ours | rounds | GAP / ours (ratio of medians) | bootstrap 90 % | per-round ratio median (IQR) | ≥ GAP with confidence | ≥ 1.5× with confidence |")
md.append("|---|---|---:|---:|---:|---:|---|---|")
md += ratios
if abs_:
    md.append("")
    md.append("| graph | A/B switch | rounds | default / switch (> 1 = switch faster) | bootstrap 90 % | verdict |")
    md.append("|---|---|---:|---:|---:|---|")
    md += abs_
open(f"{d}/tables.md", "w").write("\n".join(md) + "\n")
open(f"{d}/outliers.txt", "w").write("\n".join(stalls) + "\n")
json.dump(out, open(f"{d}/summary.json", "w"), indent=1)
print("\n".join(md))
