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
    if QRES {
        let nb = u32(q0) | (u32(q1) << 1u) | (u32(q2) << 2u) | (u32(q3) << 3u);
        let fb = u32(n0 < o0 && n0 >= s.t) | (u32(n1 < o1 && n1 >= s.t) << 1u)
            | (u32(n2 < o2 && n2 >= s.t) << 2u) | (u32(n3 < o3 && n3 >= s.t) << 3u);
        nf_quad_put(solo, s, vec4<u32>(a0.x, a1.x, a2.x, a3.x), vec4<u32>(n0, n1, n2, n3), nb, fb);
        return u32(n0 < o0) + u32(n1 < o1) + u32(n2 < o2) + u32(n3 < o3);
    }
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

// QRES: the invocation's near appends (bits nb of heads u) and far appends (bits fb, at δ nd) in
// one reservation per pile (nf_reserve_n of kernels/nearfar_vertex.wgsl) instead of one atomic
// per append — kernels/nearfar.cu's per-warp reservation, per invocation (subgroup operations
// measured slower through wgpu on the H100, gpu-peers-2026-11-27/wgq/w2).
fn nf_quad_put(solo: bool, s: Snap, u: vec4<u32>, nd: vec4<u32>, nb: u32, fb: u32) {
    let staged = STAGE && !solo;
    let out = s.cur ^ 1u;
    if nb != 0u {
        let r = nf_reserve_n(solo, staged, countOneBits(nb), true, STAGE_N, NF_C_NEAR + out);
        var o = 0u;
        for (var j = 0u; j < 4u; j++) {
            if ((nb >> j) & 1u) != 0u {
                if o < r.y {
                    st_near[r.x + o] = u[j];
                } else if r.z + o - r.y < P.n {
                    near[out * P.n + r.z + o - r.y] = u[j];
                } else {
                    cs(solo, NF_C_OVERFLOW, 1u);
                }
                o++;
            }
        }
    }
    if fb != 0u {
        var m = INF;
        for (var j = 0u; j < 4u; j++) {
            if ((fb >> j) & 1u) != 0u {
                m = min(m, nd[j]);
            }
        }
        if staged {
            atomicMin(&st_fmin, m);
        } else {
            cmin(solo, NF_C_FAR_MIN, m);
        }
        let r = nf_reserve_n(solo, staged, countOneBits(fb), false, STAGE_F, NF_C_FAR + s.fsel);
        var o = 0u;
        for (var j = 0u; j < 4u; j++) {
            if ((fb >> j) & 1u) != 0u {
                if o < r.y {
                    st_far[r.x + o] = vec2<u32>(u[j], nd[j]);
                } else if r.z + o - r.y < P.far_cap {
                    far[s.fsel * P.far_cap + r.z + o - r.y] = vec2<u32>(u[j], nd[j]);
                } else {
                    cs(solo, NF_C_OVERFLOW, 1u);
                }
                o++;
            }
        }
    }
}
