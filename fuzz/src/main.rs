//! The libFuzzer binary: one target per reader and parser, chosen by `SSSP_FUZZ_TARGET`
//! (`fuzz/run.sh` runs them one after another); the targets themselves are in `targets.rs`,
//! which `tests/fuzz_corpus.rs` replays the committed corpus through.
//!
//! libFuzzer (linked by `rustc-sancov.sh`) owns `main` and calls `LLVMFuzzerTestOneInput` per
//! input; a panic aborts, which libFuzzer reports as a crash and saves the input.
#![no_main]

mod targets;

use std::sync::OnceLock;

static TARGET: OnceLock<fn(&[u8])> = OnceLock::new();

fn target() -> fn(&[u8]) {
    *TARGET.get_or_init(|| {
        targets::init();
        let name = std::env::var("SSSP_FUZZ_TARGET").unwrap_or_default();
        match targets::by_name(&name) {
            Some(t) => t,
            None => {
                let names: Vec<&str> = targets::TARGETS.iter().map(|t| t.0).collect();
                eprintln!("set SSSP_FUZZ_TARGET to one of: {}", names.join(", "));
                std::process::exit(2)
            }
        }
    })
}

/// libFuzzer's entry point.
///
/// # Safety
/// libFuzzer passes `size` readable bytes at `data` (or a null pointer when `size` is 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    let bytes: &[u8] = if data.is_null() || size == 0 {
        &[]
    } else {
        // SAFETY: libFuzzer's contract, above.
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let run = target();
    if std::panic::catch_unwind(|| run(bytes)).is_err() {
        std::process::abort();
    }
    0
}
