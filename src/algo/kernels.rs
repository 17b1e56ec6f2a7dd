//! The kernels each [`Family`] launches on a GPU, in one table: their entry points (as in
//! `kernels/*.cu` and `*.wgsl`), what each does and which [`BlockSizes`] field sets its block.
//! The run panel shows these rows (and only these), `device::gpu::check_blocks` checks these
//! block sizes, and the tuner's rules suggest these. The fields keep their names (`relax`,
//! `minimum`, `update`) as keys of the CLI flags and the experiment files.

use super::{BlockSizes, Family, RelaxVariant};

/// A field of [`BlockSizes`]: the block size a kernel reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockField {
    Relax,
    Minimum,
    Update,
}

impl BlockField {
    /// Its key in CLI flags (`--block-relax`) and experiment files (`"block": {"relax": …}`).
    pub fn key(self) -> &'static str {
        match self {
            BlockField::Relax => "relax",
            BlockField::Minimum => "minimum",
            BlockField::Update => "update",
        }
    }
}

impl BlockSizes {
    /// The block size of `field`.
    pub fn get(&self, field: BlockField) -> u32 {
        match field {
            BlockField::Relax => self.relax,
            BlockField::Minimum => self.minimum,
            BlockField::Update => self.update,
        }
    }

    /// `self` with `field` set to `b`.
    pub fn with(mut self, field: BlockField, b: u32) -> BlockSizes {
        match field {
            BlockField::Relax => self.relax = b,
            BlockField::Minimum => self.minimum = b,
            BlockField::Update => self.update = b,
        }
        self
    }
}

/// A kernel (or a group of kernels sharing one block size) that a family launches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelSpec {
    /// The main entry point, as the kernel files name it (`relax_succ`, `min1`; ASCII, for
    /// the tuner's reasons).
    pub name: &'static str,
    /// The other entry points launched with the same block size (`sssp_min2`), or "".
    pub also: &'static str,
    /// What it does, one line.
    pub does: &'static str,
    /// The [`BlockSizes`] field its block size comes from.
    pub block: BlockField,
}

const fn k(name: &'static str, does: &'static str, block: BlockField) -> KernelSpec {
    KernelSpec { name, also: "", does, block }
}

const fn with_also(k: KernelSpec, also: &'static str) -> KernelSpec {
    KernelSpec { also, ..k }
}

const FRONTIER_MIN: KernelSpec = with_also(
    k(
        "min1",
        "minimum: block minima of δ and δ+ω over U (2 × block vertices per block), then one block reduces them",
        BlockField::Minimum,
    ),
    "sssp_min2",
);
const FRONTIER_UPDATE: KernelSpec =
    k("update", "update: settles U ∩ {δ ≤ Δ} as the next frontier (one thread per vertex)", BlockField::Update);

static SUCC: [KernelSpec; 3] = [
    with_also(
        k(
            "relax_succ",
            "relax: each frontier vertex pushes δ(f)+w to its unsettled successors (one thread per vertex; the \
persistent fast path's block too)",
            BlockField::Relax,
        ),
        "relax_succ_bal",
    ),
    FRONTIER_MIN,
    FRONTIER_UPDATE,
];

static PRED: [KernelSpec; 3] = [
    k(
        "relax_pred",
        "relax: each unsettled vertex pulls min δ(f)+w from its frontier predecessors (one thread per vertex; \
the persistent fast path's block too)",
        BlockField::Relax,
    ),
    FRONTIER_MIN,
    FRONTIER_UPDATE,
];

static BELLMAN_FORD: [KernelSpec; 2] = [
    k("bf_relax", "relax: one thread per arc, atomicMin(δ(v), δ_prev(u)+w)", BlockField::Relax),
    with_also(
        k(
            "bf_commit",
            "commit: one thread per vertex copies δ to δ_prev and marks the lowered vertices",
            BlockField::Update,
        ),
        "bf_init",
    ),
];

static DELTA_STEPPING: [KernelSpec; 2] = [
    with_also(
        k(
            "ds_relax",
            "relax: the light (or heavy) arcs of the bucket's frontier (one thread per vertex, or a block's arcs shared \
with relax=balanced)",
            BlockField::Relax,
        ),
        "ds_relax_balanced",
    ),
    with_also(
        k(
            "ds_commit",
            "commit: bins the lowered vertices, finds the next bucket and opens it (one thread per vertex)",
            BlockField::Update,
        ),
        "ds_min_far, ds_open",
    ),
];

static SWEEP: [KernelSpec; 1] = [k(
    "phast_levels",
    "sweep: one thread per vertex of a level takes the minimum over its downward in-arcs; small levels run in \
one block, a barrier between them",
    BlockField::Relax,
)];

impl Family {
    /// The kernels this family launches on a GPU (empty for [`Family::Sequential`], which has
    /// none): their block sizes are the only ones its runs read.
    pub fn kernels(self) -> &'static [KernelSpec] {
        match self {
            Family::Sequential => &[],
            Family::Frontier { variant: RelaxVariant::Successors, .. } => &SUCC,
            Family::Frontier { variant: RelaxVariant::Predecessors, .. } => &PRED,
            Family::EdgeParallel => &BELLMAN_FORD,
            Family::Bucketed => &DELTA_STEPPING,
            Family::Sweep => &SWEEP,
        }
    }

    /// `block` with the fields no kernel of this family reads set to the relax block, so that
    /// configurations that launch alike compare (and print) alike: the tuner's candidates.
    /// [`Family::Sequential`] reads none and is returned as is.
    pub fn normalize(self, block: BlockSizes) -> BlockSizes {
        if self.kernels().is_empty() {
            return block;
        }
        [BlockField::Minimum, BlockField::Update]
            .into_iter()
            .filter(|&f| !self.reads(f))
            .fold(block, |b, f| b.with(f, block.relax))
    }

    /// Whether a kernel of this family reads `field`.
    pub fn reads(self, field: BlockField) -> bool {
        self.kernels().iter().any(|k| k.block == field)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_with_kernels_reads_the_relax_block_and_only_the_frontier_reads_minimum() {
        for a in crate::algo::Algorithm::all() {
            let f = a.spec().family;
            if f == Family::Sequential {
                assert!(f.kernels().is_empty());
                continue;
            }
            assert!(f.reads(BlockField::Relax), "{a}");
            assert_eq!(f.reads(BlockField::Minimum), a.threshold().is_some(), "{a}");
        }
        assert_eq!(BlockSizes::default().with(BlockField::Minimum, 64).get(BlockField::Minimum), 64);
    }
}
