//! A check set's files: `tune.json` (the [`TuneReport`] as is) and `README.md` (the summary, a
//! table per graph × algorithm, hits per rule, and every case's reasons).

use super::batch::{TuneCase, TuneReport};
use super::check::TuneCheck;
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

fn ms(x: Option<f64>) -> String {
    x.map_or("–".into(), |v| if v >= 100.0 { format!("{v:.1}") } else { format!("{v:.3}") })
}

fn label(c: &TuneCheck, i: Option<usize>) -> String {
    i.and_then(|i| c.timings.get(i)).map_or("–".into(), |t| t.candidate.label())
}

fn median(c: &TuneCheck, i: Option<usize>) -> Option<f64> {
    i.and_then(|i| c.timings.get(i)).and_then(|t| t.median_ms)
}

/// The rule ids (`F1`, `G2`, `D1`, …) a case's reasons name.
pub fn rule_ids(case: &TuneCase) -> Vec<String> {
    let mut ids: Vec<String> = case
        .prediction
        .iter()
        .flat_map(|p| p.reasons.iter())
        .filter_map(|r| r.split_whitespace().next())
        .filter(|w| w.len() == 2 && w.as_bytes()[0].is_ascii_uppercase() && w.as_bytes()[1].is_ascii_digit())
        .map(str::to_string)
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// The README of a check set: the header, the table of swept cases, hits per rule, every case.
pub fn markdown(r: &TuneReport) -> String {
    let mut s = header(r);
    cases_table(&mut s, r);
    hits_per_rule(&mut s, r);
    every_case(&mut s, r);
    s
}

/// The title, the summary and how the numbers were taken.
fn header(r: &TuneReport) -> String {
    let mut s = String::new();
    let (dk, dn) = r.default_hits();
    let units = r.units.map_or("not probed (132 assumed)".into(), |u| u.to_string());
    let _ = writeln!(s, "# Tune check `{}` on {} ({})\n", r.name, r.device_name, r.date);
    let _ = writeln!(s, "**{}** (the default, 256 per kernel and the auto Δ, in {dk} of {dn}).\n", r.summary());
    let _ = writeln!(s, "- command: `{}`", r.command);
    let _ = writeln!(s, "- device `{}`: {}; multiprocessors: {units}", r.device, r.device_name);
    let _ = writeln!(s, "- outcome: {}, wall time {:.1} s", r.outcome, r.wall_s);
    let _ = writeln!(
        s,
        "- times: median `run_to_end` ms over the sources (building the solver excluded; one untimed warm-up \
         run per GPU configuration); candidates: uniform blocks 32–1024, the prediction, and for delta-stepping \
         Δ/4, Δ/2, 2Δ, 4Δ and the auto Δ at the predicted blocks (see docs/tune.md)"
    );
    let _ = writeln!(
        s,
        "- ratio = predicted / best median (1.00 = the prediction was the fastest); default = 256 per kernel, auto Δ\n"
    );
    s
}

/// One row per swept case, then the cases not swept with the reason.
fn cases_table(s: &mut String, r: &TuneReport) {
    let _ = writeln!(
        s,
        "| graph | algorithm | predicted | ms | best | ms | ratio | within 5 % | default ms | default ratio | sources | correct |"
    );
    let _ = writeln!(s, "|---|---|---|---:|---|---:|---:|---|---:|---:|---:|---|");
    let mut skipped = Vec::new();
    for c in &r.cases {
        let Some(ch) = c.check.as_ref().filter(|ch| ch.skipped.is_none()) else {
            let why = c.error.clone().or_else(|| c.check.as_ref().and_then(|ch| ch.skipped.clone()));
            skipped.push(format!("{} / {}: {}", c.graph, c.algorithm, why.unwrap_or_else(|| "no sweep".into())));
            continue;
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            c.graph,
            c.algorithm,
            label(ch, ch.predicted),
            ms(median(ch, ch.predicted)),
            label(ch, ch.best),
            ms(median(ch, ch.best)),
            ch.ratio.map_or("–".into(), |x| format!("{x:.3}")),
            match ch.within_5pct {
                Some(true) => "yes",
                Some(false) => "**no**",
                None => "–",
            },
            ms(median(ch, ch.default)),
            ch.default_ratio.map_or("–".into(), |x| format!("{x:.3}")),
            ch.sources.len(),
            match ch.correct {
                Some(true) => "yes",
                Some(false) => "**NO**",
                None => "–",
            },
        );
    }
    if !skipped.is_empty() {
        let _ = writeln!(s, "\nNot swept (not counted):\n");
        for l in skipped {
            let _ = writeln!(s, "- {l}");
        }
    }
}

/// Which rules land and which miss.
fn hits_per_rule(s: &mut String, r: &TuneReport) {
    let mut per_rule: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for c in r.cases.iter().filter(|c| c.counted()) {
        let hit = c.check.as_ref().and_then(|ch| ch.within_5pct) == Some(true);
        for id in rule_ids(c) {
            let e = per_rule.entry(id).or_default();
            e.0 += usize::from(hit);
            e.1 += 1;
        }
    }
    if !per_rule.is_empty() {
        let _ = writeln!(s, "\n## Hits per rule\n\nA case counts for every rule its prediction applied.\n");
        let _ = writeln!(s, "| rule | within 5 % | cases |\n|---|---:|---:|");
        for (id, (h, t)) in per_rule {
            let _ = writeln!(s, "| {id} | {h} | {t} |");
        }
    }
}

/// Every case: the graph's statistics, the reasons, the sweep's notes and medians.
fn every_case(s: &mut String, r: &TuneReport) {
    let _ = writeln!(s, "\n## Every case\n");
    for c in &r.cases {
        let _ = writeln!(s, "### {} / {}\n", c.graph, c.algorithm);
        if let Some(st) = &c.stats {
            let _ = writeln!(
                s,
                "n {}, m {}, mean degree {:.2} (CV {:.2}, max {}), diameter >= {} hops, widest level {}, weights \
                 {}..={}, auto Δ {}\n",
                st.n,
                st.m,
                st.mean_degree,
                st.degree_cv,
                st.max_degree,
                st.diameter_hops,
                st.widest_level,
                st.min_weight,
                st.max_weight,
                st.auto_delta
            );
        }
        if let Some(e) = &c.error {
            let _ = writeln!(s, "Not run: {e}\n");
        }
        for line in c.prediction.iter().flat_map(|p| p.reasons.iter()) {
            let _ = writeln!(s, "- {line}");
        }
        if let Some(ch) = &c.check {
            for note in ch.notes.iter().chain(&ch.skipped) {
                let _ = writeln!(s, "- sweep: {note}");
            }
            let times: Vec<String> = ch
                .timings
                .iter()
                .map(|t| format!("{} {}", t.candidate.label(), t.median_ms.map_or("failed".into(), |m| ms(Some(m)))))
                .collect();
            if !times.is_empty() {
                let _ = writeln!(s, "- medians (ms): {}", times.join("; "));
            }
        }
        let _ = writeln!(s);
    }
}

/// Writes `dir/tune.json` and `dir/README.md` (creating `dir`). Errors: I/O, with the path.
pub fn write(r: &TuneReport, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    let json = dir.join("tune.json");
    let text = serde_json::to_string_pretty(r)?;
    std::fs::write(&json, text + "\n").with_context(|| format!("{}: cannot write", json.display()))?;
    let md = dir.join("README.md");
    std::fs::write(&md, markdown(r)).with_context(|| format!("{}: cannot write", md.display()))?;
    Ok(())
}
