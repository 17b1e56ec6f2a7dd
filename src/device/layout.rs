//! The words the batched families' kernels share with the host — log entry widths, log slots,
//! control words, phase kinds — written once, here, as Rust constants (from
//! [`crate::device::driver::edge_parallel`] and [`crate::device::gpu_delta`]). Both loaders
//! prepend them to the kernel files: [`cuda_prelude`] as `#define`s (NVRTC), [`wgsl_prelude`]
//! as WGSL `const`s, so a kernel cannot disagree with the host; the tests below fail if a
//! kernel file defines one of these names itself or uses a `BF_` / `DS_` name the prelude
//! lacks.

use super::driver::edge_parallel as bf;
use super::gpu_delta as ds;

/// Bellman-Ford's log (`kernels/bellman_ford.{cu,wgsl}`).
pub const BELLMAN_FORD: &[(&str, usize)] = &[
    ("BF_LOG_WORDS", bf::LOG_WORDS),
    ("BF_LOWERED", bf::LOWERED),
    ("BF_FRESH", bf::FRESH),
    ("BF_NEGATIVE", bf::NEGATIVE),
    ("BF_LOWERED_ARCS", bf::LOWERED_ARCS),
    ("BF_FRESH_ARCS", bf::FRESH_ARCS),
];

/// Δ-stepping's phase kinds, control words and log (`kernels/delta_stepping.{cu,wgsl}`).
pub const DELTA_STEPPING: &[(&str, usize)] = &[
    ("DS_K_LIGHT", ds::K_LIGHT),
    ("DS_K_HEAVY", ds::K_HEAVY),
    ("DS_K_SELECT", ds::K_SELECT),
    ("DS_K_DONE", ds::K_DONE),
    ("DS_CTL_WORDS", ds::CTL_WORDS),
    ("DS_C_PHASE", ds::C_PHASE),
    ("DS_C_SLOT", ds::C_SLOT),
    ("DS_C_BUCKET", ds::C_BUCKET),
    ("DS_C_KIND", ds::C_KIND),
    ("DS_C_SERIAL", ds::C_SERIAL),
    ("DS_C_RSIZE", ds::C_RSIZE),
    ("DS_C_HEAVY_R", ds::C_HEAVY_R),
    ("DS_C_SETTLED", ds::C_SETTLED),
    ("DS_C_REACHED", ds::C_REACHED),
    ("DS_C_MINB", ds::C_MINB),
    ("DS_C_OPENED", ds::C_OPENED),
    ("DS_C_OPENED_HEAVY", ds::C_OPENED_HEAVY),
    ("DS_LOG_WORDS", ds::LOG_WORDS),
    ("DS_L_VALID", ds::L_VALID),
    ("DS_L_FRONTIER", ds::L_FRONTIER),
    ("DS_L_SCANNED", ds::L_SCANNED),
    ("DS_L_RELAXED", ds::L_RELAXED),
    ("DS_L_LOWERED", ds::L_LOWERED),
    ("DS_L_FRESH", ds::L_FRESH),
    ("DS_L_NEXT", ds::L_NEXT),
    ("DS_L_NEW_R", ds::L_NEW_R),
    ("DS_L_NEW_R_HEAVY", ds::L_NEW_R_HEAVY),
    ("DS_L_BUCKET", ds::L_BUCKET),
    ("DS_L_KIND", ds::L_KIND),
    ("DS_L_BUCKET_SIZE", ds::L_BUCKET_SIZE),
    ("DS_L_NEXT_FRONTIER", ds::L_NEXT_FRONTIER),
    ("DS_L_SETTLED_BEFORE", ds::L_SETTLED_BEFORE),
    ("DS_L_SETTLED", ds::L_SETTLED),
    ("DS_L_REACHED", ds::L_REACHED),
    ("DS_L_WARPS_FULL", ds::L_WARPS_FULL),
    ("DS_L_WARPS_MIXED", ds::L_WARPS_MIXED),
    ("DS_L_SERIAL", ds::L_SERIAL),
    ("DS_L_DONE", ds::L_DONE),
    ("DS_L_ARC_ITERS", ds::L_ARC_ITERS),
    ("DS_L_WARP_ITERS", ds::L_WARP_ITERS),
];

fn all() -> impl Iterator<Item = &'static (&'static str, usize)> {
    BELLMAN_FORD.iter().chain(DELTA_STEPPING)
}

/// The layouts as C `#define`s (plain integer literals), for NVRTC sources.
pub fn cuda_prelude() -> String {
    let mut s = String::from("// Generated from src/device/layout.rs: log layouts and slots shared with the host.\n");
    for (name, v) in all() {
        s.push_str(&format!("#define {name} {v}\n"));
    }
    s
}

/// The layouts as WGSL `const`s (u32).
pub fn wgsl_prelude() -> String {
    let mut s = String::from("// Generated from src/device/layout.rs: log layouts and slots shared with the host.\n");
    for (name, v) in all() {
        s.push_str(&format!("const {name}: u32 = {v}u;\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kernel file, by name.
    fn kernels() -> Vec<(&'static str, &'static str)> {
        vec![
            ("bellman_ford.cu", include_str!("../../kernels/bellman_ford.cu")),
            ("bellman_ford.wgsl", include_str!("../../kernels/bellman_ford.wgsl")),
            ("delta_stepping.cu", include_str!("../../kernels/delta_stepping.cu")),
            ("delta_stepping.wgsl", include_str!("../../kernels/delta_stepping.wgsl")),
            ("common.cuh", include_str!("../../kernels/common.cuh")),
            ("common.wgsl", include_str!("../../kernels/common.wgsl")),
            ("frontier.cu", include_str!("../../kernels/frontier.cu")),
            ("frontier.wgsl", include_str!("../../kernels/frontier.wgsl")),
            ("fast.cu", include_str!("../../kernels/fast.cu")),
            ("fast.wgsl", include_str!("../../kernels/fast.wgsl")),
            ("racy.cu", include_str!("../../kernels/racy.cu")),
            ("racy.wgsl", include_str!("../../kernels/racy.wgsl")),
            ("seed004.cu", include_str!("../../kernels/seed004.cu")),
        ]
    }

    /// Identifiers of `text` outside `//` comments.
    fn identifiers(text: &str) -> Vec<&str> {
        text.lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .flat_map(|l| l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
            .filter(|w| !w.is_empty())
            .collect()
    }

    #[test]
    fn no_kernel_defines_a_layout_name_of_its_own() {
        for (file, text) in kernels() {
            for line in text.lines().map(|l| l.split("//").next().unwrap_or("").trim()) {
                for (name, _) in all() {
                    let defines = line.starts_with(&format!("#define {name} "))
                        || line.starts_with(&format!("const {name}:"))
                        || line.starts_with(&format!("const {name} "));
                    assert!(!defines, "{file} defines {name} itself: `{line}` (it comes from src/device/layout.rs)");
                }
            }
        }
    }

    #[test]
    fn every_layout_name_a_kernel_uses_is_in_the_prelude() {
        let known: Vec<&str> = all().map(|(n, _)| *n).collect();
        for (file, text) in kernels() {
            for w in identifiers(text) {
                let layout_like =
                    ["BF_LOG", "BF_LOWERED", "BF_FRESH", "BF_NEGATIVE", "DS_K_", "DS_C_", "DS_L_", "DS_LOG"]
                        .iter()
                        .any(|p| w.starts_with(p));
                assert!(!layout_like || known.contains(&w), "{file} uses {w}, which src/device/layout.rs lacks");
            }
        }
    }

    #[test]
    fn the_preludes_carry_the_host_values() {
        let cuda = cuda_prelude();
        let wgsl = wgsl_prelude();
        assert!(cuda.contains(&format!("#define DS_LOG_WORDS {}\n", ds::LOG_WORDS)));
        assert!(wgsl.contains(&format!("const BF_LOG_WORDS: u32 = {}u;\n", bf::LOG_WORDS)));
        assert!(wgsl.contains(&format!("const DS_L_SERIAL: u32 = {}u;\n", ds::L_SERIAL)));
        // No two names of one family share a log slot except the counts and widths.
        for table in [BELLMAN_FORD, DELTA_STEPPING] {
            for prefix in ["BF_L", "BF_F", "BF_N", "DS_L_", "DS_C_"] {
                let mut seen: Vec<usize> =
                    table.iter().filter(|(n, _)| n.starts_with(prefix)).map(|&(_, v)| v).collect();
                let len = seen.len();
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), len, "two {prefix}* slots share a word");
            }
        }
    }
}
