// sssp-lab: the near-far vertex relax's reservations, one per invocation (no subgroups; appended
// after kernels/nearfar_vertex.wgsl by src/device/wgpu/nearfar.rs). The twin with one per
// subgroup is kernels/nearfar_emit_sg.wgsl.

// The invocation's own degree: its loop needs no other invocation.
fn nf_vertex_bound(deg: u32) -> u32 {
    return deg;
}

// `cnt` slots for this invocation (nf_reserve_n; nothing when 0): (stage base, fit, global base,
// the invocation's first slot = 0).
fn nf_reserve_v(solo: bool, staged: bool, cnt: u32, near_pile: bool, cap: u32, gc: u32) -> vec4<u32> {
    if cnt == 0u {
        return vec4<u32>(0u);
    }
    return vec4<u32>(nf_reserve_n(solo, staged, cnt, near_pile, cap, gc), 0u);
}

// The far minimum m (INF: no far append) into the stage or the control block.
fn nf_far_min_v(solo: bool, staged: bool, m: u32) {
    if m == INF {
        return;
    }
    if staged {
        atomicMin(&st_fmin, m);
    } else {
        cmin(solo, NF_C_FAR_MIN, m);
    }
}
