//! Files the binary carries, so that it runs from anywhere: a copied binary, one from
//! `cargo install` or the Debian package finds its default graph without the build tree.
//!
//! The bundled graph (DIMACS USA-road-d.NY, 5.5 MB gzipped with its coordinates) is embedded
//! with `include_bytes!` and, because every reader works on paths (and finds the `.co` sibling
//! beside the `.gr`), written once into [`cache_dir`]. The report font is embedded where it is
//! used (`lab::report::plots::draw`). Nothing here reads `CARGO_MANIFEST_DIR` at run time.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// File name of the bundled graph.
pub const NY_GR_NAME: &str = "USA-road-d.NY.gr.gz";
/// File name of its coordinates (found by the DIMACS reader as the `.gr`'s sibling).
pub const NY_CO_NAME: &str = "USA-road-d.NY.co.gz";
static NY_GR: &[u8] = include_bytes!("../assets/USA-road-d.NY.gr.gz");
static NY_CO: &[u8] = include_bytes!("../assets/USA-road-d.NY.co.gz");

/// Where sssp-lab keeps files it writes for itself (the bundled graph, the Boost harness):
/// `$XDG_CACHE_HOME/sssp-lab`, else `$HOME/.cache/sssp-lab`, else `sssp-lab` in the system's
/// temporary folder. Not created here.
pub fn cache_dir() -> PathBuf {
    let from_env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(x) = from_env("XDG_CACHE_HOME").filter(|p| p.is_absolute()) {
        return x.join("sssp-lab");
    }
    if let Some(h) = from_env("HOME").filter(|p| p.is_absolute()) {
        return h.join(".cache").join("sssp-lab");
    }
    std::env::temp_dir().join("sssp-lab")
}

/// The bundled graph as a file (`…/USA-road-d.NY.gr.gz`, its `.co.gz` beside it).
///
/// Written on first use into `cache_dir()/assets-<version>/` from the copy in the binary (left as
/// is when the file there already has the same bytes); when that folder cannot be written, into
/// the temporary folder. If both fail the cache path is returned all the same, so the loader's
/// error names the file it could not read, and the reason is printed on stderr.
pub fn bundled_graph() -> PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let version = concat!("assets-", env!("CARGO_PKG_VERSION"));
        let dirs = [cache_dir().join(version), std::env::temp_dir().join("sssp-lab").join(version)];
        let mut why = Vec::new();
        for dir in &dirs {
            match write_bundled(dir) {
                Ok(p) => return p,
                Err(e) => why.push(e),
            }
        }
        eprintln!("sssp-lab: cannot write the bundled graph: {}", why.join("; "));
        dirs[0].join(NY_GR_NAME)
    })
    .clone()
}

/// Writes both bundled files into `dir` unless they are there already. Errors: a sentence
/// naming the folder or file.
fn write_bundled(dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    for (name, bytes) in [(NY_GR_NAME, NY_GR), (NY_CO_NAME, NY_CO)] {
        write_if_changed(&dir.join(name), bytes)?;
    }
    Ok(dir.join(NY_GR_NAME))
}

/// Writes `bytes` to `path` through a temporary file and a rename (atomic: two processes
/// starting at once never read half a file), unless `path` already holds exactly these bytes.
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let same = std::fs::metadata(path).is_ok_and(|m| m.len() == bytes.len() as u64)
        && std::fs::read(path).is_ok_and(|b| b == bytes);
    if same {
        return Ok(());
    }
    let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| format!("writing {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("installing {}: {e}", path.display())
    })
}

/// A relative path an experiment names that the binary carries itself: `assets/USA-road-d.NY.gr.gz`
/// (any folder) is the bundled graph. `None` for every other path.
pub fn bundled_equivalent(path: &Path) -> Option<PathBuf> {
    (path.is_relative() && path.file_name().is_some_and(|f| f == NY_GR_NAME)).then(bundled_graph)
}

/// Folders beside the running binary where a relative path may live: the binary's folder,
/// its parent (`target/release/..` → `target`), grandparent (the build tree for a binary in
/// `target/release`) and `../share/sssp-lab` (an installed layout, e.g. `/usr/bin` →
/// `/usr/share/sssp-lab`). Empty when the binary's path is unknown.
pub fn beside_binary() -> Vec<PathBuf> {
    let Some(dir) = std::env::current_exe().ok().and_then(|e| e.parent().map(Path::to_path_buf)) else {
        return Vec::new();
    };
    let mut out = vec![dir.clone()];
    if let Some(p) = dir.parent() {
        out.push(p.join("share").join("sssp-lab"));
        out.push(p.to_path_buf());
        if let Some(pp) = p.parent() {
            out.push(pp.to_path_buf());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_graph_is_written_once_and_matches_the_embedded_bytes() {
        let p = bundled_graph();
        assert_eq!(p.file_name().and_then(|f| f.to_str()), Some(NY_GR_NAME));
        assert_eq!(std::fs::read(&p).ok().as_deref(), Some(NY_GR));
        let co = p.with_file_name(NY_CO_NAME);
        assert_eq!(std::fs::metadata(co).ok().map(|m| m.len()), Some(NY_CO.len() as u64));
        assert_eq!(bundled_equivalent(Path::new("assets/USA-road-d.NY.gr.gz")), Some(p));
        assert_eq!(bundled_equivalent(Path::new("tests/data/rome99.gr.gz")), None);
    }
}
