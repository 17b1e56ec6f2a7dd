//! The Δ-stepping stepper (one thread or a rayon pool): the phases, the lazy bins and the split
//! of each vertex's arcs into light and heavy ones. What a phase is and why the records do not
//! depend on the thread count: the parent module's docs.

use super::DeltaSteppingParams;
use crate::algo::model::{LaneCounter, SparseWarpCounter};
use crate::algo::{
    Algorithm, IterationRecord, Launch, PhaseTimes, RunRecord, SolveError, SolveOptions, Step, StepDelta, Stepper,
    ThreadCounts, Values, dist_value,
};
use crate::graph::{Distance, Graph, INF, VertexId, Weight};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, Ordering::Relaxed};
use std::time::Instant;

/// The atomic of [`Distance`] (δ is lowered with `fetch_min`).
type AtomicDistance = AtomicI64;

/// Frontiers below this size are relaxed on the calling thread (a pool wake-up costs more).
const PAR_CUTOFF: usize = 1024;

/// Each vertex's arcs split into light ones (w ≤ Δ) first, heavy ones after; `None` when every
/// arc is light (the graph's own arrays serve).
struct Split {
    targets: Vec<VertexId>,
    weights: Vec<Weight>,
    /// End of v's light arcs (start of its heavy ones).
    light_end: Vec<u32>,
}

fn split(graph: &Graph, delta: Distance) -> Option<Split> {
    if graph.max_weight() as Distance <= delta {
        return None;
    }
    let succ = graph.successors();
    let mut s =
        Split { targets: Vec::with_capacity(succ.m()), weights: Vec::with_capacity(succ.m()), light_end: vec![] };
    s.light_end.reserve(succ.n());
    for u in 0..succ.n() as VertexId {
        for heavy in [false, true] {
            for (v, w) in succ.arcs(u).filter(|&(_, w)| (w as Distance > delta) == heavy) {
                s.targets.push(v);
                s.weights.push(w);
            }
            if !heavy {
                s.light_end.push(s.targets.len() as u32);
            }
        }
    }
    Some(s)
}

/// Which arcs the next phase relaxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Light,
    Heavy,
}

/// Δ-stepping on one thread (`threads` = 1) or a rayon pool (0 = every core).
pub struct DeltaSteppingStepper {
    graph: Arc<Graph>,
    algo: Algorithm,
    params: DeltaSteppingParams,
    opts: SolveOptions,
    pool: Option<super::team::LazyPool>,
    /// Frontiers at least this large go to the pool.
    cutoff: usize,
    source: VertexId,
    delta: Distance,
    /// Built on the first phase that reads arcs: a run on the fast path never needs it (on
    /// Kronecker 21 it is a 0.5 GB copy of the adjacency per solve).
    split: std::sync::OnceLock<Option<Split>>,
    dist: Vec<AtomicDistance>,
    /// δ when the current phase began (read-only during a phase).
    prev: Vec<Distance>,
    /// Phase in which a vertex was last lowered (collects each lowered vertex once).
    stamp: Vec<AtomicU32>,
    /// Later buckets by index, lazy (see the module docs).
    bins: BTreeMap<Distance, Vec<VertexId>>,
    /// Current bucket index (a [`Distance`]: ⌊δ/Δ⌋).
    bucket: Distance,
    /// Vertices whose arcs the next phase relaxes, and which arcs.
    frontier: Vec<VertexId>,
    kind: Kind,
    /// R: vertices removed from the current bucket so far; `in_r[v]` = the bucket's serial.
    removed: Vec<VertexId>,
    in_r: Vec<u32>,
    serial: u32,
    /// Heavy arcs of R (0: the heavy phase is skipped).
    heavy_of_r: u64,
    reached: u64,
    settled: u64,
    warps: SparseWarpCounter,
    lanes: LaneCounter,
    iteration: u32,
    done: bool,
    /// Per-thread busy and barrier time of the fast path ([`super::fast::FastRun::threads`]).
    fast_threads: Vec<crate::algo::ThreadTime>,
}

impl DeltaSteppingStepper {
    /// δ(s) = 0 in bucket 0, the first frontier; the stepped phases start their threads on first use.
    ///
    /// Errors: [`SolveError::Options`] for a parameter value that does not decode.
    pub fn new(
        graph: Arc<Graph>,
        algo: Algorithm,
        source: VertexId,
        threads: usize,
        opts: SolveOptions,
    ) -> Result<Self, SolveError> {
        let pool = match threads {
            1 => None,
            t => Some(super::team::LazyPool::new(t)),
        };
        let params = DeltaSteppingParams::decode(&opts.params).map_err(SolveError::Options)?;
        let mut delta = params.delta.width(&graph);
        if params.delta == super::DeltaRule::Auto && opts.launch == Launch::Fast && threads != 1 {
            let x = super::fast::knobs().delta_x;
            if x != 1.0 {
                delta = ((delta as f64 * x).round() as Distance).max(1);
            }
        }
        let n = graph.n();
        if opts.launch == Launch::Fast {
            // The team, the δ array and the renumbered copy of the fast path, outside the timed
            // `run_to_end` — on one thread too, where the copy was built inside the first timed
            // run (lease 19 call 2: Kronecker 21's first run 1.5–2.0 s against 0.4 s).
            super::fast::prepare(&graph, pool.as_ref().map_or(1, super::team::LazyPool::threads));
        }
        let light_heavy = std::sync::OnceLock::new();
        if opts.launch != Launch::Fast {
            // Stepped runs time their phases: the split stays out of the first one.
            let _ = light_heavy.set(split(&graph, delta));
        }
        let mut prev = vec![INF; n];
        prev[source as usize] = 0;
        let mut st = DeltaSteppingStepper {
            split: light_heavy,
            dist: prev.iter().map(|&d| AtomicDistance::new(d)).collect(),
            prev,
            stamp: (0..n).map(|_| AtomicU32::new(0)).collect(),
            bins: BTreeMap::new(),
            bucket: 0,
            frontier: Vec::new(),
            kind: Kind::Light,
            removed: Vec::new(),
            in_r: vec![0; n],
            serial: 0,
            heavy_of_r: 0,
            reached: 1,
            settled: 1,
            warps: SparseWarpCounter::new(n),
            lanes: LaneCounter::default(),
            pool,
            cutoff: PAR_CUTOFF,
            algo,
            params,
            opts,
            source,
            delta,
            iteration: 0,
            done: false,
            fast_threads: Vec::new(),
            graph,
        };
        st.open(0, vec![source]);
        Ok(st)
    }

    /// Sends frontiers of at least `cutoff` vertices to the pool (default 1024; 0 = always),
    /// so tests can force the parallel path on small graphs.
    pub fn with_cutoff(mut self, cutoff: usize) -> Self {
        self.cutoff = cutoff;
        self
    }

    /// The bucket width in use.
    pub fn delta(&self) -> Distance {
        self.delta
    }

    fn bucket_of(&self, d: Distance) -> Distance {
        d / self.delta
    }

    /// u's light or heavy arcs.
    fn arcs(&self, u: VertexId, kind: Kind) -> (&[VertexId], &[Weight]) {
        let succ = self.graph.successors();
        let r = succ.range(u);
        match (self.split.get_or_init(|| split(&self.graph, self.delta)), kind) {
            (None, Kind::Light) => (&succ.targets[r.clone()], &succ.weights[r]),
            (None, Kind::Heavy) => (&[], &[]),
            (Some(s), k) => {
                let mid = s.light_end[u as usize] as usize;
                let r = if k == Kind::Light { r.start..mid } else { mid..r.end };
                (&s.targets[r.clone()], &s.weights[r])
            }
        }
    }

    /// Starts bucket `b` (serial + 1) with frontier `f`.
    fn open(&mut self, b: Distance, f: Vec<VertexId>) {
        self.bucket = b;
        self.serial += 1;
        self.removed.clear();
        self.heavy_of_r = 0;
        self.kind = Kind::Light;
        self.frontier = f;
        self.remove_frontier();
    }

    /// Adds the light frontier's new vertices to R.
    fn remove_frontier(&mut self) {
        let frontier = std::mem::take(&mut self.frontier);
        for &v in &frontier {
            if self.in_r[v as usize] != self.serial {
                self.in_r[v as usize] = self.serial;
                self.removed.push(v);
                self.heavy_of_r += self.arcs(v, Kind::Heavy).0.len() as u64;
            }
        }
        self.frontier = frontier;
    }

    /// Opens the lowest bin with a live entry; false when every bin is empty.
    fn open_next(&mut self) -> bool {
        while let Some((b, entries)) = self.bins.pop_first() {
            let live: Vec<VertexId> =
                entries.into_iter().filter(|&v| self.bucket_of(self.prev[v as usize]) == b).collect();
            if !live.is_empty() {
                self.open(b, live);
                return true;
            }
        }
        false
    }

    /// Relaxes `kind` arcs of u against δ_prev(u), skipping targets with δ_prev < `floor`
    /// (settled); returns (arcs scanned, arcs relaxed).
    fn relax(&self, u: VertexId, kind: Kind, floor: Distance, phase: u32, lowered: &mut Vec<VertexId>) -> (u64, u64) {
        let du = self.prev[u as usize];
        let (targets, weights) = self.arcs(u, kind);
        let mut relaxed = 0;
        for (&v, &w) in targets.iter().zip(weights) {
            if self.prev[v as usize] < floor {
                continue;
            }
            relaxed += 1;
            let nd = du + w as Distance;
            if nd < self.dist[v as usize].fetch_min(nd, Relaxed) && self.stamp[v as usize].swap(phase, Relaxed) != phase
            {
                lowered.push(v);
            }
        }
        (targets.len() as u64, relaxed)
    }

    /// The modelled relax launch of this phase: threads (one per frontier vertex) and lane use.
    fn launch_figures(&mut self) -> (ThreadCounts, f64) {
        let block = self.opts.block.relax;
        let threads = self.warps.count(self.graph.n() as u64, block, &self.frontier);
        let succ = self.graph.successors();
        let (arc_iters, warp_iters) =
            self.lanes.count(&self.frontier, |v| succ.degree(v) as u64, block, self.params.balanced());
        (threads, crate::algo::model::lane_use(arc_iters, warp_iters))
    }

    /// Books the phase's `lowered` vertices (sorted) into δ_prev and the bins: those still in
    /// the current `bucket` are returned as the next frontier, with the step's delta.
    fn bin_lowered(&mut self, lowered: &[VertexId], bucket: Distance) -> (Vec<VertexId>, StepDelta) {
        let mut delta = StepDelta::default();
        let mut next = Vec::new();
        for &v in lowered {
            let (old, d) = (self.prev[v as usize], self.dist[v as usize].load(Relaxed));
            self.reached += u64::from(old == INF);
            if self.opts.record_deltas {
                delta.lowered.push((v, old, d));
            }
            self.prev[v as usize] = d;
            let b = self.bucket_of(d);
            if b == bucket {
                next.push(v);
            } else if old == INF || self.bucket_of(old) != b {
                self.bins.entry(b).or_default().push(v);
            }
        }
        (next, delta)
    }

    /// After a `kind` phase whose lowered vertices left `next` in the bucket: the next light
    /// phase, the heavy phase, the next bucket or the end. Returns R (sorted, without the
    /// source) when the bucket stayed empty and R became final.
    fn advance(&mut self, kind: Kind, next: Vec<VertexId>) -> Option<Vec<VertexId>> {
        if kind == Kind::Light && !next.is_empty() {
            self.frontier = next;
            self.remove_frontier();
            return None;
        }
        let mut settled = None;
        if kind == Kind::Light {
            // The bucket stays empty: R is final.
            let mut r: Vec<VertexId> = self.removed.iter().copied().filter(|&v| v != self.source).collect();
            r.sort_unstable();
            self.settled += r.len() as u64;
            settled = Some(r);
        }
        if kind == Kind::Light && self.heavy_of_r > 0 {
            self.kind = Kind::Heavy;
            self.frontier = std::mem::take(&mut self.removed);
            self.frontier.sort_unstable();
        } else if !self.open_next() {
            self.frontier.clear();
            self.done = true;
        }
        settled
    }

    /// One phase over the frontier: (arcs scanned, arcs relaxed, vertices lowered).
    fn phase(&self, phase: u32) -> (u64, u64, Vec<VertexId>) {
        let lo = self.bucket.saturating_mul(self.delta);
        // Light: buckets below i are settled. Heavy: bucket i is settled too.
        let floor = if self.kind == Kind::Light { lo } else { lo.saturating_add(self.delta) };
        let fold = |(s, r, mut low): (u64, u64, Vec<VertexId>), &u: &VertexId| {
            let (a, b) = self.relax(u, self.kind, floor, phase, &mut low);
            (s + a, r + b, low)
        };
        let join = |a: (u64, u64, Vec<VertexId>), mut b: (u64, u64, Vec<VertexId>)| {
            b.2.extend(a.2);
            (a.0 + b.0, a.1 + b.1, b.2)
        };
        match self.pool.as_ref().filter(|_| self.frontier.len() >= self.cutoff).and_then(|p| p.get()) {
            Some(pool) => pool.install(|| {
                self.frontier.par_iter().fold(|| (0, 0, Vec::new()), fold).reduce(|| (0, 0, Vec::new()), join)
            }),
            _ => self.frontier.iter().fold((0, 0, Vec::new()), fold),
        }
    }
}

impl Stepper for DeltaSteppingStepper {
    crate::algo::stepper_getters!(done = done);

    fn device(&self) -> String {
        crate::algo::cpu_device(self.pool.as_ref().map_or(1, |p| p.threads()))
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        if self.done {
            return Ok(None);
        }
        self.iteration += 1;
        let n = self.graph.n() as u64;
        let (kind, bucket, frontier) = (self.kind, self.bucket, self.frontier.len() as u64);
        // The heavy phase's frontier is R itself.
        let bucket_size = if kind == Kind::Light { self.removed.len() as u64 } else { frontier };
        let unsettled = n - self.settled;
        let (threads, lane_use) = self.launch_figures();
        let t0 = Instant::now();
        let (scanned, relaxed, mut lowered) = self.phase(self.iteration);
        let t1 = Instant::now();
        lowered.sort_unstable();
        let (next, mut delta) = self.bin_lowered(&lowered, bucket);
        let reached = self.reached - self.settled;
        let t2 = Instant::now();
        if let Some(settled) = self.advance(kind, next) {
            delta.settled = settled;
        }
        let t3 = Instant::now();
        let (light, heavy) = if kind == Kind::Light { (relaxed, 0) } else { (0, relaxed) };
        let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e3;
        let record = IterationRecord {
            iteration: self.iteration,
            frontier,
            unsettled,
            reached,
            settled: self.settled,
            edges_scanned: scanned,
            relax_attempted: relaxed,
            relax_improved: lowered.len() as u64,
            threads: Some(threads),
            // The bins are the update, the choice of the next bucket the minimum.
            times: PhaseTimes { relax_ms: ms(t0, t1), update_ms: ms(t1, t2), minimum_ms: ms(t2, t3), copy_ms: 0.0 },
            values: Values::from_slice(&[
                bucket as f64,
                bucket_size as f64,
                light as f64,
                heavy as f64,
                dist_value(self.delta),
                self.frontier.len() as f64,
                lane_use,
            ]),
        };
        Ok(Some(Step { record, delta: self.opts.record_deltas.then_some(delta) }))
    }

    fn thread_times(&self) -> Vec<crate::algo::ThreadTime> {
        self.fast_threads.clone()
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.dist.iter().map(|d| d.load(Relaxed)).collect())
    }

    /// With `launch=fast` (the default) and no step taken yet: GAP's rounds on every thread
    /// ([`super::fast`]), no per-round records. Otherwise the remaining phases, recorded.
    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        if self.iteration == 0 && self.opts.launch == Launch::Fast {
            let start = Instant::now();
            let fast = super::fast::run(
                &self.graph,
                &self.dist,
                self.source,
                self.delta,
                self.pool.as_ref().map_or(1, |p| p.threads()),
                cancel,
            )?;
            let total_ms = start.elapsed().as_secs_f64() * 1e3;
            self.done = true;
            self.iteration = fast.rounds;
            self.fast_threads = fast.threads.iter().map(|t| t.time()).collect();
            self.reached = self.dist.iter().filter(|d| d.load(Relaxed) != INF).count() as u64;
            self.settled = self.reached;
            progress(self.settled);
            return Ok(RunRecord {
                algorithm: self.label(),
                device: self.device(),
                graph: self.graph.name.clone(),
                n: self.graph.n(),
                m: self.graph.m(),
                source: self.source,
                iterations: fast.rounds,
                total_ms,
                times: PhaseTimes { relax_ms: total_ms, ..Default::default() },
                reached: self.reached,
                records: Vec::new(),
            });
        }
        let graph = Arc::clone(&self.graph);
        let mut run = crate::algo::run_without_deltas(self, |s| &mut s.opts.record_deltas, &graph, cancel, progress)?;
        run.iterations = self.iteration;
        run.reached = self.reached;
        Ok(run)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{DELTA_STEPPING, auto_delta};
    use super::*;
    use crate::graph::{GraphBuilder, VertexLabels, WeightRule};

    fn graph(n: usize, arcs: &[(VertexId, VertexId, Weight)]) -> Arc<Graph> {
        let mut b = GraphBuilder::new(n, WeightRule::File);
        for &(u, v, w) in arcs {
            b.push(u, v, Some(w));
        }
        Arc::new(b.build("test", None, VertexLabels::Offset(0)).expect("n ≥ 1"))
    }

    #[test]
    fn auto_delta_is_the_heaviest_arc_over_the_mean_degree() {
        assert_eq!(auto_delta(&graph(4, &[(0, 1, 10), (1, 2, 3)])), 20);
        assert_eq!(auto_delta(&graph(3, &[])), 1);
        assert_eq!(auto_delta(&graph(2, &[(0, 1, 0)])), 1);
    }

    /// Δ = 2: bucket 0 = {0, 1} needs two light phases, then its one heavy arc (0→2, 5) is
    /// relaxed once and finds δ(2) = 2 already lower; bucket 1 = {2} ends the run.
    #[test]
    fn a_bucket_is_emptied_by_light_phases_then_relaxes_its_heavy_arcs_once() {
        let g = graph(3, &[(0, 1, 1), (1, 2, 1), (0, 2, 5)]);
        let opts = SolveOptions { params: crate::algo::Params::default().with("delta", "2"), ..Default::default() };
        let mut st = DeltaSteppingStepper::new(g, DELTA_STEPPING, 0, 1, opts).expect("stepper");
        let mut rows = Vec::new();
        while let Some(step) = st.step().expect("step") {
            let r = step.record;
            let v: Vec<u64> = (0..6).map(|i| r.values.get(i).expect("value") as u64).collect();
            rows.push((r.frontier, r.settled, r.relax_improved, v));
        }
        // (|F|, settled, improved, [bucket, bucket size, light, heavy, Δ, next |F|])
        assert_eq!(
            rows,
            vec![
                (1, 1, 1, vec![0, 1, 1, 0, 2, 1]),
                (1, 2, 1, vec![0, 2, 1, 0, 2, 2]),
                (2, 2, 0, vec![0, 2, 0, 1, 2, 1]),
                (1, 3, 0, vec![1, 1, 0, 0, 2, 0]),
            ]
        );
        assert_eq!(st.distances().expect("δ"), vec![0, 1, 2]);
        assert!(st.is_done());
    }
}
