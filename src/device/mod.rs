//! Devices a solver can run on: the CPU, CUDA GPUs (through `cudarc`, loaded at run time) and
//! any GPU wgpu finds. A device that cannot be used is listed with the reason, never a crash.

pub mod cuda;
pub mod wgpu;

use crate::algo::{Algorithm, SolveError, SolveOptions, Stepper};
use crate::graph::{Graph, VertexId};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

/// Which device runs a solver: `cpu`, `cpu-par[:THREADS]`, `cuda:N` or `wgpu:N` on the command
/// line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DeviceId {
    /// One CPU thread.
    Cpu,
    /// All cores (0) or the given number of threads, through rayon.
    CpuParallel(u32),
    Cuda(u32),
    Wgpu(u32),
}

impl fmt::Display for DeviceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceId::Cpu => write!(f, "cpu"),
            DeviceId::CpuParallel(0) => write!(f, "cpu-par"),
            DeviceId::CpuParallel(t) => write!(f, "cpu-par:{t}"),
            DeviceId::Cuda(i) => write!(f, "cuda:{i}"),
            DeviceId::Wgpu(i) => write!(f, "wgpu:{i}"),
        }
    }
}

impl FromStr for DeviceId {
    type Err = String;
    /// Parses `cpu`, `cpu-par[:THREADS]`, `cuda[:N]`, `wgpu[:N]` (N defaults to 0; 0 threads
    /// means every core).
    fn from_str(s: &str) -> Result<Self, String> {
        let (kind, index) = match s.split_once(':') {
            Some((k, i)) => (k, i.parse::<u32>().map_err(|_| format!("device `{s}`: `{i}` is not an index"))?),
            None => (s, 0),
        };
        match kind {
            "cpu" => Ok(DeviceId::Cpu),
            "cpu-par" => Ok(DeviceId::CpuParallel(index)),
            "cuda" => Ok(DeviceId::Cuda(index)),
            "wgpu" => Ok(DeviceId::Wgpu(index)),
            _ => Err(format!("unknown device `{s}`; expected cpu, cpu-par[:THREADS], cuda[:N] or wgpu[:N]")),
        }
    }
}

/// A device as listed in the UI and by `sssp-lab check`.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    pub id: DeviceId,
    /// E.g. "CPU (1 thread)", "CUDA: NVIDIA H100 80GB HBM3", "wgpu Vulkan: llvmpipe (software)".
    pub name: String,
    /// `Err(reason)` when the device exists in the list but cannot run solvers, e.g.
    /// "CUDA unavailable: libcuda.so not found".
    pub status: Result<(), String>,
    /// Algorithms it runs.
    pub algorithms: Vec<Algorithm>,
}

/// Every device, probed once per process (CUDA and wgpu probing takes ~0.1–1 s).
pub fn devices() -> &'static [DeviceInfo] {
    static LIST: OnceLock<Vec<DeviceInfo>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut list = vec![DeviceInfo {
            id: DeviceId::Cpu,
            name: "CPU (1 thread)".into(),
            status: Ok(()),
            algorithms: Algorithm::ALL.to_vec(),
        }];
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        list.push(DeviceInfo {
            id: DeviceId::CpuParallel(0),
            name: format!("CPU (all {cores} cores)"),
            status: Ok(()),
            algorithms: Algorithm::ALL.into_iter().filter(|a| a.threshold().is_some()).collect(),
        });
        list.extend(cuda::list());
        list.extend(wgpu::list());
        list
    })
}

/// Creates a stepper for `algo` from `source` on `device`.
///
/// Errors: bad source, device unavailable, algorithm not supported there, graph too large for
/// the device, kernel build or upload failures.
pub fn make_stepper(
    device: DeviceId,
    graph: Arc<Graph>,
    algo: Algorithm,
    source: VertexId,
    opts: &SolveOptions,
) -> Result<Box<dyn Stepper>, SolveError> {
    if source as usize >= graph.n() {
        return Err(SolveError::BadSource(source as u64, graph.n()));
    }
    opts.block.validate().map_err(SolveError::Options)?;
    match device {
        DeviceId::Cpu => crate::algo::cpu_stepper(graph, algo, source, opts),
        DeviceId::CpuParallel(threads) => Ok(Box::new(crate::algo::ParallelFrontierStepper::new(
            graph,
            algo,
            source,
            threads as usize,
            opts.clone(),
        )?)),
        DeviceId::Cuda(i) => cuda::stepper(i, graph, algo, source, opts),
        DeviceId::Wgpu(i) => wgpu::stepper(i, graph, algo, source, opts),
    }
}
