// sssp-lab: the batched vertex relax of the near-far solver on wgpu (issue 30), appended by
// src/device/wgpu/nearfar.rs after kernels/nearfar.wgsl, whose bindings, stage and control-block
// helpers (cg, cs, cadd, cmin, arc, Snap) it uses; the near-far kernel's VBATCH picks it. After it
// comes one of the two reservation files: kernels/nearfar_emit.wgsl (one reservation per
// invocation) or kernels/nearfar_emit_sg.wgsl (one per subgroup, Features::SUBGROUP); both
// define nf_vertex_bound, nf_reserve_v and nf_far_min_v.

/// Arcs per invocation and step of the batched vertex relax (kernels/nearfar.cu's NF_VU).
const NF_VU: u32 = 4u;

// Reserves `cnt` slots of a pile: the first `fit` in the stage from its count's old value (staged
// grid phases: near_pile picks st_nn or st_nf, `cap` its capacity), the rest from the control
// block's count `gc` — (stage base, fit, global base).
fn nf_reserve_n(solo: bool, staged: bool, cnt: u32, near_pile: bool, cap: u32, gc: u32) -> vec3<u32> {
    var sb = cap;
    if staged {
        if near_pile {
            sb = atomicAdd(&st_nn, cnt);
        } else {
            sb = atomicAdd(&st_nf, cnt);
        }
    }
    var fit = 0u;
    if sb < cap {
        fit = min(cnt, cap - sb);
    }
    var gb = 0u;
    if fit < cnt {
        gb = cadd(solo, gc, cnt - fit);
    }
    return vec3<u32>(sb, fit, gb);
}

// Arcs k .. k + NF_VU of a vertex (first arc b, `deg` arcs, δ d) on the vertex path, as
// kernels/nearfar.cu's nf_relax_vertex: the loads and atomicMins of the NF_VU arcs are
// independent (no δ pre-read: CUDA measured the dependent load slower than the atomics it saves),
// then one reservation per pile (nf_reserve_v) for the outcomes instead of one atomic per append.
// Called by every invocation of the subgroup while k < nf_vertex_bound (k ≥ deg: nothing to do).
// No hubs on the vertex path (a hub makes the relax balanced). Returns the δ decreases.
fn nf_relax_vertex(solo: bool, s: Snap, b: u32, deg: u32, d: u32, k: u32) -> u32 {
    var uu: array<u32, NF_VU>;
    var nd: array<u32, NF_VU>;
    var old: array<u32, NF_VU>;
    for (var j = 0u; j < NF_VU; j++) {
        uu[j] = 0u;
        nd[j] = INF;
        if k + j < deg {
            let a = arc(b + k + j);
            uu[j] = a.x;
            nd[j] = d + a.y;
        }
    }
    for (var j = 0u; j < NF_VU; j++) {
        old[j] = 0u;
        if k + j < deg {
            old[j] = atomicMin(&dist[uu[j]], nd[j]);
        }
    }
    var nbits = 0u;
    var fbits = 0u;
    var impr = 0u;
    var m = INF;
    for (var j = 0u; j < NF_VU; j++) {
        if k + j < deg && nd[j] < old[j] {
            impr += 1u;
            if nd[j] >= s.t {
                fbits |= 1u << j;
                m = min(m, nd[j]);
            } else if atomicExchange(&dist[P.n + uu[j]], s.stamp) != s.stamp {
                nbits |= 1u << j;
            }
        }
    }
    let staged = STAGE && !solo;
    let out = s.cur ^ 1u;
    let rn = nf_reserve_v(solo, staged, countOneBits(nbits), true, STAGE_N, NF_C_NEAR + out);
    var o = rn.w;
    for (var j = 0u; j < NF_VU; j++) {
        if ((nbits >> j) & 1u) != 0u {
            if o < rn.y {
                st_near[rn.x + o] = uu[j];
            } else if rn.z + o - rn.y < P.n {
                near[out * P.n + rn.z + o - rn.y] = uu[j];
            } else {
                cs(solo, NF_C_OVERFLOW, 1u);
            }
            o++;
        }
    }
    nf_far_min_v(solo, staged, m);
    let rf = nf_reserve_v(solo, staged, countOneBits(fbits), false, STAGE_F, NF_C_FAR + s.fsel);
    o = rf.w;
    for (var j = 0u; j < NF_VU; j++) {
        if ((fbits >> j) & 1u) != 0u {
            if o < rf.y {
                st_far[rf.x + o] = vec2<u32>(uu[j], nd[j]);
            } else if rf.z + o - rf.y < P.far_cap {
                far[s.fsel * P.far_cap + rf.z + o - rf.y] = vec2<u32>(uu[j], nd[j]);
            } else {
                cs(solo, NF_C_OVERFLOW, 1u);
            }
            o++;
        }
    }
    return impr;
}
