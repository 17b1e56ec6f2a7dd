//! The algorithm registry: [`ALGORITHMS`] is the one table of every algorithm the project runs.
//!
//! Each algorithm lives in one module (`dijkstra.rs`, `frontier.rs`, …) that declares an
//! [`AlgorithmSpec`]: its command-line id, display name, the paper and section it comes from
//! (entries of `docs/references.md`), what one iteration means, its parameters, the
//! per-iteration series it records, its pseudo-code, the [`Family`] devices key their kernels on
//! and the CPU reference stepper. The app's menus and pseudo-code panel, the CLI's `--algo`
//! values and help, `sssp-lab check`, experiment validation and the conformance tests
//! (`tests/conformance.rs`) all read this table; nothing else lists the algorithms.
//!
//! [`Algorithm`] is a copyable handle to a spec. An algorithm together with its parameter
//! values is an [`AlgoChoice`], written `id[:key=value,…]` on the command line and in files
//! (`martin-succ:relax=non-atomic`); [`ALIASES`] keep older names (`racy`) working.

use super::{CodeLine, SeriesSpec, SolveError, SolveOptions, Stepper};
use crate::graph::{Graph, VertexId};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

pub use super::threshold::{RelaxVariant, Threshold};

/// Builds a CPU stepper: `(graph, algorithm, source, options)`. The caller has checked the
/// source and validated the parameters. `threads` (parallel builders only): 0 = every core.
pub type CpuBuilder = fn(Arc<Graph>, Algorithm, VertexId, &SolveOptions) -> Result<Box<dyn Stepper>, SolveError>;
/// Builds a multi-core CPU stepper with `threads` threads (0 = every core).
pub type ParallelBuilder =
    fn(Arc<Graph>, Algorithm, VertexId, usize, &SolveOptions) -> Result<Box<dyn Stepper>, SolveError>;

/// What a device needs to know to pick its kernels: the algorithm's shape. GPU devices run the
/// families they have kernels for and say so through [`crate::device::DeviceInfo::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// One vertex settled per iteration from a priority queue (sequential Dijkstra).
    Sequential,
    /// Settle-based frontier solver: relax F, threshold Δ over U, settle U ∩ {δ ≤ Δ}
    /// (`[seed000]` §3, `[seed004]` §4).
    Frontier { threshold: Threshold, variant: RelaxVariant },
    /// Passes over the arcs, one thread per arc, until nothing changes; settles nothing before
    /// it converges ([seed002]).
    EdgeParallel,
    /// Buckets of width Δ emptied in synchronous phases: light arcs until the bucket stays
    /// empty, then heavy arcs once ([meyer-sanders]).
    Bucketed,
    /// A sweep over a contraction hierarchy's levels after an upward search (PHAST, [phast]).
    Sweep,
}

/// An algorithm's description. See the module docs; every field is read by some view.
pub struct AlgorithmSpec {
    /// Command-line and result-file id, e.g. `crauser-pred`.
    pub id: &'static str,
    /// Display name for menus and reports.
    pub name: &'static str,
    /// One line for menus and `--help`.
    pub summary: &'static str,
    /// Where it comes from: `docs/references.md` entries with sections.
    pub reference: &'static str,
    /// What one iteration (one `Stepper::step`) does.
    pub iteration: &'static str,
    pub family: Family,
    /// Parameters with defaults and ranges; values travel in [`SolveOptions::params`].
    pub params: &'static [ParamSpec],
    /// Per-iteration values this algorithm records besides the common ones
    /// ([`super::COMMON_SERIES`]), in the order of `IterationRecord::values`.
    pub series: &'static [SeriesSpec],
    /// Pseudo-code lines, each with the phase it belongs to.
    pub code: fn(&Params) -> Vec<CodeLine>,
    /// The pseudo-code's loop test when it fails, shown at the end of a run (`Δ = ∞`).
    pub finished: &'static str,
    /// Whether runs with these parameter values must equal the oracle (false for the
    /// non-atomic relax on parallel devices, whose races are the lesson).
    pub exact: fn(&Params) -> bool,
    /// Whether it is correct on graphs with negative weights (Bellman-Ford); the others are
    /// refused such graphs with the first negative arc named ([`super::check_weights`]).
    pub negative_weights: bool,
    /// The CPU reference stepper (one thread).
    pub cpu: CpuBuilder,
    /// The multi-core CPU stepper, if there is one.
    pub cpu_parallel: Option<ParallelBuilder>,
}

/// Every algorithm, in menu order. Adding an algorithm: one line here (see docs/architecture.md).
pub static ALGORITHMS: [Algorithm; 13] = [
    super::dijkstra::DIJKSTRA,
    super::seed001::DIJKSTRA_BHEAP,
    super::seed001::CGS_LOCK,
    super::seed001::FGS_LOCK,
    super::seed001::HELPER,
    super::seed001::HELPER_FOLD,
    super::frontier::MARTIN_SUCC,
    super::frontier::MARTIN_PRED,
    super::frontier::CRAUSER_SUCC,
    super::frontier::CRAUSER_PRED,
    super::bellman_ford::BELLMAN_FORD,
    super::delta_stepping::DELTA_STEPPING,
    super::phast::PHAST,
];

/// An alias: `(alias, algorithm id, parameter values)`.
pub type Alias = (&'static str, &'static str, &'static [(&'static str, &'static str)]);

/// Older or teaching names for an algorithm with parameter values.
pub static ALIASES: [Alias; 1] = [("racy", "martin-succ", &[("relax", "non-atomic")])];

/// Seed 004's names for its implementations (§4.1–4.2, Figs. 6–7), accepted wherever a choice
/// is parsed (`--algo uh1`); unlike [`ALIASES`], choices print with their parameters.
pub static PAPER_NAMES: [Alias; 9] = [
    ("fgpu", "martin-succ", &[]),
    ("fgpu-no-atomic", "martin-succ", &[("relax", "non-atomic")]),
    ("ugpu", "martin-pred", &[("minimum", "one-pass")]),
    ("ugpu-2min", "martin-pred", &[]),
    ("ugpu-plus", "martin-pred", &[("relax", "cached")]),
    ("uh1", "martin-pred", &[("split", "uh1")]),
    ("uh2", "martin-pred", &[("split", "uh2")]),
    ("uh3", "martin-pred", &[("split", "uh3")]),
    ("ugpu-matrix", "martin-pred", &[("layout", "matrix")]),
];

/// A handle to a registered [`AlgorithmSpec`]; compares, hashes, orders and serializes by id.
#[derive(Clone, Copy)]
pub struct Algorithm(pub(super) &'static AlgorithmSpec);

impl Algorithm {
    /// Every algorithm, in menu order (the registry table).
    pub fn all() -> &'static [Algorithm] {
        &ALGORITHMS
    }

    /// The algorithm with id `id`, if registered (aliases are not ids: see [`AlgoChoice`]).
    pub fn by_id(id: &str) -> Option<Algorithm> {
        ALGORITHMS.iter().copied().find(|a| a.0.id == id)
    }

    /// Its description.
    pub fn spec(self) -> &'static AlgorithmSpec {
        self.0
    }

    /// The id used on the command line and in result files, e.g. `crauser-pred`.
    pub fn id(self) -> &'static str {
        self.0.id
    }

    /// One-line description for menus and help.
    pub fn describe(self) -> &'static str {
        self.0.summary
    }

    /// Δ policy of a frontier solver; `None` for other families.
    pub fn threshold(self) -> Option<Threshold> {
        match self.0.family {
            Family::Frontier { threshold, .. } => Some(threshold),
            _ => None,
        }
    }

    /// Relax variant of a frontier solver; `None` for other families.
    pub fn variant(self) -> Option<RelaxVariant> {
        match self.0.family {
            Family::Frontier { variant, .. } => Some(variant),
            _ => None,
        }
    }

    /// Position in [`ALGORITHMS`] (menu order).
    fn index(self) -> usize {
        ALGORITHMS.iter().position(|a| std::ptr::eq(a.0, self.0)).unwrap_or(usize::MAX)
    }

    /// Checks `params` against the declared parameters: unknown keys and values out of range
    /// are errors that name the accepted ones.
    pub fn validate(self, params: &Params) -> Result<(), String> {
        for (key, value) in &params.0 {
            let Some(p) = self.0.params.iter().find(|p| p.key == key) else {
                let known: Vec<&str> = self.0.params.iter().map(|p| p.key).collect();
                return Err(if known.is_empty() {
                    format!("{} has no parameters (got `{key}`)", self.id())
                } else {
                    format!("{} has no parameter `{key}`; it has: {}", self.id(), known.join(", "))
                });
            };
            p.kind.check(value).map_err(|e| format!("{} {key}: {e}", self.id()))?;
        }
        Ok(())
    }

    /// The value of choice parameter `key` (its default when unset); `""` for a key the
    /// algorithm does not declare. For generic listings over several algorithms (the run
    /// panel's rows, seed 004's CUDA-only options); an algorithm decodes its own parameters
    /// through [`Algorithm::decode`] into a typed struct, which refuses undeclared keys.
    pub fn choice(self, params: &Params, key: &str) -> &'static str {
        let Some(ParamSpec { kind: ParamKind::Choice { values, default }, .. }) =
            self.0.params.iter().find(|p| p.key == key)
        else {
            return "";
        };
        params.get(key).and_then(|v| values.iter().copied().find(|c| *c == v)).unwrap_or(default)
    }

    /// The value of integer parameter `key` (its default when unset); 0 for a key the
    /// algorithm does not declare. For generic listings; algorithms use
    /// [`Algorithm::decode_int`].
    pub fn int(self, params: &Params, key: &str) -> i64 {
        let Some(ParamSpec { kind: ParamKind::Int { default, .. }, .. }) = self.0.params.iter().find(|p| p.key == key)
        else {
            return 0;
        };
        params.get(key).and_then(|v| v.parse().ok()).unwrap_or(*default)
    }

    /// Decodes choice parameter `key` into its meaning: `table` maps each value the algorithm
    /// declares to a typed value (an enum); unset = the declared default. Each algorithm calls
    /// this once, in its own parameter struct's `decode`.
    ///
    /// Errors (naming the algorithm, key and value): `key` is not a declared choice parameter,
    /// the value is not declared, or `table` lacks it.
    pub fn decode<T: Copy>(self, params: &Params, key: &str, table: &[(&str, T)]) -> Result<T, String> {
        let Some(ParamSpec { kind: ParamKind::Choice { values, default }, .. }) =
            self.0.params.iter().find(|p| p.key == key)
        else {
            return Err(format!("{self} has no choice parameter `{key}`"));
        };
        let v = params.get(key).unwrap_or(default);
        if !values.contains(&v) {
            return Err(format!("{self} {key}={v}: use one of {}", values.join(", ")));
        }
        table.iter().find(|(k, _)| *k == v).map(|&(_, t)| t).ok_or_else(|| format!("{self} {key}={v}: no meaning here"))
    }

    /// Decodes integer parameter `key` (unset = the declared default).
    ///
    /// Errors (naming the algorithm, key and value): `key` is not a declared integer parameter,
    /// or the value is not a whole number in the declared range.
    pub fn decode_int(self, params: &Params, key: &str) -> Result<i64, String> {
        let Some(ParamSpec { kind: kind @ ParamKind::Int { default, .. }, .. }) =
            self.0.params.iter().find(|p| p.key == key)
        else {
            return Err(format!("{self} has no integer parameter `{key}`"));
        };
        match params.get(key) {
            None => Ok(*default),
            Some(v) => {
                kind.check(v).map_err(|e| format!("{self} {key}: {e}"))?;
                v.parse().map_err(|_| format!("{self} {key}={v}: not a whole number"))
            }
        }
    }

    /// Whether a run with `params` must equal the oracle.
    pub fn exact(self, params: &Params) -> bool {
        (self.0.exact)(params)
    }

    /// Index of declared series `key` in `IterationRecord::values`.
    pub fn series_index(self, key: &str) -> Option<usize> {
        self.0.series.iter().position(|s| s.key == key)
    }

    /// Every parameter combination worth testing: the defaults, then each other value of each
    /// choice parameter alone and each `tests` value of each integer parameter alone (the
    /// conformance tests and `check` run them all).
    pub fn test_params(self) -> Vec<Params> {
        let mut out = vec![Params::default()];
        for p in self.0.params {
            match p.kind {
                ParamKind::Choice { values, default } => {
                    for v in values.iter().filter(|v| **v != default) {
                        out.push(Params::default().with(p.key, v));
                    }
                }
                ParamKind::Int { default, tests, .. } => {
                    for v in tests.iter().filter(|v| **v != default) {
                        out.push(Params::default().with(p.key, &v.to_string()));
                    }
                }
            }
        }
        out
    }
}

impl PartialEq for Algorithm {
    fn eq(&self, o: &Self) -> bool {
        self.0.id == o.0.id
    }
}
impl Eq for Algorithm {}
impl std::hash::Hash for Algorithm {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.id.hash(h)
    }
}
impl PartialOrd for Algorithm {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Algorithm {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.index(), self.0.id).cmp(&(o.index(), o.0.id))
    }
}
impl fmt::Debug for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.id)
    }
}
impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.id)
    }
}

impl FromStr for Algorithm {
    type Err = String;
    /// A registered id; the error lists them.
    fn from_str(s: &str) -> Result<Self, String> {
        Algorithm::by_id(s).ok_or_else(|| format!("unknown algorithm `{s}`; expected one of: {}", ids_help()))
    }
}

impl Serialize for Algorithm {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.id)
    }
}
impl<'de> Deserialize<'de> for Algorithm {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// `dijkstra, martin-succ, …` (and the aliases), for help and error texts.
pub fn ids_help() -> String {
    let mut ids: Vec<&str> = ALGORITHMS.iter().map(|a| a.id()).collect();
    ids.extend(ALIASES.iter().chain(&PAPER_NAMES).map(|a| a.0));
    ids.join(", ")
}

/// `--help` text of `--algo`: one line per algorithm with its parameters.
pub fn cli_help() -> String {
    let mut s = String::from("Algorithm, written ID[:KEY=VALUE,…]:\n");
    for a in &ALGORITHMS {
        s += &format!("  {:<14} {}\n", a.id(), a.describe());
        for p in a.0.params {
            s += &format!("  {:<14}   :{}={}  {}\n", "", p.key, p.kind.range(), p.help);
        }
    }
    for (alias, id, params) in &ALIASES {
        let kv: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        s += &format!("  {alias:<14} = {id}:{}\n", kv.join(","));
    }
    s
}

/// One parameter of an algorithm.
#[derive(Debug)]
pub struct ParamSpec {
    /// Key in `id:key=value`, e.g. `relax`.
    pub key: &'static str,
    /// Label in the app.
    pub label: &'static str,
    /// One line of help: what it changes and where it comes from.
    pub help: &'static str,
    pub kind: ParamKind,
}

/// Type, range and default of a parameter.
#[derive(Debug)]
pub enum ParamKind {
    /// One of `values`.
    Choice { values: &'static [&'static str], default: &'static str },
    /// An integer in `min..=max`; `tests`: values besides the default that
    /// [`Algorithm::test_params`] runs.
    Int { min: i64, max: i64, default: i64, tests: &'static [i64] },
}

impl ParamKind {
    fn check(&self, v: &str) -> Result<(), String> {
        match self {
            ParamKind::Choice { values, .. } if values.contains(&v) => Ok(()),
            ParamKind::Choice { values, .. } => Err(format!("`{v}` is not one of {}", values.join(", "))),
            ParamKind::Int { min, max, .. } => match v.parse::<i64>() {
                Ok(x) if (*min..=*max).contains(&x) => Ok(()),
                _ => Err(format!("`{v}`: use a whole number in {min}…{max}")),
            },
        }
    }

    /// `atomic|non-atomic` or `1..=64`.
    pub fn range(&self) -> String {
        match self {
            ParamKind::Choice { values, .. } => values.join("|"),
            ParamKind::Int { min, max, .. } => format!("{min}..={max}"),
        }
    }

    /// The default, as written.
    pub fn default_text(&self) -> String {
        match self {
            ParamKind::Choice { default, .. } => (*default).to_string(),
            ParamKind::Int { default, .. } => default.to_string(),
        }
    }
}

/// Parameter values by key, as written (`relax` → `non-atomic`); unset keys take the spec's
/// default. Validated against an algorithm by [`Algorithm::validate`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Params(BTreeMap<String, String>);

impl Params {
    /// The value set for `key`, if any.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    /// Sets `key` to `value`.
    pub fn set(&mut self, key: &str, value: &str) {
        self.0.insert(key.to_string(), value.to_string());
    }

    /// `self` with `key` set to `value`.
    pub fn with(mut self, key: &str, value: &str) -> Params {
        self.set(key, value);
        self
    }

    /// True when nothing is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `key=value,…` in key order.
    pub fn to_text(&self) -> String {
        self.0.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
    }

    /// Drops values equal to the algorithm's defaults, so equal choices print alike.
    pub fn normalized(&self, algo: Algorithm) -> Params {
        let mut out = Params::default();
        for (k, v) in &self.0 {
            let default = algo.0.params.iter().find(|p| p.key == k).map(|p| p.kind.default_text());
            if default.as_deref() != Some(v.as_str()) {
                out.set(k, v);
            }
        }
        out
    }
}

/// An algorithm with parameter values: what the CLI's `--algo`, experiment files and the app's
/// settings hold. Written `id[:key=value,…]`, or an alias; prints as the alias when one matches.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AlgoChoice {
    pub algorithm: Algorithm,
    pub params: Params,
}

impl AlgoChoice {
    /// `algorithm` with default parameters.
    pub fn new(algorithm: Algorithm) -> AlgoChoice {
        AlgoChoice { algorithm, params: Params::default() }
    }

    /// Whether a run must equal the oracle (see [`AlgorithmSpec::exact`]).
    pub fn exact(&self) -> bool {
        self.algorithm.exact(&self.params)
    }
}

impl From<Algorithm> for AlgoChoice {
    fn from(a: Algorithm) -> AlgoChoice {
        AlgoChoice::new(a)
    }
}

impl fmt::Display for AlgoChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let params = self.params.normalized(self.algorithm);
        for (alias, id, kv) in &ALIASES {
            let p = kv.iter().fold(Params::default(), |p, (k, v)| p.with(k, v));
            if *id == self.algorithm.id() && p == params {
                return f.write_str(alias);
            }
        }
        if params.is_empty() {
            f.write_str(self.algorithm.id())
        } else {
            write!(f, "{}:{}", self.algorithm, params.to_text())
        }
    }
}

impl FromStr for AlgoChoice {
    type Err = String;
    /// `id`, `id:key=value,…` or an alias; parameters are validated, and a key written twice is
    /// refused (an alias's own parameters may be overridden once).
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let (head, rest) = s.split_once(':').unwrap_or((s, ""));
        let mut choice = match ALIASES.iter().chain(&PAPER_NAMES).find(|a| a.0 == head) {
            Some((_, id, kv)) => AlgoChoice {
                algorithm: id.parse()?,
                params: kv.iter().fold(Params::default(), |p, (k, v)| p.with(k, v)),
            },
            None => AlgoChoice::new(head.parse()?),
        };
        // A set, not a list: a spec of 10⁵ keys must not take 10¹⁰ comparisons (fuzzed).
        let mut written = std::collections::BTreeSet::new();
        for kv in rest.split(',').filter(|kv| !kv.trim().is_empty()) {
            let (k, v) = kv.split_once('=').ok_or_else(|| format!("`{kv}` in `{s}`: write parameters as key=value"))?;
            let k = k.trim();
            // `relax=atomic,relax=non-atomic` silently taking the last value hid typos.
            if !written.insert(k) {
                return Err(format!("`{k}` is given twice in `{s}`: give each parameter once"));
            }
            choice.params.set(k, v.trim());
        }
        choice.algorithm.validate(&choice.params)?;
        // Defaults written out are dropped, so equal choices compare (and hash) equal:
        // `martin-succ:relax=atomic` is `martin-succ` (found by the `algo` fuzz target).
        choice.params = choice.params.normalized(choice.algorithm);
        Ok(choice)
    }
}

impl Serialize for AlgoChoice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}
impl<'de> Deserialize<'de> for AlgoChoice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_parse_back() {
        for (i, a) in ALGORITHMS.iter().enumerate() {
            assert_eq!(a.id().parse::<Algorithm>(), Ok(*a));
            assert!(ALGORITHMS[..i].iter().all(|b| b.id() != a.id()), "duplicate id {a}");
            assert!(ALIASES.iter().all(|al| al.0 != a.id()), "alias shadows {a}");
        }
    }

    #[test]
    fn racy_is_an_alias_of_the_non_atomic_successors_relax() {
        let c: AlgoChoice = "racy".parse().unwrap();
        assert_eq!(c.algorithm.id(), "martin-succ");
        assert_eq!(c.algorithm.decode(&c.params, "relax", &[("non-atomic", true), ("atomic", false)]), Ok(true));
        assert_eq!(c.to_string(), "racy");
        assert!(!c.exact());
        let c: AlgoChoice = "crauser-succ:relax=non-atomic".parse().unwrap();
        assert_eq!(c.to_string(), "crauser-succ:relax=non-atomic");
        assert_eq!("martin-succ:relax=atomic".parse::<AlgoChoice>().unwrap().to_string(), "martin-succ");
    }

    #[test]
    fn bad_parameters_name_what_is_accepted() {
        let e = "martin-succ:relax=maybe".parse::<AlgoChoice>().unwrap_err();
        assert!(e.contains("atomic, non-atomic"), "{e}");
        let e = "dijkstra:relax=atomic".parse::<AlgoChoice>().unwrap_err();
        assert!(e.contains("no parameters"), "{e}");
        let e = "bogus".parse::<AlgoChoice>().unwrap_err();
        assert!(e.contains("crauser-pred") && e.contains("racy"), "{e}");
    }

    #[test]
    fn a_parameter_given_twice_is_refused() {
        let e = "martin-succ:relax=atomic,relax=non-atomic".parse::<AlgoChoice>().unwrap_err();
        assert!(e.contains("`relax` is given twice"), "{e}");
        let e = "martin-succ:relax=atomic, relax =atomic".parse::<AlgoChoice>().unwrap_err();
        assert!(e.contains("given twice"), "{e}");
        // An alias's own parameter may still be overridden once; a default written out is the
        // same choice as none (fuzz/corpus/algo/crash-default-written-out).
        assert_eq!("martin-succ:relax=atomic".parse::<AlgoChoice>(), "martin-succ".parse::<AlgoChoice>());
        // 10⁵ keys are refused at once (a list made this quadratic: fuzz/scripts/hangcheck.sh).
        let many: Vec<String> = (0..100_000).map(|i| format!("k{i}=v")).collect();
        assert!(format!("martin-succ:{}", many.join(",")).parse::<AlgoChoice>().is_err());
        let c: AlgoChoice = "racy:relax=atomic".parse().unwrap();
        assert_eq!(c.to_string(), "martin-succ");
    }
}
