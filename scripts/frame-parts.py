#!/usr/bin/env python3
"""Per-phase means of a headless frame log's parts (bench.rs `present`): the UI pass,
tessellation, the paint callbacks' prepare, and encode + submit + GPU, in ms.

    scripts/frame-parts.py LOG.json[.gz]...
"""
import collections
import gzip
import json
import statistics
import sys

for path in sys.argv[1:]:
    d = json.load((gzip.open if path.endswith('.gz') else open)(path, 'rt'))
    print(f"== {path}: {d['graph']} · {d['solver']} · zero-copy {d['zero_copy']} · arcs drawn {d['arcs_drawn']}")
    rows = collections.defaultdict(list)
    for f, p in zip(d["frames"], d.get("frame_parts", {}).get("rows", [])):
        rows[f["phase"]].append((f["frame_ms"], f["ui_ms"], *p))
    print(f"{'phase':12} {'frames':>6} {'frame':>7} {'max':>7} {'ui':>6} {'tess':>6} {'prep':>6} {'gpu':>6}")
    for phase, v in rows.items():
        m = [statistics.mean(c) for c in zip(*v)]
        print(f"{phase:12} {len(v):6} {m[0]:7.2f} {max(r[0] for r in v):7.2f} {m[1]:6.2f} {m[2]:6.2f} {m[3]:6.2f} {m[4]:6.2f}")
