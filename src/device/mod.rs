//! Devices a solver can run on: the CPU, CUDA GPUs (through `cudarc`, loaded at run time) and
//! any GPU wgpu finds. A device that cannot be used is listed with the reason, never a crash.
//!
//! The device contract: [`devices`] lists every device once per process as a [`DeviceInfo`],
//! which declares what the device runs ([`DeviceInfo::supports`]: algorithm families and
//! options, with the reason when not) and which graphs it takes ([`DeviceInfo::fits`]: e.g.
//! 32-bit distances on wgpu, device memory on CUDA); [`make_stepper`] checks the same and builds
//! a [`Stepper`]. What the GPU devices share (request checks, block sizes, run headers, records
//! rebuilt from counters or from state copies) is in [`gpu`].

pub mod cuda;
pub mod driver;
pub mod family;
pub mod gpu;
pub mod gpu_delta;
pub mod layout;
pub mod roofline;
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
    /// Algorithms it runs (the registry filtered by [`DeviceInfo::supports`]; empty when the
    /// device is unavailable).
    pub algorithms: Vec<Algorithm>,
}

impl DeviceInfo {
    /// A listed device with the algorithms it supports filled in from the registry.
    pub fn new(id: DeviceId, name: String, status: Result<(), String>) -> DeviceInfo {
        let mut info = DeviceInfo { id, name, status, algorithms: Vec::new() };
        info.algorithms =
            Algorithm::all().iter().copied().filter(|&a| info.supports(a, &SolveOptions::default()).is_ok()).collect();
        info
    }

    /// Whether the device runs `algo` with `opts`' parameters; `Err` says why not (device
    /// unavailable, no kernels for that algorithm family, an option it cannot honour).
    pub fn supports(&self, algo: Algorithm, opts: &SolveOptions) -> Result<(), String> {
        self.status.clone()?;
        algo.validate(&opts.params)?;
        match self.id {
            DeviceId::Cpu => Ok(()),
            DeviceId::CpuParallel(_) => match algo.spec().cpu_parallel {
                Some(_) => Ok(()),
                None => Err(format!("{algo} has no multi-core version; it runs on one CPU thread")),
            },
            DeviceId::Cuda(_) => family::gpu_family(&self.name, algo).map(|_| ()),
            DeviceId::Wgpu(_) => {
                family::gpu_family(&self.name, algo)?;
                gpu::cuda_only_options(&self.name, algo, &opts.params)
            }
        }
    }

    /// Whether `graph` fits the device (distance width, memory); `Err` says why not.
    pub fn fits(&self, graph: &Graph, algo: Algorithm, opts: &SolveOptions) -> Result<(), String> {
        match self.id {
            DeviceId::Cpu | DeviceId::CpuParallel(_) => Ok(()),
            DeviceId::Cuda(i) => match family::gpu_family("CUDA", algo) {
                Ok(f) => {
                    (f.range)(graph, &family::CUDA)?;
                    cuda::fits_memory(i, graph, algo, (f.cuda_bytes)(graph, algo, opts))
                }
                Err(_) => Ok(()), // `supports` says why not
            },
            DeviceId::Wgpu(_) => match family::gpu_family("wgpu", algo) {
                Ok(f) => (f.range)(graph, &family::WGPU),
                Err(_) => Ok(()),
            },
        }
    }
}

/// Every device, probed once per process (CUDA and wgpu probing takes ~0.1–1 s).
pub fn devices() -> &'static [DeviceInfo] {
    static LIST: OnceLock<Vec<DeviceInfo>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut list = vec![DeviceInfo::new(DeviceId::Cpu, "CPU (1 thread)".into(), Ok(()))];
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        list.push(DeviceInfo::new(DeviceId::CpuParallel(0), format!("CPU (all {cores} cores)"), Ok(())));
        list.extend(cuda::list());
        list.extend(wgpu::list());
        list
    })
}

/// The listed device with id `device` (for `cpu-par:T`, the all-cores entry), if any.
pub fn find(device: DeviceId) -> Option<&'static DeviceInfo> {
    let key = match device {
        DeviceId::CpuParallel(_) => DeviceId::CpuParallel(0),
        d => d,
    };
    devices().iter().find(|d| d.id == key)
}

/// Creates a stepper for `algo` from `source` on `device`.
///
/// Errors: bad source ([`SolveError::BadSource`]), bad parameters or block sizes
/// ([`SolveError::Options`]), device unavailable, algorithm not supported there, graph too large
/// for the device, kernel build or upload failures ([`SolveError::Device`]).
pub fn make_stepper(
    device: DeviceId,
    graph: Arc<Graph>,
    algo: Algorithm,
    source: VertexId,
    opts: &SolveOptions,
) -> Result<Box<dyn Stepper>, SolveError> {
    gpu::common_checks(&graph, algo, source, opts)?;
    let gpu = |limits: &family::Limits<'_>, index: u32, graph: Arc<Graph>| {
        let (fam, run) = family::check(&graph, algo, opts, limits)?;
        Ok::<_, SolveError>((fam, family::Build { index, graph, algo, run, source, opts }))
    };
    match device {
        DeviceId::Cpu => crate::algo::cpu_stepper(graph, algo, source, opts),
        DeviceId::CpuParallel(threads) => match algo.spec().cpu_parallel {
            Some(build) => build(graph, algo, source, threads as usize, opts),
            None => Err(SolveError::Device(format!("{algo} has no multi-core version; it runs on one CPU thread"))),
        },
        DeviceId::Cuda(i) => {
            let (fam, build) = gpu(&family::CUDA, i, graph)?;
            cuda::stepper(fam.cuda, build)
        }
        DeviceId::Wgpu(i) => {
            let (fam, build) = gpu(&family::WGPU, i, graph)?;
            (fam.wgpu)(build)
        }
    }
}
