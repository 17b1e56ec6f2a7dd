// sssp-lab: edge-parallel Bellman-Ford ([seed002]), one thread per arc of the edge list,
// synchronous (Jacobi) passes. Two kernels per pass:
//
// - bf_relax_{all,frontier}_{ldg,plain}: thread e takes arc (tails[e], heads[e], weights[e]) and,
//   when its tail is active, proposes δ_prev(tail) + w to δ(head) with atomicMin — only when the
//   proposal is below the δ(head) it has just read, so most relaxations cost a plain load and no
//   atomic. `all`: the tail is active when reached (δ_prev < ∞); `frontier`: when the previous
//   pass lowered it (mark == pass − 1). `ldg`: the read-only arrays go through
//   const __restrict__ + __ldg (ro-cache=on); `plain`: ordinary loads (ro-cache=off).
// - bf_commit: thread v copies a lowered δ(v) into δ_prev(v), marks v with the pass, and counts
//   into the pass's log entry: lowered vertices, newly reached vertices, and their out-degrees
//   (the arcs the next pass scans), with one atomic per warp.
//
// Both kernels of pass k first read log entry k − 1 (`slot` − 1) and return at once when that
// pass lowered nothing: the host can queue a batch of passes and read the log back once, and
// passes queued past the end cost two near-empty launches.
//
// δ is signed 32-bit (int), ∞ = INT_MAX. The host refuses graphs whose shortest-path values
// could leave (`lo`, INT_MAX) (src/device/gpu.rs, bf_range). Proposals are formed in 64 bits: a
// proposal below `lo` (= Graph::negative_bound, a lower bound on every shortest walk when no
// negative cycle exists) proves a negative cycle, so it is flagged instead of written (that also
// keeps δ from wrapping around); one at or above INT_MAX is never below δ(head) and never written.
//
// Launched from: src/device/cuda/bellman_ford.rs; compiled by NVRTC with kernels/common.cuh
// prepended.

#define BF_INF 0x7FFFFFFF
// The log layout (BF_LOG_WORDS, BF_LOWERED …) comes from src/device/layout.rs, prepended.

// A load through the read-only data path (LDG) or an ordinary one.
template <bool LDG, typename T> __device__ __forceinline__ T bf_ld(const T *p) {
    if constexpr (LDG) {
        return __ldg(p);
    } else {
        return *p;
    }
}

extern "C" __global__ void bf_init(u32 n, int *dist, int *prev, u32 *mark, u32 source) {
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) {
        const int d = v == source ? 0 : BF_INF;
        dist[v] = d;
        prev[v] = d;
        mark[v] = v == source ? 0u : UNSET; // the source counts as lowered in pass 0
    }
}

template <bool FRONTIER, bool LDG>
__device__ __forceinline__ void bf_relax_k(u32 m, const u32 *tails, const u32 *heads, const int *weights,
                                           const int *prev, const u32 *mark, int *dist, u32 pass, long long lo,
                                           u32 *log, u32 slot) {
    // Uniform over the launch: the previous pass changed nothing, the run is over.
    if (log[(slot - 1) * BF_LOG_WORDS + BF_LOWERED] == 0) return;
    const u32 e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= m) return;
    const u32 t = bf_ld<LDG>(&tails[e]);
    if (FRONTIER && bf_ld<LDG>(&mark[t]) != pass - 1) return;
    const int dt = bf_ld<LDG>(&prev[t]);
    if (dt == BF_INF) return;
    const long long nd = (long long)dt + (long long)bf_ld<LDG>(&weights[e]);
    const u32 h = bf_ld<LDG>(&heads[e]);
    // dist changes during the pass (other threads' atomics): a plain, possibly stale read; a
    // stale value only costs an atomic that does not win.
    if (nd < (long long)dist[h]) {
        if (nd < lo) {
            log[slot * BF_LOG_WORDS + BF_NEGATIVE] = 1;
            return;
        }
        atomicMin(&dist[h], (int)nd); // lo <= nd < dist[h] <= INT_MAX: fits an int
    }
}

extern "C" __global__ void bf_commit(u32 n, const int *dist, int *prev, u32 *mark, const u32 *__restrict__ off,
                                     u32 pass, u32 *log, u32 slot) {
    if (log[(slot - 1) * BF_LOG_WORDS + BF_LOWERED] == 0) return; // uniform: before any ballot
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    bool lowered = false, fresh = false;
    u64 deg = 0;
    if (v < n) {
        const int d = dist[v];
        const int p = prev[v];
        if (d < p) {
            lowered = true;
            fresh = p == BF_INF;
            prev[v] = d;
            mark[v] = pass;
            deg = __ldg(&off[v + 1]) - __ldg(&off[v]);
        }
    }
    // Every lane of every warp gets here (blockDim.x is a multiple of 32).
    u32 *entry = &log[slot * BF_LOG_WORDS];
    warp_count(lowered, &entry[BF_LOWERED]);
    warp_count(fresh, &entry[BF_FRESH]);
    const u64 lowered_arcs = warp_sum64(deg);
    const u64 fresh_arcs = warp_sum64(fresh ? deg : 0);
    if (lane_id() == 0) {
        // Sums of out-degrees stay below m < 2^32.
        if (lowered_arcs) atomicAdd(&entry[BF_LOWERED_ARCS], (u32)lowered_arcs);
        if (fresh_arcs) atomicAdd(&entry[BF_FRESH_ARCS], (u32)fresh_arcs);
    }
}

// Entry points: filter (all | frontier) × ro-cache (ldg: const __restrict__ + __ldg | plain).
#define BF_RELAX(NAME, FRONTIER, LDG, RO)                                                                         \
    extern "C" __global__ void NAME(u32 m, const u32 *RO tails, const u32 *RO heads, const int *RO weights,       \
                                    const int *RO prev, const u32 *RO mark, int *dist, u32 pass, long long lo,    \
                                    u32 *log, u32 slot) {                                                         \
        bf_relax_k<FRONTIER, LDG>(m, tails, heads, weights, prev, mark, dist, pass, lo, log, slot);               \
    }

#define BF_NO_RESTRICT
BF_RELAX(bf_relax_all_ldg, false, true, __restrict__)
BF_RELAX(bf_relax_frontier_ldg, true, true, __restrict__)
BF_RELAX(bf_relax_all_plain, false, false, BF_NO_RESTRICT)
BF_RELAX(bf_relax_frontier_plain, true, false, BF_NO_RESTRICT)
