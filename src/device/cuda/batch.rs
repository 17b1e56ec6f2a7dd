//! Many sources at once on one CUDA device (seed 003's many-source run; issue 30 item 7; design
//! in `docs/gpu-worklist.md` §6): a [`BatchSolver`] uploads the graph once and solves K sources
//! per launch of `kernels/batch.cu`, one block per source, each with its own u32 δ row (K × n),
//! mark row and two frontier lists. A block relaxes its frontier round after round with only
//! `__syncthreads` between rounds, so a whole batch is one launch. A second launch summarises
//! every row on the device (`batch_summary`: reached, eccentricity, sum, checksum, as
//! [`crate::manysource::TaskResult::summarize`]), so only 32 bytes per source come back unless
//! the caller asks for the rows.
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

/// Device bytes per source: δ, mark and two frontier lists of n u32 each.
pub fn bytes_per_source(graph: &Graph) -> u64 {
    16 * graph.n() as u64
}

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
    lists: CudaSlice<u32>,
    out: CudaSlice<u64>,
    host: Vec<u32>,
    k: usize,
    why: String,
}

impl BatchSolver {
    /// Uploads `graph` to CUDA device `index`, compiles `kernels/batch.cu` and allocates K rows:
    /// `k` when given, else chosen (module docs); [`BatchSolver::why`] says which bound chose it.
    ///
    /// Errors ([`SolveError::Device`]): CUDA unavailable or no device `index`; a negative arc
    /// weight; arc weights summing to 2³² − 1 or more (δ is u32 here); `k` = 0 or K rows
    /// beyond the free device memory; NVRTC or driver failures.
    pub fn new(index: u32, graph: &Graph, k: Option<usize>) -> Result<BatchSolver, SolveError> {
        super::check_index(index)?;
        let g = gpu(index)?;
        guarded(|| build(g, graph, k))?
    }

    /// Sources per launch (K).
    pub fn batch_size(&self) -> usize {
        self.k
    }

    /// Why K is what it is, e.g. `K = 4224: 2 × 2112 resident blocks (132 SMs × 16)`.
    pub fn why(&self) -> &str {
        &self.why
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
            return Ok(BatchOut { summaries: Vec::new(), rows: None });
        }
        let summaries = guarded(|| self.launch(sources, rows))??;
        let rows = rows.then(|| &self.host[..count * self.n as usize]);
        Ok(BatchOut { summaries, rows })
    }

    fn launch(&mut self, sources: &[VertexId], rows: bool) -> Result<Vec<[u64; 4]>, SolveError> {
        let count = sources.len();
        let words = count * self.n as usize;
        self.stream
            .memcpy_htod(sources, &mut self.sources.slice_mut(..count))
            .map_err(dev_err("cannot upload the batch's sources"))?;
        let count32 = count as u32;
        let mut l = self.stream.launch_builder(&self.kernel);
        l.arg(&self.n).arg(&self.offsets).arg(&self.targets).arg(&self.weights).arg(&self.sources);
        l.arg(&count32).arg(&self.dist).arg(&self.mark).arg(&self.lists);
        // SAFETY: matches batch_bf(n, offsets, targets, weights, sources, count, dist, mark,
        // lists); dist and mark hold ≥ count × n words, lists ≥ 2 × count × n; every source < n.
        unsafe { l.launch(cfg(count32, BLOCK)) }.map_err(dev_err("batch kernel launch failed"))?;
        let mut l = self.stream.launch_builder(&self.summary);
        l.arg(&self.n).arg(&self.sources).arg(&count32).arg(&self.dist).arg(&self.out);
        // SAFETY: matches batch_summary(n, sources, count, dist, out); out holds ≥ 4 × count
        // words; threads past count return.
        unsafe { l.launch(cfg(count32.div_ceil(64), 64)) }.map_err(dev_err("batch summary launch failed"))?;
        let mut flat = vec![0u64; 4 * count];
        self.stream
            .memcpy_dtoh(&self.out.slice(..4 * count), &mut flat[..])
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
        Ok(flat.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect())
    }
}

/// What [`BatchSolver::solve`] returns.
pub struct BatchOut<'a> {
    /// Per source: reached, eccentricity, sum (saturating at `i64::MAX`), checksum.
    pub summaries: Vec<[u64; 4]>,
    /// The δ rows, row-major, when asked for.
    pub rows: Option<&'a [u32]>,
}

impl BatchSolver {}

fn build(g: Arc<Gpu>, graph: &Graph, k: Option<usize>) -> Result<BatchSolver, SolveError> {
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
    g.ctx.bind_to_thread().map_err(dev_err("cannot bind the CUDA context"))?;
    let (free, _) = g.ctx.mem_get_info().map_err(dev_err("cannot read free device memory"))?;
    let per = bytes_per_source(graph);
    let graph_bytes = 4 * (n as u64 + 1) + 8 * m as u64;
    let budget = (free as u64).saturating_sub(graph_bytes + (64 << 20)) / 2;
    let resident = g.multiprocessors as usize * (2048 / BLOCK as usize);
    let (k, why) = match k {
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
    let lists = alloc(2 * k * n)?;
    let out = stream.alloc_zeros::<u64>(4 * k).map_err(dev_err("cannot allocate the batch's summaries"))?;
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
        lists,
        out,
        host: Vec::new(),
        k,
        why,
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
