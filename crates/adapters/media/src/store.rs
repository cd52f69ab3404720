use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};

use crate::error::MediaError;

/// The 8-byte signature every PNG file starts with.
const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
/// Number of hex characters of the SHA-256 digest used as file name.
const HASH_CHARS: usize = 32;
/// Longest accepted media kind.
const MAX_KIND_LEN: usize = 64;
/// Longest accepted public path tail.
const MAX_TAIL_LEN: usize = 256;

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Content-addressed PNG storage below a root directory.
///
/// Files live at `{root}/{kind}/{hash}.png` and are served publicly as
/// `/media/{kind}/{hash}.png`.
#[derive(Debug, Clone)]
pub struct MediaStore {
    root: PathBuf,
}

impl MediaStore {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    /// The directory this store writes into.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Stores `png` under `{root}/{kind}/{sha256-prefix}.png` and returns the
    /// public path `/media/{kind}/{sha256-prefix}.png`.
    ///
    /// Saving the same bytes again is a no-op. The file is written to a
    /// temporary name in the same directory and atomically renamed, so a
    /// concurrent reader never sees a partial file.
    pub fn save_png(&self, kind: &str, png: &[u8]) -> Result<String, MediaError> {
        validate_kind(kind)?;
        if !png.starts_with(&PNG_SIGNATURE) {
            return Err(MediaError::NotPng);
        }
        let digest = hex::encode(Sha256::digest(png));
        let name = format!("{}.png", &digest[..HASH_CHARS]);
        let public = format!("/media/{kind}/{name}");

        let dir = self.root.join(kind);
        let target = dir.join(&name);
        if target.is_file() {
            tracing::debug!(path = %public, "media already stored");
            return Ok(public);
        }
        fs::create_dir_all(&dir)?;

        let (tmp_path, mut tmp_file) = create_temp_file(&dir, &name)?;
        let written = tmp_file
            .write_all(png)
            .and_then(|()| tmp_file.sync_all())
            .and_then(|()| {
                drop(tmp_file);
                fs::rename(&tmp_path, &target)
            });
        if let Err(err) = written {
            // Best effort clean-up; the original error is what matters.
            let _ = fs::remove_file(&tmp_path);
            return Err(err.into());
        }
        tracing::debug!(path = %public, bytes = png.len(), "stored media");
        Ok(public)
    }

    /// Removes the files of `kind` whose public paths are not in `keep` and that were
    /// written more than `grace` ago, with their WebP copies; returns how many files went. The
    /// grace period spares files an upload has just saved but not yet recorded. Temporary files
    /// and anything that is neither a stored PNG nor a copy of one are left alone.
    pub fn remove_unreferenced(
        &self,
        kind: &str,
        keep: &HashSet<String>,
        grace: Duration,
        now: SystemTime,
    ) -> Result<usize, MediaError> {
        validate_kind(kind)?;
        let dir = self.root.join(kind);
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(err) => return Err(err.into()),
        };
        let mut removed = 0;
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            // A WebP copy goes with the picture it was made from.
            let public = match crate::variant_names::variant_source(&name) {
                Some(source) => format!("/media/{kind}/{source}"),
                None if name.ends_with(".png") => format!("/media/{kind}/{name}"),
                None => continue,
            };
            if keep.contains(&public) {
                continue;
            }
            let metadata = entry.metadata()?;
            let age = metadata
                .modified()
                .ok()
                .and_then(|modified| now.duration_since(modified).ok())
                .unwrap_or_default();
            if !metadata.is_file() || age < grace {
                continue;
            }
            match fs::remove_file(entry.path()) {
                Ok(()) => removed += 1,
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                Err(err) => return Err(err.into()),
            }
            tracing::debug!(path = %public, "removed unreferenced media");
        }
        Ok(removed)
    }

    /// Maps the tail of a public media path (the part after `/media/`, e.g.
    /// `products/abc123.png`) to an existing file below the root.
    ///
    /// Returns `None` for anything that is not a plain relative path made of
    /// `[a-z0-9._/-]` (no `..`, no absolute paths, no backslashes, no hidden
    /// files, no empty segments) and for files that do not exist.
    pub fn resolve(&self, public_path_tail: &str) -> Option<PathBuf> {
        if !is_safe_tail(public_path_tail) {
            return None;
        }
        let candidate = self.root.join(public_path_tail);
        // Defence in depth: even a symlink inside the root must not lead out.
        let root = fs::canonicalize(&self.root).ok()?;
        let real = fs::canonicalize(&candidate).ok()?;
        if !real.starts_with(&root) || !real.is_file() {
            return None;
        }
        Some(candidate)
    }
}

/// A kind is a single directory name: lowercase ASCII letters and `-`, not
/// starting or ending with `-`.
fn validate_kind(kind: &str) -> Result<(), MediaError> {
    let ok = !kind.is_empty()
        && kind.len() <= MAX_KIND_LEN
        && kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
        && !kind.starts_with('-')
        && !kind.ends_with('-');
    if ok {
        Ok(())
    } else {
        Err(MediaError::InvalidKind(kind.to_owned()))
    }
}

fn is_safe_tail(tail: &str) -> bool {
    if tail.is_empty() || tail.len() > MAX_TAIL_LEN {
        return false;
    }
    let allowed = |b: u8| {
        b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'/' | b'-')
    };
    if !tail.bytes().all(allowed) || tail.contains("..") {
        return false;
    }
    // Every segment must be a non-empty, non-hidden name; this also rejects
    // absolute paths (leading empty segment) and `.` segments.
    tail.split('/')
        .all(|segment| !segment.is_empty() && !segment.starts_with('.'))
}

pub(crate) fn create_temp_file(dir: &Path, name: &str) -> Result<(PathBuf, fs::File), MediaError> {
    let pid = std::process::id();
    loop {
        let n = TMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!(".{name}.{pid}.{n}.tmp"));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => return Ok((path, file)),
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(err) => return Err(err.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny_png(seed: u8) -> Vec<u8> {
        let img = image::RgbaImage::from_pixel(3, 2, image::Rgba([seed, 20, 30, 255]));
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    fn files_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn save_png_returns_stable_content_hash_path() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::new(dir.path());
        let png = tiny_png(1);

        let public = store.save_png("products", &png).unwrap();
        let digest = hex::encode(Sha256::digest(&png));
        assert_eq!(public, format!("/media/products/{}.png", &digest[..32]));

        let on_disk = dir
            .path()
            .join("products")
            .join(format!("{}.png", &digest[..32]));
        assert_eq!(fs::read(&on_disk).unwrap(), png);

        // Same store root, new instance: same answer.
        let again = MediaStore::new(dir.path())
            .save_png("products", &png)
            .unwrap();
        assert_eq!(again, public);

        // Different bytes, different name.
        let other = store.save_png("products", &tiny_png(2)).unwrap();
        assert_ne!(other, public);
    }

    #[test]
    fn save_png_writes_only_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::new(dir.path());
        let png = tiny_png(7);

        let first = store.save_png("proofs", &png).unwrap();
        let path = store.resolve(first.trim_start_matches("/media/")).unwrap();
        // a time no write made now can have: a rewrite (a new file renamed over it) shows
        let written_long_ago = std::time::UNIX_EPOCH + std::time::Duration::from_secs(86_400);
        fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(written_long_ago)
            .unwrap();

        let second = store.save_png("proofs", &png).unwrap();
        assert_eq!(first, second);
        let after = fs::metadata(&path).unwrap().modified().unwrap();
        assert_eq!(
            after, written_long_ago,
            "second save must not rewrite the file"
        );

        // Exactly one file, no temp leftovers.
        let names = files_in(&dir.path().join("proofs"));
        assert_eq!(names.len(), 1, "{names:?}");
        assert!(names[0].ends_with(".png") && !names[0].starts_with('.'));
    }

    #[test]
    fn save_png_validates_kind_and_signature() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::new(dir.path());
        let png = tiny_png(3);
        for bad in [
            "", "../x", "Products", "a/b", "a.b", "-x", "x-", "p1", "a\\b", "/etc",
        ] {
            assert!(
                matches!(store.save_png(bad, &png), Err(MediaError::InvalidKind(_))),
                "kind {bad:?} must be refused"
            );
        }
        assert!(store.save_png("product-art", &png).is_ok());
        assert!(matches!(
            store.save_png("products", b"hello, not a png"),
            Err(MediaError::NotPng)
        ));
        // Nothing escaped the root.
        assert_eq!(files_in(dir.path()), vec!["product-art".to_owned()]);
    }

    #[test]
    fn remove_unreferenced_keeps_what_is_used_and_what_is_fresh() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::new(dir.path());
        let used = store.save_png("proofs", &tiny_png(10)).unwrap();
        let unused = store.save_png("proofs", &tiny_png(11)).unwrap();
        let product = store.save_png("products", &tiny_png(12)).unwrap();
        fs::write(dir.path().join("proofs/.half-written.png.1.tmp"), b"x").unwrap();
        let keep: HashSet<String> = [used.clone()].into_iter().collect();

        // everything is younger than the grace period: nothing goes
        let removed = store
            .remove_unreferenced("proofs", &keep, Duration::from_secs(600), SystemTime::now())
            .unwrap();
        assert_eq!(removed, 0);

        let removed = store
            .remove_unreferenced("proofs", &keep, Duration::ZERO, SystemTime::now())
            .unwrap();
        assert_eq!(removed, 1);
        let tail = |p: &str| p.trim_start_matches("/media/").to_owned();
        assert!(store.resolve(&tail(&used)).is_some());
        assert!(store.resolve(&tail(&unused)).is_none());
        assert!(
            store.resolve(&tail(&product)).is_some(),
            "other kinds are untouched"
        );
        assert!(dir.path().join("proofs/.half-written.png.1.tmp").exists());
        assert_eq!(
            store
                .remove_unreferenced("never-used", &keep, Duration::ZERO, SystemTime::now())
                .unwrap(),
            0
        );
        assert!(matches!(
            store.remove_unreferenced("../x", &keep, Duration::ZERO, SystemTime::now()),
            Err(MediaError::InvalidKind(_))
        ));
    }

    #[test]
    fn resolve_finds_saved_files() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::new(dir.path());
        let public = store.save_png("products", &tiny_png(4)).unwrap();
        let tail = public.strip_prefix("/media/").unwrap();
        let path = store.resolve(tail).unwrap();
        assert!(path.is_file());
        assert_eq!(fs::read(path).unwrap(), tiny_png(4));
        assert_eq!(store.resolve("products/0000.png"), None);
        assert_eq!(store.resolve("products"), None, "directories are not files");
    }

    #[test]
    fn resolve_refuses_traversal_and_odd_paths() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("media");
        fs::create_dir_all(root.join("products")).unwrap();
        fs::write(root.join("products/abc123.png"), b"x").unwrap();
        fs::write(root.join("products/.hidden.png"), b"x").unwrap();
        // A file outside the root that traversal would hit.
        fs::write(dir.path().join("x"), b"secret").unwrap();
        let store = MediaStore::new(&root);

        assert!(store.resolve("products/abc123.png").is_some());
        for bad in [
            "../x",
            "/etc/passwd",
            "products/../../x",
            "products/../products/abc123.png",
            "PRODUCTS/A.PNG",
            "products/ABC123.png",
            "products\\abc123.png",
            "..\\x",
            "./products/abc123.png",
            "products/./abc123.png",
            "products//abc123.png",
            "products/abc123.png/",
            "products/.hidden.png",
            "products/abc 123.png",
            "products/abc123.png\0",
            "products/%2e%2e/x",
            "",
            "/",
            "C:/x",
        ] {
            assert_eq!(store.resolve(bad), None, "{bad:?} must be refused");
        }
    }

    #[cfg(unix)]
    #[test]
    fn resolve_refuses_symlinks_leading_out_of_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("media");
        fs::create_dir_all(root.join("products")).unwrap();
        fs::write(dir.path().join("secret.png"), b"secret").unwrap();
        std::os::unix::fs::symlink(
            dir.path().join("secret.png"),
            root.join("products/link.png"),
        )
        .unwrap();
        let store = MediaStore::new(&root);
        assert_eq!(store.resolve("products/link.png"), None);
    }
}
