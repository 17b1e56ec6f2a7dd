//! Many sources at once on one CUDA device (seed 003's many-source run; issue 30 item 7; design
//! in `docs/gpu-worklist.md` §6): a [`BatchSolver`] uploads the graph once and solves K sources
//! per launch of `kernels/batch.cu`, one block per source, each with its own u32 δ row (K × n),
//! mark row, far flags and three vertex lists. A block runs near-far (Davidson et al., IPDPS
//! 2014) on its own source: it relaxes its near frontier (δ below a threshold T) round after
//! round with only `__syncthreads` between rounds, parks lowered vertices at or above T on a far
//! pile, and raises T by Δ when the near frontier empties; so a whole batch is one launch.
//! Δ = [`BF`] keeps T at ∞ (plain frontier Bellman-Ford, the first version of this worker).
//! A second launch summarises every row on the device (`batch_summary`: reached, eccentricity,
//! sum, checksum, as [`crate::manysource::TaskResult::summarize`]), so only 40 bytes per source
//! come back (with the count of relaxed arcs) unless the caller asks for the rows.
//!
//! K (the batch size) is given (`cuda:0:batch=K`) or chosen ([`BatchSolver::new`] with `None`):
//! twice the blocks the device holds at once (so a block that ends early is replaced at once by
//! a waiting source), capped by half the free device memory and by [`HOST_ROW_BYTES`] of rows on
//! the host (rows are copied back only when asked for).

use super::kernels::{Gpu, gpu};
use super::stream::cfg;
use super::{dev_err, guarded};
use crate::algo::SolveError;
use crate::graph::{Graph, VertexId};
use cudarc::driver::{CudaFunction, CudaSlice, CudaStream, PushKernelArg};
use std::sync::Arc;

/// The batch kernel.
const BATCH_SRC: &str = include_str!("../../../kernels/batch.cu");

/// Threads per block: one block per source; a road graph's frontier holds a few hundred
/// vertices, so small blocks keep more sources resident (16 per SM on an H100).
pub const BLOCK: u32 = 128;

/// Most bytes of u32 rows a batch copies back to the host at once.
pub const HOST_ROW_BYTES: u64 = 8 << 30;

/// Δ that turns near-far off (T stays ∞): frontier Bellman-Ford.
pub const BF: u32 = u32::MAX;

/// Device bytes per source: δ, mark, far flags and three vertex lists of n u32 each.
pub fn bytes_per_source(graph: &Graph) -> u64 {
    24 * graph.n() as u64
}

/// The near-far step Δ a batch uses unless given: [`DELTA_MEANS`] times the mean arc weight
/// (at least 1), so that a block's near frontier spans a few arcs of the wave front: on a road
/// graph that is a few hundred vertices, enough for a block of [`BLOCK`] threads.
pub fn auto_delta(graph: &Graph) -> u32 {
    let w = &graph.successors().weights;
    if w.is_empty() {
        return 1;
    }
    let mean = w.iter().map(|&x| x.max(0) as u128).sum::<u128>() as f64 / w.len() as f64;
    (DELTA_MEANS * mean).clamp(1.0, f64::from(BF - 1)) as u32
}

/// Mean arc weights per near-far step in [`auto_delta`].
pub const DELTA_MEANS: f64 = 4.0;

/// K sources solved per launch on one device; the graph stays uploaded between batches.
pub struct BatchSolver {
    /// Keeps the context alive as long as the buffers.
    _gpu: Arc<Gpu>,
    stream: Arc<CudaStream>,
    kernel: CudaFunction,
    summary: CudaFunction,
    n: u32,
    offsets: CudaSlice<u32>,
    targets: CudaSlice<u32>,
    weights: CudaSlice<u32>,
    sources: CudaSlice<u32>,
    dist: CudaSlice<u32>,
    mark: CudaSlice<u32>,
    farflag: CudaSlice<u32>,
    lists: CudaSlice<u32>,
    out: CudaSlice<u64>,
    host: Vec<u32>,
    k: usize,
    delta: u32,
    why: String,
}

impl BatchSolver {
    /// Uploads `graph` to CUDA device `index`, compiles `kernels/batch.cu` and allocates K rows:
    /// `k` when given, else chosen (module docs); [`BatchSolver::why`] says which bound chose it
    /// and which Δ runs: `delta` when given ([`BF`]: none), else [`auto_delta`].
    ///
    /// Errors ([`SolveError::Device`]): CUDA unavailable or no device `index`; a negative arc
    /// weight; arc weights summing to 2³² − 1 or more (δ is u32 here); `k` = 0, Δ = 0 or K rows
    /// beyond the free device memory; NVRTC or driver failures.
    pub fn new(index: u32, graph: &Graph, k: Option<usize>, delta: Option<u32>) -> Result<BatchSolver, SolveError> {
        super::check_index(index)?;
        let g = gpu(index)?;
        guarded(|| build(g, graph, k, delta))?
    }

    /// Sources per launch (K).
    pub fn batch_size(&self) -> usize {
        self.k
    }

    /// Why K and Δ are what they are, e.g. `K = 4224: 2 × 2112 resident blocks (132 SMs × 16);
    /// Δ = 5160: 4 × the mean arc weight`.
    pub fn why(&self) -> &str {
        &self.why
    }

    /// The near-far step Δ ([`BF`] = none).
    pub fn delta(&self) -> u32 {
        self.delta
    }

    /// Solves from every source of `sources` (at most K, each a vertex) and returns, per
    /// source in order, `[reached, eccentricity, sum, checksum]` as
    /// [`crate::manysource::TaskResult::summarize`] computes them, and with `rows` also their δ
    /// rows, row-major (row i = `sources[i]`, n entries each, `u32::MAX` = unreached).
    ///
    /// Errors ([`SolveError::Device`]): more than K sources, a source out of range, a launch or
    /// copy failure.
    pub fn solve(&mut self, sources: &[VertexId], rows: bool) -> Result<BatchOut<'_>, SolveError> {
        let count = sources.len();
        if count > self.k {
            return Err(SolveError::Device(format!("{count} sources for a batch of {}", self.k)));
        }
        if let Some(&s) = sources.iter().find(|&&s| s >= self.n) {
            return Err(SolveError::Device(format!("source {s} is not a vertex (n = {})", self.n)));
        }
        if count == 0 {
            return Ok(BatchOut { summaries: Vec::new(), relaxed: Vec::new(), rows: None });
        }
        let flat = guarded(|| self.launch(sources, rows))??;
        let rows = rows.then(|| &self.host[..count * self.n as usize]);
        let summaries = flat.chunks_exact(5).map(|c| [c[0], c[1], c[2], c[3]]).collect();
        let relaxed = flat.chunks_exact(5).map(|c| c[4]).collect();
        Ok(BatchOut { summaries, relaxed, rows })
    }

    fn launch(&mut self, sources: &[VertexId], rows: bool) -> Result<Vec<u64>, SolveError> {
        let count = sources.len();
        let words = count * self.n as usize;
        self.stream
            .memcpy_htod(sources, &mut self.sources.slice_mut(..count))
            .map_err(dev_err("cannot upload the batch's sources"))?;
        let count32 = count as u32;
        let mut l = self.stream.launch_builder(&self.kernel);
        l.arg(&self.n).arg(&self.offsets).arg(&self.targets).arg(&self.weights).arg(&self.sources);
        l.arg(&count32).arg(&self.delta).arg(&self.dist).arg(&self.mark).arg(&self.farflag).arg(&self.lists);
        l.arg(&self.out);
        // SAFETY: matches batch_bf(n, offsets, targets, weights, sources, count, delta, dist,
        // mark, farflag, lists, out); dist, mark and farflag hold ≥ count × n words, lists ≥
        // 3 × count × n, out ≥ 5 × count; every source < n.
        unsafe { l.launch(cfg(count32, BLOCK)) }.map_err(dev_err("batch kernel launch failed"))?;
        let mut l = self.stream.launch_builder(&self.summary);
        l.arg(&self.n).arg(&self.sources).arg(&count32).arg(&self.dist).arg(&self.out);
        // SAFETY: matches batch_summary(n, sources, count, dist, out); out holds ≥ 5 × count
        // words; threads past count return.
        unsafe { l.launch(cfg(count32.div_ceil(64), 64)) }.map_err(dev_err("batch summary launch failed"))?;
        let mut flat = vec![0u64; 5 * count];
        self.stream
            .memcpy_dtoh(&self.out.slice(..5 * count), &mut flat[..])
            .map_err(dev_err("cannot copy the batch's summaries back"))?;
        if rows {
            if self.host.len() < words {
                self.host.resize(words, 0);
            }
            self.stream
                .memcpy_dtoh(&self.dist.slice(..words), &mut self.host[..words])
                .map_err(dev_err("cannot copy the batch's rows back"))?;
        }
        self.stream.synchronize().map_err(dev_err("the batch kernels failed"))?;
        Ok(flat)
    }
}

/// What [`BatchSolver::solve`] returns.
pub struct BatchOut<'a> {
    /// Per source: reached, eccentricity, sum (saturating at `i64::MAX`), checksum.
    pub summaries: Vec<[u64; 4]>,
    /// Per source: the arcs its block relaxed (scanned), re-relaxations included.
    pub relaxed: Vec<u64>,
    /// The δ rows, row-major, when asked for.
    pub rows: Option<&'a [u32]>,
}

fn build(g: Arc<Gpu>, graph: &Graph, k: Option<usize>, delta: Option<u32>) -> Result<BatchSolver, SolveError> {
    let (n, m) = (graph.n(), graph.m());
    if n == 0 || n >= u32::MAX as usize - 1 || m >= u32::MAX as usize {
        return Err(SolveError::Device(format!("{n} vertices, {m} arcs: the batch kernel indexes both with u32")));
    }
    let succ = graph.successors();
    if succ.weights.iter().any(|&w| w < 0) {
        return Err(SolveError::Device("the batched CUDA worker needs non-negative arc weights".into()));
    }
    // With weights ≥ 0 every δ a block stores is the length of a simple path (a relax that
    // would close a cycle cannot lower δ), so δ ≤ the sum of all weights and a relax forms at
    // most that plus one weight: tighter than n · max weight (NY: 0.95 · 10⁹ against 9.8 · 10⁹).
    let total: u128 = succ.weights.iter().map(|&w| w as u128).sum();
    if total + graph.max_weight().max(0) as u128 >= u128::from(u32::MAX) {
        return Err(SolveError::Device(format!(
            "graph `{}`: the arc weights sum to 2³² − 1 or more, and the batched worker keeps δ in 32 bits",
            graph.name
        )));
    }
    let (delta, delta_why) = choose_delta(graph, delta)?;
    g.ctx.bind_to_thread().map_err(dev_err("cannot bind the CUDA context"))?;
    let (free, _) = g.ctx.mem_get_info().map_err(dev_err("cannot read free device memory"))?;
    let per = bytes_per_source(graph);
    let graph_bytes = 4 * (n as u64 + 1) + 8 * m as u64;
    let budget = (free as u64).saturating_sub(graph_bytes + (64 << 20)) / 2;
    let resident = g.multiprocessors as usize * (2048 / BLOCK as usize);
    let (k, k_why) = match k {
        Some(0) => return Err(SolveError::Device("a batch of 0 sources".into())),
        Some(k) if k as u64 * per > budget => {
            return Err(SolveError::Device(format!(
                "a batch of {k} sources needs {:.1} MiB on {}; half the free memory is {:.1} MiB",
                (k as u64 * per) as f64 / 1048576.0,
                g.name,
                budget as f64 / 1048576.0
            )));
        }
        Some(k) => (k, format!("K = {k}: given")),
        None => choose(resident, g.multiprocessors, budget / per, HOST_ROW_BYTES / (4 * n as u64)),
    };
    let stream = g.ctx.new_stream().map_err(dev_err("cannot create a CUDA stream"))?;
    let up = |v: &[u32], what: &str| stream.clone_htod(v).map_err(dev_err(&format!("cannot upload the {what}")));
    let offsets = up(&succ.offsets, "offsets")?;
    let targets = up(&succ.targets, "arc targets")?;
    let w: Vec<u32> = succ.weights.iter().map(|&w| w as u32).collect();
    let weights = up(&w, "arc weights")?;
    let alloc = |len: usize| stream.alloc_zeros::<u32>(len.max(1)).map_err(dev_err("cannot allocate the batch's rows"));
    let sources = alloc(k)?;
    let dist = alloc(k * n)?;
    let mark = alloc(k * n)?;
    let farflag = alloc(k * n)?;
    let lists = alloc(3 * k * n)?;
    let out = stream.alloc_zeros::<u64>(5 * k).map_err(dev_err("cannot allocate the batch's summaries"))?;
    let (kernel, summary) = compile(&g)?;
    Ok(BatchSolver {
        _gpu: g,
        stream,
        kernel,
        summary,
        n: n as u32,
        offsets,
        targets,
        weights,
        sources,
        dist,
        mark,
        farflag,
        lists,
        out,
        host: Vec::new(),
        k,
        delta,
        why: format!("{k_why}; {delta_why}"),
    })
}

/// The blocks' near-far step Δ (given, `BF` for none, or [`auto_delta`]) and why.
fn choose_delta(graph: &Graph, delta: Option<u32>) -> Result<(u32, String), SolveError> {
    Ok(match delta {
        Some(0) => return Err(SolveError::Device("a near-far step Δ of 0".into())),
        Some(BF) => (BF, "no near-far (frontier Bellman-Ford)".to_string()),
        Some(d) => (d, format!("Δ = {d}: given")),
        None => {
            let d = auto_delta(graph);
            (d, format!("Δ = {d}: {DELTA_MEANS} × the mean arc weight"))
        }
    })
}

/// K from the resident blocks and the memory bounds (rows that fit half the free device memory,
/// rows that fit [`HOST_ROW_BYTES`]), with the bound that chose it.
fn choose(resident: usize, sms: u32, device_rows: u64, host_rows: u64) -> (usize, String) {
    let want = 2 * resident;
    let per_sm = resident / sms.max(1) as usize;
    let fit = device_rows.min(host_rows).max(1) as usize;
    if want <= fit {
        (want, format!("K = {want}: 2 × {resident} resident blocks ({sms} SMs × {per_sm} of {BLOCK} threads)"))
    } else if device_rows <= host_rows {
        (fit, format!("K = {fit}: rows that fit half the free device memory (2 × resident = {want})"))
    } else {
        (fit, format!("K = {fit}: rows that fit {} GiB on the host (2 × resident = {want})", HOST_ROW_BYTES >> 30))
    }
}

fn compile(g: &Gpu) -> Result<(CudaFunction, CudaFunction), SolveError> {
    let mut f = g.compile_file("batch.cu", BATCH_SRC, &["batch_bf", "batch_summary"])?.into_iter();
    match (f.next(), f.next()) {
        (Some(bf), Some(summary)) => Ok((bf, summary)),
        _ => Err(SolveError::Device("kernels/batch.cu: an entry point is missing".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_is_twice_the_resident_blocks_unless_memory_bounds_it() {
        assert_eq!(choose(2112, 132, 100_000, 100_000).0, 4224);
        let (k, why) = choose(2112, 132, 1000, 5000);
        assert_eq!(k, 1000);
        assert!(why.contains("device memory"), "{why}");
        let (k, why) = choose(2112, 132, 5000, 300);
        assert_eq!(k, 300);
        assert!(why.contains("host"), "{why}");
    }
}
