//! Names the commit the binary is built from, for `shop_build_info{commit}`: the
//! `GARDEN_SHOP_COMMIT` variable when set (a build from a tarball, a container build), else
//! `git rev-parse --short=12 HEAD`, else `unknown`.

use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_owned())
}

fn main() {
    println!("cargo:rerun-if-env-changed=GARDEN_SHOP_COMMIT");
    let commit = std::env::var("GARDEN_SHOP_COMMIT")
        .ok()
        .filter(|commit| !commit.trim().is_empty())
        .or_else(|| git(&["rev-parse", "--short=12", "HEAD"]))
        .unwrap_or_else(|| "unknown".to_owned());
    // build again when HEAD moves: the HEAD file, and the branch's ref it points to (a
    // missing file would make cargo run this every build, so only files that exist)
    let mut watched = vec![git(&["rev-parse", "--git-path", "HEAD"])];
    if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(git(&["rev-parse", "--git-path", &reference]));
        watched.push(git(&["rev-parse", "--git-path", "packed-refs"]));
    }
    for path in watched.into_iter().flatten().map(PathBuf::from) {
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    println!("cargo:rustc-env=GARDEN_SHOP_COMMIT={commit}");
}
