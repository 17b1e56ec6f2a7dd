//! Files of the Bench view: open and save experiment files, export results as CSV or JSON, and
//! save a plot as PNG (a screenshot of the window cropped to the plot). Every file dialog runs
//! as a background [`Job`] (rfd blocks its thread); nothing here runs in tests.

use super::BenchView;
use crate::app::jobs::{Job, repaint, take_finished};
use crate::lab::{Experiment, LabResult, LabResults, result};
use egui::ColorImage;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};

/// What a finished file job asks the view to do.
pub enum IoDone {
    /// An experiment file was read: edit it (relative paths are resolved beside it).
    Opened { path: PathBuf, exp: Box<Experiment> },
    /// A line for the log (file written, dialog cancelled, error).
    Message(String),
}

type IoJob = Job<Result<IoDone, String>>;

/// File dialogs and screenshots in flight.
pub struct Io {
    job: Option<IoJob>,
    /// A path typed beside the buttons: used instead of a dialog (where none can appear).
    pub typed: String,
    shots_tx: Sender<ColorImage>,
    shots_rx: Receiver<ColorImage>,
}

impl Default for Io {
    fn default() -> Self {
        let (shots_tx, shots_rx) = channel();
        Io { job: None, typed: String::new(), shots_tx, shots_rx }
    }
}

impl Io {
    /// The typed path, if one was typed.
    fn typed_path(&self) -> Option<PathBuf> {
        let t = self.typed.trim();
        (!t.is_empty()).then(|| PathBuf::from(t))
    }

    /// True while a dialog or a write runs.
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// Starts the PNG dialog for a screenshot that arrived; returns a finished job's outcome.
    pub fn poll(&mut self, ctx: &egui::Context) -> Option<IoDone> {
        if self.job.is_none()
            && let Ok(img) = self.shots_rx.try_recv()
        {
            let typed = self.typed_path();
            self.job = Some(Job::spawn("saving a plot", repaint(ctx), move |_| {
                let Some(path) = choose(typed, || {
                    rfd::FileDialog::new().set_file_name("plot.png").add_filter("PNG image", &["png"]).save_file()
                })?
                else {
                    return cancelled("PNG export");
                };
                let bytes = super::png::encode(&img).map_err(|e| format!("encoding the PNG: {e}"))?;
                std::fs::write(&path, bytes).map_err(|e| format!("writing {}: {e}", path.display()))?;
                Ok(IoDone::Message(format!("saved {}", path.display())))
            }));
        }
        let (_, out) = take_finished(&mut self.job)?;
        Some(match out {
            Ok(Ok(done)) => done,
            Ok(Err(e)) | Err(e) => IoDone::Message(e),
        })
    }

    fn spawn(
        &mut self,
        ctx: &egui::Context,
        name: &str,
        work: impl FnOnce() -> Result<IoDone, String> + Send + 'static,
    ) {
        if self.job.is_none() {
            self.job = Some(Job::spawn(name, repaint(ctx), move |_| work()));
        }
    }
}

/// The typed path if any, else the dialog's choice; where no dialog can appear, an error that
/// says what is missing and points to the path field.
fn choose(typed: Option<PathBuf>, dialog: impl FnOnce() -> Option<PathBuf>) -> Result<Option<PathBuf>, String> {
    match typed {
        Some(p) => Ok(Some(p)),
        None => crate::app::dialog::pick(dialog).map_err(|why| format!("{why} (the Path field beside the buttons)")),
    }
}

fn cancelled(what: &str) -> Result<IoDone, String> {
    Ok(IoDone::Message(format!("{what} cancelled")))
}

/// Open / save experiment and CSV / JSON export buttons.
pub fn file_buttons(ui: &mut egui::Ui, view: &mut BenchView) {
    let ctx = ui.ctx().clone();
    let idle = !view.io.busy();
    let typed = view.io.typed_path();
    if ui.add_enabled(idle && view.run.is_none(), egui::Button::new("Open experiment…")).clicked() {
        let typed = typed.clone();
        view.io.spawn(&ctx, "opening an experiment", move || {
            let Some(path) = choose(typed, || {
                rfd::FileDialog::new().set_title("Open an experiment").add_filter("experiment", &["json"]).pick_file()
            })?
            else {
                return cancelled("opening");
            };
            let exp = Experiment::load(&path).map_err(|e| format!("{e:#}"))?;
            Ok(IoDone::Opened { path, exp: Box::new(exp) })
        });
    }
    if ui.add_enabled(idle, egui::Button::new("Save experiment…")).clicked() {
        let exp = view.experiment.clone();
        let typed = typed.clone();
        view.io.spawn(&ctx, "saving the experiment", move || {
            let name = format!("{}.json", exp.name);
            let Some(path) = choose(typed, || {
                rfd::FileDialog::new().set_file_name(name).add_filter("experiment", &["json"]).save_file()
            })?
            else {
                return cancelled("saving");
            };
            exp.save(&path).map_err(|e| format!("{e:#}"))?;
            Ok(IoDone::Message(format!("saved {}", path.display())))
        });
    }
    let has_rows = !view.rows.is_empty();
    if ui.add_enabled(idle && has_rows, egui::Button::new("Export CSV…")).clicked() {
        let rows: Vec<LabResult> = view.rows.clone();
        let typed = typed.clone();
        view.io.spawn(&ctx, "exporting CSV", move || {
            let Some(path) = choose(typed, || {
                rfd::FileDialog::new().set_file_name("results.csv").add_filter("CSV", &["csv"]).save_file()
            })?
            else {
                return cancelled("CSV export");
            };
            result::write_csv(&rows, &path).map_err(|e| format!("{e:#}"))?;
            Ok(IoDone::Message(format!("wrote {} rows to {}", rows.len(), path.display())))
        });
    }
    if ui.add_enabled(idle && (has_rows || !view.many.is_empty()), egui::Button::new("Export JSON…")).clicked() {
        let res = LabResults {
            experiment: Some(view.experiment.clone()),
            date: crate::lab::today_utc(),
            devices: Vec::new(),
            wall_s: view.progress.as_ref().map_or(0.0, |p| p.elapsed_s),
            outcome: view.outcome.clone().unwrap_or_else(|| "running".into()),
            rows: view.rows.clone(),
            many: view.many.clone(),
        };
        let typed = typed.clone();
        view.io.spawn(&ctx, "exporting JSON", move || {
            let Some(path) = choose(typed, || {
                rfd::FileDialog::new().set_file_name("results.json").add_filter("JSON", &["json"]).save_file()
            })?
            else {
                return cancelled("JSON export");
            };
            let res = LabResults {
                devices: res.experiment.as_ref().map(crate::lab::device_lines).unwrap_or_default(),
                ..res
            };
            result::write_json(&res, &path).map_err(|e| format!("{e:#}"))?;
            Ok(IoDone::Message(format!("wrote {}", path.display())))
        });
    }
    let label = ui.label("Path").on_hover_text(
        "a file to open or write instead of the dialog (needed where no file dialog can appear: \
         no desktop portal, no zenity); leave empty for the dialog",
    );
    ui.add(egui::TextEdit::singleline(&mut view.io.typed).hint_text("(dialog)").desired_width(160.0))
        .labelled_by(label.id);
}

/// The part of `img` under `rect` (points), clamped to the image.
fn crop(img: &ColorImage, rect: egui::Rect, pixels_per_point: f32) -> ColorImage {
    let [w, h] = img.size;
    let clamp = |v: f32, max: usize| ((v * pixels_per_point).round().max(0.0) as usize).min(max);
    let (x0, x1) = (clamp(rect.min.x, w), clamp(rect.max.x, w));
    let (y0, y1) = (clamp(rect.min.y, h), clamp(rect.max.y, h));
    if x1 <= x0 || y1 <= y0 {
        return img.clone();
    }
    img.region_by_pixels([x0, y0], [x1 - x0, y1 - y0])
}

/// "Save plot as PNG…": asks for a screenshot, crops it to `rect` and opens the save dialog.
pub fn png_button(ui: &mut egui::Ui, view: &mut BenchView, rect: egui::Rect) {
    if ui.add_enabled(!view.io.busy(), egui::Button::new("Save plot as PNG…")).clicked() {
        let ctx = ui.ctx().clone();
        let tx = view.io.shots_tx.clone();
        let ppp = ctx.pixels_per_point();
        let wake = ctx.clone();
        ctx.request_screenshot(move |img: Arc<ColorImage>| {
            let _ = tx.send(crop(&img, rect, ppp));
            wake.request_repaint();
        });
    }
}
