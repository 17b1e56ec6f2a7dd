// sssp-lab: the *bugged* successors relax of seed 004 §4.3, kept for teaching (the twin of
// kernels/racy.cu). A frontier vertex lowers δ(v) with a plain read-compare-write instead
// of atomicMin: when two frontier vertices relax the same v at once, both may pass the
// comparison and the larger value may be written last (write-after-write race). Run it on the
// counterexample graph (seed 004 Fig. 5, see docs/references.md) and compare with the oracle. Minimum and update are
// the ones of frontier.wgsl; the counters are relax_succ's (`improved` counts vertices
// some invocation believed it lowered).
//
// Launched from: src/device/wgpu/stepper.rs, with kernels/common.wgsl and the arc
// accessors prepended.

const C_SLOT: u32 = 2u;
const C_ITER: u32 = 3u;

@group(0) @binding(1) var<storage, read_write> dist: array<u32>;
@group(0) @binding(2) var<storage, read> status_ro: array<u32>;
@group(0) @binding(3) var<storage, read> ctrl_ro: array<u32>;
@group(0) @binding(7) var<storage, read> offsets: array<u32>;
@group(0) @binding(8) var<storage, read_write> stamp: array<atomic<u32>>;

@compute @workgroup_size(WG)
fn relax_racy(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    acc_begin(lid);
    let t = thread_index(wg, nwg, lid);
    let n = P.n;
    let i = ctrl_ro[C_ITER];
    if t < n {
        let st = status_ro[t];
        if st == i {
            let dt = dist[t];
            let b = offsets[t];
            let e = offsets[t + 1u];
            var attempted = 0u;
            var improved = 0u;
            for (var a = b; a < e; a++) {
                let v = arc_target(a);
                if status_ro[v] == UNSET {
                    let nd = dt + arc_weight(a);
                    // The race: read, compare, write — no atomic.
                    if nd < dist[v] {
                        dist[v] = nd;
                        if INSTRUMENT && atomicExchange(&stamp[v], i) != i {
                            improved += 1u;
                        }
                    }
                    if INSTRUMENT {
                        attempted += 1u;
                    }
                }
            }
            if INSTRUMENT {
                acc_add(L_FRONTIER, 1u);
                acc_add(L_EDGES, e - b);
                acc_add(L_ATTEMPTED, attempted);
                acc_add(L_IMPROVED, improved);
            }
        } else if INSTRUMENT && st == UNSET {
            acc_add(L_UNSETTLED, 1u);
        }
        if INSTRUMENT && t % WARP == 0u {
            var working = 0u;
            var most = 0u; // the warp's loop runs as long as its largest frontier out-degree
            let end = min(t + WARP, n);
            for (var v = t; v < end; v++) {
                if status_ro[v] == i {
                    working += 1u;
                    most = max(most, offsets[v + 1u] - offsets[v]);
                }
            }
            acc_add(L_WARPS_FULL, u32(working == WARP));
            acc_add(L_WARPS_MIXED, u32(working != 0u && working != WARP));
            acc_add(L_WARP_ITERS, most);
        }
    }
    if INSTRUMENT {
        acc_flush(lid, ctrl_ro[C_SLOT]);
    }
}
