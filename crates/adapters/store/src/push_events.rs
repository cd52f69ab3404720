//! The server-push event log (`push_events`) and, on PostgreSQL, the `LISTEN/NOTIFY` channel
//! that tells every instance about each new row. Plain rows in, plain rows out: who may see an
//! event is the domain's rule (`events::Viewer`).

use anyhow::Context;
use chrono::{DateTime, Utc};
use events::{NewPushEvent, PushEventRow};
use sea_orm::{ConnectionTrait, DatabaseBackend, QueryResult, Statement, Value};

use crate::{Backend, Store};

/// The `NOTIFY` channel of new events.
pub const PUSH_CHANNEL: &str = "garden_push_events";
/// Any number, the same in every instance: the advisory lock that makes event numbers commit
/// in order (so a reader that has seen event N has seen every event below N).
const PUSH_LOCK: i64 = 0x7075_7368_6576; // "pushev"

/// The lowest and highest numbers kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PushBounds {
    pub oldest: Option<i64>,
    pub newest: Option<i64>,
}

const COLUMNS: &str = "id, topic, data, public, staff, chat_session, order_id, user_id, created_at";

fn row(result: &QueryResult) -> anyhow::Result<PushEventRow> {
    Ok(PushEventRow {
        id: result.try_get("", "id")?,
        event: NewPushEvent {
            topic: result.try_get("", "topic")?,
            data: result.try_get("", "data")?,
            public: result.try_get("", "public")?,
            staff: result.try_get("", "staff")?,
            chat_session: result.try_get("", "chat_session")?,
            order_id: result.try_get("", "order_id")?,
            user_id: result
                .try_get::<Option<i64>>("", "user_id")?
                .map(shared::UserId::new),
        },
        created_at: result.try_get("", "created_at")?,
    })
}

fn insert_values(event: &NewPushEvent, at: DateTime<Utc>) -> Vec<Value> {
    vec![
        event.topic.clone().into(),
        event.data.clone().into(),
        event.public.into(),
        event.staff.into(),
        event.chat_session.clone().into(),
        event.order_id.into(),
        event.user_id.map(shared::UserId::get).into(),
        at.into(),
    ]
}

impl Store {
    /// Stores the event and returns it numbered. On PostgreSQL, in the same transaction, the
    /// row is sent on [`PUSH_CHANNEL`] (as JSON) to every listening instance, and numbers
    /// commit in order.
    #[tracing::instrument(skip_all, fields(topic = %event.topic))]
    pub async fn append_push_event(
        &self,
        event: NewPushEvent,
        at: DateTime<Utc>,
    ) -> anyhow::Result<PushEventRow> {
        match self.backend() {
            Backend::Postgres => {
                let txn = self.begin().await?;
                txn.execute(Statement::from_sql_and_values(
                    DatabaseBackend::Postgres,
                    "SELECT pg_advisory_xact_lock($1)",
                    [PUSH_LOCK.into()],
                ))
                .await
                .context("failed to take the event lock")?;
                let inserted = txn
                    .query_one(Statement::from_sql_and_values(
                        DatabaseBackend::Postgres,
                        format!(
                            "INSERT INTO push_events (topic, data, public, staff, chat_session, \
                             order_id, user_id, created_at) \
                             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING {COLUMNS}"
                        ),
                        insert_values(&event, at),
                    ))
                    .await
                    .context("failed to store the event")?
                    .context("the event insert returned no row")?;
                let stored = row(&inserted)?;
                let payload = serde_json::to_string(&stored)?;
                txn.execute(Statement::from_sql_and_values(
                    DatabaseBackend::Postgres,
                    "SELECT pg_notify($1, $2)",
                    [PUSH_CHANNEL.into(), payload.into()],
                ))
                .await
                .context("failed to notify the other instances")?;
                txn.commit().await.context("failed to commit the event")?;
                Ok(stored)
            }
            Backend::Sqlite => {
                let inserted = self
                    .db
                    .execute(Statement::from_sql_and_values(
                        DatabaseBackend::Sqlite,
                        "INSERT INTO push_events (topic, data, public, staff, chat_session, \
                         order_id, user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        insert_values(&event, at),
                    ))
                    .await
                    .context("failed to store the event")?;
                let id = i64::try_from(inserted.last_insert_id())
                    .context("the event's number does not fit")?;
                Ok(PushEventRow {
                    id,
                    event,
                    created_at: at,
                })
            }
        }
    }

    /// The events numbered above `after`, oldest first, at most `limit`.
    #[tracing::instrument(skip(self))]
    pub async fn push_events_after(
        &self,
        after: i64,
        limit: u64,
    ) -> anyhow::Result<Vec<PushEventRow>> {
        let backend = self.db.get_database_backend();
        let sql = match backend {
            DatabaseBackend::Postgres => {
                format!("SELECT {COLUMNS} FROM push_events WHERE id > $1 ORDER BY id LIMIT $2")
            }
            _ => format!("SELECT {COLUMNS} FROM push_events WHERE id > ? ORDER BY id LIMIT ?"),
        };
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self
            .db
            .query_all(Statement::from_sql_and_values(
                backend,
                sql,
                [after.into(), limit.into()],
            ))
            .await
            .context("failed to read the events")?;
        rows.iter().map(row).collect()
    }

    /// The lowest and highest event numbers kept.
    #[tracing::instrument(skip(self))]
    pub async fn push_event_bounds(&self) -> anyhow::Result<PushBounds> {
        let backend = self.db.get_database_backend();
        let found = self
            .db
            .query_one(Statement::from_string(
                backend,
                "SELECT MIN(id) AS oldest, MAX(id) AS newest FROM push_events",
            ))
            .await
            .context("failed to read the event numbers")?;
        Ok(match found {
            Some(result) => PushBounds {
                oldest: result.try_get("", "oldest")?,
                newest: result.try_get("", "newest")?,
            },
            None => PushBounds::default(),
        })
    }

    /// Deletes the events stored before `before`, always keeping the newest one (it carries
    /// the current number). Returns how many went.
    #[tracing::instrument(skip(self))]
    pub async fn purge_push_events(&self, before: DateTime<Utc>) -> anyhow::Result<u64> {
        let backend = self.db.get_database_backend();
        let sql = match backend {
            DatabaseBackend::Postgres => {
                "DELETE FROM push_events WHERE created_at < $1 \
                 AND id < (SELECT MAX(id) FROM push_events)"
            }
            _ => {
                "DELETE FROM push_events WHERE created_at < ? \
                 AND id < (SELECT MAX(id) FROM push_events)"
            }
        };
        let done = self
            .db
            .execute(Statement::from_sql_and_values(
                backend,
                sql,
                [before.into()],
            ))
            .await
            .context("failed to purge old events")?;
        Ok(done.rows_affected())
    }
}

/// One PostgreSQL connection listening on [`PUSH_CHANNEL`], on its own (not the pool's).
pub struct PushListener {
    listener: sqlx::postgres::PgListener,
}

impl std::fmt::Debug for PushListener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PushListener").finish_non_exhaustive()
    }
}

/// What the listener heard.
#[derive(Debug)]
pub enum Heard {
    Event(Box<PushEventRow>),
    /// The connection was lost and is being made again: notifications sent meanwhile are
    /// lost, read them from the table.
    Reconnected,
}

impl PushListener {
    /// Listens on the database at `url` (a PostgreSQL URL).
    pub async fn connect(url: &str) -> anyhow::Result<Self> {
        let mut listener = sqlx::postgres::PgListener::connect(url)
            .await
            .context("failed to open the event listener's connection")?;
        listener
            .listen(PUSH_CHANNEL)
            .await
            .context("failed to listen for events")?;
        Ok(PushListener { listener })
    }

    /// The next event (or news of a lost connection).
    pub async fn next(&mut self) -> anyhow::Result<Heard> {
        loop {
            match self
                .listener
                .try_recv()
                .await
                .context("the event listener failed")?
            {
                None => return Ok(Heard::Reconnected),
                Some(notification) => match serde_json::from_str(notification.payload()) {
                    Ok(event) => return Ok(Heard::Event(Box::new(event))),
                    Err(error) => {
                        tracing::warn!(error = %error, "ignored an event that does not parse");
                    }
                },
            }
        }
    }
}

/// The live updates sent to an erased account and to its chats' sessions.
pub(crate) fn events_forgotten(id: i64) -> crate::sql::Step {
    let its_sessions = crate::chats::ITS_SESSIONS;
    crate::sql::by_id(
        &format!("DELETE FROM push_events WHERE user_id = ? OR chat_session IN {its_sessions}"),
        id,
    )
}
