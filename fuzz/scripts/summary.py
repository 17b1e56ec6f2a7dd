#!/usr/bin/env python3
"""Sums the libFuzzer logs of fuzz/scripts/run.sh (fuzz/target/logs/<target>[.<time>].log) into
bench/results/fuzz/summary.json: per target the executions of every run, the coverage of the
last run (libFuzzer's `cov:` edges and `ft:` features, and its corpus), and the crashes found
and fixed (CRASHES_FIXED below, kept by hand with the regression test of each)."""
import glob, json, os, re

here = os.path.dirname(os.path.abspath(__file__))
logs = os.path.join(here, "..", "target", "logs")
out = os.path.join(here, "..", "..", "bench", "results", "fuzz", "summary.json")

# target -> what was found and fixed (empty when the fuzzer found nothing).
CRASHES_FIXED = {
    "algo": [
        "crash: `martin-succ:relax=atomic` printed as `martin-succ`, which parsed to another AlgoChoice "
        "(a default written out made equal choices unequal); parameters equal to the default are dropped "
        "at parse — corpus/algo/crash-default-written-out, algo::registry::tests::a_parameter_given_twice_is_refused",
        "hang (hangcheck.sh, 1 MB): a spec of 10^5 keys took quadratic time in the repeated-key check; a set "
        "now — corpus/algo/hang-many-keys, same test",
    ],
    "gzip": [
        "hang and allocation (hangcheck.sh): 200 KB of gzip inflating 1000x to 52 M arcs (seconds, 1.5 GB); "
        "past 4 MiB of text a stream may inflate at most 32x (real files 2.6-3.9x) — "
        "tests/formats.rs a_gzip_bomb_is_refused_past_its_first_megabytes",
    ],
    "trace": [
        "the same gzip bomb through TraceFile::load (read whole into memory): same ratio rule — "
        "trace::file::tests::an_endless_trace_is_refused_without_buffering_it_all",
    ],
}

targets = re.findall(r'^    \("([a-z_]+)", ', open(os.path.join(here, "..", "src", "targets.rs")).read(), re.M)
rows = []
for t in targets:
    files = sorted(glob.glob(os.path.join(logs, f"{t}.log")) + glob.glob(os.path.join(logs, f"{t}.[0-9]*.log")),
                   key=os.path.getmtime)
    execs, last = 0, None
    for f in files:
        text = open(f, errors="replace").read()
        m = re.search(r"stat::number_of_executed_units: (\d+)", text)
        if m:
            execs += int(m.group(1))
        done = re.findall(r"^#(\d+)\s+DONE\s+cov: (\d+) ft: (\d+) corp: (\d+)/", text, re.M)
        if done:
            last = done[-1]
    fixed = CRASHES_FIXED.get(t, [])
    rows.append({
        "target": t,
        "executions": execs,
        "runs": len(files),
        "coverage": {"cov": int(last[1]), "ft": int(last[2]), "corpus": int(last[3])} if last else None,
        "crashes_fixed": len(fixed),
        "fixes": fixed,
    })
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out, "w") as f:
    json.dump(rows, f, indent=1)
    f.write("\n")
print(f"{sum(r['executions'] for r in rows)} executions over {len(rows)} targets -> {os.path.relpath(out)}")
