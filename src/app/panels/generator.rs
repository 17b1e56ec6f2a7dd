//! The generator dialog: every [`GeneratorSpec`] family with its parameters. Generation runs
//! in the background; bad parameters come back as an error banner.

use crate::app::command::Command;
use crate::app::state::AppState;
use crate::generate::GeneratorSpec;

pub fn generator_window(ctx: &egui::Context, state: &mut AppState, cmds: &mut Vec<Command>) {
    let mut open = true;
    egui::Window::new("Generate a graph").open(&mut open).resizable(false).collapsible(false).show(ctx, |ui| {
        let spec = &mut state.settings.generator;
        let label = ui.label("Family");
        egui::ComboBox::from_id_salt("family")
            .selected_text(spec.family())
            .show_ui(ui, |ui| {
                for example in GeneratorSpec::examples() {
                    let family = example.family();
                    if ui.selectable_label(spec.family() == family, family).clicked() && spec.family() != family {
                        *spec = example;
                    }
                }
            })
            .response
            .labelled_by(label.id);
        ui.label(egui::RichText::new(describe(spec)).weak());
        egui::Grid::new("generator-params").num_columns(2).show(ui, |ui| params(ui, spec));
        let generating = state.jobs.graph.is_some();
        ui.horizontal(|ui| {
            if ui.add_enabled(!generating, egui::Button::new("Generate")).clicked() {
                cmds.push(Command::Generate(state.settings.generator.clone()));
            }
            if ui.button("Close").clicked() {
                cmds.push(Command::ShowGenerator(false));
            }
        });
    });
    if !open {
        cmds.push(Command::ShowGenerator(false));
    }
}

fn describe(spec: &GeneratorSpec) -> &'static str {
    match spec {
        GeneratorSpec::Martin { .. } => "every vertex gets 7 random predecessors, weights 1..10 (seed 004 §6)",
        GeneratorSpec::Dense { .. } => {
            "every vertex gets n/5 random predecessors, weights 1..10: for layout=matrix (seed 004 §5)"
        }
        GeneratorSpec::Fanout { .. } => "every vertex has exactly d distinct random successors (seed 000 §4.3)",
        GeneratorSpec::Rmat { .. } => "R-MAT, quadrant probabilities a, b, c, 1−a−b−c (GTgraph)",
        GeneratorSpec::Grid { .. } => "4-neighbour grid with coordinates, undirected",
        GeneratorSpec::Ssca2(_) => {
            "SSCA#2: cliques of size 1..C, arcs between them with probability P halving with distance (GTgraph, seed 001 Table 2)"
        }
        GeneratorSpec::Counterexample { .. } => "seed 004 Fig. 5: every middle vertex races on the sink",
        GeneratorSpec::Teaching => "5 vertices: source, three neighbours, one more (seed 000 Fig. 1)",
    }
}

/// One labelled parameter row.
fn row<T: egui::emath::Numeric>(ui: &mut egui::Ui, name: &str, value: &mut T, speed: f64) {
    let label = ui.label(name);
    ui.add(egui::DragValue::new(value).speed(speed)).labelled_by(label.id);
    ui.end_row();
}

/// The rows every weighted generator ends with.
fn weight_and_seed(
    ui: &mut egui::Ui,
    max_weight: &mut impl egui::emath::Numeric,
    seed: &mut impl egui::emath::Numeric,
) {
    row(ui, "max weight", max_weight, 1.0);
    row(ui, "seed", seed, 1.0);
}

fn params(ui: &mut egui::Ui, spec: &mut GeneratorSpec) {
    match spec {
        GeneratorSpec::Martin { n, seed } | GeneratorSpec::Dense { n, seed } => {
            row(ui, "n (vertices)", n, 1024.0);
            row(ui, "seed", seed, 1.0);
        }
        GeneratorSpec::Fanout { n, d, max_weight, seed } => {
            row(ui, "n (vertices)", n, 256.0);
            row(ui, "d (successors each)", d, 1.0);
            weight_and_seed(ui, max_weight, seed);
        }
        GeneratorSpec::Rmat { scale, edge_factor, a, b, c, max_weight, seed } => {
            row(ui, "scale (log₂ n)", scale, 0.1);
            row(ui, "edge factor", edge_factor, 0.2);
            row(ui, "a", a, 0.005);
            row(ui, "b", b, 0.005);
            row(ui, "c", c, 0.005);
            weight_and_seed(ui, max_weight, seed);
        }
        GeneratorSpec::Grid { width, height, max_weight, seed } => {
            row(ui, "width", width, 1.0);
            row(ui, "height", height, 1.0);
            weight_and_seed(ui, max_weight, seed);
        }
        GeneratorSpec::Ssca2(p) => {
            row(ui, "n (vertices)", &mut p.n, 256.0);
            row(ui, "C (largest clique)", &mut p.max_clique, 1.0);
            row(ui, "P (inter-clique)", &mut p.prob_inter, 0.01);
            row(ui, "one-way pairs", &mut p.prob_unidirectional, 0.01);
            row(ui, "parallel arcs ≤", &mut p.max_parallel, 0.1);
            weight_and_seed(ui, &mut p.max_weight, &mut p.seed);
        }
        GeneratorSpec::Counterexample { n } => row(ui, "n (vertices)", n, 1.0),
        GeneratorSpec::Teaching => {
            ui.label("no parameters");
            ui.end_row();
        }
    }
}
