// sssp-lab: the near-far vertex relax, up to 4 arcs of a vertex at once (issue 30; appended after
// kernels/nearfar.wgsl by src/device/wgpu/nearfar.rs, uses its arc, nf_emit and Snap). The
// per-arc loop (nf_relax) waits for each arc's chain — arc load, δ load, atomicMin, stamp
// exchange — before the next arc's; here the 4 arcs' loads, then their atomicMins, then their
// stamp exchanges are issued together, as kernels/nearfar.cu's nf_relax_vertex does, and each
// decrease is appended by nf_emit as the per-arc path appends it (no reservation scheme: that is
// VBATCH's, kernels/nearfar_vertex.wgsl). No δ read before the atomicMin (CUDA measured the
// dependent load dearer than the atomics it saves). Scalars, not arrays: a private array indexed
// in a loop may live in local memory.

// Arcs e .. e + cnt (1 ≤ cnt ≤ 4) of a vertex at δ d; returns the decreases.
fn nf_relax_quad(solo: bool, s: Snap, e: u32, cnt: u32, d: u32) -> u32 {
    let a0 = arc(e);
    var a1 = vec2<u32>(0u, INF);
    var a2 = vec2<u32>(0u, INF);
    var a3 = vec2<u32>(0u, INF);
    if cnt > 1u {
        a1 = arc(e + 1u);
    }
    if cnt > 2u {
        a2 = arc(e + 2u);
    }
    if cnt > 3u {
        a3 = arc(e + 3u);
    }
    let n0 = d + a0.y;
    let n1 = d + a1.y;
    let n2 = d + a2.y;
    let n3 = d + a3.y;
    let o0 = atomicMin(&dist[a0.x], n0);
    var o1 = 0u;
    var o2 = 0u;
    var o3 = 0u;
    if cnt > 1u {
        o1 = atomicMin(&dist[a1.x], n1);
    }
    if cnt > 2u {
        o2 = atomicMin(&dist[a2.x], n2);
    }
    if cnt > 3u {
        o3 = atomicMin(&dist[a3.x], n3);
    }
    // Which decreases go near, and whether this phase's near list already holds the head.
    let q0 = nf_quad_near(s, a0.x, n0, o0);
    let q1 = nf_quad_near(s, a1.x, n1, o1);
    let q2 = nf_quad_near(s, a2.x, n2, o2);
    let q3 = nf_quad_near(s, a3.x, n3, o3);
    return nf_quad_emit(solo, s, a0.x, n0, o0, q0) + nf_quad_emit(solo, s, a1.x, n1, o1, q1)
        + nf_quad_emit(solo, s, a2.x, n2, o2, q2) + nf_quad_emit(solo, s, a3.x, n3, o3, q3);
}

// For a decrease below T: whether it is the head's first near append this phase (the stamp
// exchange); false otherwise. An unused slot keeps old = 0, so it never counts as a decrease.
fn nf_quad_near(s: Snap, u: u32, nd: u32, old: u32) -> bool {
    if nd < old && nd < s.t {
        return atomicExchange(&dist[P.n + u], s.stamp) != s.stamp;
    }
    return false;
}

// The append of one arc's outcome; returns 1 for a decrease.
fn nf_quad_emit(solo: bool, s: Snap, u: u32, nd: u32, old: u32, near_new: bool) -> u32 {
    if nd >= old {
        return 0u;
    }
    if nd < s.t {
        if near_new {
            nf_emit(solo, true, false, u, nd, s.cur ^ 1u, s.fsel, NF_C_FAR_MIN);
        }
    } else {
        nf_emit(solo, false, true, u, nd, s.cur ^ 1u, s.fsel, NF_C_FAR_MIN);
    }
    return 1u;
}
