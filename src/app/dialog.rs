//! Native file dialogs (rfd, on a worker because they block) and what happens where none can
//! appear: rfd's Linux backend asks the desktop portal and then zenity, and with neither it
//! returns "no file" at once, as if the user had cancelled. A dialog that "closes" faster than
//! a person can click is taken as missing, and the caller offers a typed path instead.

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Faster than any person cancels a dialog.
const INSTANT: Duration = Duration::from_millis(350);

/// Runs `show` (an rfd dialog) and tells a cancel (`Ok(None)`) from a missing dialog backend
/// (`Err`, saying what is missing).
pub fn pick(show: impl FnOnce() -> Option<PathBuf>) -> Result<Option<PathBuf>, String> {
    let start = Instant::now();
    match show() {
        None if start.elapsed() < INSTANT => Err(missing()),
        picked => Ok(picked),
    }
}

/// Why no dialog appeared, naming what would make one appear.
pub fn missing() -> String {
    let zenity =
        std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("zenity").is_file()));
    let portal = if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some() {
        "no desktop portal answered (xdg-desktop-portal with a file-chooser backend)"
    } else {
        "no desktop portal (no D-Bus session)"
    };
    let zenity = if zenity { "zenity did not start" } else { "zenity is not installed" };
    format!("no file dialog can be shown here: {portal} and {zenity}; type the path instead")
}

/// A name that is safe in a shell and on every file system: letters, digits, `.`, `_` and
/// `-` kept, every other run of characters becomes one `-` ("grid 64×64, w ≤ 100" →
/// "grid-64-64-w-100").
pub fn shell_safe(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').to_string();
    if out.is_empty() { "run".into() } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_spaces_and_symbols() {
        assert_eq!(shell_safe("grid 64×64, w ≤ 100"), "grid-64-64-w-100");
        assert_eq!(shell_safe("karate-delta-stepping:delta=3"), "karate-delta-stepping-delta-3");
        assert_eq!(shell_safe("≤"), "run");
    }

    #[test]
    fn an_instant_none_is_a_missing_backend_and_a_slow_one_a_cancel() {
        assert!(pick(|| None).is_err());
        assert_eq!(pick(|| Some(PathBuf::from("a.gr"))), Ok(Some(PathBuf::from("a.gr"))));
        let slow = pick(|| {
            std::thread::sleep(INSTANT + Duration::from_millis(50));
            None
        });
        assert_eq!(slow, Ok(None));
    }
}
