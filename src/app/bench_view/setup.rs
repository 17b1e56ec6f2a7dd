//! The experiment editor: graphs, algorithms, devices (unavailable ones disabled with the
//! reason), CPU thread counts, block sizes per kernel, cache preferences, repetitions, sources,
//! baseline and run options. Lists are typed as text (`128, 256`) and parsed on change.

use super::graphs::{self, GraphForm, join_list, parse_list};
use crate::algo::{AlgoChoice, Algorithm, CachePreference};
use crate::device::{DeviceId, DeviceInfo};
use crate::generate::GeneratorSpec;
use crate::lab::experiment::cache_id;
use crate::lab::{Baseline, BlockSpec, Experiment, ExperimentKind, GraphEntry, LabDevice, SourceSpec};
use egui::DragValue;

/// The experiment the view starts with: a small CPU sweep.
pub fn default_experiment() -> Experiment {
    let fanout = GeneratorSpec::Fanout { n: 24_576, d: 2, max_weight: 100, seed: 1 };
    Experiment {
        name: "bench".into(),
        description: "Crauser vs Martín on random fan-out graphs (seed 000 §4.3), one CPU thread.".into(),
        kind: ExperimentKind::Sweep,
        graphs: vec![GraphEntry { generate: Some(fanout), degrees: vec![2, 20], ..Default::default() }],
        algorithms: vec![crate::algo::CRAUSER_SUCC.into(), crate::algo::MARTIN_SUCC.into()],
        devices: vec![LabDevice::Solver(DeviceId::Cpu)],
        block: BlockSpec { all: vec![256], ..Default::default() },
        cache: vec![CachePreference::Default],
        repetitions: 1,
        sources: SourceSpec::Random { count: 3, seed: 1 },
        baseline: Some(Baseline {
            algorithm: crate::algo::CRAUSER_SUCC.into(),
            device: LabDevice::Solver(DeviceId::Cpu),
        }),
        instrument: false,
        launch: Default::default(),
        stepped: None,
        check: true,
        cell_budget_s: None,
        paper: Vec::new(),
        many_source: None,
        exclude: Vec::new(),
    }
}

/// Text buffers of the editor (what the user types before it parses).
#[derive(Default)]
pub struct Editor {
    all: String,
    relax: String,
    minimum: String,
    update: String,
    threads: String,
    ids: String,
    graph_form: GraphForm,
    /// Why the typed lists do not parse.
    pub error: Option<String>,
}

impl Editor {
    /// Buffers showing `exp`.
    pub fn from_experiment(exp: &Experiment) -> Editor {
        let threads: Vec<u32> = exp
            .devices
            .iter()
            .filter_map(|d| if let LabDevice::Solver(DeviceId::CpuParallel(t @ 1..)) = d { Some(*t) } else { None })
            .collect();
        Editor {
            all: join_list(&exp.block.all),
            relax: join_list(&exp.block.relax),
            minimum: join_list(&exp.block.minimum),
            update: join_list(&exp.block.update),
            threads: join_list(&threads),
            ids: match &exp.sources {
                SourceSpec::Ids(ids) => join_list(ids),
                SourceSpec::Random { .. } => String::new(),
            },
            graph_form: GraphForm::default(),
            error: None,
        }
    }

    /// Parses the text buffers into `exp` (block lists, thread counts, source ids); on a parse
    /// error `exp` keeps its old values and [`Self::error`] says why.
    pub fn apply(&mut self, exp: &mut Experiment) {
        let parsed = (|| -> Result<(), String> {
            let block = BlockSpec {
                all: parse_list(&self.all)?,
                relax: parse_list(&self.relax)?,
                minimum: parse_list(&self.minimum)?,
                update: parse_list(&self.update)?,
            };
            let threads: Vec<u32> = parse_list(&self.threads)?;
            if let SourceSpec::Ids(ids) = &mut exp.sources {
                *ids = parse_list(&self.ids)?;
            }
            exp.block = block;
            exp.devices.retain(|d| !matches!(d, LabDevice::Solver(DeviceId::CpuParallel(1..))));
            exp.devices
                .extend(threads.into_iter().filter(|t| *t > 0).map(|t| LabDevice::Solver(DeviceId::CpuParallel(t))));
            Ok(())
        })();
        // Keep the baseline inside the product (or drop it) so the experiment stays runnable.
        if let Some(b) = exp.baseline.clone() {
            let ok = exp.devices.contains(&b.device)
                && (b.device == LabDevice::Boost || exp.algorithms.contains(&b.algorithm));
            if !ok {
                exp.baseline = exp
                    .algorithms
                    .first()
                    .zip(exp.devices.first())
                    .map(|(algorithm, &device)| Baseline { algorithm: algorithm.clone(), device });
            }
        }
        self.error = parsed.err().or_else(|| exp.validate().err().map(|e| format!("{e:#}")));
    }

    /// Draws the editor; true when something changed (then call [`Self::apply`]).
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        exp: &mut Experiment,
        devices: Option<&[DeviceInfo]>,
        running: bool,
    ) -> bool {
        ui.add_enabled_ui(!running, |ui| self.sections(ui, exp, devices)).inner
    }

    fn sections(&mut self, ui: &mut egui::Ui, exp: &mut Experiment, devices: Option<&[DeviceInfo]>) -> bool {
        let mut changed = false;
        ui.heading("Experiment");
        ui.horizontal(|ui| {
            changed |= labelled(ui, "name", egui::TextEdit::singleline(&mut exp.name)).changed();
        });
        egui::ComboBox::from_label("kind")
            .selected_text(match exp.kind {
                ExperimentKind::Sweep => "sweep (speedups)",
                ExperimentKind::KernelCharacterization => "kernel characterization",
                // Only from a file: the editor has no fields for its configurations.
                ExperimentKind::ManySource => "many-source (from the file)",
            })
            .show_ui(ui, |ui| {
                changed |= ui.selectable_value(&mut exp.kind, ExperimentKind::Sweep, "sweep (speedups)").changed();
                changed |= ui
                    .selectable_value(&mut exp.kind, ExperimentKind::KernelCharacterization, "kernel characterization")
                    .changed();
            });
        ui.collapsing("Description", |ui| changed |= ui.text_edit_multiline(&mut exp.description).changed());
        ui.separator();
        ui.strong("Graphs");
        changed |= graphs::ui(ui, exp, &mut self.graph_form);
        ui.separator();
        ui.strong("Algorithms");
        ui.horizontal_wrapped(|ui| {
            for &a in Algorithm::all() {
                changed |= toggle(ui, &mut exp.algorithms, AlgoChoice::new(a), a.id(), a.describe());
            }
        });
        ui.separator();
        changed |= self.devices(ui, exp, devices);
        ui.separator();
        ui.strong("Block sizes (threads per block)");
        egui::Grid::new("bench-blocks").num_columns(2).show(ui, |ui| {
            for (label, buf, tip) in [
                ("all kernels", &mut self.all, "one configuration per size, the same for relax, minimum and update"),
                ("relax", &mut self.relax, "per-kernel lists: their cartesian product is run"),
                ("minimum", &mut self.minimum, "per-kernel lists: their cartesian product is run"),
                ("update", &mut self.update, "per-kernel lists: their cartesian product is run"),
            ] {
                changed |= labelled(ui, label, egui::TextEdit::singleline(buf)).on_hover_text(tip).changed();
                ui.end_row();
            }
        });
        ui.horizontal(|ui| {
            ui.label("cache");
            for c in [CachePreference::Default, CachePreference::PreferL1, CachePreference::PreferShared] {
                changed |= toggle(ui, &mut exp.cache, c, cache_id(c), "L1 / shared-memory carveout (CUDA only)");
            }
        });
        ui.separator();
        changed |= self.sources(ui, exp);
        ui.separator();
        ui.strong("Options");
        changed |= ui.checkbox(&mut exp.check, "check every run against Dijkstra").changed();
        changed |= ui.checkbox(&mut exp.instrument, "instrument GPU kernels (dummy-thread counts; slower)").changed();
        let mut stepped = exp.is_stepped();
        if ui.checkbox(&mut stepped, "stepped runs (per-kernel times)").changed() {
            exp.stepped = Some(stepped);
            changed = true;
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        changed
    }

    fn devices(&mut self, ui: &mut egui::Ui, exp: &mut Experiment, devices: Option<&[DeviceInfo]>) -> bool {
        let mut changed = false;
        ui.strong("Devices");
        match devices {
            None => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("probing CUDA and wgpu…");
                });
                changed |= toggle(ui, &mut exp.devices, LabDevice::Solver(DeviceId::Cpu), "cpu: CPU (1 thread)", "");
            }
            Some(list) => {
                for info in list {
                    let label = format!("{}: {}", info.id, info.name);
                    let mut on = exp.devices.contains(&LabDevice::Solver(info.id));
                    let resp = ui.add_enabled(info.status.is_ok(), egui::Checkbox::new(&mut on, label));
                    if let Err(reason) = &info.status {
                        resp.clone().on_disabled_hover_text(reason);
                    }
                    if resp.changed() {
                        set(&mut exp.devices, LabDevice::Solver(info.id), on);
                        changed = true;
                    }
                }
            }
        }
        let boost_ok = std::path::Path::new(crate::lab::boost::BOOST_HEADER).exists();
        let mut on = exp.devices.contains(&LabDevice::Boost);
        let resp =
            ui.add_enabled(boost_ok, egui::Checkbox::new(&mut on, "boost: Boost dijkstra_shortest_paths (sequential)"));
        let resp = resp.on_disabled_hover_text("Boost.Graph is not installed (apt-get install libboost-graph-dev)");
        if resp.changed() {
            set(&mut exp.devices, LabDevice::Boost, on);
            changed = true;
        }
        ui.horizontal(|ui| {
            changed |= labelled(ui, "cpu-par threads", egui::TextEdit::singleline(&mut self.threads))
                .on_hover_text("thread counts, e.g. 1, 2, 4: one cpu-par:N device each")
                .changed();
        });
        changed
    }

    fn sources(&mut self, ui: &mut egui::Ui, exp: &mut Experiment) -> bool {
        let mut changed = false;
        ui.horizontal(|ui| {
            changed |= labelled(ui, "repetitions", DragValue::new(&mut exp.repetitions).range(1..=100)).changed();
        });
        let random = matches!(exp.sources, SourceSpec::Random { .. });
        ui.horizontal(|ui| {
            if ui.radio(random, "random sources").clicked() && !random {
                exp.sources = SourceSpec::Random { count: 10, seed: 1 };
                changed = true;
            }
            if ui.radio(!random, "vertex ids").clicked() && random {
                exp.sources = SourceSpec::Ids(parse_list(&self.ids).unwrap_or_default());
                changed = true;
            }
        });
        match &mut exp.sources {
            SourceSpec::Random { count, seed } => {
                ui.horizontal(|ui| {
                    changed |= labelled(ui, "k", DragValue::new(count).range(1..=1000)).changed();
                    changed |= labelled(ui, "seed", DragValue::new(seed)).changed();
                });
            }
            SourceSpec::Ids(_) => {
                changed |= labelled(ui, "ids", egui::TextEdit::singleline(&mut self.ids))
                    .on_hover_text("0-based vertex ids, e.g. 0, 17, 4096")
                    .changed();
            }
        }
        changed
    }
}

/// A label and its widget, the widget named by the label (screen readers, kittest queries).
pub(super) fn labelled(ui: &mut egui::Ui, text: &str, widget: impl egui::Widget) -> egui::Response {
    let label = ui.label(text);
    ui.add(widget).labelled_by(label.id)
}

/// A checkbox that adds or removes `v` from `list`; true when toggled.
fn toggle<T: PartialEq>(ui: &mut egui::Ui, list: &mut Vec<T>, v: T, label: &str, tip: &str) -> bool {
    let mut on = list.contains(&v);
    let mut resp = ui.checkbox(&mut on, label);
    if !tip.is_empty() {
        resp = resp.on_hover_text(tip);
    }
    if resp.changed() {
        set(list, v, on);
    }
    resp.changed()
}

fn set<T: PartialEq>(list: &mut Vec<T>, v: T, on: bool) {
    if on && !list.contains(&v) {
        list.push(v);
    } else if !on {
        list.retain(|x| *x != v);
    }
}
