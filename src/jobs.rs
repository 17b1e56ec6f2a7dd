//! The one mechanism for background work, for the app, the lab and the command line alike: a
//! named [`Job`] runs a closure on its own thread; the worker reports progress (a fraction and
//! an optional text line), checks a cancel flag, may stream intermediate values (events of type
//! `E`: a lab run's rows, a layout's snapshots, batches of solver steps) and ends with a value of
//! type `T`. Whoever owns the job polls it (once per frame in the app) or blocks on it (CLI).
//!
//! Waking the owner goes through a [`Repaint`] callback, not a GUI type, so this module knows
//! nothing of egui: the app passes `ctx.request_repaint()` (see `app::jobs::repaint`), the CLI
//! and tests pass [`no_repaint`].
//!
//! A panic in the worker is caught and comes back as an error message, never as a crash.
//! Dropping a job asks its worker to stop (nobody is left to read the result).

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Wakes whoever polls the job (e.g. asks the GUI for a frame). Called from the worker thread.
pub type Repaint = Arc<dyn Fn() + Send + Sync>;

/// A [`Repaint`] that does nothing, for owners that block on the job instead of polling it.
pub fn no_repaint() -> Repaint {
    Arc::new(|| {})
}

/// Progress updates wake the owner at most this often; events and the end wake it at once.
const PROGRESS_REPAINT: Duration = Duration::from_millis(30);

/// The nice value of job threads started from now on (see [`set_worker_nice`]).
static WORKER_NICE: AtomicI32 = AtomicI32::new(0);

/// Makes job threads started from now on run at nice value `nice` (Linux: 1..=19 yield, 0 leaves
/// them as their owner; other systems ignore it). Threads they start inherit it; rayon's global
/// pool does not (the app makes it first, at the UI's priority, as the UI packs the view's
/// colour words on it).
///
/// Why: the app calls it once, so that a generator or a solver on a worker leaves the cores to
/// the UI thread and, on a software adapter, to lavapipe's threads. On two cores a worker at the
/// UI's priority made frames of up to 240 ms while the 16.8 M-vertex grid was generated
/// (`bench/results/graph-view-frames/`, 2026-11-26, where this halved the frames over 100 ms
/// of that phase). On an otherwise idle machine the worker's timings do not change; the
/// command line leaves workers at 0.
pub fn set_worker_nice(nice: i32) {
    WORKER_NICE.store(nice.clamp(0, 19), Ordering::Relaxed);
}

/// Gives the calling thread (a new job's worker) the nice value [`set_worker_nice`] had set
/// when its job started.
fn renice_this_thread(nice: i32) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if nice != 0 {
        // SAFETY: plain system calls on the calling thread. Linux keeps the nice value per
        // thread (setpriority(2), NOTES), so this leaves the owner's alone. Lowering one's own
        // priority needs no privilege; a failure leaves the worker as it was, which is harmless.
        unsafe {
            libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, nice);
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = nice;
}

/// What the owner and the worker share.
struct Shared {
    /// Progress fraction (0..=1) as `f32` bits.
    progress: AtomicU32,
    /// The worker's current text line, if it set one.
    message: Mutex<Option<String>>,
    /// Its own `Arc` so a worker can hold it while it lends the context out mutably.
    cancel: Arc<AtomicBool>,
    /// Set after the result was sent (or the thread could not start).
    finished: AtomicBool,
}

/// What a worker gets: progress, the cancel flag, a sender for events and the repaint callback.
pub struct JobCtx<E = ()> {
    shared: Arc<Shared>,
    tx: Sender<E>,
    repaint: Repaint,
    last_repaint: Instant,
}

impl<E> JobCtx<E> {
    /// Sets the progress fraction (clamped to 0..=1) and wakes the owner at most every 30 ms.
    pub fn set_progress(&mut self, fraction: f32) {
        self.shared.progress.store(fraction.clamp(0.0, 1.0).to_bits(), Ordering::Relaxed);
        if self.last_repaint.elapsed() >= PROGRESS_REPAINT {
            self.repaint();
        }
    }

    /// Sets the text line shown with the progress (e.g. `[12/60] 20%  ETA 1m05s  …`), throttled
    /// like [`set_progress`](Self::set_progress).
    pub fn set_message(&mut self, line: impl Into<String>) {
        *self.shared.message.lock().unwrap_or_else(|e| e.into_inner()) = Some(line.into());
        if self.last_repaint.elapsed() >= PROGRESS_REPAINT {
            self.repaint();
        }
    }

    /// True once the owner asked the job to stop (or dropped it).
    pub fn cancelled(&self) -> bool {
        self.shared.cancel.load(Ordering::Relaxed)
    }

    /// The cancel flag, for APIs that poll an `AtomicBool` themselves (`Stepper::run_to_end`).
    pub fn cancel_flag(&self) -> &AtomicBool {
        &self.shared.cancel
    }

    /// An owned handle on the cancel flag, for a worker that needs the flag while it lends
    /// the context out mutably (e.g. to a progress callback).
    pub fn cancel_token(&self) -> Arc<AtomicBool> {
        self.shared.cancel.clone()
    }

    /// Streams an intermediate value to the owner and wakes it. False when the owner is gone
    /// (the job was dropped): the worker should stop then.
    pub fn send(&mut self, event: E) -> bool {
        let ok = self.tx.send(event).is_ok();
        self.repaint();
        ok
    }

    /// Wakes the owner now.
    pub fn repaint(&mut self) {
        self.last_repaint = Instant::now();
        (self.repaint)();
    }
}

/// Why [`Job::recv_timeout`] returned no event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoEvent {
    /// Nothing arrived within the timeout; the worker still runs.
    Timeout,
    /// The worker has ended and every event was read: the result is ready.
    Finished,
}

/// A job running on its own thread, streaming `E`s and yielding a `T` (or an error message).
pub struct Job<T, E = ()> {
    name: String,
    shared: Arc<Shared>,
    events: Receiver<E>,
    done: Receiver<Result<T, String>>,
    /// Events read from the channel but not yet handed out.
    queued: VecDeque<E>,
    /// The result once it arrived (handed out after the queued events).
    result: Option<Result<T, String>>,
    started: Instant,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a new thread named `job: <name>`; `repaint` is called on progress
    /// (throttled) and when the job ends.
    pub fn spawn(
        name: impl Into<String>,
        repaint: Repaint,
        work: impl FnOnce(&mut JobCtx) -> T + Send + 'static,
    ) -> Job<T> {
        Job::streaming(name, repaint, work)
    }
}

impl<T: Send + 'static, E: Send + 'static> Job<T, E> {
    /// Like [`Job::spawn`], for a worker that also streams events of type `E` through
    /// [`JobCtx::send`] (each wakes the owner).
    pub fn streaming(
        name: impl Into<String>,
        repaint: Repaint,
        work: impl FnOnce(&mut JobCtx<E>) -> T + Send + 'static,
    ) -> Job<T, E> {
        let name = name.into();
        let shared = Arc::new(Shared {
            progress: AtomicU32::new(0f32.to_bits()),
            message: Mutex::new(None),
            cancel: Arc::new(AtomicBool::new(false)),
            finished: AtomicBool::new(false),
        });
        // Two channels: the worker sends every event before the result, so once the result is
        // in, the events channel holds the last events (see `pump`).
        let (etx, events) = mpsc::channel::<E>();
        let (tx, done) = mpsc::channel();
        let job_shared = shared.clone();
        let thread = std::thread::Builder::new().name(format!("job: {name}"));
        // Read here: a later `set_worker_nice` does not reach a job already started.
        let nice = WORKER_NICE.load(Ordering::Relaxed);
        let spawned = thread.spawn(move || {
            renice_this_thread(nice);
            let mut ctx = JobCtx { shared: job_shared, tx: etx, repaint, last_repaint: Instant::now() };
            let out = catch_unwind(AssertUnwindSafe(|| work(&mut ctx))).map_err(|p| panic_message(&*p));
            // The receiver may be gone (job dropped); nothing to do then.
            let _ = tx.send(out);
            ctx.shared.finished.store(true, Ordering::Release);
            ctx.repaint();
            // `ctx` (the events sender) drops here, after the result: a disconnected events
            // channel means the result is there.
        });
        let mut job =
            Job { name, shared, events, done, queued: VecDeque::new(), result: None, started: Instant::now() };
        if let Err(e) = spawned {
            job.result = Some(Err(format!("could not start a thread for {}: {e}", job.name)));
            job.shared.finished.store(true, Ordering::Release);
        }
        job
    }
}

impl<T, E> Job<T, E> {
    /// The job's name, e.g. "loading USA-road-d.NY.gr.gz".
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Progress fraction (0..=1) reported by the worker.
    pub fn progress(&self) -> f32 {
        f32::from_bits(self.shared.progress.load(Ordering::Relaxed))
    }

    /// The worker's current text line, if it set one.
    pub fn message(&self) -> Option<String> {
        self.shared.message.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Time since the job started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Asks the worker to stop (it decides when).
    pub fn cancel(&self) {
        self.shared.cancel.store(true, Ordering::Relaxed);
    }

    /// True once [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.shared.cancel.load(Ordering::Relaxed)
    }

    /// True once the worker has ended (its result may still be unread).
    pub fn is_finished(&self) -> bool {
        self.shared.finished.load(Ordering::Acquire)
    }

    /// Moves whatever arrived into the queue and the result slot, without blocking.
    fn pump(&mut self) {
        self.queued.extend(self.events.try_iter());
        if self.result.is_none() {
            match self.done.try_recv() {
                Ok(r) => {
                    self.result = Some(r);
                    // Sent before the result, so all here now.
                    self.queued.extend(self.events.try_iter());
                }
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => self.result = Some(Err(self.lost())),
            }
        }
    }

    fn lost(&self) -> String {
        format!("{}: the worker ended without a result", self.name)
    }

    /// The next event that arrived, without blocking.
    pub fn try_event(&mut self) -> Option<E> {
        if self.queued.is_empty() {
            self.pump();
        }
        self.queued.pop_front()
    }

    /// Every event that arrived so far, without blocking (call once per frame).
    pub fn events(&mut self) -> Vec<E> {
        self.pump();
        self.queued.drain(..).collect()
    }

    /// The next event, waiting at most `timeout` for it. `Err(Finished)` once the worker has
    /// ended and every event was read.
    pub fn recv_timeout(&mut self, timeout: Duration) -> Result<E, NoEvent> {
        if let Some(e) = self.try_event() {
            return Ok(e);
        }
        if self.result.is_some() {
            return Err(NoEvent::Finished);
        }
        match self.events.recv_timeout(timeout) {
            Ok(e) => Ok(e),
            Err(RecvTimeoutError::Timeout) => Err(NoEvent::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                let r = self.done.recv().unwrap_or_else(|_| Err(self.lost()));
                self.result = Some(r);
                Err(NoEvent::Finished)
            }
        }
    }

    /// The next event, blocking; `None` once the worker has ended and every event was read.
    pub fn recv(&mut self) -> Option<E> {
        loop {
            match self.recv_timeout(Duration::from_secs(3600)) {
                Ok(e) => return Some(e),
                Err(NoEvent::Finished) => return None,
                Err(NoEvent::Timeout) => {}
            }
        }
    }

    /// The result once the worker is done and every event was read (events come first, so an
    /// owner that reads them never misses the last ones): `Err` with the panic message if it
    /// panicked.
    pub fn poll(&mut self) -> Option<Result<T, String>> {
        self.pump();
        if self.queued.is_empty() { self.result.take() } else { None }
    }

    /// Blocks until the worker is done and returns its result; unread events are dropped.
    pub fn wait(mut self) -> Result<T, String> {
        while self.recv().is_some() {}
        self.result.take().unwrap_or_else(|| Err(self.lost()))
    }
}

impl<T, E> Drop for Job<T, E> {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Polls `slot`'s job; takes it out and returns its name and result when done.
pub fn take_finished<T, E>(slot: &mut Option<Job<T, E>>) -> Option<(String, Result<T, String>)> {
    let out = slot.as_mut()?.poll()?;
    let job = slot.take()?;
    Some((job.name.clone(), out))
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        format!("internal error (worker panicked): {s}")
    } else if let Some(s) = payload.downcast_ref::<String>() {
        format!("internal error (worker panicked): {s}")
    } else {
        "internal error: the worker panicked".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    fn wait_slot<T, E>(mut job: Option<Job<T, E>>) -> Result<T, String> {
        let t = Instant::now();
        loop {
            if let Some((_, r)) = take_finished(&mut job) {
                return r;
            }
            assert!(t.elapsed() < Duration::from_secs(10), "job did not finish");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn workers_run_at_the_nice_value_set_and_their_owner_keeps_its_own() {
        // SAFETY: reads the calling thread's nice value.
        let nice_here = || unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) };
        let owner = nice_here();
        // Other tests' workers may start at 7 meanwhile, which only changes their scheduling.
        set_worker_nice(7);
        let job = Job::spawn("nice", no_repaint(), move |_| nice_here());
        set_worker_nice(0);
        let worker = wait_slot(Some(job));
        // Without privilege a worker of a test run above 7 cannot come back up to 7.
        assert!(worker == Ok(7) || (owner > 7 && worker == Ok(owner)), "worker {worker:?}, owner {owner}");
        assert_eq!(nice_here(), owner);
    }

    #[test]
    fn a_finished_job_returns_its_value_and_progress() {
        let job = Job::spawn("add", no_repaint(), |c| {
            c.set_progress(1.0);
            c.set_message("adding");
            2 + 2
        });
        assert_eq!(job.name(), "add");
        let job = Some(job);
        assert_eq!(wait_slot(job), Ok(4));
        let mut job = Job::spawn("add", no_repaint(), |c| {
            c.set_progress(0.5);
            c.set_message("half");
        });
        while !job.is_finished() {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!((job.progress(), job.message().as_deref()), (0.5, Some("half")));
        assert_eq!(job.poll(), Some(Ok(())));
    }

    #[test]
    fn a_panicking_worker_becomes_an_error_message() {
        let job: Job<u32> = Job::spawn("boom", no_repaint(), |_| panic!("bad input"));
        let err = wait_slot(Some(job)).unwrap_err();
        assert!(err.contains("bad input"), "{err}");
    }

    #[test]
    fn cancel_is_seen_by_the_worker() {
        let job = Job::spawn("spin", no_repaint(), |c| {
            while !c.cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
            "stopped"
        });
        job.cancel();
        assert!(job.is_cancelled());
        assert_eq!(wait_slot(Some(job)), Ok("stopped"));
    }

    #[test]
    fn dropping_a_job_cancels_its_worker() {
        let stopped = Arc::new(AtomicBool::new(false));
        let flag = stopped.clone();
        let job = Job::spawn("spin", no_repaint(), move |c| {
            while !c.cancel_flag().load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            flag.store(true, Ordering::Relaxed);
        });
        drop(job);
        let t = Instant::now();
        while !stopped.load(Ordering::Relaxed) {
            assert!(t.elapsed() < Duration::from_secs(10), "worker kept running");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn every_event_comes_before_the_result_polled_or_blocking() {
        let work = |c: &mut JobCtx<u32>| {
            for i in 0..1000 {
                c.send(i);
            }
            "done"
        };
        // Polled: the result only once the queue is empty.
        let mut job = Job::streaming("count", no_repaint(), work);
        let mut got = Vec::new();
        let t = Instant::now();
        let result = loop {
            got.extend(job.events());
            if let Some(r) = job.poll() {
                break r;
            }
            assert!(t.elapsed() < Duration::from_secs(10), "job did not finish");
        };
        assert_eq!((got.len(), result), (1000, Ok("done")));
        assert!(got.iter().copied().eq(0..1000));
        // Blocking: recv until None, then the result.
        let mut job = Job::streaming("count", no_repaint(), work);
        let mut n = 0;
        while let Some(i) = job.recv() {
            assert_eq!(i, n);
            n += 1;
        }
        assert_eq!((n, job.wait()), (1000, Ok("done")));
    }

    #[test]
    fn poll_holds_the_result_back_while_events_are_unread() {
        let mut job = Job::streaming("one", no_repaint(), |c: &mut JobCtx<&str>| {
            c.send("event");
            7
        });
        while !job.is_finished() {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(job.poll(), None);
        assert_eq!(job.try_event(), Some("event"));
        assert_eq!(job.recv_timeout(Duration::from_millis(1)), Err(NoEvent::Finished));
        assert_eq!(job.poll(), Some(Ok(7)));
    }

    #[test]
    fn progress_repaints_are_throttled_and_events_repaint_at_once() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counter = calls.clone();
        let repaint: Repaint = Arc::new(move || {
            counter.fetch_add(1, Ordering::Relaxed);
        });
        let job = Job::streaming("noisy", repaint, |c: &mut JobCtx<()>| {
            for i in 0..10_000 {
                c.set_progress(i as f32 / 10_000.0);
            }
            c.send(());
            c.send(());
        });
        job.wait().expect("ran");
        // Two events and the end; a few progress wake-ups at most (the loop takes well under
        // a second).
        let n = calls.load(Ordering::Relaxed);
        assert!((3..100).contains(&n), "{n} repaints");
    }
}
