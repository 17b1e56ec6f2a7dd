//! A tiny command language for scripted runs (screenshots, demos), read from `SSSP_LAB_DEMO`:
//! commands separated by `;`, each applied once no background job runs.
//!
//! | command | does |
//! |---|---|
//! | `open:PATH` | load a file (with the current weight rule / format) |
//! | `weights:RULE` | weight rule `file`, `unit`, `uniform:MAX:SEED` for the next `open` |
//! | `format:ID` | format override (`dimacs`, `metis`, `mtx`, `el`, `wel`, `auto`) |
//! | `gen:FAMILY` | generate the family's example graph (`teaching`, `grid`, `counterexample`, …) |
//! | `gen:grid:W:H` | generate a W × H grid (weights 1..10, seed 1) |
//! | `algo:ID` | algorithm (`dijkstra`, `martin-succ`, `crauser-pred`, …) |
//! | `device:ID` | device (`cpu`, `cuda:0`, `wgpu:0`) |
//! | `block:N` | the same block size for every kernel |
//! | `tune` | the Tune button: predicted block sizes (and Δ) for the graph and device |
//! | `source:ID` | source by file id |
//! | `steps:N`, `back:N` | N iterations forward / back |
//! | `seek:N` | cursor to after N iterations |
//! | `run` | run to the end (on a worker) |
//! | `play`, `speed:X` | start playing; iterations per second |
//! | `reset` | back to iteration 0 |
//! | `lesson:N` | open lesson N of the *Lessons* menu in the compare tab |
//! | `compare-steps:N` | N compare steps (one lockstep action each) |
//! | `compare-level:D` | every compare lane on until its settled level reaches distance D (one action) |
//! | `compare-run` | every compare lane to its end |

use super::command::Command;
use crate::algo::{AlgoChoice, BlockSizes};
use crate::device::DeviceId;
use crate::formats::Format;
use crate::generate::GeneratorSpec;

/// The window's inner size in points from `SSSP_LAB_WINDOW=WIDTHxHEIGHT` (e.g. `1280x720`, the
/// screenshots' projector size); `None` when unset. A malformed or too small value (below the
/// window's 900 × 560 minimum) is reported on stderr and ignored: a scripted run still opens.
pub fn window_size() -> Option<[f32; 2]> {
    let spec = std::env::var("SSSP_LAB_WINDOW").ok()?;
    let size = parse_window_size(&spec);
    if let Err(e) = &size {
        eprintln!("SSSP_LAB_WINDOW: {e}; the default size is used");
    }
    size.ok()
}

fn parse_window_size(spec: &str) -> Result<[f32; 2], String> {
    let bad = || format!("`{spec}`: expected WIDTHxHEIGHT of at least 900x560, e.g. 1280x720");
    let (w, h) = spec.trim().split_once('x').ok_or_else(bad)?;
    let (w, h) = (w.parse::<u16>().map_err(|_| bad())?, h.parse::<u16>().map_err(|_| bad())?);
    if w < 900 || h < 560 {
        return Err(bad());
    }
    Ok([f32::from(w), f32::from(h)])
}

/// Parses a script; the error names the bad command.
pub fn parse(script: &str) -> Result<Vec<Command>, String> {
    let mut out = Vec::new();
    for item in script.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, arg) = item.split_once(':').unwrap_or((item, ""));
        let bad = |what: &str| format!("`{item}`: {what}");
        let count = || arg.parse::<usize>().map_err(|_| bad("expected a count"));
        match name {
            "open" => out.push(Command::Open(arg.into())),
            "weights" => out.push(Command::SetWeightRule(arg.into())),
            "format" if arg == "auto" => out.push(Command::SetFormat(None)),
            "format" => out.push(Command::SetFormat(Some(arg.parse::<Format>().map_err(|e| bad(&e))?))),
            "gen" if arg.starts_with("grid:") => {
                // `gen:grid:W:H`: a W × H grid (the frame benchmark's large road-like graph).
                let mut it = arg["grid:".len()..].split(':').map(str::parse::<usize>);
                let (Some(Ok(width)), Some(Ok(height)), None) = (it.next(), it.next(), it.next()) else {
                    return Err(bad("expected gen:grid:WIDTH:HEIGHT"));
                };
                out.push(Command::Generate(GeneratorSpec::Grid { width, height, max_weight: 10, seed: 1 }));
            }
            "gen" => {
                let spec = GeneratorSpec::examples().into_iter().find(|s| s.family() == arg);
                out.push(Command::Generate(spec.ok_or_else(|| bad("unknown generator family"))?));
            }
            "algo" => out.push(Command::SetAlgorithm(arg.parse::<AlgoChoice>().map_err(|e| bad(&e))?)),
            "device" => out.push(Command::SetDevice(arg.parse::<DeviceId>().map_err(|e| bad(&e))?)),
            "block" => {
                let b = arg.parse::<u32>().map_err(|_| bad("expected a block size"))?;
                out.push(Command::SetBlockSizes(BlockSizes::uniform(b)));
            }
            "tune" => out.push(Command::Tune),
            "source" => out.push(Command::SetSourceId(arg.into())),
            "steps" => out.push(Command::StepN(count()?)),
            "back" => out.extend(std::iter::repeat_n(Command::StepBack, count()?)),
            "seek" => out.push(Command::Seek(count()?)),
            "run" => out.push(Command::RunToEnd),
            "play" => out.push(Command::TogglePlay),
            "speed" => out.push(Command::SetSpeed(arg.parse::<f64>().map_err(|_| bad("expected a number"))?)),
            "reset" => out.push(Command::Reset),
            "lesson" => out.push(Command::OpenLesson(count()?)),
            "compare-steps" => out.push(Command::CompareSteps(count()?)),
            "compare-run" => out.push(Command::CompareRunToEnd),
            "compare-level" => {
                let d = arg.parse().map_err(|_| bad("expected a distance"))?;
                out.push(Command::CompareToLevel(d));
            }
            _ => return Err(bad("unknown command")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gen_grid_takes_a_size() {
        let spec = GeneratorSpec::Grid { width: 4096, height: 2048, max_weight: 10, seed: 1 };
        assert_eq!(parse("gen:grid:4096:2048").unwrap(), vec![Command::Generate(spec)]);
        assert!(parse("gen:grid:4096").is_err());
    }

    #[test]
    fn a_demo_script_becomes_commands() {
        let cmds = parse("algo:crauser-succ; steps:3;back:1;run;seek:2").unwrap();
        assert_eq!(
            cmds,
            vec![
                Command::SetAlgorithm(AlgoChoice::new(crate::algo::CRAUSER_SUCC)),
                Command::StepN(3),
                Command::StepBack,
                Command::RunToEnd,
                Command::Seek(2)
            ]
        );
    }

    #[test]
    fn compare_level_takes_a_distance() {
        assert_eq!(parse("lesson:0;compare-level:300000").unwrap()[1], Command::CompareToLevel(300_000));
        assert!(parse("compare-level:far").is_err());
    }

    #[test]
    fn a_window_size_is_width_x_height() {
        assert_eq!(parse_window_size("1280x720"), Ok([1280.0, 720.0]));
        assert!(parse_window_size("1280").is_err());
        assert!(parse_window_size("640x480").is_err());
    }

    #[test]
    fn a_bad_command_is_named() {
        let err = parse("steps:x").unwrap_err();
        assert!(err.contains("steps:x"), "{err}");
        assert!(parse("fly").is_err());
    }
}
