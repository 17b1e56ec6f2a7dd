//! Boost's `dijkstra_shortest_paths` as a baseline (seed 000 §5.2D and Fig. 11): the subprocess
//! harness. This module knows nothing of experiments; the lab's device adapter
//! ([`super::plan::device_status`]) and the worker's Boost cells use it.
//!
//! The harness `bench/boost/dijkstra_boost.cpp` (embedded here, so an installed binary can build
//! it too) is compiled once per process with `g++ -O3` into `~/.cache/sssp-lab/boost/`
//! ([`crate::assets::cache_dir`], never the build tree) when the Boost Graph headers are
//! installed (Debian `libboost-graph-dev`). The runner writes the graph as a plain DIMACS `.gr`
//! with [`crate::formats::write_dimacs`], starts one harness process per graph for all its
//! sources and repetitions, reads one JSON line per run, and the worker checks the distances
//! file each run leaves against sequential Dijkstra.

use crate::graph::{Distance, Graph};
use crate::jobs::{Job, NoEvent, no_repaint};
use serde::Deserialize;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The header whose presence means Boost.Graph is installed.
pub const BOOST_HEADER: &str = "/usr/include/boost/graph/dijkstra_shortest_paths.hpp";

const SOURCE: &str = include_str!("../../bench/boost/dijkstra_boost.cpp");

/// The compiled harness, built on first call (g++ -O3, a few seconds); `Err(reason)` when
/// Boost or g++ is missing or the build fails. `SSSP_LAB_BOOST_BIN=PATH` names a prebuilt one.
pub fn harness() -> Result<PathBuf, String> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT.get_or_init(build).clone()
}

fn build() -> Result<PathBuf, String> {
    // A prebuilt harness (e.g. copied to a machine without Boost headers or g++).
    if let Some(bin) = std::env::var_os("SSSP_LAB_BOOST_BIN").map(PathBuf::from) {
        return if bin.is_file() {
            Ok(bin)
        } else {
            Err(format!("SSSP_LAB_BOOST_BIN={} is not a file", bin.display()))
        };
    }
    if !Path::new(BOOST_HEADER).exists() {
        return Err(format!(
            "Boost.Graph is not installed ({BOOST_HEADER} missing; apt-get install libboost-graph-dev)"
        ));
    }
    // A folder of our own, not the build tree: an installed binary builds its harness too.
    let dir = crate::assets::cache_dir().join("boost");
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let bin = dir.join("dijkstra_boost");
    let src = dir.join("dijkstra_boost.cpp");
    // Rebuild when the embedded source differs from the one the binary was built from.
    let same = std::fs::read_to_string(&src).is_ok_and(|s| s == SOURCE) && bin.exists();
    if same {
        return Ok(bin);
    }
    let tmp_src = dir.join(format!("dijkstra_boost.{}.cpp", std::process::id()));
    let tmp_bin = dir.join(format!("dijkstra_boost.{}", std::process::id()));
    std::fs::write(&tmp_src, SOURCE).map_err(|e| format!("writing {}: {e}", tmp_src.display()))?;
    let out = Command::new("g++")
        .args(["-O3", "-std=c++17", "-o"])
        .arg(&tmp_bin)
        .arg(&tmp_src)
        .output()
        .map_err(|e| format!("running g++: {e}"))?;
    if !out.status.success() {
        let _ = std::fs::remove_file(&tmp_src);
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "g++ failed to build the Boost harness: {}",
            err.lines().take(5).collect::<Vec<_>>().join(" / ")
        ));
    }
    // Renames are atomic: concurrent builders (parallel test processes) never see half a file.
    std::fs::rename(&tmp_bin, &bin).map_err(|e| format!("installing {}: {e}", bin.display()))?;
    std::fs::rename(&tmp_src, &src).map_err(|e| format!("installing {}: {e}", src.display()))?;
    Ok(bin)
}

/// One run as the harness reports it.
#[derive(Clone, Debug, Deserialize)]
pub struct BoostRun {
    /// Source vertex (0-based).
    pub source: u32,
    /// Repetition (0-based).
    pub rep: u32,
    /// Wall time of `dijkstra_shortest_paths`, ms.
    pub ms: f64,
    /// Peak resident set of the harness process during the run, bytes.
    pub peak_rss_bytes: u64,
    /// Vertices reached, the source included.
    pub reached: u64,
    /// Sum of the finite distances (mod 2⁶⁴).
    pub checksum: u64,
    /// Boost version, e.g. `1_74`.
    pub boost_version: String,
    /// Distances of this run: n little-endian u64, `u64::MAX` = unreachable.
    pub dist_file: PathBuf,
}

/// A running harness process.
pub struct BoostSession {
    child: Child,
    /// Reads the harness's stdout and streams its lines (a pipe read blocks, so it has a job
    /// of its own).
    lines: Job<(), std::io::Result<String>>,
}

impl BoostSession {
    /// Starts the harness on `graph_gr` (plain DIMACS) for `sources` × `reps`, writing the
    /// distance files into `dist_dir`. Errors: the process cannot start.
    pub fn start(bin: &Path, graph_gr: &Path, dist_dir: &Path, reps: u32, sources: &[u32]) -> std::io::Result<Self> {
        let mut child = Command::new(bin)
            .arg(graph_gr)
            .arg(dist_dir)
            .arg(reps.to_string())
            .args(sources.iter().map(|s| s.to_string()))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let out = child.stdout.take();
        let lines = Job::streaming("reading the Boost harness", no_repaint(), move |jc| {
            for line in out.into_iter().flat_map(|o| BufReader::new(o).lines()) {
                if !jc.send(line) {
                    break;
                }
            }
        });
        Ok(BoostSession { child, lines })
    }

    /// The next run, `Ok(None)` at the end. Polls `cancel` every 50 ms and kills the process
    /// when it is set (then `Err("cancelled")`). Errors: the harness failed (its stderr), or
    /// printed something that is not a run.
    pub fn next(&mut self, cancel: &AtomicBool) -> Result<Option<BoostRun>, String> {
        loop {
            if cancel.load(Ordering::Relaxed) {
                let _ = self.child.kill();
                return Err("cancelled".into());
            }
            match self.lines.recv_timeout(Duration::from_millis(50)) {
                Ok(Ok(line)) => {
                    return serde_json::from_str(&line)
                        .map(Some)
                        .map_err(|e| format!("Boost harness printed `{line}`: {e}"));
                }
                Ok(Err(e)) => return Err(format!("reading the Boost harness's output: {e}")),
                Err(NoEvent::Timeout) => continue,
                Err(NoEvent::Finished) => break,
            }
        }
        let status = self.child.wait().map_err(|e| format!("waiting for the Boost harness: {e}"))?;
        if status.success() {
            return Ok(None);
        }
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        Err(format!("Boost harness failed ({status}): {}", err.trim()))
    }
}

impl Drop for BoostSession {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Reads a distances file the harness wrote (n little-endian u64). Errors: I/O, a length that
/// is not a multiple of 8.
pub fn read_distances(path: &Path) -> std::io::Result<Vec<Distance>> {
    let bytes = std::fs::read(path)?;
    if bytes.len() % 8 != 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "distance file length is not a multiple of 8",
        ));
    }
    Ok(bytes
        .chunks_exact(8)
        .map(|c| crate::device::gpu::widen_u64(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])))
        .collect())
}

/// A graph written as a plain DIMACS `.gr` in a fresh temporary folder, removed on drop.
pub struct TempGr {
    /// The folder (the harness writes its distance files here too).
    pub dir: PathBuf,
    /// The `.gr` file.
    pub gr: PathBuf,
}

impl TempGr {
    /// Writes `g` into a fresh folder under the system temp dir. Errors: I/O.
    pub fn write(g: &Graph) -> Result<TempGr, String> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let k = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("sssp-lab-boost-{}-{k}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        let gr = dir.join("graph.gr");
        let t = TempGr { dir, gr };
        crate::formats::write_dimacs(g, &t.gr).map_err(|e| format!("writing {}: {e}", t.gr.display()))?;
        Ok(t)
    }
}

impl Drop for TempGr {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
