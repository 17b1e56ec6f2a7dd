#!/usr/bin/env python3
"""Writes 1 MB inputs for every fuzz target into fuzz/target/big/<target>/: the worst cases a
parser meets at that size (a valid file as large as it gets, one endless line, many short
lines, random bytes), for the hang check of fuzz/scripts/hangcheck.sh (issue 32: no input of
1 MB may take over 1 s)."""
import gzip, json, os, random, struct

MB = 1 << 20
root = os.path.join(os.path.dirname(__file__), "..", "target", "big")
rng = random.Random(32)


def put(target, name, data):
    d = os.path.join(root, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data[:MB] if len(data) > MB and not name.endswith("exact") else data)


def lines(make, prefix=""):
    out, k = [prefix], 0
    size = len(prefix)
    while size < MB:
        s = make(k)
        out.append(s)
        size += len(s)
        k += 1
    return "".join(out), k


def common(target, head=b""):
    put(target, "endless", head + b"7" * MB)
    put(target, "random", head + bytes(rng.getrandbits(8) for _ in range(MB)))
    put(target, "newlines", head + b"\n" * MB)


n = 50_000
arcs, m = lines(lambda k: f"a {k % n + 1} {(k * 7919) % n + 1} {k % 1000}\n")
put("dimacs", "valid", f"p sp {n} {m}\n" + arcs)
put("dimacs", "comments", lines(lambda k: "c comment line\n")[0])
common("dimacs")
co, _ = lines(lambda k: f"v {k + 1} {k}.5 -{k}.25\n")
put("dimacs_co", "valid", bytes([255]) + (f"p aux sp co 256\n" + co).encode())
common("dimacs_co", bytes([255]))
adj = "".join(" ".join(str((v * 31 + j) % 1000 + 1) for j in range(20)) + "\n" for v in range(1000))
put("metis", "valid", f"1000 {1000 * 20 // 2}\n" + adj * (MB // len(adj)))
put("metis", "one_hub", "2 1\n" + " ".join(["2"] * (MB // 2)) + "\n1\n")
common("metis")
put("metis_xyz", "valid", bytes([255]) + lines(lambda k: f"{k}.5 {k}.25 1\n")[0].encode())
common("metis_xyz", bytes([255]))
body, k = lines(lambda k: f"{k % n + 1} {(k * 13) % n + 1} {k % 100}.5\n")
put("mtx", "valid", f"%%MatrixMarket matrix coordinate real general\n{n} {n} {k}\n" + body)
common("mtx", b"%%MatrixMarket matrix coordinate real general\n")
put("el", "valid", lines(lambda k: f"{k % n} {(k * 7) % n}\n")[0])
put("el", "sparse", lines(lambda k: f"{rng.getrandbits(64)} {rng.getrandbits(64)}\n")[0])
put("el", "extra_columns", lines(lambda k: f"{k % n} {(k * 7) % n} 1 2 3 4 5 6 7 8\n")[0])
common("el")
put("wel", "valid", lines(lambda k: f"{k % n} {(k * 7) % n} 0.{k % 997 + 1}\n")[0])
common("wel")
put("dimacs_arcs", "valid", lines(lambda k: f"a {k % n} {(k * 7) % n} {k % 50}\n")[0])
common("dimacs_arcs")
put("el_count", "valid", f"{n}\n" + lines(lambda k: f"{k % n} {(k * 7) % n}\n")[0])
common("el_count", b"1000\n")
# gzip: 1 MB of compressed input inflating ~1000x to one endless line, and a valid list.
def bomb(chunk, times):
    import io
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=9) as g:
        for _ in range(times):
            g.write(chunk)
    return buf.getvalue()


put("gzip", "bomb_line", bytes([3]) + bomb(b"7" * MB, 200))
put("gzip", "bomb_lines", bytes([3]) + bomb(b"0 1\n" * (MB // 4), 200))
put("gzip", "valid", bytes([3]) + gzip.compress(lines(lambda k: f"{k % n} {(k * 7) % n}\n")[0].encode() * 8, 9))
common("gzip", bytes([3]))
deltas = [{"lowered": [[v, 2**63 - 1, v] for v in range(i * 50, i * 50 + 50)], "settled": list(range(i * 50, i * 50 + 50))} for i in range(600)]
rec = {"iteration": 0, "frontier": 1, "unsettled": 1, "reached": 1, "settled": 1, "edges_scanned": 1,
       "relax_attempted": 1, "relax_improved": 1, "threads": None, "times": {}}
trace = {"format": "sssp-lab trace", "version": 1, "written_by": "x", "graph": {"name": "g", "path": None, "n": 30000,
         "m": 1, "checksum": "0"}, "algorithm": "dijkstra", "device": "cpu", "device_id": "cpu",
         "block": {"relax": 256, "minimum": 256, "update": 256}, "source": 0, "source_id": 0, "finished": True,
         "records": [rec] * 600, "deltas": deltas}
put("trace", "valid_shape", json.dumps(trace))
put("trace", "deep", "[" * MB)
common("trace")
put("experiment", "deep", "[" * MB)
put("experiment", "many_sizes", json.dumps({"name": "x", "graphs": [{"generate": {"family": "fanout", "n": 10, "d": 2,
    "max_weight": 1, "seed": 1}, "sizes": list(range(1, 60000)), "degrees": list(range(1, 60000))}],
    "algorithms": ["dijkstra"], "devices": ["cpu"]}))
put("experiment", "many_blocks", json.dumps({"name": "x", "graphs": [{"file": "a.gr"}], "algorithms": ["dijkstra"],
    "devices": ["cpu"], "block": {"relax": list(range(1, 40000)), "minimum": list(range(1, 40000))}}))
common("experiment")
head = b"SSSPROWS" + struct.pack("<IIQ", 1, 0, 1000)
put("rows", "valid", head + b"".join(struct.pack("<Q", s) + struct.pack("<q", 5) * 1000 for s in range(130)))
put("rows", "huge_n", b"SSSPROWS" + struct.pack("<IIQ", 1, 0, 2**32 - 1) + b"\1" * MB)
common("rows", head)
put("algo", "many_params", "martin-succ:" + ",".join(f"k{i}=v" for i in range(100000)))
put("algo", "twice", "martin-succ:" + ",".join("relax=atomic" for _ in range(80000)))
common("algo")
