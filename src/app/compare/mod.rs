//! Compare mode: two to four runs on the same graph and source, each with its own algorithm,
//! device and block size, stepped together with one set of controls — by iteration, or by
//! settled-distance level so that runs line up on the same Δ (Martín's and Crauser's thresholds
//! reach each distance after different numbers of iterations).
//!
//! Each lane's solver lives on its own worker ([`crate::jobs::Job`]) that takes commands (step
//! n, step until a level, run to the end) and streams the steps back into the lane's
//! [`Trace`], so a slow device or a long run never blocks the UI. Forward actions are recorded
//! as cursor positions, so stepping back (and forward again) replays the traces without the
//! solvers. The graph views mark the vertices whose status differs from lane A's.

pub mod lessons;
mod ui;

pub use lessons::{LESSONS, Lesson};

use super::jobs::{Job, JobCtx, repaint};
use crate::algo::{AlgoChoice, BlockSizes, SolveOptions, Step, VertexStatus};
use crate::device::{DeviceId, make_stepper};
use crate::graph::{Distance, Graph, INF, VertexId};
use crate::trace::Trace;
use std::sync::Arc;
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
    /// level reaches that one's: the lanes show the same distances settled.
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
    Built(String),
    /// Steps, the settled level after them, and whether the run is finished.
    Steps(Vec<Step>, Distance, bool),
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
    /// Largest δ settled so far (the lockstep level; [`INF`] once finished).
    pub level: Distance,
    pub finished: bool,
    pub error: Option<String>,
    /// Changes when the trace's cursor or contents change (for the graph view).
    pub version: u64,
    /// Vertices whose status differs from lane A's at the cursor.
    pub differs: Vec<VertexId>,
    job: Option<Job<(), LaneEvent>>,
    tx: Option<Sender<LaneCmd>>,
    busy: bool,
}

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
    pub views: Vec<super::graph_view::GraphView>,
    pub(crate) messages: Vec<String>,
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

    /// Every lane's position after each forward action (the *Record lanes…* GIF's frames).
    pub fn history(&self) -> &[Vec<usize>] {
        &self.history
    }

    /// True while a lane's worker has a command in hand.
    pub fn is_busy(&self) -> bool {
        self.lanes.iter().any(|l| l.busy) || self.level_wait.is_some()
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
                    .min_by_key(|(_, l)| l.level)
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

    /// Takes in what the workers sent; records the positions once every lane is idle.
    pub fn poll(&mut self) {
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
            let target = self.lanes[i].level;
            for (j, l) in self.lanes.iter_mut().enumerate() {
                if j != i && l.runnable() && l.level < target {
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

    /// Each lane's vertices whose status differs from lane A's.
    fn mark_differences(&mut self) {
        let Some((first, rest)) = self.lanes.split_first_mut() else { return };
        let Some(a) = &first.trace else { return };
        let n = self.graph.as_ref().map_or(0, |g| g.n()) as VertexId;
        for l in rest {
            l.differs = match &l.trace {
                Some(b) => (0..n).filter(|&v| settledness(a.status(v)) != settledness(b.status(v))).collect(),
                None => Vec::new(),
            };
        }
    }

    /// Iteration shown by every lane (its cursor).
    pub fn positions(&self) -> Vec<usize> {
        self.lanes.iter().map(|l| l.trace.as_ref().map_or(0, Trace::pos)).collect()
    }
}

/// Settled (or frontier) vs not: what "differs" compares (frontier is settled-last-iteration).
fn settledness(s: VertexStatus) -> bool {
    matches!(s, VertexStatus::Settled | VertexStatus::Frontier)
}

impl Lane {
    fn runnable(&self) -> bool {
        !self.finished && self.error.is_none() && self.tx.is_some()
    }

    fn send(&mut self, cmd: LaneCmd) {
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
                LaneEvent::Built(name) => self.device_name = name,
                LaneEvent::Steps(steps, level, done) => {
                    if let Some(t) = &mut self.trace {
                        let end = t.len();
                        t.seek(end);
                        steps.into_iter().for_each(|s| t.push(s));
                        if done {
                            t.set_finished();
                        }
                    }
                    self.level = level;
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
        level: 0,
        finished: false,
        error: None,
        version: 1,
        differs: Vec::new(),
        job: None,
        tx: None,
        busy: true,
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
    lane.job = Some(Job::streaming(name, repaint(ctx), move |jc: &mut JobCtx<LaneEvent>| {
        serve(jc, &rx, &g, &choice, spec.device, spec.block, source)
    }));
    lane.tx = Some(tx);
    lane
}

/// A lane's worker: build, then step on command. Keeps δ from the deltas to know the level.
fn serve(
    jc: &mut JobCtx<LaneEvent>,
    rx: &Receiver<LaneCmd>,
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
    jc.send(LaneEvent::Built(st.device()));
    jc.send(LaneEvent::Idle);
    let mut dist = vec![INF; g.n()];
    if let Some(d) = dist.get_mut(source as usize) {
        *d = 0;
    }
    let mut level: Distance = 0;
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
        let mut batch = Vec::new();
        let mut sent = Instant::now();
        while left > 0 && !done && until.is_none_or(|t| level < t) {
            if jc.cancelled() {
                return;
            }
            match st.step() {
                Ok(Some(step)) => {
                    if let Some(d) = &step.delta {
                        for &(v, _, new) in &d.lowered {
                            dist[v as usize] = new;
                        }
                        for &v in &d.settled {
                            level = level.max(dist[v as usize]);
                        }
                    }
                    done = st.is_done();
                    batch.push(step);
                    left -= 1;
                }
                Ok(None) => done = true,
                Err(e) => {
                    jc.send(LaneEvent::Steps(std::mem::take(&mut batch), level, done));
                    jc.send(LaneEvent::Failed(format!("step failed: {e}")));
                    return;
                }
            }
            if batch.len() >= 4096 || sent.elapsed() > Duration::from_millis(30) {
                jc.send(LaneEvent::Steps(std::mem::take(&mut batch), level, done));
                sent = Instant::now();
            }
        }
        if done {
            level = INF;
        }
        jc.send(LaneEvent::Steps(batch, level, done));
        jc.send(LaneEvent::Idle);
    }
}

#[cfg(test)]
mod tests;
