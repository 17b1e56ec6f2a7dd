// Session 49's scratch dump for the micro-benchmark (run as a cargo example, not kept in the
// build): a graph's PHAST sweep arrays, 4 sources' upward searches and the CUDA plan on the H200
// (227 KiB of shared memory a block) as little-endian u32 words: n, levels, arcs, sources,
// launches, level_start, in_offsets, in_tails, in_weights, then per source (count, pairs), then
// per launch (first, last, blocks, staged). `phast_dump NY.gr NY.bin`.
use sssp_lab::algo::phast::hierarchy;
use sssp_lab::device::driver::sweep::{self, Stage};
use std::io::Write;
use std::sync::Arc;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let g = sssp_lab::formats::load(std::path::Path::new(&a[1]), &Default::default()).unwrap();
    let g = Arc::new(g);
    let h = hierarchy(&g).unwrap();
    let arr = sweep::device_arrays(&h);
    let mut out = Vec::<u32>::new();
    let n = g.n() as u32;
    let levels = h.levels() as u32;
    let stage = Stage { bytes: (232448 - 2052) & !3, threads: 1024, arcs: true };
    let plan = sweep::plan(&arr.level_start, &arr.in_offsets, 0..levels, 256, 1024, stage);
    let srcs = [1u32, n / 3, n / 2, n - 7];
    out.extend([n, levels, arr.in_tails.len() as u32, srcs.len() as u32, plan.len() as u32]);
    out.extend(&arr.level_start);
    out.extend(&arr.in_offsets);
    out.extend(&arr.in_tails);
    out.extend(&arr.in_weights);
    for &s in &srcs {
        let p = h.upward_search(s);
        out.push(p.len() as u32);
        for (pos, d) in p {
            out.push(pos);
            out.push(d as u32);
        }
    }
    for x in &plan {
        out.extend([x.first, x.last, x.blocks, x.staged as u32]);
    }
    let mut f = std::fs::File::create(&a[2]).unwrap();
    f.write_all(bytemuck::cast_slice(&out)).unwrap();
}
