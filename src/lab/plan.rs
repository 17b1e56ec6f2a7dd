//! An experiment expanded into what runs: graphs (families expanded by size and degree), the
//! sources of each graph, and cells (device × algorithm × block sizes × cache preference), with
//! the reason a cell is skipped when its device is unavailable or does not run the algorithm.
//!
//! The lab's device adapter lives here too ([`device_status`], [`threads`]): what the lab needs
//! to know of a device, Boost's harness included, before anything runs.

use super::boost;
use super::experiment::{Experiment, ExperimentKind, LabDevice, SourceSpec};
use super::graphs::{GraphPlan, expand};
use crate::algo::{AlgoChoice, Algorithm, BlockSizes, CachePreference};
use crate::device::{DeviceId, devices};
use crate::graph::{Graph, VertexId};
use anyhow::{Context, Result};

/// Every graph of `exp`, in file order.
pub fn plan_graphs(exp: &Experiment) -> Result<Vec<GraphPlan>> {
    let mut out = Vec::new();
    for (i, g) in exp.graphs.iter().enumerate() {
        out.extend(expand(g).with_context(|| format!("graph entry {}", i + 1))?);
    }
    Ok(out)
}

/// The sources of `g` the experiment asks for: its ids, or `count` distinct random vertices
/// with at least one out-arc (seeded; fewer when the graph has fewer such vertices, vertex 0
/// when it has none).
pub fn sources(spec: &SourceSpec, g: &Graph) -> Vec<VertexId> {
    match spec {
        SourceSpec::Random { count, seed } => pick_sources(g, *count, *seed),
        SourceSpec::Ids(ids) => ids.clone(),
    }
}

pub use crate::manysource::pick_sources;

/// One configuration to run on every source of a graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Where it runs.
    pub device: LabDevice,
    /// `None` for Boost (its own Dijkstra).
    /// The algorithm with its parameter values; `None` for Boost (its own Dijkstra).
    pub algorithm: Option<AlgoChoice>,
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
            return (name, boost::harness().map(|_| vec![crate::algo::DIJKSTRA]));
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

/// Why a cell of seed 004's GPU-only variants is left out on `device`: wgpu refuses them, and
/// on the CPU they run the very iteration of the plain choice (a duplicate cell).
fn variant_skip(device: LabDevice, a: &AlgoChoice) -> Option<String> {
    let LabDevice::Solver(id) = device else { return None };
    let refused = crate::device::gpu::cuda_only_options(&id.to_string(), a.algorithm, &a.params).err()?;
    match id {
        DeviceId::Cuda(_) => None,
        DeviceId::Cpu | DeviceId::CpuParallel(_) => {
            Some(format!("`{a}` only changes the CUDA kernels; on {id} it is the plain `{}`", a.algorithm))
        }
        DeviceId::Wgpu(_) => Some(refused),
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
            (Err(reason), _) => out.extend(
                exp.algorithms.iter().map(|a| cell(Some(a.clone()), b0, c0, Some(format!("unavailable: {reason}")))),
            ),
            (Ok(algs), _) => {
                for a in &exp.algorithms {
                    if !algs.contains(&a.algorithm) {
                        out.push(cell(Some(a.clone()), b0, c0, Some(format!("`{a}` does not run on {device}"))));
                        continue;
                    }
                    if exp.exclude.iter().any(|x| x.device == device && x.algorithm == *a) {
                        out.push(cell(
                            Some(a.clone()),
                            b0,
                            c0,
                            Some(format!("`{a}` on {device}: left out (`exclude`)")),
                        ));
                        continue;
                    }
                    if let Some(why) = variant_skip(device, a) {
                        out.push(cell(Some(a.clone()), b0, c0, Some(why)));
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
                            out.push(cell(Some(a.clone()), b, c, None));
                        }
                    }
                }
            }
        }
    }
    out
}
