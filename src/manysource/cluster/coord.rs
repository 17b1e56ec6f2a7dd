//! Rank 0's side of an MPI run: the chunk book ([`Coord`]: what each rank holds, gives back
//! and has done), the coordinator loop that answers hellos and reports, and rank 0's own worker.

use super::*;

/// What rank 0 decides for a rank that asks for work.
pub(super) enum Assign {
    Chunk(Vec<VertexId>),
    /// Nothing left in the queue but other ranks still hold chunks (which come back if they fail).
    Wait,
    Done,
}

/// Rank 0's book-keeping, shared by its coordinator thread and its own workers' thread.
pub(super) struct Coord {
    pub(super) queue: VecDeque<VertexId>,
    /// Per rank: the sources of its chunk in flight.
    pub(super) given: Vec<Vec<VertexId>>,
    pub(super) alive: Vec<bool>,
    pub(super) want: Vec<usize>,
    /// Global index of each rank's first worker.
    pub(super) base: Vec<usize>,
    pub(super) workers: Vec<usize>,
    pub(super) tasks: Vec<TaskResult>,
    /// (global worker, error)
    pub(super) worker_failures: Vec<(usize, String)>,
    pub(super) rank_failures: Vec<String>,
    pub(super) stats: Vec<RankStats>,
}

impl Coord {
    /// Takes rank `r`'s results (only those of sources it was given) and failures; what it did
    /// not finish goes back to the front of the queue.
    pub(super) fn report(&mut self, r: usize, rep: Report) {
        self.want[r] = rep.want.max(1);
        self.stats[r].reply_wait_ms += rep.wait_us as f64 / 1e3;
        let given: HashSet<VertexId> = std::mem::take(&mut self.given[r]).into_iter().collect();
        let mut done = HashSet::new();
        for mut t in rep.results {
            if t.worker < self.workers[r] && given.contains(&t.source) && done.insert(t.source) {
                t.worker += self.base[r];
                self.tasks.push(t);
            }
        }
        self.stats[r].tasks += done.len();
        let mut left: Vec<VertexId> = given.difference(&done).copied().collect();
        left.sort_unstable();
        for s in left.into_iter().rev() {
            self.queue.push_front(s);
        }
        for (w, e) in rep.trailer.failed {
            if w < self.workers[r] {
                self.worker_failures.push((self.base[r] + w, e));
            }
        }
        if let Some(e) = rep.trailer.error {
            self.alive[r] = false;
            self.rank_failures.push(format!("rank {r} ({}): {e}", self.stats[r].host));
            self.stats[r].failed = Some(e);
        }
    }

    pub(super) fn assign(&mut self, r: usize) -> Assign {
        if !self.alive[r] {
            return Assign::Done;
        }
        if !self.queue.is_empty() {
            let take = self.want[r].min(self.queue.len());
            let chunk: Vec<VertexId> = self.queue.drain(..take).collect();
            self.given[r].clone_from(&chunk);
            self.stats[r].chunks += 1;
            return Assign::Chunk(chunk);
        }
        if (0..self.given.len()).any(|q| self.alive[q] && !self.given[q].is_empty()) {
            return Assign::Wait;
        }
        Assign::Done
    }

    pub(super) fn left(&self) -> usize {
        self.queue.len() + self.given.iter().map(Vec::len).sum::<usize>()
    }
}

pub(super) fn lock(m: &Mutex<Coord>) -> MutexGuard<'_, Coord> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Rank 0: gathers hellos, says go, then serves requests while its own workers run.
pub(super) fn coordinate(
    cluster: &Cluster,
    setup: Result<RankSetup, String>,
    sources: &dyn Fn(&Graph) -> Result<Vec<VertexId>, String>,
    options: &MpiOptions,
    on_task: &mut dyn FnMut(&TaskResult),
) -> Result<MpiRun, MpiError> {
    let size = cluster.size();
    let mut traffic = MpiTraffic::default();
    let (hellos, mut problems) = gather_hellos(cluster, &setup, options, &mut traffic);
    check_hellos(&hellos, options, &mut problems);
    // Sources are picked only once every rank agrees, so that a refused job costs no picking.
    let picked = match &setup {
        Ok(s) if problems.is_empty() => sources(&s.graph).map_err(|e| problems.push(e)).ok(),
        _ => None,
    };
    let stop = (!problems.is_empty()).then(|| problems.join("; "));
    say_go(cluster, &stop, &mut traffic);
    let (Some(sources), Ok(setup), None) = (picked, setup, stop.clone()) else {
        return Err(MpiError::Failed(stop.unwrap_or_else(|| "no sources".into())));
    };
    cluster.barrier();
    let start = Instant::now();

    let workers = task_workers(&hellos, options);
    let coord = Mutex::new(Coord::new(&hellos, &workers, &sources, options));
    serve(cluster, &coord, &setup, start, options, on_task, &mut traffic);

    let c = coord.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    total_traffic(&mut traffic, &c.stats);
    let left = c.left();
    if left > 0 || c.tasks.len() != sources.len() {
        let mut why = c.rank_failures.clone();
        why.extend(c.worker_failures.iter().map(|(w, e)| format!("worker {w}: {e}")));
        return Err(MpiError::Failed(format!(
            "{left} of {} tasks were not done: every rank failed ({})",
            sources.len(),
            why.join("; ")
        )));
    }
    let run = assemble_run(&hellos, &workers, c.tasks, &c.worker_failures, options, size);
    let summary = MpiSummary {
        ranks: size,
        chunk: options.chunk,
        root_works: options.root_works,
        threading: format!("{:?}", cluster.threading).to_lowercase(),
        per_rank: c.stats,
        traffic,
    };
    Ok(MpiRun { run, mpi: summary })
}

/// Waits for one hello from every other rank. Returns the hellos by rank (rank 0's own made from
/// `setup`; a rank whose hello could not be read keeps "sent no hello") and what could not be read.
fn gather_hellos(
    cluster: &Cluster,
    setup: &Result<RankSetup, String>,
    options: &MpiOptions,
    traffic: &mut MpiTraffic,
) -> (Vec<Hello>, Vec<String>) {
    let size = cluster.size();
    let mut hellos: Vec<Hello> = (0..size).map(|_| hello(&Err("sent no hello".into()))).collect();
    hellos[0] = hello(setup);
    let mut problems = Vec::new();
    for _ in 1..size {
        let mut backoff = Backoff::new(options.poll);
        let (r, bytes) = loop {
            if let Some(m) = cluster.try_recv_any(TAG_HELLO) {
                break m;
            }
            backoff.sleep();
        };
        traffic.messages += 1;
        traffic.hello_bytes += bytes.len() as u64;
        match serde_json::from_slice::<Hello>(&bytes) {
            Ok(h) if r < size => hellos[r] = h,
            Ok(_) => problems.push(format!("a hello from rank {r}, not in the job")),
            Err(e) => problems.push(format!("rank {r}: malformed hello ({e}): another build of sssp-lab?")),
        }
    }
    (hellos, problems)
}

/// Adds to `problems` why the ranks cannot work together: another build, a rank that failed to
/// set up, another graph, no workers; checked before anything runs so that a run never mixes them.
fn check_hellos(hellos: &[Hello], options: &MpiOptions, problems: &mut Vec<String>) {
    if hellos.len() == 1 && !options.root_works {
        problems.push("rank 0 only coordinates and there is no other rank: start at least 2".into());
    }
    let root = &hellos[0];
    for (r, h) in hellos.iter().enumerate() {
        if h.protocol != PROTOCOL || h.version != root.version {
            problems.push(format!(
                "rank {r} ({}) runs sssp-lab {} (protocol {}), rank 0 {} (protocol {PROTOCOL})",
                h.host, h.version, h.protocol, root.version
            ));
        } else if let Some(e) = &h.error {
            problems.push(format!("rank {r} ({}): {e}", h.host));
        } else if root.error.is_none() && (h.n, h.m, h.fingerprint) != (root.n, root.m, root.fingerprint) {
            problems.push(format!(
                "rank {r} ({}) loaded another graph (n={} m={}) than rank 0 (n={} m={}), or with other options",
                h.host, h.n, h.m, root.n, root.m
            ));
        } else if h.workers.is_empty() && (r > 0 || options.root_works) {
            problems.push(format!("rank {r} ({}) has no workers", h.host));
        }
    }
}

/// Tells every other rank to start, or why the job stops (`stop`).
fn say_go(cluster: &Cluster, stop: &Option<String>, traffic: &mut MpiTraffic) {
    let go = serde_json::to_vec(&Go { error: stop.clone() }).unwrap_or_default();
    for r in 1..cluster.size() {
        cluster.send(r, TAG_GO, &go);
        traffic.messages += 1;
        traffic.go_bytes += go.len() as u64;
    }
}

/// Workers per rank that take tasks: rank 0's count as none when it only coordinates.
fn task_workers(hellos: &[Hello], options: &MpiOptions) -> Vec<usize> {
    let mut workers: Vec<usize> = hellos.iter().map(|h| h.workers.len()).collect();
    if !options.root_works {
        workers[0] = 0;
    }
    workers
}

impl Coord {
    /// The book at the start: every source queued, nothing given; a rank without task workers
    /// counts as dead so that it is never given a chunk.
    fn new(hellos: &[Hello], workers: &[usize], sources: &[VertexId], options: &MpiOptions) -> Self {
        let base: Vec<usize> = workers.iter().scan(0, |acc, &w| Some(std::mem::replace(acc, *acc + w))).collect();
        let want: Vec<usize> = workers.iter().map(|&w| options.chunk.unwrap_or(4 * w).max(1)).collect();
        Coord {
            queue: sources.iter().copied().collect(),
            given: vec![Vec::new(); workers.len()],
            alive: workers.iter().map(|&w| w > 0).collect(),
            want,
            base,
            workers: workers.to_vec(),
            tasks: Vec::with_capacity(sources.len()),
            worker_failures: Vec::new(),
            rank_failures: Vec::new(),
            stats: hellos
                .iter()
                .enumerate()
                .map(|(r, h)| RankStats {
                    rank: r,
                    host: h.host.clone(),
                    workers: workers[r],
                    load_ms: h.load_ms,
                    ..RankStats::default()
                })
                .collect(),
        }
    }
}

/// Rank 0's answers to ranks that asked for work; it keeps which ranks are still to be told
/// "done" and which wait for a chunk to come back (a failed rank's).
struct Replies<'a> {
    cluster: &'a Cluster,
    running: Vec<bool>,
    waiting: Vec<usize>,
}

impl Replies<'_> {
    /// Sends rank `r` its chunk or "done" (an empty chunk); a rank told to wait gets no message
    /// yet and is asked again after the next report.
    fn send(&mut self, r: usize, a: Assign, t: &mut MpiTraffic) {
        let bytes = match a {
            Assign::Chunk(c) => encode_chunk(&c),
            Assign::Done => {
                self.running[r] = false;
                encode_chunk(&[])
            }
            Assign::Wait => {
                self.waiting.push(r);
                return;
            }
        };
        self.cluster.send(r, TAG_REPLY, &bytes);
        t.messages += 1;
        t.reply_bytes += bytes.len() as u64;
    }
}

/// Serves the other ranks (reports in, chunks out) while rank 0's own workers run on a thread of
/// their own, until every rank has been told "done"; hands each task to `on_task` as it comes.
fn serve(
    cluster: &Cluster,
    coord: &Mutex<Coord>,
    setup: &RankSetup,
    start: Instant,
    options: &MpiOptions,
    on_task: &mut dyn FnMut(&TaskResult),
    traffic: &mut MpiTraffic,
) {
    let changed = Condvar::new();
    std::thread::scope(|scope| {
        let local = options.root_works.then(|| {
            let changed = &changed;
            scope.spawn(move || root_worker(coord, changed, setup, start, options))
        });
        let mut replies =
            Replies { cluster, running: (0..cluster.size()).map(|r| r > 0).collect(), waiting: Vec::new() };
        let mut reported = 0;
        let mut backoff = Backoff::new(options.poll);
        loop {
            let busy = answer_reports(coord, &changed, &mut replies, traffic);
            // A report (remote or local) may have freed ranks that wait: their chunk or "done".
            for r in std::mem::take(&mut replies.waiting) {
                let a = lock(coord).assign(r);
                replies.send(r, a, traffic);
            }
            // Before the progress, so that the last tasks of a finished local thread are counted.
            let local_done = local.as_ref().is_none_or(|h| h.is_finished());
            {
                let c = lock(coord);
                for t in &c.tasks[reported..] {
                    on_task(t);
                }
                reported = c.tasks.len();
            }
            if local_done && !replies.running.contains(&true) {
                break;
            }
            if busy {
                backoff.reset();
            } else {
                backoff.sleep();
            }
        }
        if let Some(h) = local
            && h.join().is_err()
        {
            lock(coord).rank_failures.push("rank 0: its workers' thread panicked".into());
        }
    });
}

/// Books and answers every report that has come in; returns whether any came.
fn answer_reports(coord: &Mutex<Coord>, changed: &Condvar, replies: &mut Replies, traffic: &mut MpiTraffic) -> bool {
    let size = replies.cluster.size();
    let mut busy = false;
    while let Some((r, bytes)) = replies.cluster.try_recv_any(TAG_REPORT) {
        busy = true;
        traffic.messages += 1;
        if r == 0 || r >= size {
            continue;
        }
        let rep = decode_report(&bytes, traffic);
        let a = {
            let mut c = lock(coord);
            c.report(r, rep);
            c.assign(r)
        };
        changed.notify_all();
        replies.send(r, a, traffic);
    }
    busy
}

/// A report and its bytes counted by part; a malformed one reads as the rank's failure, so that
/// its chunk goes back to the queue for the others.
fn decode_report(bytes: &[u8], traffic: &mut MpiTraffic) -> Report {
    let rep = Report::decode(bytes).unwrap_or_else(|e| Report {
        trailer: Trailer { error: Some(format!("malformed report: {e}")), ..Trailer::default() },
        ..Report::default()
    });
    traffic.report_header_bytes += REPORT_HEADER_BYTES.min(bytes.len()) as u64;
    traffic.record_bytes += (RECORD_BYTES * rep.results.len()) as u64;
    traffic.trailer_bytes += bytes.len().saturating_sub(REPORT_HEADER_BYTES + RECORD_BYTES * rep.results.len()) as u64;
    rep
}

/// Fills in the traffic's totals: remote tasks (the only ones that cost messages) and bytes per
/// remote task, with and without the set-up's hello and go.
fn total_traffic(traffic: &mut MpiTraffic, stats: &[RankStats]) {
    for s in stats {
        traffic.remote_tasks += if s.rank > 0 { s.tasks } else { 0 };
    }
    traffic.total_bytes = traffic.hello_bytes
        + traffic.go_bytes
        + traffic.report_header_bytes
        + traffic.record_bytes
        + traffic.trailer_bytes
        + traffic.reply_bytes;
    let per = |b: u64| if traffic.remote_tasks > 0 { b as f64 / traffic.remote_tasks as f64 } else { 0.0 };
    traffic.bytes_per_remote_task = per(traffic.total_bytes);
    traffic.run_bytes_per_remote_task = per(traffic.total_bytes - traffic.hello_bytes - traffic.go_bytes);
}

/// The run as a one-process run reports it: one summary per task worker (labelled
/// `r<rank>/<label>`, with its failure), busy and idle times, makespan and checksum.
fn assemble_run(
    hellos: &[Hello],
    workers: &[usize],
    tasks: Vec<TaskResult>,
    worker_failures: &[(usize, String)],
    options: &MpiOptions,
    size: usize,
) -> ManySourceRun {
    let mut summaries = Vec::new();
    for (r, h) in hellos.iter().enumerate() {
        for (label, algorithm) in h.workers.iter().take(workers[r]) {
            summaries.push(WorkerSummary {
                label: format!("r{r}/{label}"),
                algorithm: algorithm.clone(),
                ..WorkerSummary::default()
            });
        }
    }
    for (w, e) in worker_failures {
        summaries[*w].failed = Some(e.clone());
    }
    let mut run = ManySourceRun {
        label: format!("R{size}-W{}", summaries.len()),
        policy: format!(
            "mpi stealing, chunk {}; {} within a rank",
            options.chunk.map_or("4x workers".to_string(), |c| c.to_string()),
            options.policy
        ),
        tasks,
        workers: summaries,
        ..ManySourceRun::default()
    };
    for t in &run.tasks {
        let w = &mut run.workers[t.worker];
        w.tasks += 1;
        w.busy_ms += t.end_ms - t.start_ms;
    }
    run.makespan_ms = run.tasks.iter().map(|t| t.end_ms).fold(0.0, f64::max);
    for (i, w) in run.workers.iter_mut().enumerate() {
        let last = run.tasks.iter().filter(|t| t.worker == i).map(|t| t.end_ms).fold(0.0, f64::max);
        w.idle_end_ms = run.makespan_ms - last;
    }
    run.checksum = run_checksum(&run.tasks);
    run
}

/// Rank 0's own workers: take chunks straight from the coordinator's queue (no messages).
pub(super) fn root_worker(
    coord: &Mutex<Coord>,
    changed: &Condvar,
    setup: &RankSetup,
    start: Instant,
    options: &MpiOptions,
) {
    let mut alive = vec![true; setup.workers.len()];
    let mut report: Option<Report> = None;
    loop {
        let chunk = {
            let mut c = lock(coord);
            if let Some(rep) = report.take() {
                c.report(0, rep);
                changed.notify_all();
            }
            loop {
                match c.assign(0) {
                    Assign::Chunk(chunk) => break chunk,
                    Assign::Done => return,
                    Assign::Wait => {
                        c = changed
                            .wait_timeout(c, Duration::from_millis(50))
                            .map_or_else(|p| p.into_inner().0, |r| r.0);
                    }
                }
            }
        };
        let mut rep = run_chunk(setup, &chunk, &mut alive, start, options);
        rep.want = options.chunk.unwrap_or(4 * setup.workers.len()).max(1);
        report = Some(rep);
    }
}
