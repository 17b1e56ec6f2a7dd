#!/usr/bin/env python3
"""Frames over a limit (default 100 ms) in the app's frame logs (`scripts/frame-bench.sh`): the
preparing frames by what they waited on (the log's `stage`: "job" while a graph loads or is
generated, else the graph view's note), and the frames after preparation.

    scripts/slow-frames.py [--limit MS] LOG.json[.gz]...
"""
import collections
import gzip
import json
import sys

args = sys.argv[1:]
limit = 100.0
if args[:1] == ["--limit"]:
    limit, args = float(args[1]), args[2:]
for path in args:
    d = json.load((gzip.open if path.endswith(".gz") else open)(path, "rt"))
    prep = [f for f in d["frames"] if f["phase"] == "prepare"]
    after = [f for f in d["frames"] if f["phase"] != "prepare"]
    slow = [f for f in prep if f["frame_ms"] > limit]
    by = collections.Counter(f.get("stage", "?").split(",")[0] for f in slow)
    print(f"== {path}: {d['graph']}")
    if prep:
        print(f"  preparing: {len(prep)} frames, {sum(f['frame_ms'] for f in prep) / 1e3:.1f} s, "
              f"max {max(f['frame_ms'] for f in prep):.0f} ms, {len(slow)} over {limit:.0f} ms")
    for stage, n in by.most_common():
        worst = max(f["frame_ms"] for f in slow if f.get("stage", "?").split(",")[0] == stage)
        print(f"    {n:3} while {stage} (worst {worst:.0f} ms)")
    if after:
        print(f"  prepared: {len(after)} frames, max {max(f['frame_ms'] for f in after):.0f} ms, "
              f"{sum(f['frame_ms'] > limit for f in after)} over {limit:.0f} ms")
