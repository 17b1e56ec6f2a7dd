//! The graph list of the experiment editor: the bundled NY road network, generated families
//! (with size and degree lists) and files by path (with a weight rule).

use super::setup::labelled;
use crate::app::jobs::{Job, repaint, take_finished};
use crate::generate::GeneratorSpec;
use crate::graph::WeightRule;
use crate::lab::{Experiment, GraphEntry};
use egui::DragValue;
use std::path::PathBuf;

/// The "add a graph" form.
pub struct GraphForm {
    /// Generator and parameters of the family to add.
    pub spec: GeneratorSpec,
    /// Comma-separated sizes and degrees that expand the family (empty = the spec's own).
    pub sizes: String,
    /// Comma-separated degrees.
    pub degrees: String,
    /// Path of a file to add.
    pub path: String,
    /// Weight rule for files: `file`, `unit`, `uniform:MAX:SEED`.
    pub weights: String,
    /// Report group of the next entry (optional).
    pub group: String,
    /// Why the last add failed.
    pub error: Option<String>,
    browse: Option<Job<Option<PathBuf>>>,
}

impl Default for GraphForm {
    fn default() -> Self {
        GraphForm {
            spec: GeneratorSpec::Fanout { n: 24_576, d: 2, max_weight: 100, seed: 1 },
            sizes: String::new(),
            degrees: String::new(),
            path: String::new(),
            weights: "uniform:100:1".into(),
            group: String::new(),
            error: None,
            browse: None,
        }
    }
}

/// Parses `"2, 20, 200"`; empty text gives an empty list. Errors name the bad item.
pub fn parse_list<T: std::str::FromStr>(text: &str) -> Result<Vec<T>, String> {
    text.split([',', ' ', ';'])
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse().map_err(|_| format!("`{s}` is not a number")))
        .collect()
}

/// Joins a list as `parse_list` reads it.
pub fn join_list<T: ToString>(v: &[T]) -> String {
    v.iter().map(T::to_string).collect::<Vec<_>>().join(", ")
}

/// One line describing an entry.
fn describe(g: &GraphEntry) -> String {
    let what = match (&g.file, &g.generate) {
        (Some(p), _) => format!("{} (weights {})", p.display(), g.weights),
        (_, Some(s)) => s.to_string(),
        _ => "(empty)".into(),
    };
    let mut s = what;
    if !g.sizes.is_empty() {
        s += &format!(" × sizes {}", join_list(&g.sizes));
    }
    if !g.degrees.is_empty() {
        s += &format!(" × degrees {}", join_list(&g.degrees));
    }
    if let Some(grp) = &g.group {
        s += &format!(" [{grp}]");
    }
    s
}

/// Parameter fields of a generator spec.
fn spec_fields(ui: &mut egui::Ui, spec: &mut GeneratorSpec) {
    let usize_field = |ui: &mut egui::Ui, label: &str, v: &mut usize| {
        labelled(ui, label, DragValue::new(v).range(1..=1usize << 26).speed(64));
    };
    ui.horizontal_wrapped(|ui| match spec {
        GeneratorSpec::Fanout { n, d, max_weight, seed } => {
            usize_field(ui, "n", n);
            usize_field(ui, "d", d);
            labelled(ui, "w ≤", DragValue::new(max_weight).range(1..=1_000_000));
            labelled(ui, "seed", DragValue::new(seed));
        }
        GeneratorSpec::Martin { n, seed } | GeneratorSpec::Dense { n, seed } => {
            usize_field(ui, "n", n);
            labelled(ui, "seed", DragValue::new(seed));
        }
        GeneratorSpec::Rmat { scale, edge_factor, max_weight, seed, .. } => {
            labelled(ui, "scale", DragValue::new(scale).range(1..=26));
            labelled(ui, "edge factor", DragValue::new(edge_factor).range(1..=256));
            labelled(ui, "w ≤", DragValue::new(max_weight).range(1..=1_000_000));
            labelled(ui, "seed", DragValue::new(seed));
        }
        GeneratorSpec::Grid { width, height, max_weight, seed } => {
            usize_field(ui, "width", width);
            usize_field(ui, "height", height);
            labelled(ui, "w ≤", DragValue::new(max_weight).range(1..=1_000_000));
            labelled(ui, "seed", DragValue::new(seed));
        }
        GeneratorSpec::Ssca2(p) => {
            usize_field(ui, "n", &mut p.n);
            labelled(ui, "C", DragValue::new(&mut p.max_clique).range(1..=1000));
            labelled(ui, "P", DragValue::new(&mut p.prob_inter).range(0.0..=1.0).speed(0.01));
            labelled(ui, "w ≤", DragValue::new(&mut p.max_weight).range(1..=1_000_000));
            labelled(ui, "seed", DragValue::new(&mut p.seed));
        }
        GeneratorSpec::Counterexample { n } => usize_field(ui, "n", n),
        GeneratorSpec::Teaching => {
            ui.label("(fixed 5-vertex graph)");
        }
    });
}

/// The graph list and the add form; true when the experiment changed.
pub fn ui(ui: &mut egui::Ui, exp: &mut Experiment, form: &mut GraphForm) -> bool {
    let mut changed = false;
    if let Some((_, picked)) = take_finished(&mut form.browse) {
        match picked {
            Ok(Some(p)) => form.path = p.display().to_string(),
            Ok(None) => {}
            Err(e) => form.error = Some(e),
        }
    }
    let mut remove = None;
    for (i, g) in exp.graphs.iter().enumerate() {
        ui.horizontal(|ui| {
            if ui.small_button("x").on_hover_text("remove this graph").clicked() {
                remove = Some(i);
            }
            ui.label(egui::RichText::new(describe(g)).small());
        });
    }
    if let Some(i) = remove {
        exp.graphs.remove(i);
        changed = true;
    }
    if exp.graphs.is_empty() {
        ui.colored_label(ui.visuals().warn_fg_color, "add at least one graph");
    }
    ui.collapsing("Add a graph", |ui| {
        if ui.button("+ NY road network (bundled)").clicked() {
            let path = crate::app::bundled_graph_path();
            exp.graphs.push(GraphEntry { file: Some(path), group: Some("road".into()), ..Default::default() });
            changed = true;
        }
        ui.separator();
        egui::ComboBox::from_label("family").selected_text(form.spec.family()).show_ui(ui, |ui| {
            for ex in GeneratorSpec::examples() {
                let family = ex.family();
                if ui.selectable_label(form.spec.family() == family, family).clicked() {
                    form.spec = ex;
                }
            }
        });
        spec_fields(ui, &mut form.spec);
        ui.horizontal(|ui| {
            labelled(ui, "sizes", egui::TextEdit::singleline(&mut form.sizes))
                .on_hover_text("n (scale for rmat, side for grid), e.g. 24576, 49152, 98304");
        });
        ui.horizontal(|ui| {
            labelled(ui, "degrees", egui::TextEdit::singleline(&mut form.degrees))
                .on_hover_text("d for fanout, edge factor for rmat, e.g. 2, 20, 200");
        });
        ui.horizontal(|ui| {
            labelled(ui, "group", egui::TextEdit::singleline(&mut form.group))
                .on_hover_text("row label in the reports (optional)");
        });
        if ui.button("+ Add generated family").clicked() {
            let entry = parse_list(&form.sizes).and_then(|sizes| {
                Ok(GraphEntry {
                    generate: Some(form.spec.clone()),
                    sizes,
                    degrees: parse_list(&form.degrees)?,
                    group: (!form.group.trim().is_empty()).then(|| form.group.trim().to_string()),
                    ..Default::default()
                })
            });
            form.error = add(exp, entry, &mut changed);
        }
        ui.separator();
        ui.horizontal(|ui| {
            labelled(ui, "file", egui::TextEdit::singleline(&mut form.path));
            if ui.add_enabled(form.browse.is_none(), egui::Button::new("Browse…")).clicked() {
                form.browse = Some(Job::spawn("choosing a graph file", repaint(ui.ctx()), |_| {
                    rfd::FileDialog::new().set_title("Add a graph file").pick_file()
                }));
            }
        });
        ui.horizontal(|ui| {
            labelled(ui, "weights", egui::TextEdit::singleline(&mut form.weights))
                .on_hover_text("file, unit or uniform:MAX:SEED (for unweighted files)");
        });
        if ui.button("+ Add file").clicked() {
            let entry = if form.path.trim().is_empty() {
                Err("type a path or browse for a file".to_string())
            } else {
                form.weights.parse::<WeightRule>().map(|weights| GraphEntry {
                    file: Some(PathBuf::from(form.path.trim())),
                    weights,
                    group: (!form.group.trim().is_empty()).then(|| form.group.trim().to_string()),
                    ..Default::default()
                })
            };
            form.error = add(exp, entry, &mut changed);
        }
        if let Some(e) = &form.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
    });
    changed
}

/// Adds a checked entry; returns the error to show.
fn add(exp: &mut Experiment, entry: Result<GraphEntry, String>, changed: &mut bool) -> Option<String> {
    let entry = match entry {
        Ok(e) => e,
        Err(e) => return Some(e),
    };
    if let Err(e) = crate::lab::graphs::expand(&entry) {
        return Some(format!("{e:#}"));
    }
    exp.graphs.push(entry);
    *changed = true;
    None
}
