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

// The bindings, the control words and the relax body (relax_succ_vertex with relax_arc's racy
// push: read, compare, write — no atomic read-modify-write) are shared with relax_succ
// (common_frontier.wgsl), so everything but the compare-and-write is the ordinary successors
// relax.

@compute @workgroup_size(WG)
fn relax_racy(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    relax_succ_vertex(thread_index(wg, nwg, lid), lid, true);
}
