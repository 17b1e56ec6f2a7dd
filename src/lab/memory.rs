//! Peak host memory of this process, from `/proc/self/status` (Linux; best effort).
//!
//! Before a run the peak is reset with `echo 5 > /proc/self/clear_refs` (Linux ≥ 4.0), so
//! `VmHWM` afterwards is the highest resident set during the run: the graph and everything else
//! the process holds, plus what the solver allocated. Other threads of the process (the app,
//! parallel tests) count too.

/// Resets the process's peak resident set (`VmHWM`) to its current size. False when the kernel
/// refuses or there is no `/proc`.
pub fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Tells glibc's malloc to keep freed memory mapped (mmap threshold 1 GiB, or the largest it
/// takes, and trim threshold 1 GiB), so a timed run's fresh arrays reuse pages that are already
/// faulted in instead of mapping and unmapping new ones each run. Called once when a lab run
/// starts. Why: in a process that holds a CUDA context, sequential `dijkstra` on 24k deg2 took
/// 4–11 ms per run in `seed000-boost` against 0.58 ms alone; on the GPU machine the same CPU
/// cells after CUDA cells showed bursts of 3–10× slower runs that disappear when freed memory
/// is kept (bench/results/cpu-in-cuda/README.md): the page faults of fresh arrays wait while
/// the CUDA driver works on the process's memory map. True when malloc took the setting;
/// false elsewhere (not glibc).
pub fn keep_freed_memory() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const GIB: libc::c_int = 1 << 30;
        // SAFETY: mallopt only changes malloc's tuning parameters; any value is accepted or
        // refused with 0, and it is called before the run allocates.
        unsafe {
            let mmap =
                libc::mallopt(libc::M_MMAP_THRESHOLD, GIB) == 1 || libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20) == 1;
            let trim = libc::mallopt(libc::M_TRIM_THRESHOLD, GIB) == 1;
            mmap && trim
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        false
    }
}

/// A `kB` field of `/proc/self/status` in bytes.
fn status_bytes(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with(field) && l[field.len()..].starts_with(':'))?;
    let kb: u64 = line[field.len() + 1..].trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb * 1024)
}

/// Peak resident set since the last [`reset_peak`] (or process start), bytes.
pub fn peak_bytes() -> Option<u64> {
    status_bytes("VmHWM")
}

/// Current resident set, bytes.
pub fn rss_bytes() -> Option<u64> {
    status_bytes("VmRSS")
}

#[cfg(test)]
mod tests {
    #[test]
    fn peak_is_at_least_the_current_resident_set_where_proc_exists() {
        if let (Some(rss), Some(peak)) = (super::rss_bytes(), super::peak_bytes()) {
            assert!(peak + (1 << 20) >= rss, "peak {peak} < rss {rss}");
        }
    }
}
