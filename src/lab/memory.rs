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
