//! The three schemes of seed 001 and the pseudocode the app shows for each.

use crate::algo::Phase;

/// How the threads share an iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Scheme {
    Cgs,
    Fgs,
    Helper,
}

pub(super) fn code(scheme: Scheme) -> Vec<crate::algo::CodeLine> {
    let mut lines = vec![(Phase::Init, "δ(s) ← 0; δ(v) ← ∞ (v ≠ s); Q ← ∅; u ← s"), (Phase::Loop, "while u ≠ none do")];
    match scheme {
        Scheme::Cgs | Scheme::Fgs => {
            lines.push((Phase::Relax, "  barrier; for (u,v,w), arc k by thread k mod T:"));
            lines.push(if scheme == Scheme::Cgs {
                (Phase::Relax, "    lock(Q); if δ(u)+w < δ(v): DecreaseKey(Q,v); unlock")
            } else {
                (Phase::Relax, "    if δ(u)+w < atomicMin(δ(v)): DecreaseKey (node-pair locks)")
            });
            lines.push((Phase::Minimum, "  barrier; thread 0: u ← ExtractMin(Q) (none if empty)"));
        }
        Scheme::Helper => {
            lines.push((Phase::Relax, "  thread 0: epoch++; relax (u,v,w) under lock(Q); done ← 1"));
            lines.push((Phase::Relax, "  helper k: await epoch; x ← ReadMin(Q,k); relax x's arcs until done"));
            lines.push((Phase::Minimum, "  thread 0: u ← ExtractMin(Q) (none if empty)"));
        }
    }
    lines.push((Phase::Update, "  u is settled"));
    lines
}
