//! The many-source scheduler across MPI ranks (issue 13 item 6; `--features mpi`,
//! docs/mpi.md): each rank loads the graph itself and runs a node's worth of workers with
//! [`super::run`]; rank 0 hands out chunks of sources to whichever rank asks (work-stealing
//! across ranks) and gathers the per-task summaries into one [`ManySourceRun`].
//!
//! Rank 0 coordinates on its main thread (the only thread that calls MPI: thread level
//! *funneled*) and, unless told otherwise, also runs its own workers on a second thread, which
//! takes chunks from the same queue without messages.
//!
//! The protocol, all point-to-point to and from rank 0 (sizes in bytes):
//!
//! 1. every rank → 0, [`TAG_HELLO`]: JSON (its host, graph size and fingerprint, workers, or
//!    why it could not load the graph), ~150 + ~40 per worker;
//! 2. 0 → every rank, [`TAG_GO`]: JSON `{"error":null}` or the reason the run stops; then a
//!    barrier, after which every rank's clock starts (the common time origin);
//! 3. rank → 0, [`TAG_REPORT`]: the results of its last chunk and a request for the next:
//!    a 24-byte header, [`RECORD_BYTES`] per task, and a JSON trailer only when workers failed;
//! 4. 0 → rank, [`TAG_REPLY`]: the next chunk, 4 + 4 per source; no source means "done". When
//!    the queue is empty but other ranks still hold chunks, the reply waits: a failing rank's
//!    chunk comes back to the queue and goes to a waiting rank.
//!
//! Distance rows never travel: a task costs one result record and one source id on the wire.

use super::{ManySourceRun, Policy, TaskResult, WorkerSpec, WorkerSummary, run_checksum};
use crate::algo::SolveOptions;
use crate::graph::{Graph, VertexId};
use mpi::Threading;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, Destination, MatchedReceiveVec, Source};
use serde::{Deserialize, Serialize};
use std::collections::{HashSet, VecDeque};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

mod coord;
use coord::coordinate;

/// Tag of the hello message (rank → 0).
pub const TAG_HELLO: i32 = 10;
/// Tag of the go / abort message (0 → rank).
pub const TAG_GO: i32 = 11;
/// Tag of a report: results of a chunk and a request for the next (rank → 0).
pub const TAG_REPORT: i32 = 12;
/// Tag of a reply: the next chunk, empty when done (0 → rank).
pub const TAG_REPLY: i32 = 13;
/// Bytes of one task's result on the wire: source, worker (u32 each), start and end ms (f64),
/// reached, eccentricity, sum, checksum (8 bytes each), little-endian.
pub const RECORD_BYTES: usize = 56;
/// Bytes of a report's header: version, sources wanted, records, trailer bytes (u32 each) and
/// the time the rank waited for its previous reply (µs, u64).
pub const REPORT_HEADER_BYTES: usize = 24;
/// Changes whenever the messages do; ranks of different builds refuse to run together.
const PROTOCOL: u32 = 1;

/// Why a run across ranks failed.
#[derive(Debug, thiserror::Error)]
pub enum MpiError {
    /// MPI could not be initialized (already initialized in this process).
    #[error("MPI: {0}")]
    Init(String),
    /// Rank 0 stopped the run before it started; it reports why (this rank has nothing to add).
    #[error("the run was stopped by rank 0: {0}")]
    Stopped(String),
    /// The run failed (a rank could not load the graph, ranks disagree on the graph, every
    /// rank failed with tasks left, a malformed message); the message says which rank and why.
    #[error("{0}")]
    Failed(String),
    /// Every worker of this rank failed during the run (or a reply was malformed): the rank
    /// told rank 0, which gave its unfinished sources to other ranks, and stopped. Not an
    /// error of the run: exit normally, or `mpirun` would end every rank.
    #[error("{0}")]
    RankStopped(String),
}

/// This process's place in the MPI job. Dropping it finalizes MPI, so keep it alive until the
/// run is over and drop it before the process exits.
pub struct Cluster {
    world: SimpleCommunicator,
    rank: usize,
    size: usize,
    threading: Threading,
    // Last: MPI_Finalize runs when it drops, after everything above.
    _universe: mpi::environment::Universe,
}

impl Cluster {
    /// Initializes MPI asking for thread level *funneled* (workers are threads; only the main
    /// thread calls MPI). A process started without `mpirun` is a job of one rank.
    ///
    /// Errors: [`MpiError::Init`] when MPI was already initialized in this process.
    pub fn init() -> Result<Cluster, MpiError> {
        let (universe, threading) = mpi::initialize_with_threading(Threading::Funneled)
            .ok_or_else(|| MpiError::Init("already initialized in this process".into()))?;
        let world = universe.world();
        let (rank, size) = (world.rank().max(0) as usize, world.size().max(1) as usize);
        Ok(Cluster { world, rank, size, threading, _universe: universe })
    }

    /// This process's rank, 0 = the coordinator.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// Number of ranks in the job.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether this is rank 0, which prints and writes the results.
    pub fn is_root(&self) -> bool {
        self.rank == 0
    }

    fn send(&self, to: usize, tag: i32, bytes: &[u8]) {
        self.world.process_at_rank(to as i32).send_with_tag(bytes, tag);
    }

    /// Receives the next message with `tag` from rank `from`, polling with [`Backoff`] after
    /// [`SPIN`] of polling without sleeping: a reply usually comes within a millisecond, but a
    /// blocking MPI receive would spin (Open MPI's progress loop) for as long as the wait lasts,
    /// seconds at the end of a run, taking a core from other ranks on the same node.
    fn recv(&self, from: usize, tag: i32, poll: Duration) -> Vec<u8> {
        let p = self.world.process_at_rank(from as i32);
        let spin = Instant::now();
        while spin.elapsed() < SPIN {
            if let Some(m) = p.immediate_matched_probe_with_tag(tag) {
                return m.matched_receive_vec::<u8>().0;
            }
            std::thread::yield_now();
        }
        let mut backoff = Backoff::new(poll);
        loop {
            if let Some(m) = p.immediate_matched_probe_with_tag(tag) {
                return m.matched_receive_vec::<u8>().0;
            }
            backoff.sleep();
        }
    }

    /// The next message with `tag` from any rank, with its sender, or `None` right away.
    fn try_recv_any(&self, tag: i32) -> Option<(usize, Vec<u8>)> {
        let m = self.world.any_process().immediate_matched_probe_with_tag(tag)?;
        let (bytes, status) = m.matched_receive_vec::<u8>();
        Some((status.source_rank().max(0) as usize, bytes))
    }

    fn barrier(&self) {
        use mpi::collective::CommunicatorCollectives;
        self.world.barrier();
    }
}

/// How long a rank waiting for a reply polls without sleeping.
const SPIN: Duration = Duration::from_millis(2);

/// Sleeps between polls: 20 µs at first, doubling up to `max`, so that a rank 0 with nothing
/// to do wakes at most every `max` and its polls cost little CPU beside the workers.
struct Backoff {
    now: Duration,
    max: Duration,
}

impl Backoff {
    const FIRST: Duration = Duration::from_micros(20);

    fn new(max: Duration) -> Backoff {
        Backoff { now: Self::FIRST.min(max), max }
    }

    fn sleep(&mut self) {
        std::thread::sleep(self.now);
        self.now = (self.now * 2).min(self.max);
    }

    /// Something happened: poll soon again.
    fn reset(&mut self) {
        self.now = Self::FIRST.min(self.max);
    }
}

/// What a rank brings to the run: its copy of the graph and its workers.
pub struct RankSetup {
    /// The graph, loaded by this rank (every rank must load the same one).
    pub graph: Arc<Graph>,
    /// This rank's workers (e.g. `cuda:0,cuda:1,cpu:14` on a GPU node).
    pub workers: Vec<WorkerSpec>,
    /// How long loading took, ms (reported per rank).
    pub load_ms: f64,
}

/// How the run is split up.
#[derive(Clone, Debug)]
pub struct MpiOptions {
    /// Sources a rank asks for at a time; `None`: 4 × that rank's workers (enough to keep them
    /// busy within the chunk, few enough that the last chunks end close together).
    pub chunk: Option<usize>,
    /// Policy among a rank's workers within a chunk.
    pub policy: Policy,
    /// Solver options of every worker.
    pub solve: SolveOptions,
    /// Whether rank 0 runs its own workers besides coordinating.
    pub root_works: bool,
    /// Longest sleep between two looks for a message, of a rank waiting for its chunk and of
    /// rank 0 waiting for requests (they look sooner right after a message): the most a request
    /// waits for rank 0 to notice it.
    pub poll: Duration,
}

impl Default for MpiOptions {
    fn default() -> Self {
        MpiOptions {
            chunk: None,
            policy: Policy::Stealing { chunk: 1 },
            solve: SolveOptions::default(),
            root_works: true,
            poll: Duration::from_micros(500),
        }
    }
}

/// One rank's part of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RankStats {
    /// MPI rank.
    pub rank: usize,
    /// Its processor name (host).
    pub host: String,
    /// Its workers (0 for rank 0 when it only coordinates).
    pub workers: usize,
    /// Time it took to load the graph, ms.
    pub load_ms: f64,
    /// Chunks it was given.
    pub chunks: usize,
    /// Tasks it finished.
    pub tasks: usize,
    /// Time it waited for chunk replies (request sent → chunk received), ms; 0 for rank 0,
    /// whose workers take chunks without messages.
    pub reply_wait_ms: f64,
    /// Why it stopped during the run (every worker failed), if it did; its unfinished sources
    /// went to other ranks.
    pub failed: Option<String>,
}

/// Messages and bytes of a run, counted by rank 0 (which every message goes to or comes from).
/// Payload bytes only: MPI's own envelope (a few dozen bytes a message) is not counted.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MpiTraffic {
    /// Messages sent and received by rank 0.
    pub messages: u64,
    /// Hello messages' bytes.
    pub hello_bytes: u64,
    /// Go messages' bytes.
    pub go_bytes: u64,
    /// Report headers' bytes.
    pub report_header_bytes: u64,
    /// Result records' bytes ([`RECORD_BYTES`] per task).
    pub record_bytes: u64,
    /// Report trailers' bytes (failures only).
    pub trailer_bytes: u64,
    /// Replies' bytes (chunks and "done").
    pub reply_bytes: u64,
    /// Everything above.
    pub total_bytes: u64,
    /// Tasks run by ranks other than 0 (the only ones that cost messages).
    pub remote_tasks: usize,
    /// Bytes per remote task, everything counted (set-up included).
    pub bytes_per_remote_task: f64,
    /// Bytes per remote task during the run: reports and replies, not hello/go.
    pub run_bytes_per_remote_task: f64,
}

/// Rank 0's result: the run as [`super::run`] reports it (worker labels prefixed `r<rank>/`,
/// times from the common start after the barrier), plus the MPI side.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MpiRun {
    /// The run; its checksum equals the one-process run's on the same sources.
    #[serde(flatten)]
    pub run: ManySourceRun,
    /// Ranks, chunking, per-rank totals and the traffic.
    pub mpi: MpiSummary,
}

/// The MPI side of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MpiSummary {
    /// Ranks in the job.
    pub ranks: usize,
    /// `--mpi-chunk`, or `null` for 4 × each rank's workers.
    pub chunk: Option<usize>,
    /// Whether rank 0 ran workers too.
    pub root_works: bool,
    /// Thread level MPI gave (`funneled` or better expected).
    pub threading: String,
    /// One per rank.
    pub per_rank: Vec<RankStats>,
    /// Messages and bytes.
    pub traffic: MpiTraffic,
}

#[derive(Serialize, Deserialize)]
struct Hello {
    protocol: u32,
    version: String,
    host: String,
    n: usize,
    m: usize,
    fingerprint: u64,
    /// (label, algorithm) of each worker.
    workers: Vec<(String, String)>,
    load_ms: f64,
    error: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct Go {
    error: Option<String>,
}

#[derive(Default, Serialize, Deserialize)]
struct Trailer {
    /// (rank-local worker index, error) of workers that failed in the chunk.
    failed: Vec<(usize, String)>,
    /// Set when the whole chunk failed: the rank stops.
    error: Option<String>,
}

/// Results of one chunk, the request for the next.
#[derive(Default)]
struct Report {
    want: usize,
    wait_us: u64,
    /// Worker indices local to the rank; times from the common start.
    results: Vec<TaskResult>,
    trailer: Trailer,
}

impl Report {
    fn encode(&self) -> Vec<u8> {
        let trailer = if self.trailer.failed.is_empty() && self.trailer.error.is_none() {
            Vec::new()
        } else {
            serde_json::to_vec(&self.trailer).unwrap_or_default()
        };
        let mut b = Vec::with_capacity(REPORT_HEADER_BYTES + RECORD_BYTES * self.results.len() + trailer.len());
        for x in [PROTOCOL, self.want as u32, self.results.len() as u32, trailer.len() as u32] {
            b.extend(x.to_le_bytes());
        }
        b.extend(self.wait_us.to_le_bytes());
        for t in &self.results {
            b.extend(t.source.to_le_bytes());
            b.extend((t.worker as u32).to_le_bytes());
            b.extend(t.start_ms.to_le_bytes());
            b.extend(t.end_ms.to_le_bytes());
            b.extend(t.reached.to_le_bytes());
            b.extend(t.eccentricity.to_le_bytes());
            b.extend(t.sum.to_le_bytes());
            b.extend(t.checksum.to_le_bytes());
        }
        b.extend(trailer);
        b
    }

    fn decode(b: &[u8]) -> Result<Report, String> {
        let mut r = Reader(b);
        let (protocol, want, count, trailer) = (r.u32()?, r.u32()? as usize, r.u32()? as usize, r.u32()? as usize);
        if protocol != PROTOCOL {
            return Err(format!("protocol {protocol}, expected {PROTOCOL}"));
        }
        let wait_us = r.u64()?;
        if r.0.len() != count * RECORD_BYTES + trailer {
            return Err(format!("{} bytes for {count} records and a {trailer}-byte trailer", b.len()));
        }
        let mut results = Vec::with_capacity(count);
        for _ in 0..count {
            let source = r.u32()?;
            // `summarize` of an empty row gives every field a value (whatever TaskResult holds);
            // the ones that matter are then set from the record.
            let mut t = TaskResult::summarize(source, &[]);
            t.worker = r.u32()? as usize;
            t.start_ms = f64::from_bits(r.u64()?);
            t.end_ms = f64::from_bits(r.u64()?);
            t.reached = r.u64()?;
            t.eccentricity = r.u64()? as i64;
            t.sum = r.u64()? as i64;
            t.checksum = r.u64()?;
            results.push(t);
        }
        let trailer = if trailer == 0 {
            Trailer::default()
        } else {
            serde_json::from_slice(r.0).map_err(|e| format!("trailer: {e}"))?
        };
        Ok(Report { want, wait_us, results, trailer })
    }
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let (head, rest) = self.0.split_first_chunk::<N>().ok_or("message too short")?;
        self.0 = rest;
        Ok(*head)
    }
    fn u32(&mut self) -> Result<u32, String> {
        self.take::<4>().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Result<u64, String> {
        self.take::<8>().map(u64::from_le_bytes)
    }
}

fn encode_chunk(chunk: &[VertexId]) -> Vec<u8> {
    let mut b = Vec::with_capacity(4 + 4 * chunk.len());
    b.extend((chunk.len() as u32).to_le_bytes());
    for s in chunk {
        b.extend(s.to_le_bytes());
    }
    b
}

fn decode_chunk(b: &[u8]) -> Result<Vec<VertexId>, String> {
    let mut r = Reader(b);
    let count = r.u32()? as usize;
    if r.0.len() != 4 * count {
        return Err(format!("reply of {} bytes for {count} sources", b.len()));
    }
    (0..count).map(|_| r.u32()).collect()
}

/// A cheap hash of the graph's arcs, so that ranks that loaded different files (or the same
/// file under other options) refuse to run together instead of giving a wrong checksum.
pub fn fingerprint(g: &Graph) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut mix = |x: u64| h = (h ^ x).wrapping_mul(0x100_0000_01b3);
    let s = g.successors();
    mix(g.n() as u64);
    s.offsets.iter().for_each(|&o| mix(u64::from(o)));
    s.targets.iter().for_each(|&t| mix(u64::from(t)));
    s.weights.iter().for_each(|&w| mix(w as u32 as u64));
    h
}

fn host() -> String {
    mpi::environment::processor_name().unwrap_or_else(|_| "?".into())
}

fn hello(setup: &Result<RankSetup, String>) -> Hello {
    let mut h = Hello {
        protocol: PROTOCOL,
        version: env!("CARGO_PKG_VERSION").into(),
        host: host(),
        n: 0,
        m: 0,
        fingerprint: 0,
        workers: Vec::new(),
        load_ms: 0.0,
        error: None,
    };
    match setup {
        Ok(s) => {
            (h.n, h.m, h.fingerprint, h.load_ms) = (s.graph.n(), s.graph.m(), fingerprint(&s.graph), s.load_ms);
            h.workers = s.workers.iter().enumerate().map(|(i, w)| (w.label(i), w.algorithm.to_string())).collect();
        }
        Err(e) => h.error = Some(e.clone()),
    }
    h
}

/// Runs one many-source job across every rank of `cluster`; every rank calls it (SPMD).
///
/// `setup` is this rank's graph and workers, or why it could not load them (rank 0 then stops
/// the run for every rank and says which rank failed). `sources` is called on rank 0 only, to
/// pick the sources from its graph. `on_task` is called on rank 0 as each result arrives (the
/// worker index is the global one of the returned run).
///
/// Returns the gathered run on rank 0 and `None` on the other ranks.
///
/// Errors: on rank 0, [`MpiError::Failed`] when a rank could not load the graph, the ranks'
/// graphs or builds differ, `sources` fails, or every rank failed with tasks left (after every
/// rank was told to stop, so no rank hangs); on the other ranks, [`MpiError::Stopped`] when
/// rank 0 stopped the run before it began, [`MpiError::RankStopped`] when this rank's workers
/// all failed during the run (rank 0 gave its tasks to others and lists it in
/// [`RankStats::failed`]), [`MpiError::Failed`] on a malformed go message.
pub fn run_mpi(
    cluster: &Cluster,
    setup: Result<RankSetup, String>,
    sources: &dyn Fn(&Graph) -> Result<Vec<VertexId>, String>,
    options: &MpiOptions,
    on_task: &mut dyn FnMut(&TaskResult),
) -> Result<Option<MpiRun>, MpiError> {
    if cluster.is_root() {
        coordinate(cluster, setup, sources, options, on_task).map(Some)
    } else {
        follow(cluster, setup, options).map(|()| None)
    }
}

/// A rank other than 0: hello, wait for go, then report / take chunks until told "done".
fn follow(cluster: &Cluster, setup: Result<RankSetup, String>, options: &MpiOptions) -> Result<(), MpiError> {
    let hello = serde_json::to_vec(&hello(&setup)).unwrap_or_default();
    cluster.send(0, TAG_HELLO, &hello);
    let go: Go = serde_json::from_slice(&cluster.recv(0, TAG_GO, options.poll))
        .map_err(|e| MpiError::Failed(format!("rank {}: malformed go message: {e}", cluster.rank())))?;
    if let Some(e) = go.error {
        return Err(MpiError::Stopped(e));
    }
    cluster.barrier();
    let start = Instant::now();
    // Rank 0 only says go when every rank loaded the graph.
    let setup = setup.map_err(MpiError::Failed)?;
    let want = options.chunk.unwrap_or(4 * setup.workers.len()).max(1);
    let mut alive = vec![true; setup.workers.len()];
    let mut report = Report { want, ..Report::default() };
    loop {
        cluster.send(0, TAG_REPORT, &report.encode());
        let asked = Instant::now();
        let reply = cluster.recv(0, TAG_REPLY, options.poll);
        let waited = asked.elapsed();
        if let Some(e) = report.trailer.error {
            // That report said this rank stops (its chunk went back to the queue); this reply
            // is rank 0's "done".
            return Err(MpiError::RankStopped(format!("rank {}: {e}", cluster.rank())));
        }
        report = match decode_chunk(&reply) {
            Ok(chunk) if chunk.is_empty() => return Ok(()),
            Ok(chunk) => run_chunk(&setup, &chunk, &mut alive, start, options),
            Err(e) => Report {
                trailer: Trailer { error: Some(format!("malformed reply: {e}")), ..Trailer::default() },
                ..Report::default()
            },
        };
        report.want = want;
        report.wait_us = waited.as_micros() as u64;
    }
}

/// Runs `chunk` on the rank's live workers with [`super::run`]; results keep the rank-local
/// worker index and are timed from `start`. Workers that fail are left out of later chunks.
fn run_chunk(
    setup: &RankSetup,
    chunk: &[VertexId],
    alive: &mut [bool],
    start: Instant,
    options: &MpiOptions,
) -> Report {
    let active: Vec<usize> = (0..alive.len()).filter(|&i| alive[i]).collect();
    let mut report = Report::default();
    if active.is_empty() {
        report.trailer.error = Some("every worker of this rank has failed".into());
        return report;
    }
    let specs: Vec<WorkerSpec> = active.iter().map(|&i| setup.workers[i].clone()).collect();
    let offset = start.elapsed().as_secs_f64() * 1e3;
    let cancel = AtomicBool::new(false);
    let (results, failed) = (&mut report.results, &mut report.trailer.failed);
    let solved = super::run(&setup.graph, chunk, &specs, options.policy, &options.solve, &cancel, &mut |ev| {
        // `if let` rather than `match`: other events (distance rows) are not for the wire.
        if let super::Event::Task(t) = ev {
            let mut t = t.clone();
            t.worker = active[t.worker];
            t.start_ms += offset;
            t.end_ms += offset;
            results.push(t);
        } else if let super::Event::WorkerFailed { worker, error, .. } = ev {
            failed.push((active[*worker], error.clone()));
        }
    });
    for (w, _) in &report.trailer.failed {
        alive[*w] = false;
    }
    if let Err(e) = solved {
        report.trailer.error = Some(e.to_string());
    }
    report
}

#[cfg(test)]
mod tests {
    use super::coord::{Assign, Coord};
    use super::*;

    #[test]
    fn reports_and_chunks_round_trip() {
        let mut t = TaskResult::summarize(7, &[3, 0, crate::graph::INF, 5]);
        (t.worker, t.start_ms, t.end_ms) = (2, 1.25, 3.5);
        let rep = Report {
            want: 8,
            wait_us: 42,
            results: vec![t.clone(), t.clone()],
            trailer: Trailer { failed: vec![(1, "boom".into())], error: None },
        };
        let bytes = rep.encode();
        let back = Report::decode(&bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((back.want, back.wait_us), (8, 42));
        assert_eq!(back.results, vec![t.clone(), t]);
        assert_eq!(back.trailer.failed, vec![(1, "boom".to_string())]);
        assert_eq!(Report::default().encode().len(), REPORT_HEADER_BYTES);
        assert!(Report::decode(&bytes[..bytes.len() - 1]).is_err());
        assert_eq!(decode_chunk(&encode_chunk(&[4, 1, 9])), Ok(vec![4, 1, 9]));
        assert!(decode_chunk(&[1, 0, 0, 0]).is_err());
    }

    fn task(source: VertexId) -> TaskResult {
        let mut t = TaskResult::summarize(source, &[]);
        t.worker = 0;
        t
    }

    #[test]
    fn a_failed_ranks_chunk_goes_back_and_a_waiting_rank_gets_it() {
        let mut c = Coord {
            queue: (0..5).collect(),
            given: vec![Vec::new(); 2],
            alive: vec![true; 2],
            want: vec![3, 3],
            base: vec![0, 1],
            workers: vec![1, 1],
            tasks: Vec::new(),
            worker_failures: Vec::new(),
            rank_failures: Vec::new(),
            stats: vec![RankStats::default(); 2],
        };
        let Assign::Chunk(a) = c.assign(0) else { panic!("rank 0 gets a chunk") };
        let Assign::Chunk(b) = c.assign(1) else { panic!("rank 1 gets a chunk") };
        assert_eq!((a, b), (vec![0, 1, 2], vec![3, 4]));
        c.report(0, Report { want: 3, results: (0..3).map(task).collect(), ..Report::default() });
        assert!(matches!(c.assign(0), Assign::Wait), "rank 1 may still give tasks back");
        // Rank 1 finishes 3 only, then fails: 4 goes back, rank 1 is done.
        let error = Trailer { error: Some("x".into()), ..Trailer::default() };
        c.report(1, Report { want: 3, results: vec![task(3)], trailer: error, ..Report::default() });
        assert!(matches!(c.assign(1), Assign::Done));
        assert_eq!(c.tasks[3].worker, 1, "global worker index");
        let Assign::Chunk(again) = c.assign(0) else { panic!("rank 0 gets what was given back") };
        assert_eq!(again, vec![4]);
        // A duplicate or a source it was not given is ignored.
        c.report(0, Report { want: 3, results: vec![task(4), task(4), task(0)], ..Report::default() });
        assert!(matches!(c.assign(0), Assign::Done));
        assert_eq!((c.left(), c.tasks.len(), c.rank_failures.len()), (0, 5, 1));
    }
}
