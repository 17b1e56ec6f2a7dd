//! An experiment expanded into what runs: graphs (families expanded by size and degree) and
//! cells (device × algorithm × block sizes × cache preference), with the reason a cell is
//! skipped when its device is unavailable or does not run the algorithm.

use super::experiment::{Experiment, ExperimentKind, GraphEntry, LabDevice};
use crate::algo::{Algorithm, BlockSizes, CachePreference};
use crate::device::{DeviceId, devices};
use crate::generate::GeneratorSpec;
use crate::graph::{Graph, WeightRule};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// Where a planned graph comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum GraphOrigin {
    File { path: PathBuf, weights: WeightRule },
    Generate(GeneratorSpec),
}

/// One graph of an experiment, with the labels the reports group it by.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphPlan {
    /// File or generator.
    pub origin: GraphOrigin,
    /// Report group (`walshaw`, `fanout`, …).
    pub group: String,
    /// Row label of the size × degree tables, e.g. `24k` (or the file name).
    pub size_label: String,
    /// Column label, e.g. `deg2` (empty for files).
    pub degree_label: String,
}

/// `24576` → `24k`, `1048576` → `1M`.
pub fn short_n(n: usize) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{}M", n >> 20)
    } else if n >= 1000 {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    }
}

fn labels(spec: &GeneratorSpec) -> (String, String) {
    match spec {
        GeneratorSpec::Martin { n, .. } => (short_n(*n), "deg7".into()),
        GeneratorSpec::Fanout { n, d, .. } => (short_n(*n), format!("deg{d}")),
        GeneratorSpec::Rmat { scale, edge_factor, .. } => (format!("scale {scale}"), format!("ef{edge_factor}")),
        GeneratorSpec::Grid { width, height, .. } => (format!("{width}×{height}"), "grid".into()),
        GeneratorSpec::Counterexample { n } => (short_n(*n), "counterexample".into()),
        GeneratorSpec::Teaching => ("5".into(), "teaching".into()),
    }
}

fn resize(spec: &GeneratorSpec, size: Option<usize>, degree: Option<usize>) -> Result<GeneratorSpec> {
    let mut s = spec.clone();
    match &mut s {
        GeneratorSpec::Martin { n, .. } | GeneratorSpec::Counterexample { n } => {
            if degree.is_some() {
                bail!("`degrees` applies to fanout and rmat families only");
            }
            *n = size.unwrap_or(*n);
        }
        GeneratorSpec::Fanout { n, d, .. } => {
            *n = size.unwrap_or(*n);
            *d = degree.unwrap_or(*d);
        }
        GeneratorSpec::Rmat { scale, edge_factor, .. } => {
            *scale = size.map_or(Ok(*scale), u32::try_from).context("rmat scale")?;
            *edge_factor = degree.map_or(Ok(*edge_factor), u32::try_from).context("rmat edge factor")?;
        }
        GeneratorSpec::Grid { width, height, .. } => {
            if degree.is_some() {
                bail!("`degrees` applies to fanout and rmat families only");
            }
            if let Some(side) = size {
                (*width, *height) = (side, side);
            }
        }
        GeneratorSpec::Teaching => {
            if size.is_some() || degree.is_some() {
                bail!("the teaching graph has no size or degree to expand");
            }
        }
    }
    Ok(s)
}

/// Expands one entry: a file, or a generator times its `sizes` × `degrees`.
///
/// Errors: neither or both of `file` / `generate`; an expansion the family has no parameter for.
pub fn expand(entry: &GraphEntry) -> Result<Vec<GraphPlan>> {
    match (&entry.file, &entry.generate) {
        (Some(path), None) => {
            if !entry.sizes.is_empty() || !entry.degrees.is_empty() {
                bail!("`sizes` and `degrees` expand generated families, not files");
            }
            let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
            let name = name.trim_end_matches(".gz").to_string();
            Ok(vec![GraphPlan {
                origin: GraphOrigin::File { path: path.clone(), weights: entry.weights },
                group: entry.group.clone().unwrap_or_else(|| "file".into()),
                size_label: name,
                degree_label: String::new(),
            }])
        }
        (None, Some(spec)) => {
            let sizes: Vec<Option<usize>> =
                if entry.sizes.is_empty() { vec![None] } else { entry.sizes.iter().copied().map(Some).collect() };
            let degrees: Vec<Option<usize>> =
                if entry.degrees.is_empty() { vec![None] } else { entry.degrees.iter().copied().map(Some).collect() };
            let mut out = Vec::new();
            for &size in &sizes {
                for &degree in &degrees {
                    let s = resize(spec, size, degree)?;
                    let (size_label, degree_label) = labels(&s);
                    let group = entry.group.clone().unwrap_or_else(|| s.family().into());
                    out.push(GraphPlan { origin: GraphOrigin::Generate(s), group, size_label, degree_label });
                }
            }
            Ok(out)
        }
        _ => bail!("a graph entry needs exactly one of `file` and `generate`"),
    }
}

/// Every graph of `exp`, in file order.
pub fn plan_graphs(exp: &Experiment) -> Result<Vec<GraphPlan>> {
    let mut out = Vec::new();
    for (i, g) in exp.graphs.iter().enumerate() {
        out.extend(expand(g).with_context(|| format!("graph entry {}", i + 1))?);
    }
    Ok(out)
}

/// Finds a relative path: as given (working directory), then beside the experiment file, in
/// its parent, and in the crate root. Absolute paths are returned unchanged.
pub fn resolve_path(path: &Path, exp_dir: &Path) -> PathBuf {
    if path.is_absolute() || path.exists() {
        return path.to_path_buf();
    }
    let mut candidates = vec![exp_dir.join(path)];
    if let Some(parent) = exp_dir.parent() {
        candidates.push(parent.join(path));
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(path));
    candidates.into_iter().find(|p| p.exists()).unwrap_or_else(|| path.to_path_buf())
}

impl GraphPlan {
    /// Short name before the graph is built (file name or generator spec).
    pub fn label(&self) -> String {
        match &self.origin {
            GraphOrigin::File { .. } => self.size_label.clone(),
            GraphOrigin::Generate(s) => s.to_string(),
        }
    }

    /// Loads or generates the graph. Errors: the loader's or generator's, with the label.
    pub fn build(&self, exp_dir: &Path) -> Result<Graph> {
        match &self.origin {
            GraphOrigin::File { path, weights } => {
                let p = resolve_path(path, exp_dir);
                let opts = crate::formats::LoadOptions { format: None, weights: *weights };
                crate::formats::load(&p, &opts).with_context(|| format!("loading {}", p.display()))
            }
            GraphOrigin::Generate(s) => {
                s.generate().map_err(anyhow::Error::msg).with_context(|| format!("generating {s}"))
            }
        }
    }
}

/// One configuration to run on every source of a graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Where it runs.
    pub device: LabDevice,
    /// `None` for Boost (its own Dijkstra).
    pub algorithm: Option<Algorithm>,
    /// Threads per block of each kernel.
    pub block: BlockSizes,
    /// L1 / shared-memory preference (CUDA).
    pub cache: CachePreference,
    /// Device name as listed (or the reason it is not).
    pub device_name: String,
    /// Why the cell does not run (device unavailable, algorithm not supported there).
    pub skip: Option<String>,
}

/// Name of a device and the algorithms it runs, or why it cannot run anything.
pub fn device_status(d: LabDevice) -> (String, Result<Vec<Algorithm>, String>) {
    let id = match d {
        LabDevice::Boost => {
            let name = "Boost dijkstra_shortest_paths (CSR)".to_string();
            return (name, super::boost::harness().map(|_| vec![crate::algo::DIJKSTRA]));
        }
        LabDevice::Solver(id) => id,
    };
    // The CPU devices as `devices()` lists them, without probing CUDA and wgpu (slow, noisy)
    // for experiments that use none.
    match id {
        DeviceId::Cpu => return ("CPU (1 thread)".into(), Ok(Algorithm::all().to_vec())),
        DeviceId::CpuParallel(t) => {
            let name = match threads(d) {
                Some(k) if t > 0 => format!("CPU ({k} threads)"),
                Some(k) => format!("CPU (all {k} cores)"),
                None => "CPU".into(),
            };
            return (name, Ok(Algorithm::all().iter().copied().filter(|a| a.spec().cpu_parallel.is_some()).collect()));
        }
        _ => {}
    }
    let listed = devices().iter().find(|i| i.id == id);
    let Some(info) = listed else {
        let ids: Vec<String> = devices().iter().filter(|i| i.status.is_ok()).map(|i| i.id.to_string()).collect();
        return (id.to_string(), Err(format!("{id} is not listed on this machine (usable: {})", ids.join(", "))));
    };
    (info.name.clone(), info.status.clone().map(|()| info.algorithms.clone()))
}

/// Threads a device runs on: 1 for `cpu` and Boost, N (or every core) for `cpu-par`, `None`
/// for GPUs.
pub fn threads(d: LabDevice) -> Option<u32> {
    match d {
        LabDevice::Boost | LabDevice::Solver(DeviceId::Cpu) => Some(1),
        LabDevice::Solver(DeviceId::CpuParallel(0)) => {
            Some(std::thread::available_parallelism().map_or(1, |c| c.get()) as u32)
        }
        LabDevice::Solver(DeviceId::CpuParallel(t)) => Some(t),
        LabDevice::Solver(_) => None,
    }
}

/// Every cell of `exp`, in device-major order.
pub fn cells(exp: &Experiment) -> Vec<Cell> {
    let blocks = exp.block.configs();
    let mut out = Vec::new();
    for &device in &exp.devices {
        let (device_name, status) = device_status(device);
        let gpu = matches!(device, LabDevice::Solver(DeviceId::Cuda(_) | DeviceId::Wgpu(_)));
        let all_blocks = gpu || exp.kind == ExperimentKind::KernelCharacterization;
        let cell = |algorithm, block, cache, skip| Cell {
            device,
            algorithm,
            block,
            cache,
            device_name: device_name.clone(),
            skip,
        };
        let (b0, c0) = (blocks.first().copied().unwrap_or_default(), exp.cache[0]);
        match (&status, device) {
            (Err(reason), LabDevice::Boost) => out.push(cell(None, b0, c0, Some(reason.clone()))),
            (Ok(_), LabDevice::Boost) => out.push(cell(None, b0, c0, None)),
            (Err(reason), _) => out
                .extend(exp.algorithms.iter().map(|&a| cell(Some(a), b0, c0, Some(format!("unavailable: {reason}"))))),
            (Ok(algs), _) => {
                for &a in &exp.algorithms {
                    if !algs.contains(&a) {
                        out.push(cell(Some(a), b0, c0, Some(format!("`{a}` does not run on {device}"))));
                        continue;
                    }
                    let bs = if all_blocks { &blocks[..] } else { &blocks[..1.min(blocks.len())] };
                    let cs = if matches!(device, LabDevice::Solver(DeviceId::Cuda(_))) {
                        &exp.cache[..]
                    } else {
                        &exp.cache[..1]
                    };
                    for &b in bs {
                        for &c in cs {
                            out.push(cell(Some(a), b, c, None));
                        }
                    }
                }
            }
        }
    }
    out
}
