//! The graphs of an experiment: a [`GraphEntry`] of the file (one file, or a generated family
//! expanded by `sizes` × `degrees`) and the [`GraphPlan`]s it expands to, with the labels the
//! reports group by. Data only: nothing here knows about devices or runs.

use super::serde_str;
use crate::generate::GeneratorSpec;
use crate::graph::{Graph, WeightRule};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One graph, or a family of generated graphs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GraphEntry {
    /// A graph file in any format [`crate::formats::load`] reads. Relative paths are tried
    /// against the working directory, the experiment's folder, its parent and the crate root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// Weight rule for `file`: `file`, `unit` or `uniform:MAX:SEED`.
    #[serde(default, with = "serde_str", skip_serializing_if = "is_file_rule")]
    pub weights: WeightRule,
    /// A generated graph (instead of `file`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generate: Option<GeneratorSpec>,
    /// One graph per size: n (martin, fanout, ssca2, counterexample), scale (rmat), side (grid).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<usize>,
    /// One graph per degree: d (fanout), edge factor (rmat), largest clique C (ssca2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub degrees: Vec<usize>,
    /// Row label in the reports (e.g. `walshaw`); defaults to the generator family or `file`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

fn is_file_rule(w: &WeightRule) -> bool {
    *w == WeightRule::File
}

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
        GeneratorSpec::Dense { n, .. } => (short_n(*n), "dense n/5".into()),
        GeneratorSpec::Fanout { n, d, .. } => (short_n(*n), format!("deg{d}")),
        GeneratorSpec::Rmat { scale, edge_factor, .. } => (format!("scale {scale}"), format!("ef{edge_factor}")),
        GeneratorSpec::Grid { width, height, .. } => (format!("{width}×{height}"), "grid".into()),
        GeneratorSpec::Ssca2(p) => (short_n(p.n), format!("C{} P{}", p.max_clique, p.prob_inter)),
        GeneratorSpec::Counterexample { n } => (short_n(*n), "counterexample".into()),
        GeneratorSpec::Teaching => ("5".into(), "teaching".into()),
    }
}

fn resize(spec: &GeneratorSpec, size: Option<usize>, degree: Option<usize>) -> Result<GeneratorSpec> {
    let mut s = spec.clone();
    match &mut s {
        GeneratorSpec::Martin { n, .. } | GeneratorSpec::Dense { n, .. } | GeneratorSpec::Counterexample { n } => {
            if degree.is_some() {
                bail!("`degrees` applies to the fanout, rmat (edge factor) and ssca2 (clique size C) families only");
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
                bail!("`degrees` applies to the fanout, rmat (edge factor) and ssca2 (clique size C) families only");
            }
            if let Some(side) = size {
                (*width, *height) = (side, side);
            }
        }
        GeneratorSpec::Ssca2(p) => {
            p.n = size.unwrap_or(p.n);
            p.max_clique = degree.unwrap_or(p.max_clique);
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

/// Finds a relative path: as given (working directory), then beside the experiment file and in
/// its parent, then beside the running binary ([`crate::assets::beside_binary`]); the bundled
/// graph (`assets/USA-road-d.NY.gr.gz`) is the copy the binary carries when no file is found.
/// Never the build tree, so an installed binary runs the bundled experiments from anywhere.
/// Absolute paths are returned unchanged.
pub fn resolve_path(path: &Path, exp_dir: &Path) -> PathBuf {
    if path.is_absolute() || path.exists() {
        return path.to_path_buf();
    }
    let mut candidates = vec![exp_dir.join(path)];
    if let Some(parent) = exp_dir.parent() {
        candidates.push(parent.join(path));
    }
    candidates.extend(crate::assets::beside_binary().into_iter().map(|d| d.join(path)));
    candidates
        .into_iter()
        .find(|p| p.exists())
        .or_else(|| crate::assets::bundled_equivalent(path))
        .unwrap_or_else(|| path.to_path_buf())
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
                let opts = crate::formats::LoadOptions { format: None, weights: *weights, weight_decimals: None };
                crate::formats::load(&p, &opts).with_context(|| format!("loading {}", p.display()))
            }
            GraphOrigin::Generate(s) => {
                s.generate().map_err(anyhow::Error::msg).with_context(|| format!("generating {s}"))
            }
        }
    }
}
