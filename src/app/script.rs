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

use super::command::Command;
use crate::algo::{AlgoChoice, BlockSizes};
use crate::device::DeviceId;
use crate::formats::Format;
use crate::generate::GeneratorSpec;

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
    fn a_bad_command_is_named() {
        let err = parse("steps:x").unwrap_err();
        assert!(err.contains("steps:x"), "{err}");
        assert!(parse("fly").is_err());
    }
}
