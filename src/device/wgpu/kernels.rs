//! The WGSL kernels (`kernels/wgpu_*.wgsl`, compiled in with `include_str!`), their bind group
//! layouts, and a per-device cache of compiled pipelines.
//!
//! Each frontier module's source is the layout prelude ([`crate::device::layout::wgsl_prelude`]:
//! log slots and control words), `common.wgsl` (shared operators: the balanced advance, warp
//! classes), `common_frontier.wgsl` (the frontier family's bindings, counters, warp counting and
//! successors relax), the generated arc accessors and the kernel file, in that order.
//! The accessors hide how the CSR arc arrays are stored: one binding each for targets and
//! weights, or — when they exceed the adapter's `max_storage_buffer_binding_size` — `chunks`
//! bindings each of 2^`shift` arcs, selected with `i >> shift`.
//!
//! Pipelines are specialised by override constants (`WG` = block size, `INSTRUMENT`, `CRAUSER`,
//! and the fast path's `TEAM`, `RELAX_WG`, `RELAX_CAP`, `RELAX_FIXED`); the cache key holds
//! those and the arc layout, so steppers on different graphs with the same settings share
//! compiled pipelines. Layouts are explicit: a kernel file may declare one buffer under several
//! names with different access (`dist`, `dist_atomic`, `dist_ro`), each entry point uses one.

use super::Gpu;
use crate::algo::SolveError;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

/// Definitions every kernel file shares (no bindings).
pub(super) const COMMON: &str = include_str!("../../../kernels/common.wgsl");
/// The frontier kernels' bindings, log slots and counters.
const COMMON_FRONTIER: &str = include_str!("../../../kernels/common_frontier.wgsl");
const FRONTIER: &str = include_str!("../../../kernels/frontier.wgsl");
const RACY: &str = include_str!("../../../kernels/racy.wgsl");
const FAST: &str = include_str!("../../../kernels/fast.wgsl");

/// Most bindings the arc arrays may be split into (each of targets and weights).
pub const MAX_CHUNKS: u32 = 8;
/// First binding of the target chunks; weight chunks start at `TARGETS + MAX_CHUNKS`.
pub const TARGETS: u32 = 16;
pub const WEIGHTS: u32 = TARGETS + MAX_CHUNKS;

/// Binding numbers shared by all kernel files (see common.wgsl and each file's header).
pub mod bind {
    pub const PARAMS: u32 = 0;
    pub const DIST: u32 = 1;
    pub const STATUS: u32 = 2;
    pub const CTRL: u32 = 3;
    pub const LOG: u32 = 4;
    pub const OMEGA: u32 = 5;
    pub const PARTIALS: u32 = 6;
    pub const OFFSETS: u32 = 7;
    pub const STAMP: u32 = 8;
    pub const INDIRECT: u32 = 9;
    pub const FLIST: u32 = 10;
    pub const FCTL: u32 = 11;
    pub const ARGS_A: u32 = 12;
    pub const ARGS_B: u32 = 13;
}

/// How a binding is accessed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Uniform,
    Read,
    ReadWrite,
}

/// One kernel entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    Init,
    RelaxSucc,
    /// `relax=balanced`: a workgroup's frontier arcs spread over its invocations.
    RelaxSuccBalanced,
    RelaxPred,
    RelaxRacy,
    Minimum1,
    Minimum2,
    Update,
    FastSetup,
    FastRelaxSucc,
    FastRelaxPred,
    FastUpdate,
}

impl Kernel {
    fn source(self) -> &'static str {
        match self {
            Kernel::RelaxRacy => RACY,
            Kernel::FastSetup | Kernel::FastRelaxSucc | Kernel::FastRelaxPred | Kernel::FastUpdate => FAST,
            _ => FRONTIER,
        }
    }

    /// Entry point name (the CUDA twins use the same names).
    pub fn entry(self) -> &'static str {
        match self {
            Kernel::Init => "sssp_init",
            Kernel::RelaxSucc => "relax_succ",
            Kernel::RelaxSuccBalanced => "relax_succ_balanced",
            Kernel::RelaxPred => "relax_pred",
            Kernel::RelaxRacy => "relax_racy",
            Kernel::Minimum1 => "min1",
            Kernel::Minimum2 => "sssp_min2",
            Kernel::Update => "update",
            Kernel::FastSetup => "fast_setup",
            Kernel::FastRelaxSucc => "fast_relax_succ",
            Kernel::FastRelaxPred => "fast_relax_pred",
            Kernel::FastUpdate => "fast_update",
        }
    }

    /// Whether the kernel reads the arc arrays.
    pub fn uses_arcs(self) -> bool {
        matches!(
            self,
            Kernel::RelaxSucc
                | Kernel::RelaxSuccBalanced
                | Kernel::RelaxPred
                | Kernel::RelaxRacy
                | Kernel::FastRelaxSucc
                | Kernel::FastRelaxPred
        )
    }

    /// Whether the kernel belongs to the fast path (fast.wgsl).
    pub fn is_fast(self) -> bool {
        matches!(self, Kernel::FastSetup | Kernel::FastRelaxSucc | Kernel::FastRelaxPred | Kernel::FastUpdate)
    }

    /// The bindings of the kernel (besides the arc chunks), in its explicit layout. The access
    /// is the one of the name the entry point uses.
    pub fn bindings(self) -> &'static [(u32, Access)] {
        use Access::*;
        use bind::*;
        match self {
            Kernel::Init => &[(PARAMS, Uniform), (DIST, ReadWrite), (STATUS, ReadWrite)],
            Kernel::RelaxSucc | Kernel::RelaxSuccBalanced | Kernel::RelaxRacy => &[
                (PARAMS, Uniform),
                (DIST, ReadWrite),
                (STATUS, Read),
                (CTRL, Read),
                (LOG, ReadWrite),
                (OFFSETS, Read),
                (STAMP, ReadWrite),
            ],
            Kernel::RelaxPred => {
                &[(PARAMS, Uniform), (DIST, ReadWrite), (STATUS, Read), (CTRL, Read), (LOG, ReadWrite), (OFFSETS, Read)]
            }
            Kernel::Minimum1 => &[
                (PARAMS, Uniform),
                (DIST, Read),
                (STATUS, Read),
                (CTRL, Read),
                (LOG, ReadWrite),
                (OMEGA, Read),
                (PARTIALS, ReadWrite),
            ],
            Kernel::Minimum2 => {
                &[(PARAMS, Uniform), (CTRL, ReadWrite), (LOG, ReadWrite), (PARTIALS, ReadWrite), (INDIRECT, ReadWrite)]
            }
            Kernel::Update => &[(PARAMS, Uniform), (DIST, Read), (STATUS, ReadWrite), (CTRL, Read), (LOG, ReadWrite)],
            Kernel::FastSetup => {
                &[(PARAMS, Uniform), (DIST, Read), (STATUS, Read), (OMEGA, Read), (FLIST, ReadWrite), (FCTL, ReadWrite)]
            }
            Kernel::FastRelaxSucc | Kernel::FastRelaxPred => &[
                (PARAMS, Uniform),
                (DIST, ReadWrite),
                (STATUS, Read),
                (OMEGA, Read),
                (OFFSETS, Read),
                (FLIST, Read),
                (FCTL, ReadWrite),
            ],
            Kernel::FastUpdate => &[
                (PARAMS, Uniform),
                (DIST, Read),
                (STATUS, ReadWrite),
                (OMEGA, Read),
                (FLIST, ReadWrite),
                (FCTL, ReadWrite),
                (ARGS_A, ReadWrite),
                (ARGS_B, ReadWrite),
            ],
        }
    }
}

/// Fast-path shape: lanes per vertex and relax dispatch sizing (override constants).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FastShape {
    pub team: u32,
    /// Arcs per work item (64·team).
    pub chunk: u32,
    pub relax_wg: u32,
    pub relax_cap: u32,
    pub relax_fixed: u32,
}

/// How the arc arrays are laid out: `chunks` bindings of 2^`shift` arcs each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArcLayout {
    pub chunks: u32,
    pub shift: u32,
}

/// Everything a compiled pipeline depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineKey {
    pub kernel: Kernel,
    pub wg: u32,
    pub instrument: bool,
    pub crauser: bool,
    pub arcs: ArcLayout,
    pub fast: FastShape,
    pub bounds_checks: bool,
}

/// A compiled kernel and the layout its bind groups must follow.
pub struct Compiled {
    pub pipeline: wgpu::ComputePipeline,
    pub layout: wgpu::BindGroupLayout,
}

/// Per-device cache of compiled kernels.
pub struct Cache {
    pub(super) inner: Mutex<HashMap<PipelineKey, Arc<Compiled>>>,
}

/// The WGSL text of `kernel` for the arc layout.
pub fn source(kernel: Kernel, arcs: ArcLayout) -> String {
    let mut s = crate::device::layout::wgsl_prelude();
    s.reserve(COMMON.len() + COMMON_FRONTIER.len() + kernel.source().len() + 2048);
    s.push_str(COMMON);
    s.push_str(COMMON_FRONTIER);
    s.push_str(&arc_accessors(arcs));
    s.push_str(kernel.source());
    s
}

/// A batched family's kernel file with the log layouts of [`crate::device::layout`] and
/// `common.wgsl` prepended.
pub(super) fn with_common(kernel: &str) -> String {
    let mut s = crate::device::layout::wgsl_prelude();
    s.push_str(COMMON);
    s.push_str(kernel);
    s
}

/// `arc_target(i)` / `arc_weight(i)` over `chunks` bindings.
fn arc_accessors(a: ArcLayout) -> String {
    let mut s = String::from("\n// Generated by src/device/wgpu/kernels.rs: the arc arrays");
    let _ = writeln!(s, " in {} chunk(s) of 2^{} arcs.", a.chunks, a.shift);
    for (name, base) in [("targets", TARGETS), ("weights", WEIGHTS)] {
        for c in 0..a.chunks {
            let _ = writeln!(s, "@group(0) @binding({}) var<storage, read> {name}{c}: array<u32>;", base + c);
        }
    }
    for (f, name) in [("arc_target", "targets"), ("arc_weight", "weights")] {
        if a.chunks == 1 {
            let _ = writeln!(s, "fn {f}(i: u32) -> u32 {{ return {name}0[i]; }}");
        } else {
            let mask = (1u64 << a.shift) - 1;
            let _ = writeln!(s, "fn {f}(i: u32) -> u32 {{\n    let j = i & {mask}u;\n    switch i >> {}u {{", a.shift);
            for c in 0..a.chunks - 1 {
                let _ = writeln!(s, "        case {c}u: {{ return {name}{c}[j]; }}");
            }
            let _ = writeln!(s, "        default: {{ return {name}{}[j]; }}\n    }}\n}}", a.chunks - 1);
        }
    }
    s.push('\n');
    s
}

fn layout_entries(kernel: Kernel, arcs: ArcLayout) -> Vec<wgpu::BindGroupLayoutEntry> {
    let entry = |binding: u32, access: Access| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: match access {
                Access::Uniform => wgpu::BufferBindingType::Uniform,
                Access::Read => wgpu::BufferBindingType::Storage { read_only: true },
                Access::ReadWrite => wgpu::BufferBindingType::Storage { read_only: false },
            },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let mut v: Vec<_> = kernel.bindings().iter().map(|&(b, a)| entry(b, a)).collect();
    if kernel.uses_arcs() {
        for c in 0..arcs.chunks {
            v.push(entry(TARGETS + c, Access::Read));
            v.push(entry(WEIGHTS + c, Access::Read));
        }
    }
    v
}

/// The compiled pipeline for `key`, from the cache or built now (errors: shader validation,
/// pipeline creation).
pub fn get(gpu: &Gpu, key: PipelineKey) -> Result<Arc<Compiled>, SolveError> {
    if let Some(c) = gpu.cache.inner.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return Ok(c);
    }
    let what = format!("compiling {} (block {})", key.kernel.entry(), key.wg);
    let compiled = gpu.guarded(&what, || {
        let text = source(key.kernel, key.arcs);
        let desc = wgpu::ShaderModuleDescriptor {
            label: Some(key.kernel.entry()),
            source: wgpu::ShaderSource::Wgsl(text.into()),
        };
        let module = if key.bounds_checks {
            gpu.device.create_shader_module(desc)
        } else {
            // SAFETY: every buffer index in the kernels is either a thread index checked against
            // n (the arrays have n or n + 1 entries), a vertex id from the CSR (validated < n
            // when the graph was built), an arc index in offsets[v]..offsets[v + 1] ⊆ 0..m
            // (split by the accessors into in-range chunk indices), a log slot < the batch size
            // the host allocated, or a partial index < P.partials. Loops are bounded by those
            // ranges.
            unsafe { gpu.device.create_shader_module_trusted(desc, wgpu::ShaderRuntimeChecks::unchecked()) }
        };
        let layout = gpu.device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(key.kernel.entry()),
            entries: &layout_entries(key.kernel, key.arcs),
        });
        let pl = gpu.device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(key.kernel.entry()),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        // CRAUSER is declared by common_frontier.wgsl, so every frontier module takes it.
        let mut constants: Vec<(&str, f64)> =
            vec![("WG", key.wg as f64), ("INSTRUMENT", flag(key.instrument)), ("CRAUSER", flag(key.crauser))];
        if key.kernel.is_fast() {
            constants.push(("TEAM", key.fast.team as f64));
            constants.push(("RELAX_WG", key.fast.relax_wg as f64));
            constants.push(("RELAX_CAP", key.fast.relax_cap as f64));
            constants.push(("RELAX_FIXED", key.fast.relax_fixed as f64));
            constants.push(("CHUNK", key.fast.chunk as f64));
        }
        let pipeline = gpu.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(key.kernel.entry()),
            layout: Some(&pl),
            module: &module,
            entry_point: Some(key.kernel.entry()),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants,
                // Every kernel writes the workgroup memory it reads first.
                zero_initialize_workgroup_memory: false,
            },
            cache: None,
        });
        Compiled { pipeline, layout }
    })?;
    let compiled = Arc::new(compiled);
    if let Ok(mut m) = gpu.cache.inner.lock() {
        m.insert(key, Arc::clone(&compiled));
    }
    Ok(compiled)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validate(what: &str, text: &str) {
        let module =
            wgpu::naga::front::wgsl::parse_str(text).unwrap_or_else(|e| panic!("{what}: {}", e.emit_to_string(text)));
        wgpu::naga::valid::Validator::new(
            wgpu::naga::valid::ValidationFlags::all(),
            wgpu::naga::valid::Capabilities::all(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{what}: {}", e.emit_to_string(text)));
    }

    /// Every frontier kernel file, with one and with several arc chunks, passes naga's WGSL front
    /// end and validator (no adapter needed).
    #[test]
    fn kernels_parse_and_validate() {
        for kernel in [
            Kernel::Init,
            Kernel::RelaxSucc,
            Kernel::RelaxSuccBalanced,
            Kernel::RelaxPred,
            Kernel::RelaxRacy,
            Kernel::Minimum1,
            Kernel::Update,
            Kernel::FastSetup,
            Kernel::FastRelaxSucc,
        ] {
            for arcs in [ArcLayout { chunks: 1, shift: 31 }, ArcLayout { chunks: 3, shift: 10 }] {
                validate(&format!("{kernel:?}"), &source(kernel, arcs));
            }
        }
    }

    /// The batched families' kernels with the prelude and common.wgsl (their names must not
    /// clash with the shared operators or the frontier family's slots).
    #[test]
    fn batched_kernels_parse_and_validate() {
        validate("delta_stepping.wgsl", &with_common(include_str!("../../../kernels/delta_stepping.wgsl")));
        validate("bellman_ford.wgsl", &with_common(include_str!("../../../kernels/bellman_ford.wgsl")));
    }
}
