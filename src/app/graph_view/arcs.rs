//! Which arcs the view draws: each undirected edge once (its second arc skipped), no
//! self-loops; shared by the GPU view's arc pairs and the small graphs' egui drawing.

use crate::graph::Graph;

/// Per-arc flags: [`SKIP`] for arcs not drawn (self-loops, the second arc of an undirected edge),
/// [`BOTH`] for drawn arcs whose reverse arc exists.
pub const SKIP: u8 = 1;
pub const BOTH: u8 = 2;

/// Longest row scanned for a reverse arc; beyond it the arc is simply drawn twice.
const MAX_SCAN: usize = 64;

/// Arc flags of `graph` (see [`SKIP`], [`BOTH`]) and the number of arcs drawn. O(m · degree).
pub fn arc_flags(graph: &Graph) -> (Vec<u8>, usize) {
    let csr = graph.successors();
    let mut flags = vec![0u8; csr.m()];
    let mut drawn = 0;
    for u in 0..csr.n() as u32 {
        for i in csr.range(u) {
            let v = csr.targets[i];
            if v == u {
                flags[i] = SKIP;
                continue;
            }
            let rv = csr.range(v);
            let has_reverse = rv.len() <= MAX_SCAN && csr.targets[rv].contains(&u);
            if has_reverse && u > v {
                flags[i] = SKIP;
            } else {
                flags[i] = if has_reverse { BOTH } else { 0 };
                drawn += 1;
            }
        }
    }
    (flags, drawn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;

    #[test]
    fn undirected_edges_are_drawn_once() {
        let g = generate::grid(5, 4, 10, 1).unwrap();
        let (flags, drawn) = arc_flags(&g);
        // 5×4 grid: 4·4 + 5·3 = 31 edges, each stored as two arcs.
        assert_eq!(g.m(), 62);
        assert_eq!(drawn, 31);
        assert!(flags.iter().filter(|&&f| f & SKIP == 0).all(|&f| f & BOTH != 0));
        // The counterexample is directed: every arc drawn, none bidirectional.
        let c = generate::counterexample(10).unwrap();
        let (flags, drawn) = arc_flags(&c);
        assert_eq!(drawn, c.m());
        assert!(flags.iter().all(|&f| f == 0));
    }
}
