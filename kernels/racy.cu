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

// The relax body is relax_succ_k of kernels/common.cuh with RACY set (relax_arc's racy push), so
// everything but the compare-and-write is the ordinary successors relax.
template <typename D, bool INSTR>
__device__ __forceinline__ void relax_racy_k(u32 n, const u32 *__restrict__ off, const u32 *__restrict__ tgt,
                                             const u32 *__restrict__ wgt, D *dist, const u32 *stamp, u32 iter,
                                             u64 *ctr, u32 spin_cycles) {
    relax_succ_k<D, INSTR, true>(n, off, tgt, wgt, dist, stamp, iter, ctr, spin_cycles);
}

#define SSSP_RACY_KERNELS(D, S)                                                                                   \
    SSSP_PAIR(D, S, relax_racy, relax_racy_instr, relax_racy_k,                                                                     \
              (u32 n, const u32 *__restrict__ off, const u32 *__restrict__ tgt, const u32 *__restrict__ wgt,      \
               D *dist, const u32 *stamp, u32 iter, u64 *ctr, u32 spin_cycles),                                   \
              (n, off, tgt, wgt, dist, stamp, iter, ctr, spin_cycles))

SSSP_RACY_KERNELS(u32, u32)
SSSP_RACY_KERNELS(u64, u64)
