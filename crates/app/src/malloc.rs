//! glibc's malloc keeps memory the shop no longer uses. It starts by giving every block of
//! 128 KiB or more a mapping of its own, unmapped when freed; but once such a block is freed it
//! raises that threshold to the block's size, and the trim threshold to twice that. Each argon2
//! password hash takes 19 MiB: after the first login (or the demo staff's seeding) blocks up to
//! 19 MiB come from malloc's arenas, and each arena keeps up to 38 MiB of freed memory. The idle
//! shop sat at ~71 MB instead of ~31 MB.
//!
//! Pinning the threshold (`server.malloc_mmap_threshold`) turns that adjustment off. glibc reads
//! it only from the `GLIBC_TUNABLES` environment variable at start (`mallopt` would need unsafe
//! code, which the workspace forbids), so the binary starts itself again once with the variable
//! set: same process id, arguments, environment and open files.

/// The tunable this module sets.
const TUNABLE: &str = "glibc.malloc.mmap_threshold";

/// The `GLIBC_TUNABLES` value that pins the threshold to `bytes`, keeping the other tunables of
/// `current`; None when there is nothing to do (0 bytes, or the threshold is already set, by
/// an earlier start or by whoever runs the shop).
pub fn tunables_with_threshold(current: Option<&str>, bytes: usize) -> Option<String> {
    if bytes == 0 {
        return None;
    }
    let current = current.unwrap_or("");
    if current
        .split(':')
        .any(|entry| entry.split('=').next() == Some(TUNABLE))
    {
        return None;
    }
    Some(if current.is_empty() {
        format!("{TUNABLE}={bytes}")
    } else {
        format!("{current}:{TUNABLE}={bytes}")
    })
}

/// Starts the shop again with the threshold pinned, when it is not yet: returns only when
/// there is nothing to do or the new start failed (then the shop runs with glibc's default).
/// Call it first thing in `main`, before the shop has done anything.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn pin_mmap_threshold(bytes: usize) {
    use std::os::unix::process::CommandExt;

    let current = std::env::var("GLIBC_TUNABLES").ok();
    let Some(tunables) = tunables_with_threshold(current.as_deref(), bytes) else {
        return;
    };
    let Ok(binary) = std::env::current_exe() else {
        return;
    };
    let error = std::process::Command::new(binary)
        .args(std::env::args_os().skip(1))
        .env("GLIBC_TUNABLES", tunables)
        .exec();
    eprintln!("could not restart with GLIBC_TUNABLES set ({error}); glibc's default applies");
}

/// Other C libraries and systems: nothing to do.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn pin_mmap_threshold(_bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::tunables_with_threshold;

    #[test]
    fn the_threshold_is_added_once_and_other_tunables_are_kept() {
        assert_eq!(
            tunables_with_threshold(None, 131_072).as_deref(),
            Some("glibc.malloc.mmap_threshold=131072")
        );
        assert_eq!(
            tunables_with_threshold(Some(""), 131_072).as_deref(),
            Some("glibc.malloc.mmap_threshold=131072")
        );
        assert_eq!(
            tunables_with_threshold(Some("glibc.malloc.arena_max=2"), 65_536).as_deref(),
            Some("glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=65536")
        );
        // set already (by the earlier start, or by whoever runs the shop): no new start
        assert_eq!(
            tunables_with_threshold(Some("glibc.malloc.mmap_threshold=131072"), 131_072),
            None
        );
        assert_eq!(
            tunables_with_threshold(
                Some("glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=1048576"),
                131_072
            ),
            None
        );
        // a tunable whose name merely starts the same is another one
        assert!(
            tunables_with_threshold(Some("glibc.malloc.mmap_threshold_x=1"), 131_072).is_some()
        );
        // 0: glibc's default, nothing to do
        assert_eq!(tunables_with_threshold(None, 0), None);
    }
}
