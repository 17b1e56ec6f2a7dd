//! The *Lessons* menu: the classic demonstrations, each a graph, a set of lanes and a short
//! explanation shown beside them. A lesson makes its own graph (on a worker) and runs in the
//! compare tab only: the *Step* tab's graph, source and run stay as the user left them.
//! `tests/lessons.rs` runs every lesson and checks each claim its text makes.

use super::{CompareView, LaneSpec, Lockstep};
use crate::app::jobs::{Job, repaint};
use crate::device::{DeviceId, DeviceInfo};
use crate::generate::GeneratorSpec;
use crate::graph::Graph;
use std::sync::Arc;

/// Where a lesson's graph comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum LessonGraph {
    /// The bundled NY road network.
    BundledNy,
    Generate(GeneratorSpec),
}

/// Where a lesson's lane runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum On {
    Cpu,
    /// The first usable GPU (CUDA, else wgpu), else the CPU.
    Gpu,
    /// The first usable GPU; the lane is left out where there is none.
    GpuOnly,
    /// The multi-core solver on this many threads.
    CpuPar(u32),
    /// The first usable GPU if it is a CUDA device, else the CPU (a CUDA-only mode whose CPU
    /// model computes the same distances, e.g. `delta-stepping:worklist=near-far`).
    CudaElseCpu,
}

/// One demonstration.
#[derive(Clone, Debug)]
pub struct Lesson {
    pub title: &'static str,
    /// What to look at, two or three sentences.
    pub text: &'static str,
    pub graph: LessonGraph,
    /// Source as the file numbers it.
    pub source: u64,
    /// (algorithm, where, block size).
    pub lanes: &'static [(&'static str, On, u32)],
    pub lockstep: Lockstep,
}

impl Lesson {
    /// The lanes with `gpu` as the device of GPU lanes (the CPU where there is none; lanes
    /// only for a GPU are then left out).
    pub fn lane_specs(&self, gpu: Option<DeviceId>) -> Vec<LaneSpec> {
        self.lanes
            .iter()
            .filter_map(|&(a, on, block)| {
                let device = match on {
                    On::Cpu => DeviceId::Cpu,
                    On::Gpu => gpu.unwrap_or(DeviceId::Cpu),
                    On::GpuOnly => gpu?,
                    On::CpuPar(t) => DeviceId::CpuParallel(t),
                    On::CudaElseCpu => gpu.filter(|d| matches!(d, DeviceId::Cuda(_))).unwrap_or(DeviceId::Cpu),
                };
                Some(LaneSpec { algorithm: a.into(), device, block })
            })
            .collect()
    }

    /// Whether the lesson is about the race of the non-atomic relax.
    pub fn is_race(&self) -> bool {
        self.lanes.iter().any(|l| l.0.contains("non-atomic"))
    }
}

/// The GPU lessons run on: the first usable CUDA device, else the first usable wgpu adapter.
pub fn lesson_gpu(devices: Option<&[DeviceInfo]>) -> Option<DeviceId> {
    let d = devices?;
    let ok = |want: fn(&DeviceId) -> bool| d.iter().find(|x| want(&x.id) && x.status.is_ok()).map(|x| x.id);
    ok(|id| matches!(id, DeviceId::Cuda(_))).or_else(|| ok(|id| matches!(id, DeviceId::Wgpu(_))))
}

impl CompareView {
    /// Opens `lesson`: its lanes (GPU lanes on `gpu`), its graph made on a worker — `current`
    /// is reused when it already is the lesson's graph — and the lanes started once it is in.
    /// Nothing outside the compare tab changes.
    pub fn open_lesson(
        &mut self,
        lesson: &'static Lesson,
        gpu: Option<DeviceId>,
        current: Option<&Arc<Graph>>,
        ctx: &egui::Context,
    ) {
        self.lesson = Some(lesson);
        self.specs = lesson.lane_specs(gpu);
        self.lockstep = lesson.lockstep;
        self.lanes.clear();
        self.messages.clear();
        let reuse = match &lesson.graph {
            LessonGraph::BundledNy => current.filter(|g| g.name.contains("USA-road-d.NY")),
            LessonGraph::Generate(_) => None,
        };
        let spec = lesson.graph.clone();
        let job = match reuse {
            Some(g) => {
                let g = Arc::clone(g);
                Job::spawn("lesson graph", repaint(ctx), move |_| Ok(g))
            }
            None => Job::spawn(format!("lesson: {}", lesson.title), repaint(ctx), move |jc| match spec {
                LessonGraph::BundledNy => {
                    let path = crate::formats::bundled_graph_path();
                    let opts = crate::formats::LoadOptions::default();
                    crate::formats::load_with_progress(&path, &opts, &mut |f| {
                        jc.set_progress(f);
                        !jc.cancelled()
                    })
                    .map(Arc::new)
                    .map_err(|e| e.to_string())
                }
                LessonGraph::Generate(s) => s.generate().map(Arc::new),
            }),
        };
        self.pending = Some((job, lesson.source, ctx.clone()));
    }

    /// Starts the lanes once the pending lesson's graph is in (called by [`CompareView::poll`]).
    pub(super) fn poll_pending(&mut self) {
        let Some((job, _, _)) = &mut self.pending else { return };
        let Some(out) = job.poll() else { return };
        let Some((_, id, ctx)) = self.pending.take() else { return };
        match out.and_then(|r| r) {
            Ok(g) => {
                let source = g.labels().index(id, g.n()).unwrap_or(0);
                self.start(&g, source, &ctx);
            }
            Err(e) => self.messages.push(format!("the lesson's graph: {e}")),
        }
    }

    /// Starts the lanes again on the compare tab's own graph and source (a lesson's, or the
    /// one the last *Start* took); false when there is none yet.
    pub fn restart(&mut self, ctx: &egui::Context) -> bool {
        let Some(g) = self.graph.clone() else { return false };
        self.start(&g, self.source, ctx);
        true
    }

    /// For the race lesson: per racy lane that has finished, whether a lost update showed in
    /// this run, on which device (vertices settled with a δ other than lane A's, the atomic one).
    pub fn race_report(&self) -> Vec<String> {
        if !self.lesson.is_some_and(Lesson::is_race) {
            return Vec::new();
        }
        let names = ["A", "B", "C", "D"];
        self.lanes
            .iter()
            .enumerate()
            .filter(|(_, l)| l.spec.algorithm.contains("non-atomic"))
            .map(|(i, l)| {
                let dev = l.device_name.split(" · ").next().unwrap_or_default();
                let name = names.get(i).copied().unwrap_or("?");
                let wrong = self.wrong_distances(i);
                match (l.finished, wrong) {
                    (false, _) => format!("{name} on {dev}: not finished yet"),
                    (true, 0) => format!(
                        "{name} on {dev}: no lost update showed in this run (every δ right); press Restart to race again"
                    ),
                    (true, k) => format!(
                        "{name} on {dev}: the race showed: a lost update left {k} vertex(es) settled with a wrong δ (marked red)"
                    ),
                }
            })
            .collect()
    }

    /// Vertices whose δ at lane `i`'s cursor differs from lane A's, both settled.
    pub fn wrong_distances(&self, i: usize) -> usize {
        let (Some(a), Some(b)) =
            (self.lanes.first().and_then(|l| l.trace.as_ref()), self.lanes.get(i).and_then(|l| l.trace.as_ref()))
        else {
            return 0;
        };
        (0..a.distances().len())
            .filter(|&v| {
                let v = v as crate::graph::VertexId;
                super::settledness(a.status(v))
                    && super::settledness(b.status(v))
                    && a.distances()[v as usize] != b.distances()[v as usize]
            })
            .count()
    }
}

/// Every lesson, in menu order.
pub static LESSONS: [Lesson; 7] = [
    Lesson {
        title: "Martin vs Crauser on NY",
        text: "Both settle, in each iteration, every vertex whose tentative distance is at most a threshold. \
               Martin's threshold is the smallest tentative distance left; Crauser's adds each vertex's lightest \
               out-arc, so it settles more per iteration. Stepped by settled level, every lane is moved until all \
               vertices up to the same distance are settled (column \"settled up to d\"): the lanes agree there \
               (nothing is marked as differing); past it one lane may have settled a handful of vertices early, \
               shown in its own colours. Crauser's \
               iteration counter falls behind Martin's.",
        graph: LessonGraph::BundledNy,
        source: 1,
        lanes: &[("martin-succ", On::Cpu, 256), ("crauser-succ", On::Cpu, 256)],
        lockstep: Lockstep::Level,
    },
    Lesson {
        title: "Racy vs atomic relax (seed 004's counterexample)",
        text: "Without an atomic minimum, frontier threads that lower the same vertex race: each reads delta, \
               compares and writes, and a larger value can overwrite a smaller one, so a vertex settles with a \
               wrong distance. Here, in iteration 2, all 62 middle vertices race to lower the sink (right \
               distance 2). On the CPU the 2 threads of the racy lane relax in rounds, as a warp does: each reads \
               its target's delta, they wait for each other, then each compares and writes (the window the CUDA \
               kernel widens with a spin). The racy lanes lose an update in most runs (the sink is marked red); \
               the atomic lanes never do. The lines below say on which device the race showed; Restart races again.",
        graph: LessonGraph::Generate(GeneratorSpec::Counterexample { n: 64 }),
        source: 0,
        lanes: &[
            ("martin-succ", On::CpuPar(2), 256),
            ("martin-succ:relax=non-atomic", On::CpuPar(2), 256),
            ("martin-succ", On::GpuOnly, 32),
            ("martin-succ:relax=non-atomic", On::GpuOnly, 32),
        ],
        lockstep: Lockstep::Iteration,
    },
    Lesson {
        title: "Dummy threads vs block size",
        text: "A vertex-parallel kernel launches one thread per vertex; a thread whose vertex is not in the \
               frontier has no work: a dummy thread. Compare the columns \"dummy threads\" and \"warps\": the same \
               threads work in both lanes (the block size does not change the frontier), and most threads are \
               dummies in most iterations. A block of 1024 pads the launch to a multiple of 1024 (20 480 threads \
               for 20 000 vertices): 15 more warps with no work in every iteration; a block of 32 pads nothing.",
        graph: LessonGraph::Generate(GeneratorSpec::Fanout { n: 20_000, d: 4, max_weight: 100, seed: 1 }),
        source: 0,
        lanes: &[("crauser-succ", On::Gpu, 32), ("crauser-succ", On::Gpu, 1024)],
        lockstep: Lockstep::Iteration,
    },
    Lesson {
        title: "Delta-stepping: the bucket width",
        text: "Delta-stepping settles a bucket of width delta at a time, relaxing light arcs again until the \
               bucket is empty. A small delta is Dijkstra-like (many buckets, little extra work); a large one is \
               Bellman-Ford-like (few buckets, many wasted relaxations). Stepped by settled level, every lane has \
               settled all vertices up to the same distance, and a wide bucket settles far past it at once: lane C \
               relaxes its first bucket for many iterations, then settles all of it in one (the orange block, its \
               frontier). Compare the iterations and relaxations columns (plots on a log axis).",
        graph: LessonGraph::Generate(GeneratorSpec::Grid { width: 120, height: 90, max_weight: 100, seed: 1 }),
        source: 0,
        lanes: &[
            ("delta-stepping:delta=20", On::Cpu, 256),
            ("delta-stepping:delta=200", On::Cpu, 256),
            ("delta-stepping:delta=5000", On::Cpu, 256),
        ],
        lockstep: Lockstep::Level,
    },
    Lesson {
        title: "Bellman-Ford's wasted passes",
        text: "Bellman-Ford relaxes every arc of every vertex whose distance changed, settles nothing until the \
               end and may lower a vertex many times. Next to Dijkstra its relaxation count grows with the \
               number of passes.",
        graph: LessonGraph::Generate(GeneratorSpec::Grid { width: 60, height: 45, max_weight: 100, seed: 2 }),
        source: 0,
        lanes: &[("dijkstra", On::Cpu, 256), ("bellman-ford", On::Cpu, 256)],
        lockstep: Lockstep::Iteration,
    },
    Lesson {
        title: "Helper threads (seed 001)",
        text: "Seed 001's helper threads relax the arcs of the next vertices in the heap while thread 0 settles \
               the minimum; a helper's write that is lowered again later was wasted. Compare the helper scheme \
               with sequential Dijkstra: the same iterations (one per vertex) and the same distances; the column \
               \"helper lowered / wasted\" counts the helpers' work (it varies from run to run: on a busy machine \
               the helpers may not get to run at all; Restart). Compare \"delta lowered\", not \"relaxations\": \
               seed 001's schemes count as relaxations only the arcs that lowered a distance.",
        graph: LessonGraph::Generate(GeneratorSpec::Grid { width: 60, height: 45, max_weight: 100, seed: 3 }),
        source: 0,
        lanes: &[("dijkstra", On::Cpu, 256), ("helper", On::CpuPar(4), 256)],
        lockstep: Lockstep::Level,
    },
    Lesson {
        title: "Why a GPU loses on roads, and what wins",
        text: "On a road network each phase of a frontier solver settles only a few dozen vertices: Crauser's \
               (lane A) needs thousands of phases on NY with a mean frontier of a few dozen, yet launches one thread \
               per vertex in every phase, so nearly all are dummy threads, and each phase pays a launch or a \
               grid-wide barrier whatever its size. Lane B is a worklist solver (Δ-stepping with near-far piles: \
               on a CUDA GPU the one persistent kernel of worklist=near-far, which runs a small phase in one block \
               of 1024 threads and never goes back to the host inside a run; elsewhere the CPU's Δ-stepping, with \
               the same buckets). It relaxes a whole bucket of width Δ per phase: at least three times fewer \
               phases, each with several times more relaxations, and more relaxations in total. On a GPU a \
               relaxation is cheap and a phase is not, so B beats A — yet on an H100 it still takes 5.5 ms where \
               GAP's 16 CPU threads take 4.4–5.9. Lane C, PHAST, is what wins: it contracts the graph once into a \
               hierarchy (seconds, before its first step, kept on disk for the next run) and then needs about a \
               hundred phases, an upward search from the source and one per level of the hierarchy, each vertex \
               of a level taking the minimum over its arcs from higher levels, with no atomics and no buckets: ten \
               times fewer phases than B, each with several times B's relaxations, and fewer in total. On the \
               H100 it solves NY in 0.5 ms, 8–12 times faster than GAP's 16 threads \
               (bench/results/gpu-peers-2026-11-28).",
        graph: LessonGraph::BundledNy,
        source: 1,
        lanes: &[
            ("crauser-succ", On::Gpu, 256),
            ("delta-stepping:worklist=near-far", On::CudaElseCpu, 1024),
            ("phast", On::Gpu, 256),
        ],
        lockstep: Lockstep::Iteration,
    },
];
