//! The command line: `garden-shop` serves the shop; `garden-shop users create EMAIL --role ROLE
//! [--name NAME]` creates a staff account (or changes the role and password of an existing
//! one), reading the password as one line from standard input; `garden-shop backup PATH` and
//! `garden-shop restore PATH [--force]` copy the database and the media directory out and back
//! (see `store::backup` and docs/operations.md); `garden-shop openapi` prints the API's OpenAPI
//! document (the bytes `GET /api/openapi.json` answers) without a database or config.

use std::io::BufRead;

use accounts::{Email, Password, Role, UserName};
use anyhow::{anyhow, Context};
use clap::{Parser, Subcommand};

use crate::{auth, settings::Settings};

#[derive(Debug, Parser)]
#[command(name = "garden-shop", about = "The Garden Shop server", version)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Manage accounts.
    Users {
        #[command(subcommand)]
        command: UsersCommand,
    },
    /// Copy the database and the media directory (product pictures, proofs) into the new
    /// directory PATH while the shop runs: SQLite with VACUUM INTO, PostgreSQL with pg_dump.
    Backup { path: std::path::PathBuf },
    /// Restore a backup made by `backup` into the configured database and media directory.
    /// Refuses a database that already holds a shop, or a media directory with files, unless
    /// --force. Stop the shop first.
    Restore {
        path: std::path::PathBuf,
        /// Overwrite a database and a media directory that are not empty.
        #[arg(long)]
        force: bool,
    },
    /// Print the API's OpenAPI 3.1 document (what GET /api/openapi.json answers) as pretty
    /// JSON. Needs no database or config: `just api-types` writes it to frontend/openapi.json.
    Openapi,
}

#[derive(Debug, Subcommand)]
pub enum UsersCommand {
    /// Create an account, or set the role and password of an existing one. The password is
    /// read as one line from standard input.
    Create {
        email: String,
        /// customer, admin or super_admin
        #[arg(long)]
        role: String,
        /// The display name (default: the existing name, or the address's local part).
        #[arg(long)]
        name: Option<String>,
    },
}

/// Runs a command against the database of `settings` (the same config and `DATABASE_URL` as
/// the server). Returns what to print.
pub async fn run_cli(
    command: Command,
    settings: Settings,
    stdin: impl BufRead,
) -> anyhow::Result<String> {
    match command {
        Command::Users {
            command: UsersCommand::Create { email, role, name },
        } => create_user(&settings, &email, &role, name.as_deref(), stdin).await,
        Command::Backup { path } => {
            let now = shared::Clock::now(&auth::AppClock::system());
            store::backup::backup(&settings.database.url, &settings.media.root, &path, now).await
        }
        Command::Restore { path, force } => {
            store::backup::restore(&settings.database.url, &settings.media.root, &path, force).await
        }
        Command::Openapi => Ok(openapi_json().to_owned()),
    }
}

/// The OpenAPI document as `GET /api/openapi.json` answers it (pretty JSON, no final newline).
pub fn openapi_json() -> &'static str {
    crate::openapi::document_json()
}

async fn create_user(
    settings: &Settings,
    email: &str,
    role: &str,
    name: Option<&str>,
    mut stdin: impl BufRead,
) -> anyhow::Result<String> {
    let email = Email::parse(email).map_err(|e| anyhow!("{email:?}: {e}"))?;
    let role: Role = role.parse()?;
    let mut line = String::new();
    stdin
        .read_line(&mut line)
        .context("could not read the password from standard input")?;
    let password = Password::parse(line.trim_end_matches(['\n', '\r']))
        .map_err(|e| anyhow!("{e} (the password is read as one line from standard input)"))?;

    let db = store::connect(&settings.database.url, settings.database.max_connections).await?;
    let clock = auth::AppClock::system();
    let store = store::Store::new(db, clock.clone());
    let sessions = auth::session::ShopSessionStore::connect(
        settings.session.redis_url.as_deref(),
        store.clone(),
        &settings.database.url,
    )
    .await?;
    let accounts = auth::build_accounts(
        settings,
        store,
        clock,
        sessions,
        auth::MailFailures::default(),
    )
    .await?;
    let existing = accounts.user_by_email(&email).await?;
    let name = match (name, &existing) {
        (Some(name), _) => UserName::parse(name).map_err(|e| anyhow!("--name: {e}"))?,
        (None, Some(user)) => user.name.clone(),
        (None, None) => {
            let local = email.as_str().split('@').next().unwrap_or_default();
            UserName::parse(local).map_err(|e| anyhow!("--name: {e}"))?
        }
    };
    let user = accounts
        .upsert_user(
            email,
            name,
            role,
            password,
            Some(&shared::Actor::command_line()),
        )
        .await?;
    let verb = if existing.is_some() {
        "Updated"
    } else {
        "Created"
    };
    Ok(format!(
        "{verb} {} {} (id {}).",
        user.role, user.email, user.id
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use clap::Parser;

    use super::*;

    #[test]
    fn the_users_create_command_parses() {
        let cli = Cli::try_parse_from([
            "garden-shop",
            "users",
            "create",
            "boss@example.com",
            "--role",
            "super_admin",
            "--name",
            "Boss",
        ])
        .unwrap();
        match cli.command {
            Some(Command::Users {
                command: UsersCommand::Create { email, role, name },
            }) => {
                assert_eq!(email, "boss@example.com");
                assert_eq!(role, "super_admin");
                assert_eq!(name.as_deref(), Some("Boss"));
            }
            other => panic!("{other:?}"),
        }
        assert!(Cli::try_parse_from(["garden-shop"])
            .unwrap()
            .command
            .is_none());
        assert!(
            Cli::try_parse_from(["garden-shop", "users", "create", "x@y.z"]).is_err(),
            "--role is required"
        );
        assert!(matches!(
            Cli::try_parse_from(["garden-shop", "openapi"])
                .unwrap()
                .command,
            Some(Command::Openapi)
        ));
    }

    /// frontend/openapi.json (and the TypeScript types generated from it) must be the document
    /// the server serves: regenerate both with `just api-types` after changing a route's
    /// annotations or a request or response type.
    #[test]
    fn the_frontend_copy_of_the_openapi_document_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../frontend/openapi.json");
        let checked_in = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("{path}: {e}: run `just api-types`"));
        // compared as text (the file is the printed document plus a final newline), so a
        // reordering counts as stale too: the generated types follow the file's order
        let current = openapi_json();
        if checked_in.trim_end() != current {
            let line = checked_in
                .lines()
                .zip(current.lines())
                .position(|(a, b)| a != b)
                .map_or_else(
                    || checked_in.lines().count().min(current.lines().count()) + 1,
                    |i| i + 1,
                );
            panic!(
                "frontend/openapi.json is stale (it differs from the server's document from \
                 line {line} on): run `just api-types` and commit frontend/openapi.json and \
                 frontend/src/types/api.gen.ts"
            );
        }
    }
}
