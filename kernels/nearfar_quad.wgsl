// sssp-lab: the near-far vertex relax, up to 4 arcs of a vertex at once (issue 30; appended after
// kernels/nearfar.wgsl by src/device/wgpu/nearfar.rs, uses its arc, nf_emit and Snap). The
// per-arc loop (nf_relax) waits for each arc's chain — arc load, δ load, atomicMin, stamp
// exchange — before the next arc's; here the 4 arcs' loads, then their atomicMins, then their
// stamp exchanges are issued together, as kernels/nearfar.cu's nf_relax_vertex does, and each
// decrease is appended by nf_emit as the per-arc path appends it. No δ read before the atomicMin
// (CUDA measured the dependent load dearer than the atomics it saves). Vectors and scalars, not
// arrays indexed in loops, which may live in local memory.
//
// Measured on the H100 (bench/results/gpu-peers-2026-11-27/wgq): against one arc at a time NY
// 15.1 → 12.1 ms, luxembourg 10.5 → 8.2, 2048² grid 106 → 92 (call w1); one reservation per
// invocation and pile instead of one atomic per append was slower (NY 12.6 against 12.1, call
// w3), as were per-subgroup sums (w2), and two near items per invocation with both vertices'
// arcs issued together (NY 13.9 against 12.5 ms, grid 100 against 92; w4). The balanced relax
// and hub pieces 4 arcs per invocation at once the same way lost on R-MAT 20 (8.65 against 8.05
// ms; w5), so they keep one arc at a time.

// Up to 4 arcs of one vertex: heads, new distances, how many (1 ≤ cnt ≤ 4).
struct Quad {
    h: vec4<u32>,
    nd: vec4<u32>,
    cnt: u32,
}

// Arcs e .. e + cnt (at most 4 taken) of a vertex at δ d.
fn quad_load(e: u32, cnt: u32, d: u32) -> Quad {
    var q = Quad(vec4<u32>(0u), vec4<u32>(INF), min(cnt, 4u));
    if q.cnt > 0u {
        let a = arc(e);
        q.h.x = a.x;
        q.nd.x = d + a.y;
    }
    if q.cnt > 1u {
        let a = arc(e + 1u);
        q.h.y = a.x;
        q.nd.y = d + a.y;
    }
    if q.cnt > 2u {
        let a = arc(e + 2u);
        q.h.z = a.x;
        q.nd.z = d + a.y;
    }
    if q.cnt > 3u {
        let a = arc(e + 3u);
        q.h.w = a.x;
        q.nd.w = d + a.y;
    }
    return q;
}

// The atomicMins: δ of each head before; an unused slot keeps 0, so it never counts as a decrease.
fn quad_min(q: Quad) -> vec4<u32> {
    var o = vec4<u32>(0u);
    if q.cnt > 0u {
        o.x = atomicMin(&dist[q.h.x], q.nd.x);
    }
    if q.cnt > 1u {
        o.y = atomicMin(&dist[q.h.y], q.nd.y);
    }
    if q.cnt > 2u {
        o.z = atomicMin(&dist[q.h.z], q.nd.z);
    }
    if q.cnt > 3u {
        o.w = atomicMin(&dist[q.h.w], q.nd.w);
    }
    return o;
}

// For each decrease below T: whether it is the head's first near append this phase (the stamp
// exchange).
fn quad_near(s: Snap, q: Quad, o: vec4<u32>) -> vec4<bool> {
    return vec4<bool>(
        nf_quad_near(s, q.h.x, q.nd.x, o.x),
        nf_quad_near(s, q.h.y, q.nd.y, o.y),
        nf_quad_near(s, q.h.z, q.nd.z, o.z),
        nf_quad_near(s, q.h.w, q.nd.w, o.w),
    );
}

fn nf_quad_near(s: Snap, u: u32, nd: u32, old: u32) -> bool {
    if nd < old && nd < s.t {
        return atomicExchange(&dist[P.n + u], s.stamp) != s.stamp;
    }
    return false;
}

// The appends; returns the decreases.
fn quad_emit(solo: bool, s: Snap, q: Quad, o: vec4<u32>, fresh: vec4<bool>) -> u32 {
    return nf_quad_emit(solo, s, q.h.x, q.nd.x, o.x, fresh.x) + nf_quad_emit(solo, s, q.h.y, q.nd.y, o.y, fresh.y)
        + nf_quad_emit(solo, s, q.h.z, q.nd.z, o.z, fresh.z) + nf_quad_emit(solo, s, q.h.w, q.nd.w, o.w, fresh.w);
}

fn nf_quad_emit(solo: bool, s: Snap, u: u32, nd: u32, old: u32, fresh: bool) -> u32 {
    if nd >= old {
        return 0u;
    }
    if nd < s.t {
        if fresh {
            nf_emit(solo, true, false, u, nd, s.cur ^ 1u, s.fsel, NF_C_FAR_MIN);
        }
    } else {
        nf_emit(solo, false, true, u, nd, s.cur ^ 1u, s.fsel, NF_C_FAR_MIN);
    }
    return 1u;
}

// Arcs e .. e + cnt (1 ≤ cnt ≤ 4) of a vertex at δ d: loads, atomicMins, stamp exchanges,
// appends, each step for all 4 before the next; returns the decreases.
fn nf_relax_quad(solo: bool, s: Snap, e: u32, cnt: u32, d: u32) -> u32 {
    let q = quad_load(e, cnt, d);
    let o = quad_min(q);
    return quad_emit(solo, s, q, o, quad_near(s, q, o));
}
