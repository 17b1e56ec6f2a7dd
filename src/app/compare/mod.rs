//! Compare mode: two to four runs on the same graph and source, each with its own algorithm,
//! device and block size, stepped together with one set of controls — by iteration, or by
//! settled-distance level so that runs line up on the same Δ (Martín's and Crauser's thresholds
//! reach each distance after different numbers of iterations).
//!
//! Each lane's solver lives on its own worker ([`crate::jobs::Job`]) that takes commands (step
//! n, step until a level, run to the end) and streams the steps back into the lane's
//! [`Trace`], so a slow device or a long run never blocks the UI. Forward actions are recorded
//! as cursor positions, so stepping back (and forward again) replays the traces without the
//! solvers. The graph views mark the vertices that *differ* from lane A's: settled in one lane
//! and not in the other, or settled in both with different δ (a race's wrong distance). Stepped
//! by level, the first part counts only up to the common level: past it a lane may have settled
//! far ahead (a wide Δ-stepping bucket settles thousands of vertices at once), which its own
//! colours show; marking all of them would hide them.
//!
//! The settled level of a lane is a distance L such that every vertex whose true distance is
//! ≤ L is settled (the true distances come from a Dijkstra the lane's worker runs first). Stepped
//! by level, all lanes are moved to the same L, so they agree on every vertex up to L; vertices
//! past L that one lane happened to settle too are what "differs" marks. Crauser's settled set
//! is not a prefix of the distance order, so no lockstep can make it equal Martín's at every
//! step; this one makes the common part exact and shows the rest.

pub mod lessons;
mod ui;

pub use lessons::{LESSONS, Lesson};

use super::jobs::{Job, JobCtx, repaint};
use crate::algo::{AlgoChoice, BlockSizes, SolveOptions, Step, VertexStatus};
use crate::device::{DeviceId, make_stepper};
use crate::graph::{Distance, Graph, INF, VertexId};
use crate::trace::Trace;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// Most lanes side by side.
pub const MAX_LANES: usize = 4;

/// How one press of *Step* moves the lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lockstep {
    /// Every lane one iteration.
    #[default]
    Iteration,
    /// The lane with the lowest settled level one iteration, then every other lane until its
    /// level reaches that one's: every lane has settled every vertex up to the same distance.
    Level,
}

/// What one lane runs (the user's choice).
#[derive(Clone, Debug, PartialEq)]
pub struct LaneSpec {
    /// `AlgoChoice` text, e.g. `martin-succ:relax=non-atomic`.
    pub algorithm: String,
    pub device: DeviceId,
    /// Block size of every kernel (threads per block; CPU runs model warps with it).
    pub block: u32,
}

impl LaneSpec {
    pub fn new(algorithm: &str, device: DeviceId) -> LaneSpec {
        LaneSpec { algorithm: algorithm.into(), device, block: 256 }
    }
}

/// A command to a lane's worker.
enum LaneCmd {
    Step(usize),
    /// Step until the settled level is ≥ this distance (or the run ends).
    UntilLevel(Distance),
    ToEnd,
}

/// What a lane's worker sends back.
enum LaneEvent {
    /// The solver's device, the settled level before the first step and the true distances
    /// (none on graphs with negative weights).
    Built(String, Distance, Option<Arc<Vec<Distance>>>),
    /// Steps, the settled level after each, and whether the run is finished.
    Steps(Vec<Step>, Vec<Distance>, bool),
    Failed(String),
    /// A command is done (its steps came before).
    Idle,
}

/// One run of the comparison.
pub struct Lane {
    pub spec: LaneSpec,
    pub trace: Option<Trace>,
    /// Device as the solver describes it, once built.
    pub device_name: String,
    /// Settled level after each recorded iteration (index 0: before the first): every vertex
    /// at true distance ≤ this is settled; [`INF`] once finished.
    pub levels: Vec<Distance>,
    pub finished: bool,
    pub error: Option<String>,
    /// Changes when the trace's cursor or contents change (for the graph view).
    pub version: u64,
    /// Vertices that differ from lane A's at the cursor (see the module docs).
    pub differs: Vec<VertexId>,
    /// True distances from the source (Dijkstra on the lane's worker), once built.
    pub truth: Option<Arc<Vec<Distance>>>,
    job: Option<Job<(), LaneEvent>>,
    tx: Option<Sender<LaneCmd>>,
    busy: bool,
    /// Asks the worker to end its current command after the step in hand (Stop, Esc); cleared
    /// when a command is sent, so a stop never reaches the next one.
    stop: Arc<AtomicBool>,
}

/// A lesson's graph on its worker, the source's file id, and the context to start the lanes with.
type PendingLesson = (Job<Result<Arc<Graph>, String>>, u64, egui::Context);

/// The compare tab's state.
pub struct CompareView {
    pub specs: Vec<LaneSpec>,
    pub lanes: Vec<Lane>,
    pub lockstep: Lockstep,
    /// The lesson shown above the lanes, if one was opened.
    pub lesson: Option<&'static Lesson>,
    /// Cursor positions after each forward action (0: all at iteration 0), and which one is shown.
    history: Vec<Vec<usize>>,
    at: usize,
    /// A level step waits for its laggard's step before moving the others.
    level_wait: Option<usize>,
    graph: Option<Arc<Graph>>,
    source: VertexId,
    /// A lesson's graph being loaded or generated, and the source (file id) to start from.
    pending: Option<PendingLesson>,
    /// Zoom and pan shared by the lanes' graph views and by the plots' x axes.
    pub linked: bool,
    /// The camera the linked views last shared (see [`super::graph_view::GraphView::camera`]).
    link_camera: Option<([f64; 2], f64, bool)>,
    pub views: Vec<super::graph_view::GraphView>,
    /// Errors to show above the lanes (a lesson graph that failed, …).
    pub messages: Vec<String>,
}

impl Default for CompareView {
    fn default() -> Self {
        CompareView {
            specs: vec![LaneSpec::new("martin-succ", DeviceId::Cpu), LaneSpec::new("crauser-succ", DeviceId::Cpu)],
            lanes: Vec::new(),
            lockstep: Lockstep::Level,
            lesson: None,
            history: Vec::new(),
            at: 0,
            level_wait: None,
            graph: None,
            source: 0,
            pending: None,
            linked: true,
            link_camera: None,
            views: Vec::new(),
            messages: Vec::new(),
        }
    }
}

impl CompareView {
    /// Starts every lane afresh on `graph` from `source` (solvers built on their workers).
    pub fn start(&mut self, graph: &Arc<Graph>, source: VertexId, ctx: &egui::Context) {
        self.messages.clear();
        self.graph = Some(Arc::clone(graph));
        self.source = source;
        self.lanes = self.specs.iter().map(|s| start_lane(s.clone(), graph, source, ctx)).collect();
        while self.views.len() < self.lanes.len() {
            self.views.push(super::graph_view::GraphView::new());
        }
        for v in &mut self.views {
            v.set_graph(Arc::clone(graph));
        }
        self.history = vec![vec![0; self.lanes.len()]];
        self.at = 0;
        self.level_wait = None;
    }

    /// The graph the lanes run on.
    pub fn graph(&self) -> Option<&Arc<Graph>> {
        self.graph.as_ref()
    }

    /// The source the lanes run from.
    pub fn source(&self) -> VertexId {
        self.source
    }

    /// Every lane's position after each forward action (the *Record lanes…* GIF's frames).
    pub fn history(&self) -> &[Vec<usize>] {
        &self.history
    }

    /// True while a lane's worker has a command in hand or a lesson's graph is being made.
    pub fn is_busy(&self) -> bool {
        self.lanes.iter().any(|l| l.busy) || self.level_wait.is_some() || self.pending.is_some()
    }

    /// Polls until no lane has a command in hand, for callers without a UI (tests, scripts);
    /// false when `limit` passed first.
    pub fn wait_idle(&mut self, limit: Duration) -> bool {
        let t = Instant::now();
        loop {
            self.poll();
            if !self.is_busy() {
                return true;
            }
            if t.elapsed() >= limit {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The step keys on the compare tab: → and Space step all lanes, ← steps back, End runs
    /// all to the end. True when `cmd` was one of them (and is used up here).
    pub fn key(&mut self, cmd: &super::command::Command) -> bool {
        use super::command::Command as C;
        match cmd {
            C::Step | C::TogglePlay => self.step(),
            C::StepBack => self.step_back(),
            C::RunToEnd => self.run_to_end(),
            C::Cancel => self.stop(),
            _ => return false,
        }
        true
    }

    /// Whether every lane has finished and shows its last iteration.
    pub fn at_end(&self) -> bool {
        !self.lanes.is_empty()
            && self.at + 1 == self.history.len()
            && self.lanes.iter().all(|l| l.finished || l.error.is_some())
    }

    /// One step forward: replays a recorded action after a step back, else asks the solvers.
    pub fn step(&mut self) {
        if self.is_busy() || self.lanes.is_empty() {
            return;
        }
        if self.at + 1 < self.history.len() {
            self.at += 1;
            self.seek_all();
            return;
        }
        match self.lockstep {
            Lockstep::Iteration => {
                for l in self.lanes.iter_mut().filter(|l| l.runnable()) {
                    l.send(LaneCmd::Step(1));
                }
            }
            Lockstep::Level => {
                let laggard = self
                    .lanes
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| l.runnable())
                    .min_by_key(|(_, l)| l.last_level())
                    .map(|(i, _)| i);
                if let Some(i) = laggard {
                    self.lanes[i].send(LaneCmd::Step(1));
                    self.level_wait = Some(i);
                }
            }
        }
    }

    /// Back to the previous forward action's positions.
    pub fn step_back(&mut self) {
        if !self.is_busy() && self.at > 0 {
            self.at -= 1;
            self.seek_all();
        }
    }

    /// Every lane forward until its settled level reaches `level` (or its run ends), on the
    /// workers, as one forward action: a script shows a run part-way (the README's NY image)
    /// without thousands of single steps.
    pub fn run_to_level(&mut self, level: Distance) {
        if self.is_busy() {
            return;
        }
        self.history.truncate(self.at + 1);
        for l in self.lanes.iter_mut().filter(|l| l.runnable()) {
            l.send(LaneCmd::UntilLevel(level));
        }
    }

    /// Every lane to its end, on the workers.
    pub fn run_to_end(&mut self) {
        if self.is_busy() {
            return;
        }
        self.history.truncate(self.at + 1);
        for l in self.lanes.iter_mut().filter(|l| l.runnable()) {
            l.send(LaneCmd::ToEnd);
        }
    }

    /// Ends every lane's current command (a run to the end, a level step) after the step in
    /// hand; what was stepped so far stays, and the lanes can go on from there.
    pub fn stop(&mut self) {
        self.level_wait = None;
        for l in &self.lanes {
            l.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Takes in what the workers sent; records the positions once every lane is idle.
    pub fn poll(&mut self) {
        self.poll_pending();
        let mut any = false;
        for l in &mut self.lanes {
            any |= l.poll();
        }
        if self.level_wait.is_some_and(|i| i >= self.lanes.len()) {
            // The lanes were replaced or removed while one was waited for (found by tests/soak.rs).
            self.level_wait = None;
        }
        if let Some(i) = self.level_wait
            && !self.lanes[i].busy
        {
            self.level_wait = None;
            let target = self.lanes[i].last_level();
            for (j, l) in self.lanes.iter_mut().enumerate() {
                if j != i && l.runnable() && l.last_level() < target {
                    l.send(LaneCmd::UntilLevel(target));
                }
            }
        }
        if any && !self.is_busy() {
            // A forward action is complete: remember where every lane is.
            let pos: Vec<usize> = self.lanes.iter().map(|l| l.trace.as_ref().map_or(0, Trace::len)).collect();
            if self.history.last() != Some(&pos) {
                self.history.truncate(self.at + 1);
                self.history.push(pos);
                self.at = self.history.len() - 1;
            }
            self.seek_all();
        }
    }

    fn seek_all(&mut self) {
        let Some(pos) = self.history.get(self.at).cloned() else { return };
        for (l, &p) in self.lanes.iter_mut().zip(&pos) {
            if let Some(t) = &mut l.trace {
                t.seek(p);
            }
            l.version += 1;
        }
        self.mark_differences();
    }

    /// Each lane's vertices that differ from lane A's: settled in one and not the other, or
    /// settled in both with different δ.
    pub(super) fn mark_differences(&mut self) {
        // Stepped by level, status differences count up to the common level only.
        let common = self.lanes.iter().filter(|l| l.error.is_none()).map(Lane::level).min().unwrap_or(0);
        let truth = match self.lockstep {
            Lockstep::Level => self.lanes.iter().find_map(|l| l.truth.clone()),
            Lockstep::Iteration => None,
        };
        let Some((first, rest)) = self.lanes.split_first_mut() else { return };
        let Some(a) = &first.trace else { return };
        let n = self.graph.as_ref().map_or(0, |g| g.n()) as VertexId;
        for l in rest {
            l.differs = match &l.trace {
                Some(b) => (0..n)
                    .filter(|&v| match &truth {
                        Some(t) if t[v as usize] > common => {
                            let (sa, sb) = (settledness(a.status(v)), settledness(b.status(v)));
                            sa && sb && a.distances()[v as usize] != b.distances()[v as usize]
                        }
                        _ => differs(a, b, v),
                    })
                    .collect(),
                None => Vec::new(),
            };
        }
    }

    /// Iteration shown by every lane (its cursor).
    pub fn positions(&self) -> Vec<usize> {
        self.lanes.iter().map(|l| l.trace.as_ref().map_or(0, Trace::pos)).collect()
    }
}

/// Settled (or frontier, i.e. settled by the last iteration) vs not.
fn settledness(s: VertexStatus) -> bool {
    matches!(s, VertexStatus::Settled | VertexStatus::Frontier)
}

/// Whether `v` differs between the lanes' cursors: settled in one only, or settled in both
/// with different δ.
pub fn differs(a: &Trace, b: &Trace, v: VertexId) -> bool {
    let (sa, sb) = (settledness(a.status(v)), settledness(b.status(v)));
    sa != sb || (sa && a.distances()[v as usize] != b.distances()[v as usize])
}

impl Lane {
    /// Settled level at the cursor (see [`Lane::levels`]).
    pub fn level(&self) -> Distance {
        let pos = self.trace.as_ref().map_or(0, Trace::pos);
        self.levels.get(pos).or(self.levels.last()).copied().unwrap_or(0)
    }

    /// Settled level after the last recorded iteration.
    fn last_level(&self) -> Distance {
        self.levels.last().copied().unwrap_or(0)
    }

    fn runnable(&self) -> bool {
        !self.finished && self.error.is_none() && self.tx.is_some()
    }

    fn send(&mut self, cmd: LaneCmd) {
        self.stop.store(false, Ordering::Relaxed);
        if let Some(tx) = &self.tx
            && tx.send(cmd).is_ok()
        {
            self.busy = true;
        }
    }

    /// Takes in the worker's events; true when anything arrived.
    fn poll(&mut self) -> bool {
        let Some(job) = &mut self.job else { return false };
        let events = job.events();
        let any = !events.is_empty();
        for ev in events {
            match ev {
                LaneEvent::Built(name, level, truth) => {
                    self.device_name = name;
                    self.truth = truth;
                    self.levels = vec![level];
                }
                LaneEvent::Steps(steps, levels, done) => {
                    if let Some(t) = &mut self.trace {
                        let end = t.len();
                        t.seek(end);
                        steps.into_iter().for_each(|s| t.push(s));
                        if done {
                            t.set_finished();
                        }
                    }
                    self.levels.extend(levels);
                    if done && let Some(l) = self.levels.last_mut() {
                        *l = INF;
                    }
                    self.finished = done;
                }
                LaneEvent::Failed(e) => {
                    self.error = Some(e);
                    self.busy = false;
                }
                LaneEvent::Idle => self.busy = false,
            }
        }
        if job.is_finished() && self.busy {
            self.busy = false;
            self.error.get_or_insert_with(|| "the lane's worker stopped".into());
        }
        any
    }
}

/// Starts a lane's worker: it builds the solver, then serves commands until the lane is dropped.
fn start_lane(spec: LaneSpec, graph: &Arc<Graph>, source: VertexId, ctx: &egui::Context) -> Lane {
    let mut lane = Lane {
        trace: Some(Trace::new(graph.n(), source)),
        device_name: spec.device.to_string(),
        levels: vec![0],
        finished: false,
        error: None,
        version: 1,
        differs: Vec::new(),
        truth: None,
        job: None,
        tx: None,
        busy: true,
        stop: Arc::new(AtomicBool::new(false)),
        spec: spec.clone(),
    };
    let choice: AlgoChoice = match spec.algorithm.parse() {
        Ok(c) => c,
        Err(e) => {
            lane.error = Some(format!("`{}`: {e}", spec.algorithm));
            lane.busy = false;
            return lane;
        }
    };
    let (tx, rx) = channel();
    let g = Arc::clone(graph);
    let name = format!("compare: {} on {}", spec.algorithm, spec.device);
    let stop = Arc::clone(&lane.stop);
    lane.job = Some(Job::streaming(name, repaint(ctx), move |jc: &mut JobCtx<LaneEvent>| {
        serve(jc, &rx, &stop, &g, &choice, spec.device, spec.block, source)
    }));
    lane.tx = Some(tx);
    lane
}

/// A lane's worker: build, then step on command. Keeps δ from the deltas to know the level.
#[allow(clippy::too_many_arguments)]
fn serve(
    jc: &mut JobCtx<LaneEvent>,
    rx: &Receiver<LaneCmd>,
    stop: &AtomicBool,
    g: &Arc<Graph>,
    choice: &AlgoChoice,
    device: DeviceId,
    block: u32,
    source: VertexId,
) {
    let opts = SolveOptions {
        params: choice.params.clone(),
        block: BlockSizes::uniform(block),
        record_deltas: true,
        ..Default::default()
    };
    let mut st = match make_stepper(device, Arc::clone(g), choice.algorithm, source, &opts) {
        Ok(s) => s,
        Err(e) => {
            jc.send(LaneEvent::Failed(format!("cannot start {choice} on {device}: {e}")));
            return;
        }
    };
    let mut level = Levels::new(g, source);
    let truth = level.order.is_some().then(|| Arc::new(level.dist.clone()));
    jc.send(LaneEvent::Built(st.device(), level.level(), truth));
    jc.send(LaneEvent::Idle);
    let mut done = false;
    loop {
        let cmd = match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(c) => c,
            Err(RecvTimeoutError::Timeout) if !jc.cancelled() => continue,
            Err(_) => return,
        };
        let (mut left, until) = match cmd {
            LaneCmd::Step(n) => (n, None),
            LaneCmd::UntilLevel(t) => (usize::MAX, Some(t)),
            LaneCmd::ToEnd => (usize::MAX, None),
        };
        let (mut batch, mut levels) = (Vec::new(), Vec::new());
        let mut sent = Instant::now();
        while left > 0 && !done && until.is_none_or(|t| level.level() < t) {
            if jc.cancelled() {
                return;
            }
            if stop.load(Ordering::Relaxed) {
                break;
            }
            match st.step() {
                Ok(Some(step)) => {
                    if let Some(d) = &step.delta {
                        level.apply(d);
                    }
                    done = st.is_done();
                    batch.push(step);
                    levels.push(if done { INF } else { level.level() });
                    left -= 1;
                }
                Ok(None) => done = true,
                Err(e) => {
                    jc.send(LaneEvent::Steps(std::mem::take(&mut batch), std::mem::take(&mut levels), done));
                    jc.send(LaneEvent::Failed(format!("step failed: {e}")));
                    return;
                }
            }
            if batch.len() >= 4096 || sent.elapsed() > Duration::from_millis(30) {
                jc.send(LaneEvent::Steps(std::mem::take(&mut batch), std::mem::take(&mut levels), done));
                sent = Instant::now();
            }
        }
        jc.send(LaneEvent::Steps(batch, levels, done));
        jc.send(LaneEvent::Idle);
    }
}

/// A lane's settled level, kept from the steps' deltas: the vertices in order of their true
/// distance (Dijkstra's, run once), and how many of them from the start are settled. On a graph
/// with negative weights (no Dijkstra) the level is the largest δ settled so far.
struct Levels {
    dist: Vec<Distance>,
    settled: Vec<bool>,
    /// Reachable vertices by true distance; `None` without an oracle.
    order: Option<Vec<VertexId>>,
    prefix: usize,
    max_settled: Distance,
}

impl Levels {
    fn new(g: &Graph, source: VertexId) -> Levels {
        let n = g.n();
        let order = crate::algo::check_weights(g, crate::algo::DIJKSTRA).is_ok().then(|| {
            let truth = crate::algo::dijkstra_distances(g, source);
            let mut order: Vec<VertexId> = (0..n as VertexId).filter(|&v| truth[v as usize] != INF).collect();
            order.sort_by_key(|&v| truth[v as usize]);
            (order, truth)
        });
        let mut settled = vec![false; n];
        let mut dist = vec![INF; n];
        if let Some(s) = settled.get_mut(source as usize) {
            *s = true;
        }
        if let Some(d) = dist.get_mut(source as usize) {
            *d = 0;
        }
        let (order, truth) = order.map_or((None, Vec::new()), |(o, t)| (Some(o), t));
        let mut l =
            Levels { dist: if truth.is_empty() { dist } else { truth }, settled, order, prefix: 0, max_settled: 0 };
        l.advance();
        l
    }

    fn apply(&mut self, d: &crate::algo::StepDelta) {
        if self.order.is_none() {
            for &(v, _, new) in &d.lowered {
                self.dist[v as usize] = new;
            }
        }
        for &v in &d.settled {
            self.settled[v as usize] = true;
            self.max_settled = self.max_settled.max(self.dist[v as usize]);
        }
        self.advance();
    }

    fn advance(&mut self) {
        if let Some(order) = &self.order {
            while self.prefix < order.len() && self.settled[order[self.prefix] as usize] {
                self.prefix += 1;
            }
        }
    }

    /// Every vertex at true distance ≤ this is settled.
    fn level(&self) -> Distance {
        match &self.order {
            Some(order) => match order.get(self.prefix) {
                Some(&v) => (self.dist[v as usize] - 1).max(0),
                None => INF,
            },
            None => self.max_settled,
        }
    }
}

#[cfg(test)]
mod tests;
