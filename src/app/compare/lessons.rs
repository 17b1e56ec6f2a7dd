//! The *Lessons* menu: the classic demonstrations, each a graph, a set of lanes and a short
//! explanation shown beside them.

use super::{LaneSpec, Lockstep};
use crate::device::DeviceId;
use crate::generate::GeneratorSpec;

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
    /// The multi-core solver on this many threads.
    CpuPar(u32),
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
    /// The lanes with `gpu` as the device of GPU lanes (the CPU where there is none).
    pub fn lane_specs(&self, gpu: Option<DeviceId>) -> Vec<LaneSpec> {
        self.lanes
            .iter()
            .map(|&(a, on, block)| LaneSpec {
                algorithm: a.into(),
                device: match on {
                    On::Cpu => DeviceId::Cpu,
                    On::Gpu => gpu.unwrap_or(DeviceId::Cpu),
                    On::CpuPar(t) => DeviceId::CpuParallel(t),
                },
                block,
            })
            .collect()
    }
}

/// Every lesson, in menu order.
pub static LESSONS: [Lesson; 6] = [
    Lesson {
        title: "Martin vs Crauser on NY",
        text: "Both settle, in each iteration, every vertex whose tentative distance is at most a threshold. \
               Martin's threshold is the smallest tentative distance left; Crauser's adds each vertex's lightest \
               out-arc, so it settles more per iteration. Stepped by settled level, the two lanes show the same \
               distances settled while Crauser's iteration counter falls behind Martin's.",
        graph: LessonGraph::BundledNy,
        source: 1,
        lanes: &[("martin-succ", On::Cpu, 256), ("crauser-succ", On::Cpu, 256)],
        lockstep: Lockstep::Level,
    },
    Lesson {
        title: "Racy vs atomic relax (seed 004's counterexample)",
        text: "Without an atomic minimum, two frontier threads that lower the same vertex race: the larger \
               value can overwrite the smaller one and a vertex settles with a wrong distance. On a CUDA GPU the \
               racy lane goes wrong on this graph (vertices marked where the lanes differ); the atomic one \
               never does. A software adapter (lavapipe) runs few threads at once and rarely loses the race; \
               one CPU thread never does.",
        graph: LessonGraph::Generate(GeneratorSpec::Counterexample { n: 64 }),
        source: 0,
        lanes: &[("martin-succ:relax=non-atomic", On::Gpu, 256), ("martin-succ", On::Gpu, 256)],
        lockstep: Lockstep::Iteration,
    },
    Lesson {
        title: "Dummy threads vs block size",
        text: "A vertex-parallel kernel launches one thread per vertex and most of them find their vertex \
               not in the frontier: dummy threads. Bigger blocks do not change how many threads work, only how \
               many warps carry no work at all; compare the dummy-thread ratio and warps of 32 and 1024.",
        graph: LessonGraph::Generate(GeneratorSpec::Fanout { n: 20_000, d: 4, max_weight: 100, seed: 1 }),
        source: 0,
        lanes: &[("crauser-succ", On::Gpu, 32), ("crauser-succ", On::Gpu, 1024)],
        lockstep: Lockstep::Iteration,
    },
    Lesson {
        title: "Delta-stepping: the bucket width",
        text: "Delta-stepping settles a bucket of width delta at a time, relaxing light arcs again until the \
               bucket is empty. A small delta is Dijkstra-like (many buckets, little extra work); a large one is \
               Bellman-Ford-like (few buckets, many wasted relaxations). Compare iterations and relaxations.",
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
        text: "Seed 001's helper threads relax the next vertices of the heap while thread 0 extracts the \
               minimum; when the helpers lower a distance that is lowered again later, their work is wasted. \
               Compare the helper scheme with sequential Dijkstra: the same iterations, more relaxations.",
        graph: LessonGraph::Generate(GeneratorSpec::Grid { width: 60, height: 45, max_weight: 100, seed: 3 }),
        source: 0,
        lanes: &[("dijkstra", On::Cpu, 256), ("helper", On::CpuPar(4), 256)],
        lockstep: Lockstep::Level,
    },
];
