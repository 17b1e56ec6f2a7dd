//! Memory refused up front: a generator's arcs are estimated from its parameters and compared
//! with the machine's memory before anything is allocated, so `gen martin --n 500000000` (or an
//! experiment that generates such a graph) says how much it would need instead of allocating
//! until the kernel kills the process.

use super::GeneratorSpec;

/// Peak host bytes per arc while generating: the generator's arc list (12 B, up to twice while a
/// parallel collect joins its pieces), the builder's copy (12 B) and the CSR (8 B: target and
/// weight). Deliberately above the measured peak (`gen martin --n 1000000`, 7 M arcs: 172 MB
/// maximum resident, 24.6 B an arc), so a refused graph would truly not have fitted.
pub const BYTES_PER_ARC: u64 = 44;
/// Peak host bytes per vertex: CSR offsets, ids, coordinates and the builder's counts.
pub const BYTES_PER_VERTEX: u64 = 32;

/// The machine's memory as `(available, total)` bytes: `MemAvailable` and `MemTotal` of
/// `/proc/meminfo`, or `SSSP_LAB_MEMORY_BYTES` for both when set (tests, or to allow less than
/// the machine has). `None` where neither is known (then nothing is refused).
pub fn machine_memory() -> Option<(u64, u64)> {
    if let Some(b) = std::env::var("SSSP_LAB_MEMORY_BYTES").ok().and_then(|v| v.trim().parse::<u64>().ok()) {
        return Some((b, b));
    }
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map(|kb| kb * 1024)
    };
    let total = field("MemTotal:")?;
    Some((field("MemAvailable:").unwrap_or(total), total))
}

/// Gigabytes with one decimal, for messages.
pub fn gb(bytes: u128) -> String {
    format!("{:.1} GB", bytes as f64 / 1e9)
}

impl GeneratorSpec {
    /// Expected `(vertices, arcs)` of the graph this spec generates, from its parameters alone
    /// (SSCA#2: the expectation of its random clique sizes and inter-clique arcs).
    pub fn expected_size(&self) -> (u128, u128) {
        match *self {
            GeneratorSpec::Martin { n, .. } => (n as u128, 7 * n as u128),
            GeneratorSpec::Dense { n, .. } => (n as u128, n as u128 * (n / 5).max(1) as u128),
            GeneratorSpec::Fanout { n, d, .. } => (n as u128, n as u128 * d as u128),
            GeneratorSpec::Rmat { scale, edge_factor, .. } => {
                let n = 1u128.checked_shl(scale).unwrap_or(u128::MAX);
                (n, n.saturating_mul(edge_factor as u128))
            }
            GeneratorSpec::Grid { width, height, .. } => {
                let n = width as u128 * height as u128;
                (n, 4 * n)
            }
            GeneratorSpec::Ssca2(p) => {
                // Clique sizes uniform in 1..=C: (C − 1)/3 pairs per vertex, each one or two
                // arcs; at most 2P inter-clique tries succeed per vertex; every arc repeated
                // (1 + max_parallel)/2 times on average.
                let c = p.max_clique.max(1) as f64;
                let per_vertex = (c - 1.0) / 3.0 * (2.0 - p.prob_unidirectional.clamp(0.0, 1.0))
                    + 2.0 * p.prob_inter.clamp(0.0, 1.0);
                let copies = (1.0 + p.max_parallel as f64) / 2.0;
                (p.n as u128, (p.n as f64 * per_vertex * copies).min(u128::MAX as f64 / 2.0) as u128)
            }
            GeneratorSpec::Counterexample { n } => (n as u128, 2 * n as u128),
            GeneratorSpec::Teaching => (5, 8),
        }
    }

    /// Estimated peak host bytes of generating the graph ([`BYTES_PER_ARC`], [`BYTES_PER_VERTEX`]).
    pub fn estimated_bytes(&self) -> u128 {
        let (n, m) = self.expected_size();
        m.saturating_mul(BYTES_PER_ARC as u128).saturating_add(n.saturating_mul(BYTES_PER_VERTEX as u128))
    }

    /// Refuses a graph whose estimated peak exceeds the machine's available memory
    /// ([`machine_memory`]). Errors: a sentence with the estimate, the arcs and the memory.
    pub fn check_memory(&self) -> Result<(), String> {
        let Some((available, total)) = machine_memory() else { return Ok(()) };
        let need = self.estimated_bytes();
        if need <= available as u128 {
            return Ok(());
        }
        let (_, m) = self.expected_size();
        Err(format!(
            "needs about {} of memory to generate (~{m} arcs × {BYTES_PER_ARC} B), but this machine has {} \
             available of {} (/proc/meminfo); choose fewer vertices or arcs",
            gb(need),
            gb(available as u128),
            gb(total as u128)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ssca2_expected_arcs_are_near_table_2() {
        // Seed 001 Table 2: 118 K arcs for (P, C) = (0.5, 20) at n = 10 000.
        let (_, m) = GeneratorSpec::Ssca2(crate::generate::Ssca2::table2(20, 0.5)).expected_size();
        assert!((100_000..140_000).contains(&m), "{m}");
    }

    #[test]
    fn blow_ups_are_estimated_beyond_any_machine() {
        let martin = GeneratorSpec::Martin { n: 500_000_000, seed: 1 };
        assert!(martin.estimated_bytes() > 100_000_000_000);
        let dense = GeneratorSpec::Dense { n: 100_000, seed: 1 };
        assert!(dense.estimated_bytes() > 50_000_000_000);
    }
}
