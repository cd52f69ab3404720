//! `garden-shop backup PATH` and `garden-shop restore PATH [--force]`.
//!
//! A backup is a new directory holding `backup.json` (what it is), the database (`shop.db`, a
//! SQLite copy made online with `VACUUM INTO`; or `shop.pgdump`, PostgreSQL's custom format made
//! by `pg_dump`) and `media/`, a copy of the media directory (product pictures and proofs, named
//! by content). Restore puts them back into the configured database and media directory, and
//! refuses to write over a shop unless `--force`.
//!
//! A backup holds every account's personal data and password hash, so it is written owner-only
//! (the directory 0700 from the moment it exists, every directory in it 0700, every file 0600),
//! and `restore` refuses one that anyone but its owner can read or write (a copy that was left
//! open, or tampered with) unless `--force`.

use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Backend;
use anyhow::{anyhow, bail, Context};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

const MANIFEST: &str = "backup.json";
const SQLITE_FILE: &str = "shop.db";
const PG_FILE: &str = "shop.pgdump";
const MEDIA_DIR: &str = "media";
/// The modes of a backup's directories and files: the owner's alone.
const DIR_MODE: u32 = 0o700;
const FILE_MODE: u32 = 0o600;

#[derive(Debug, Serialize, Deserialize)]
struct Manifest {
    /// The layout of this directory; 1 for now.
    format: u32,
    /// `sqlite` or `postgres`.
    backend: String,
    created_at: chrono::DateTime<chrono::Utc>,
    /// The file of the database inside the backup.
    database: String,
    media_files: u64,
}

fn backend_of(url: &str) -> anyhow::Result<Backend> {
    if url.starts_with("sqlite:") {
        Ok(Backend::Sqlite)
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Backend::Postgres)
    } else {
        bail!("only sqlite: and postgres:// databases can be backed up")
    }
}

fn backend_name(backend: Backend) -> &'static str {
    match backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    }
}

/// Backs the shop on `database_url` with its media directory `media_root` up into the new (or
/// empty) directory `path`, made `now`.
pub async fn backup(
    database_url: &str,
    media_root: &Path,
    path: &Path,
    now: DateTime<Utc>,
) -> anyhow::Result<String> {
    let backend = backend_of(database_url)?;
    if path.exists() && std::fs::read_dir(path)?.next().is_some() {
        bail!(
            "{} is not empty: back up into a new directory",
            path.display()
        );
    }
    create_private_dir(path)?;
    let mut report = Vec::new();
    let database = match backend {
        Backend::Sqlite => {
            let db = crate::connect(database_url, 1).await?;
            let target = std::fs::canonicalize(path)?.join(SQLITE_FILE);
            crate::operations::vacuum_into(&db, &target).await?;
            let _ = db.close().await;
            report.push(format!("database: {} (VACUUM INTO)", target.display()));
            SQLITE_FILE
        }
        Backend::Postgres => {
            let target = path.join(PG_FILE);
            let line = pg_dump_line(&target);
            match run_with_password(database_url, "pg_dump", &pg_dump_args(&target)) {
                Ok(()) => report.push(format!("database: {} (pg_dump)", target.display())),
                Err(PgToolError::Missing) => report.push(format!(
                    "pg_dump is not installed here: run on a machine that has it (the same or a \
                     newer major version than the server)\n  {line}"
                )),
                Err(PgToolError::Failed(error)) => {
                    return Err(error.context(format!("pg_dump failed; the line was: {line}")))
                }
            }
            PG_FILE
        }
    };
    let media_files = copy_tree(media_root, &path.join(MEDIA_DIR), true)?;
    report.push(format!(
        "media: {media_files} files from {}",
        media_root.display()
    ));
    let manifest = Manifest {
        format: 1,
        backend: backend_name(backend).to_owned(),
        created_at: now,
        database: database.to_owned(),
        media_files,
    };
    std::fs::write(path.join(MANIFEST), serde_json::to_vec_pretty(&manifest)?)?;
    // VACUUM INTO, pg_dump and the copies create their files with the process' umask (and the
    // copies with the source's mode): owner-only, all of them.
    make_owner_only(path)?;
    Ok(format!(
        "Backed up into {}:\n  {}",
        path.display(),
        report.join("\n  ")
    ))
}

/// Restores the backup at `path` into the database on `database_url` and the media directory
/// `media_root`.
pub async fn restore(
    database_url: &str,
    media_root: &Path,
    path: &Path,
    force: bool,
) -> anyhow::Result<String> {
    let manifest: Manifest = serde_json::from_slice(
        &std::fs::read(path.join(MANIFEST))
            .with_context(|| format!("{} holds no {MANIFEST}: not a backup", path.display()))?,
    )
    .with_context(|| format!("{MANIFEST} cannot be read"))?;
    if manifest.format != 1 {
        bail!(
            "backup format {} is not known to this version",
            manifest.format
        );
    }
    let backend = backend_of(database_url)?;
    if manifest.backend != backend_name(backend) {
        bail!(
            "this is a {} backup; the configured database is {}",
            manifest.backend,
            backend_name(backend)
        );
    }
    let source = path.join(&manifest.database);
    if !source.is_file() {
        bail!("{} is missing from the backup", source.display());
    }
    if !force {
        if let Some(open) = readable_by_others(path)? {
            bail!(
                "{open} can be read or written by others than its owner: a backup holds every \
                 account's personal data, keep it owner-only (chmod -R go-rwx {}), or pass \
                 --force to restore it anyway",
                path.display()
            );
        }
    }
    if !force && media_root.exists() && std::fs::read_dir(media_root)?.next().is_some() {
        bail!(
            "the media directory {} is not empty: restore into a fresh one, or pass --force",
            media_root.display()
        );
    }
    // Whether the database already holds a shop (connecting also migrates a fresh one).
    {
        let db = crate::connect(database_url, 1).await?;
        let holds = crate::operations::holds_shop_data(&db).await;
        let _ = db.close().await;
        if holds? && !force {
            bail!(
                "the configured database already holds a shop: restore into a fresh one, or \
                 pass --force to replace it"
            );
        }
    }
    match backend {
        Backend::Sqlite => restore_sqlite(database_url, &source)?,
        Backend::Postgres => {
            match run_with_password(database_url, "pg_restore", &pg_restore_args(&source)) {
                Ok(()) => {}
                Err(PgToolError::Missing) => bail!(
                    "pg_restore is not installed here; run\n  {}",
                    pg_restore_line(&source)
                ),
                Err(PgToolError::Failed(error)) => return Err(error),
            }
        }
    }
    // A backup of an older version gets the newer migrations.
    let db = crate::connect(database_url, 1).await?;
    let _ = db.close().await;
    let media_files = copy_tree(&path.join(MEDIA_DIR), media_root, false)?;
    Ok(format!(
        "Restored the {} backup of {} from {}: the database, and {media_files} media files into {}.",
        manifest.backend,
        manifest.created_at.format("%Y-%m-%d %H:%M UTC"),
        path.display(),
        media_root.display()
    ))
}

/// Puts the copy in place of the database file (and drops the old file's write-ahead log).
fn restore_sqlite(url: &str, source: &Path) -> anyhow::Result<()> {
    let target =
        crate::sqlite_path(url).ok_or_else(|| anyhow!("the SQLite database has no file"))?;
    if let Some(parent) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    let staging = with_suffix(&target, ".restoring");
    std::fs::copy(source, &staging)
        .with_context(|| format!("could not copy the backup to {}", staging.display()))?;
    for suffix in ["-wal", "-shm"] {
        let side = with_suffix(&target, suffix);
        if side.exists() {
            std::fs::remove_file(&side)
                .with_context(|| format!("could not remove {}", side.display()))?;
        }
    }
    std::fs::rename(&staging, &target)
        .with_context(|| format!("could not move the copy to {}", target.display()))?;
    Ok(())
}

/// Creates `path` (and missing parents) with mode 0700 from the start, so its files are never
/// reachable by others; an existing (empty) directory gets 0700 too.
fn create_private_dir(path: &Path) -> anyhow::Result<()> {
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(path)
        .with_context(|| format!("could not create {}", path.display()))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(DIR_MODE))
        .with_context(|| format!("could not make {} owner-only", path.display()))
}

/// Gives `dir` and everything under it the owner-only modes (symbolic links are left alone).
fn make_owner_only(dir: &Path) -> anyhow::Result<()> {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(DIR_MODE))
        .with_context(|| format!("could not make {} owner-only", dir.display()))?;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        if kind.is_dir() {
            make_owner_only(&entry.path())?;
        } else if kind.is_file() {
            std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(FILE_MODE))
                .with_context(|| format!("could not make {} owner-only", entry.path().display()))?;
        }
    }
    Ok(())
}

/// The first of `dir` and everything under it that its group or others may read, write or
/// enter, if any.
fn readable_by_others(dir: &Path) -> anyhow::Result<Option<String>> {
    let open = |path: &Path| -> anyhow::Result<bool> {
        let mode = std::fs::metadata(path)
            .with_context(|| format!("could not read the mode of {}", path.display()))?
            .permissions()
            .mode();
        Ok(mode & 0o077 != 0)
    };
    if open(dir)? {
        return Ok(Some(dir.display().to_string()));
    }
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        if kind.is_dir() {
            if let Some(found) = readable_by_others(&entry.path())? {
                return Ok(Some(found));
            }
        } else if kind.is_file() && open(&entry.path())? {
            return Ok(Some(entry.path().display().to_string()));
        }
    }
    Ok(None)
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Copies the files under `from` into `to` (created); a missing `from` copies nothing when
/// `missing_ok`. Returns how many files were copied. Symbolic links are skipped.
fn copy_tree(from: &Path, to: &Path, missing_ok: bool) -> anyhow::Result<u64> {
    if !from.exists() {
        if missing_ok {
            std::fs::create_dir_all(to)?;
            return Ok(0);
        }
        bail!("{} is missing", from.display());
    }
    std::fs::create_dir_all(to).with_context(|| format!("could not create {}", to.display()))?;
    let mut copied = 0;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copied += copy_tree(&entry.path(), &target, false)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).with_context(|| {
                format!(
                    "could not copy {} to {}",
                    entry.path().display(),
                    target.display()
                )
            })?;
            copied += 1;
        }
    }
    Ok(copied)
}

fn pg_dump_args(target: &Path) -> Vec<String> {
    vec![
        "--format=custom".into(),
        "--no-owner".into(),
        "--no-privileges".into(),
        format!("--file={}", target.display()),
    ]
}

fn pg_restore_args(source: &Path) -> Vec<String> {
    vec![
        "--clean".into(),
        "--if-exists".into(),
        "--no-owner".into(),
        "--no-privileges".into(),
        "--single-transaction".into(),
        "--exit-on-error".into(),
        source.display().to_string(),
    ]
}

/// The documented line, as an operator types it.
fn pg_dump_line(target: &Path) -> String {
    format!(
        "pg_dump {} --dbname=\"$DATABASE_URL\"",
        pg_dump_args(target).join(" ")
    )
}

fn pg_restore_line(source: &Path) -> String {
    format!(
        "pg_restore {} --dbname=\"$DATABASE_URL\"",
        pg_restore_args(source).join(" ")
    )
}

enum PgToolError {
    Missing,
    Failed(anyhow::Error),
}

/// Runs a PostgreSQL client tool against `url`, the password (if any) in `PGPASSWORD` rather
/// than on the command line, where every user of the machine could read it.
fn run_with_password(url: &str, tool: &str, args: &[String]) -> Result<(), PgToolError> {
    let (url, password) = split_password(url);
    let mut command = Command::new(tool);
    command.args(args).arg(format!("--dbname={url}"));
    if let Some(password) = password {
        command.env("PGPASSWORD", password);
    }
    match command.output() {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Err(PgToolError::Missing),
        Err(error) => Err(PgToolError::Failed(
            anyhow::Error::new(error).context(format!("could not run {tool}")),
        )),
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => Err(PgToolError::Failed(anyhow!(
            "{tool} ended with {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ))),
    }
}

/// `postgres://user:secret@host/db` -> (`postgres://user@host/db`, `secret`, percent-decoded).
fn split_password(url: &str) -> (String, Option<String>) {
    let (Some(scheme_end), Some(at)) = (url.find("://"), url.rfind('@')) else {
        return (url.to_owned(), None);
    };
    if at < scheme_end {
        return (url.to_owned(), None);
    }
    let credentials = &url[scheme_end + 3..at];
    let Some((user, password)) = credentials.split_once(':') else {
        return (url.to_owned(), None);
    };
    (
        format!("{}{user}{}", &url[..scheme_end + 3], &url[at..]),
        Some(percent_decode(password)),
    )
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
            if let Ok(byte) = u8::from_str_radix(hex, 16) {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_goes_to_the_environment_not_the_command_line() {
        assert_eq!(
            split_password("postgres://shop:s%40cret@db:5432/shop?sslmode=require"),
            (
                "postgres://shop@db:5432/shop?sslmode=require".to_owned(),
                Some("s@cret".to_owned())
            )
        );
        assert_eq!(
            split_password("postgres://postgres@127.0.0.1:5432/shop"),
            ("postgres://postgres@127.0.0.1:5432/shop".to_owned(), None)
        );
        assert_eq!(percent_decode("a%2"), "a%2");
    }

    #[test]
    fn the_documented_lines() {
        let path = Path::new("/backups/today/shop.pgdump");
        assert_eq!(
            pg_dump_line(path),
            "pg_dump --format=custom --no-owner --no-privileges \
             --file=/backups/today/shop.pgdump --dbname=\"$DATABASE_URL\""
        );
        assert_eq!(
            pg_restore_line(path),
            "pg_restore --clean --if-exists --no-owner --no-privileges --single-transaction \
             --exit-on-error /backups/today/shop.pgdump --dbname=\"$DATABASE_URL\""
        );
    }
}
