// sssp-lab: the `racy` relax — Martín's successors relax WITHOUT atomics, the bug that seed 004
// §4.3 ("A Bugged Implementation", Fig. 5 right; docs/references.md [seed004]) found in the earlier
// GPU Dijkstra ([harish-narayanan] there):
//     if (uc[j] > c[i] + w[i,j]) uc[j] = c[i] + w[i,j];
// Two frontier threads that both see the old value both pass the test, and whichever store lands
// last wins, so δ(j) can end above the right value (write-after-write). On the counterexample
// graph (generate::counterexample(1024), 32 threads per block) every middle vertex races on the
// sink in iteration 2 and the sink's distance changes from run to run.
//
// Launched from: src/device/cuda/solver.rs (module `sssp_lab::device::cuda`) in place of
// relax_succ for Algorithm::Racy; minimum and update are the ordinary Martín kernels of
// kernels/frontier.cu (compiled together with kernels/common.cuh prepended).
//
// To make the race likely (as on the 8800 GTS the paper used), each thread reads the target's δ
// once, then spins `spin_cycles` clock cycles before its compare-and-write, so the read-write
// windows of many threads overlap. This kernel is wrong ON PURPOSE; never use it for results.

template <typename D, bool INSTR>
__device__ __forceinline__ void relax_racy_k(u32 n, const u32 *__restrict__ off, const u32 *__restrict__ tgt,
                                             const u32 *__restrict__ wgt, D *dist, const u32 *stamp, u32 iter,
                                             u64 *ctr, u32 spin_cycles) {
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    const bool work = v < n && stamp[v] == iter;
    u64 scanned = 0, attempted = 0;
    if (work) {
        const D dv = dist[v];
        const u32 end = off[v + 1];
        for (u32 e = off[v]; e < end; ++e) {
            const u32 u = tgt[e];
            if (INSTR) ++scanned;
            if (stamp[u] == UNSET) {
                if (INSTR) ++attempted;
                volatile D *target = &dist[u];
                const D seen = *target; // read once ...
                const long long t0 = clock64();
                while (clock64() - t0 < (long long)spin_cycles) {
                } // ... let the other threads read the same old value ...
                const D nd = dv + (D)wgt[e];
                if (nd < seen) *target = nd; // ... and overwrite each other: the race
            }
        }
    }
    if (INSTR) count_relax(work, scanned, attempted, work ? off[v + 1] - off[v] : 0, ctr);
}

#define SSSP_RACY_KERNELS(D, S)                                                                                   \
    extern "C" __global__ void relax_racy_##S(u32 n, const u32 *__restrict__ off, const u32 *__restrict__ tgt,   \
                                              const u32 *__restrict__ wgt, D *dist, const u32 *stamp, u32 iter,   \
                                              u64 *ctr, u32 spin_cycles) {                                        \
        relax_racy_k<D, false>(n, off, tgt, wgt, dist, stamp, iter, ctr, spin_cycles);                           \
    }                                                                                                             \
    extern "C" __global__ void relax_racy_instr_##S(u32 n, const u32 *__restrict__ off,                          \
                                                    const u32 *__restrict__ tgt, const u32 *__restrict__ wgt,     \
                                                    D *dist, const u32 *stamp, u32 iter, u64 *ctr,                \
                                                    u32 spin_cycles) {                                            \
        relax_racy_k<D, true>(n, off, tgt, wgt, dist, stamp, iter, ctr, spin_cycles);                            \
    }

SSSP_RACY_KERNELS(u32, u32)
SSSP_RACY_KERNELS(u64, u64)
