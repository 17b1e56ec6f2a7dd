//! Δ-stepping ([meyer-sanders]; the GAP Benchmark Suite's `sssp` is the reference CPU code,
//! [gapbs]): vertices wait in buckets of width Δ, bucket i holding δ ∈ [iΔ, (i+1)Δ). The lowest
//! non-empty bucket is emptied in *light phases*: its vertices relax their light arcs (w ≤ Δ),
//! which may put vertices back into the same bucket, until it stays empty; then the vertices
//! removed from it (R) are final and relax their heavy arcs (w > Δ) once, in one *heavy phase*
//! (skipped when R has none). One `step` is one phase.
//!
//! Parameter `delta`: the bucket width; 0 (the default) derives it from the graph by
//! [`auto_delta`]. Δ = 1 on integer weights is Dial's bucket queue (Dijkstra, one distance per
//! bucket); Δ ≥ the largest distance is one bucket, i.e. frontier-filtered Bellman-Ford.
//! Where it wins: many vertices per bucket (high degree, small Δ: R-MAT; or a Δ spanning many
//! hops on roads) with O(n + m) work for a good Δ ([meyer-sanders] §3). Where it loses: a Δ too
//! small pays one synchronised phase per bucket for little work (roads with Δ = 1), too large
//! re-relaxes vertices many times per bucket (Bellman-Ford's waste); the best Δ depends on the
//! graph, and no rule is right everywhere.
//!
//! Phases are synchronous, so one thread and all cores record the same phases: a light phase
//! relaxes the light arcs of the current bucket's frontier against δ as the phase began
//! (`prev`), lowering δ with an atomic `fetch_min`; a stamp per vertex collects each lowered
//! vertex once, in thread-local lists. After the phase the lowered vertices go, in vertex order,
//! into the bin of their final δ: the current bucket's (the next frontier) or a later one.
//! GAPBS instead pushes a vertex into a thread-local bin every time it is lowered and relaxes
//! whatever the bins hold; binning once per phase by the final δ keeps the sets (and so every
//! count) independent of the interleaving. Later bins are lazy: an entry is skipped when its
//! vertex has since moved to a lower bucket, and a vertex enters a bin only when it changes
//! bucket, so a bin holds each vertex at most once. The light and heavy arcs of each vertex are
//! split once into a copy of the adjacency (skipped when every arc is light).

use super::model::SparseWarpCounter;
use super::{
    Algorithm, AlgorithmSpec, CodeLine, Family, IterationRecord, ParamKind, ParamSpec, Phase, PhaseTimes, PlotGroup,
    RunRecord, SeriesSpec, SeriesUnit, SolveError, SolveOptions, Step, StepDelta, Stepper, Values, dist_value,
};
use crate::graph::{Distance, Graph, INF, VertexId, Weight};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// The atomic of [`Distance`] (δ is lowered with `fetch_min`).
type AtomicDistance = AtomicU64;

/// Δ-stepping ([meyer-sanders], [gapbs]).
pub const DELTA_STEPPING: Algorithm = Algorithm(&DELTA_STEPPING_SPEC);

/// Frontiers below this size are relaxed on the calling thread (a pool wake-up costs more).
const PAR_CUTOFF: usize = 1024;

static PARAMS: [ParamSpec; 1] = [ParamSpec {
    key: "delta",
    label: "Bucket width Δ",
    help: "Δ-stepping's bucket width; arcs with w ≤ Δ are light. 0 = auto: ⌈w_max / mean out-degree⌉ \
([meyer-sanders]' Θ(1/d) for uniform weights)",
    kind: ParamKind::Int { min: 0, max: 1 << 53, default: 0, tests: &[1, 100_000] },
}];

static SERIES: [SeriesSpec; 6] = [
    SeriesSpec {
        key: "bucket",
        label: "bucket i",
        help: "index of the current bucket, δ ∈ [iΔ, (i+1)Δ)",
        unit: SeriesUnit::Count,
        group: PlotGroup::Table,
    },
    SeriesSpec {
        key: "bucket_size",
        label: "bucket size",
        help: "vertices of the current bucket so far: removed in its earlier phases or in this frontier",
        unit: SeriesUnit::Count,
        group: PlotGroup::Sets,
    },
    SeriesSpec {
        key: "light_relax",
        label: "light relaxations",
        help: "light arcs (w ≤ Δ) relaxed this phase",
        unit: SeriesUnit::Count,
        group: PlotGroup::Work,
    },
    SeriesSpec {
        key: "heavy_relax",
        label: "heavy relaxations",
        help: "heavy arcs (w > Δ) relaxed this phase (only in the heavy phase that ends a bucket)",
        unit: SeriesUnit::Count,
        group: PlotGroup::Work,
    },
    SeriesSpec {
        key: "delta",
        label: "Δ bucket width",
        help: "the bucket width used (the auto rule's value when the parameter is 0)",
        unit: SeriesUnit::Distance,
        group: PlotGroup::Thresholds,
    },
    SeriesSpec {
        key: "next_frontier",
        label: "next |F|",
        help: "vertices whose arcs the next phase relaxes",
        unit: SeriesUnit::Count,
        group: PlotGroup::Table,
    },
];

/// Δ-stepping, one phase per step.
pub static DELTA_STEPPING_SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "delta-stepping",
    name: "Δ-stepping",
    summary: "Δ-stepping: buckets of width Δ, light arcs in phases, heavy arcs once per bucket",
    reference: "[meyer-sanders] §2–3; [gapbs] sssp",
    iteration: "one phase: relax the light arcs of the current bucket's frontier against δ as the phase began, \
or, once the bucket stays empty, the heavy arcs of the vertices removed from it",
    family: Family::Bucketed,
    params: &PARAMS,
    series: &SERIES,
    code,
    finished: "every bucket is empty",
    exact: |_| true,
    cpu: |g, a, s, o| Ok(Box::new(DeltaSteppingStepper::new(g, a, s, 1, o.clone())?)),
    cpu_parallel: Some(|g, a, s, t, o| Ok(Box::new(DeltaSteppingStepper::new(g, a, s, t, o.clone())?))),
};

fn code(_: &super::Params) -> Vec<CodeLine> {
    vec![
        (Phase::Init, "δ(s) ← 0; δ(v) ← ∞ (v ≠ s); B[0] ← {s}"),
        (Phase::Loop, "while some B[j] ≠ ∅ do"),
        (Phase::Minimum, "  i ← min{j : B[j] ≠ ∅}; R ← ∅"),
        (Phase::Loop, "  while B[i] ≠ ∅ do                  (a light phase)"),
        (Phase::Relax, "    F ← B[i]; R ← R ∪ F; B[i] ← ∅"),
        (Phase::Relax, "    for (u,v,w), u ∈ F, w ≤ Δ, in parallel:"),
        (Phase::Relax, "      atomicMin(δ(v), δ_prev(u)+w)"),
        (Phase::Update, "    move each lowered v to B[⌊δ(v)/Δ⌋]"),
        (Phase::Relax, "  for (u,v,w), u ∈ R, w > Δ, in parallel:  (the heavy phase)"),
        (Phase::Relax, "    atomicMin(δ(v), δ(u)+w)"),
        (Phase::Update, "  move each lowered v to B[⌊δ(v)/Δ⌋]; R is settled"),
    ]
}

/// Δ when the parameter is 0: ⌈w_max · n / m⌉ = ⌈w_max / d̄⌉ with d̄ the mean out-degree, at
/// least 1 (1 for a graph without arcs or with only zero weights).
///
/// [meyer-sanders] prove O(n + m) work for Δ = Θ(1/d) on weights uniform in [0, 1] and maximum
/// degree d; with weights up to w_max that is w_max / d. The mean degree stands in for d so one
/// hub does not shrink Δ for the whole graph. On roads (NY: w_max = 36 946, d̄ = 2.8) it gives
/// Δ ≈ 13 300, about ten mean arcs: buckets span several hops, hundreds of vertices per phase.
/// GAP tunes NY by hand to 50 000, the same order. On R-MAT with weights 1..255 and degree 16
/// it gives 16: small buckets, since each vertex already has many arcs to spread. GAP's
/// Kronecker runs use 2 at degree 32; `experiments/delta-stepping.json` sweeps multiples.
pub fn auto_delta(graph: &Graph) -> Distance {
    let (n, m, w_max) = (graph.n() as u128, graph.m() as u128, graph.max_weight() as u128);
    if m == 0 {
        return 1;
    }
    (w_max * n).div_ceil(m).clamp(1, 1 << 53) as Distance
}

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
    opts: SolveOptions,
    pool: Option<rayon::ThreadPool>,
    /// Frontiers at least this large go to the pool.
    cutoff: usize,
    source: VertexId,
    delta: Distance,
    split: Option<Split>,
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
    iteration: u32,
    done: bool,
}

impl DeltaSteppingStepper {
    /// δ(s) = 0 in bucket 0, the first frontier. Errors: the thread pool cannot be created.
    pub fn new(
        graph: Arc<Graph>,
        algo: Algorithm,
        source: VertexId,
        threads: usize,
        opts: SolveOptions,
    ) -> Result<Self, SolveError> {
        let pool = match threads {
            1 => None,
            t => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(|e| SolveError::Device(format!("cannot start CPU threads: {e}")))?,
            ),
        };
        let delta = match algo.int(&opts.params, "delta") {
            d if d <= 0 => auto_delta(&graph),
            d => d as Distance,
        };
        let n = graph.n();
        let mut prev = vec![INF; n];
        prev[source as usize] = 0;
        let mut st = DeltaSteppingStepper {
            split: split(&graph, delta),
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
            pool,
            cutoff: PAR_CUTOFF,
            algo,
            opts,
            source,
            delta,
            iteration: 0,
            done: false,
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
        match (&self.split, kind) {
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
        match &self.pool {
            Some(pool) if self.frontier.len() >= self.cutoff => pool.install(|| {
                self.frontier.par_iter().fold(|| (0, 0, Vec::new()), fold).reduce(|| (0, 0, Vec::new()), join)
            }),
            _ => self.frontier.iter().fold((0, 0, Vec::new()), fold),
        }
    }
}

impl Stepper for DeltaSteppingStepper {
    fn algorithm(&self) -> Algorithm {
        self.algo
    }

    fn label(&self) -> String {
        super::run_label(self.algo, &self.opts.params)
    }

    fn device(&self) -> String {
        match &self.pool {
            None => "CPU (1 thread)".into(),
            Some(p) => format!("CPU ({} threads)", p.current_num_threads()),
        }
    }

    fn source(&self) -> VertexId {
        self.source
    }

    fn is_done(&self) -> bool {
        self.done
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
        let threads = self.warps.count(n, self.opts.block.relax, &self.frontier);
        let t0 = Instant::now();
        let (scanned, relaxed, mut lowered) = self.phase(self.iteration);
        let t1 = Instant::now();
        lowered.sort_unstable();
        let mut delta = StepDelta::default();
        let mut next = Vec::new();
        for &v in &lowered {
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
        let reached = self.reached - self.settled;
        let t2 = Instant::now();
        if kind == Kind::Light && !next.is_empty() {
            self.frontier = next;
            self.remove_frontier();
        } else {
            if kind == Kind::Light {
                // The bucket stays empty: R is final.
                let mut r: Vec<VertexId> = self.removed.iter().copied().filter(|&v| v != self.source).collect();
                r.sort_unstable();
                self.settled += r.len() as u64;
                delta.settled = r;
            }
            if kind == Kind::Light && self.heavy_of_r > 0 {
                self.kind = Kind::Heavy;
                self.frontier = std::mem::take(&mut self.removed);
                self.frontier.sort_unstable();
            } else if !self.open_next() {
                self.frontier.clear();
                self.done = true;
            }
        }
        let t3 = Instant::now();
        let (light, heavy) = if kind == Kind::Light { (relaxed, 0) } else { (0, relaxed) };
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
            times: PhaseTimes {
                relax_ms: (t1 - t0).as_secs_f64() * 1e3,
                update_ms: (t2 - t1).as_secs_f64() * 1e3,
                minimum_ms: (t3 - t2).as_secs_f64() * 1e3,
                copy_ms: 0.0,
            },
            values: Values::from_slice(&[
                bucket as f64,
                bucket_size as f64,
                light as f64,
                heavy as f64,
                dist_value(self.delta),
                self.frontier.len() as f64,
            ]),
        };
        Ok(Some(Step { record, delta: self.opts.record_deltas.then_some(delta) }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.dist.iter().map(|d| d.load(Relaxed)).collect())
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let record_deltas = std::mem::replace(&mut self.opts.record_deltas, false);
        let graph = Arc::clone(&self.graph);
        let run = super::run_by_steps(self, &graph, cancel, progress);
        self.opts.record_deltas = record_deltas;
        let mut run = run?;
        run.iterations = self.iteration;
        run.reached = self.reached;
        Ok(run)
    }
}

#[cfg(test)]
mod tests {
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
