#!/usr/bin/env python3
"""The hop floor of a phase-synchronous SSSP solver (issue 30): for each source, the largest
number of arcs on a shortest path, taking among equal-length shortest paths the one with the
fewest arcs (Dijkstra with hop counts as a tie-break). A solver that advances every path by at
most one arc per phase — near-far, Δ-stepping's light phases, Bellman-Ford — needs at least this
many phases. Usage: spt-hops.py GRAPH.gr SOURCE [SOURCE...] (DIMACS, 1-based ids)."""
import heapq
import sys


def read_dimacs(path):
    n, adj = 0, None
    with open(path) as f:
        for line in f:
            if line.startswith("p"):
                n = int(line.split()[2])
                adj = [[] for _ in range(n + 1)]
            elif line.startswith("a"):
                _, u, v, w = line.split()
                adj[int(u)].append((int(v), int(w)))
    return n, adj


def hop_floor(n, adj, src):
    inf = float("inf")
    dist, hops = [inf] * (n + 1), [0] * (n + 1)
    dist[src] = 0
    heap = [(0, 0, src)]
    while heap:
        d, h, u = heapq.heappop(heap)
        if d > dist[u] or (d == dist[u] and h > hops[u]):
            continue
        for v, w in adj[u]:
            nd, nh = d + w, h + 1
            if nd < dist[v] or (nd == dist[v] and nh < hops[v]):
                dist[v], hops[v] = nd, nh
                heapq.heappush(heap, (nd, nh, v))
    reached = [hops[v] for v in range(1, n + 1) if dist[v] < inf]
    return max(reached), sum(reached) / len(reached)


if __name__ == "__main__":
    n, adj = read_dimacs(sys.argv[1])
    for s in sys.argv[2:]:
        most, mean = hop_floor(n, adj, int(s))
        print(f"source {s}: at most {most} arcs on a shortest path (mean {mean:.0f})")
