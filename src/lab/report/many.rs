//! The many-source part of `report.md` (seed 003): per graph, a table of every configuration
//! (makespan, speedup over the graph's first configuration, tasks on GPUs, idle time at the
//! end, checksum agreement), the configurations that failed and why, and the timelines.

use super::distinct;
use super::plots::timeline_files;
use crate::lab::result::{LabResults, ManyRow};
use std::fmt::Write as _;

/// Summary lines of the report's header.
pub(super) fn header(s: &mut String, res: &LabResults) {
    let ran = res.many.iter().filter(|r| r.error.is_none()).count();
    let differ = res.many.iter().filter(|r| r.error.is_none() && !r.checksum_ok).count();
    let _ = writeln!(
        s,
        "- configurations: {ran} ran, {} failed; distances: {}",
        res.many.len() - ran,
        if differ == 0 {
            "every configuration's checksum equals its graph's first configuration's".to_string()
        } else {
            format!("**{differ} configurations computed other distances than their graph's first**")
        }
    );
}

/// What the times mean (after the device lines).
pub(super) fn times_line(s: &mut String) {
    let _ = writeln!(
        s,
        "- times: makespan, from the run's start to its last task's end (every worker's solver set-up included; each GPU warmed up by one solve per graph first)\n"
    );
}

/// `| cell |` of a makespan, ms.
fn ms(v: f64) -> String {
    if v >= 100.0 { format!("{v:.0}") } else { format!("{v:.2}") }
}

/// One table per graph, with its notes and timelines.
pub(super) fn section(s: &mut String, res: &LabResults) {
    let files = timeline_files(res);
    let _ = writeln!(s, "## Many-source configurations (seed 003)\n");
    let _ = writeln!(
        s,
        "vs first: makespan of the graph's first configuration that ran / this one's (> 1 = faster). GPU tasks: sources solved on `cuda`/`wgpu` workers. Idle: Σ over workers of makespan − their last task's end. Checksum: the sum of per-source distance-row hashes equals the first configuration's.\n"
    );
    for g in distinct(res.many.iter().map(|r| r.graph.as_str())) {
        let rows: Vec<(usize, &ManyRow)> = res.many.iter().enumerate().filter(|(_, r)| r.graph == g).collect();
        let Some((_, r0)) = rows.first() else { continue };
        let first = rows.iter().find(|(_, r)| r.error.is_none()).map(|(_, r)| format!("{} {}", r.label, r.policy));
        let _ = writeln!(
            s,
            "### {g}\n\nn = {}, m = {}, {} sources; compared with: {}\n",
            r0.n,
            r0.m,
            r0.sources,
            first.unwrap_or_else(|| "nothing (no configuration ran)".into())
        );
        let _ = writeln!(
            s,
            "| workers | policy | label | makespan ms | vs first config | GPU tasks | idle at end Σ ms | checksum equal |"
        );
        let _ = writeln!(s, "|---|---|---|---:|---:|---:|---:|---|");
        let mut notes = Vec::new();
        for (_, r) in &rows {
            let name = format!("`{}` {}", r.workers, r.policy);
            if let Some(e) = &r.error {
                let _ = writeln!(s, "| {} | {} | {} | failed | – | – | – | – |", r.workers, r.policy, r.label);
                notes.push(format!("- {name}: {e}"));
                continue;
            }
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                r.workers,
                r.policy,
                r.label,
                ms(r.makespan_ms),
                r.speedup_vs_first.map_or("–".into(), |x| format!("{x:.2}×")),
                r.gpu_tasks(),
                ms(r.idle_end_ms()),
                if r.checksum_ok { "yes" } else { "**NO**" }
            );
            for w in r.run.workers.iter().filter(|w| w.failed.is_some()) {
                let why = w.failed.as_deref().unwrap_or_default();
                notes.push(format!("- {name}: worker {} failed and left its tasks to the others: {why}", w.label));
            }
        }
        let _ = writeln!(s);
        if !notes.is_empty() {
            let _ = writeln!(s, "{}\n", notes.join("\n"));
        }
        for (_, f) in files.iter().filter(|(i, _)| res.many[*i].graph == g) {
            let _ = writeln!(s, "![{}]({})\n", f.title, f.file);
        }
    }
}
