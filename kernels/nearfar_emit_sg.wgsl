// sssp-lab: the near-far vertex relax's reservations, one per subgroup and pile, as
// kernels/nearfar.cu's nf_emit_vertex does per warp (a scan of the invocations' counts, one
// atomic by the first invocation, its base broadcast). The host appends this file after
// kernels/nearfar_vertex.wgsl only when the device has wgpu::Features::SUBGROUP (env
// SSSP_NF_WG_SUBGROUP=0: kernels/nearfar_emit.wgsl instead); wgpu 30's naga takes the builtins
// from that feature and rejects `enable subgroups;`. Every function here is called by all
// invocations of the subgroup.

// The subgroup's largest degree: every invocation steps until the subgroup's last arc.
fn nf_vertex_bound(deg: u32) -> u32 {
    return subgroupMax(deg);
}

// The subgroup's `cnt`s in one reservation (nf_reserve_n by the last invocation with a count; the
// others hold zeros, so subgroupMax hands its result to all; wgpu 30's naga has no
// subgroupElect): (stage base, fit, global base, this invocation's first slot).
fn nf_reserve_v(solo: bool, staged: bool, cnt: u32, near_pile: bool, cap: u32, gc: u32) -> vec4<u32> {
    let total = subgroupAdd(cnt);
    if total == 0u {
        return vec4<u32>(0u);
    }
    let first = subgroupExclusiveAdd(cnt);
    var r = vec3<u32>(0u);
    if cnt != 0u && first + cnt == total {
        r = nf_reserve_n(solo, staged, total, near_pile, cap, gc);
    }
    return vec4<u32>(subgroupMax(r), first);
}

// The subgroup's far minimum (INF: no far append) into the stage or the control block, by its
// first invocation.
fn nf_far_min_v(solo: bool, staged: bool, m: u32) {
    let sm = subgroupMin(m);
    if sm != INF && subgroupExclusiveAdd(1u) == 0u {
        if staged {
            atomicMin(&st_fmin, sm);
        } else {
            cmin(solo, NF_C_FAR_MIN, sm);
        }
    }
}
