//! The app's side of [`crate::jobs`], the one mechanism for background work: a job wakes the UI
//! through a repaint callback made from the egui context here. The UI polls every job once per
//! frame. Loading, generating, file dialogs, running to the end, verifying, the Bench view's
//! experiment runs and the graph view's layout, arc raster and cell order use it.

pub use crate::jobs::{Job, JobCtx, Repaint, take_finished};
use std::sync::Arc;

/// A [`Repaint`] that asks `ctx` for a frame.
pub fn repaint(ctx: &egui::Context) -> Repaint {
    let ctx = ctx.clone();
    Arc::new(move || ctx.request_repaint())
}
