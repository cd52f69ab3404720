//! The staff audit log: the writer every audited write calls inside its own transaction, and
//! the reads behind `/api/admin/audit`.
//!
//! How to audit a write: take `&Actor` in the port's write method; open a transaction; lock
//! the row you change first (a write, see `products::lock_product`) so the "before" values you then
//! read are the ones you replace on both databases; change; call [`append`] with the same
//! transaction; commit. When the change is refused, roll back (or return before `append`):
//! a refused action leaves no entry.

use anyhow::Context;
use sea_orm::{
    ActiveValue::{NotSet, Set},
    ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter, QueryOrder,
    QuerySelect, QueryTrait,
};
use serde_json::Value;
use shared::UserId;
use shared::{Actor, ActorFilter, AuditActor, AuditEntry, AuditKind, AuditLog, AuditQuery};

use crate::entities::audit_log;
use crate::Store;

impl Store {
    /// Appends one entry on `db` (the audited write's transaction), at the shop's time now.
    /// `before` and `after` are the values the action replaced and wrote, `None` where there
    /// are none (a creation has no before, a deletion no after). Never pass a password or a
    /// secret.
    pub(crate) async fn audit(
        &self,
        db: &impl ConnectionTrait,
        actor: &Actor,
        kind: AuditKind,
        target: impl Into<String>,
        before: Option<Value>,
        after: Option<Value>,
    ) -> anyhow::Result<()> {
        let target = target.into();
        let row = audit_log::ActiveModel {
            id: NotSet,
            at: Set(self.now()),
            actor_id: Set(actor.user_id.map(UserId::get)),
            actor_name: Set(clip(&actor.name, 120)),
            kind: Set(kind.as_str().to_owned()),
            target: Set(clip(&target, 300)),
            before: Set(before.map(|v| v.to_string())),
            after: Set(after.map(|v| v.to_string())),
            ip: Set(actor.ip.as_deref().map(|ip| clip(ip, 64))),
        };
        audit_log::Entity::insert(row)
            .exec_without_returning(db)
            .await
            .with_context(|| format!("failed to write the audit entry {kind} {target}"))?;
        Ok(())
    }
}

/// At most `max` characters (the columns' lengths).
fn clip(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

#[derive(FromQueryResult)]
struct ActorRow {
    actor_id: Option<i64>,
    actor_name: String,
}

impl AuditLog for Store {
    #[tracing::instrument(skip(self))]
    async fn audit_entries(&self, query: &AuditQuery) -> anyhow::Result<Vec<AuditEntry>> {
        let mut select = audit_log::Entity::find();
        match query.actor {
            Some(ActorFilter::Staff(id)) => {
                select = select.filter(audit_log::Column::ActorId.eq(id));
            }
            Some(ActorFilter::CommandLine) => {
                select = select.filter(audit_log::Column::ActorId.is_null());
            }
            None => {}
        }
        if let Some(kind) = query.kind {
            select = select.filter(audit_log::Column::Kind.eq(kind.as_str()));
        }
        if let Some(since) = query.since {
            select = select.filter(audit_log::Column::At.gte(since));
        }
        if let Some(before) = query.before {
            select = select.filter(audit_log::Column::At.lt(before));
        }
        if let Some(older_than) = query.older_than {
            select = select.filter(audit_log::Column::Id.lt(older_than));
        }
        let rows = select
            .order_by_desc(audit_log::Column::Id)
            .limit(query.limit)
            .all(&self.db)
            .await
            .context("failed to read the audit log")?;
        Ok(rows
            .into_iter()
            .map(|row| AuditEntry {
                id: row.id,
                at: row.at,
                actor_id: row.actor_id,
                actor_name: row.actor_name,
                kind: row.kind,
                target: row.target,
                before: row.before,
                after: row.after,
                ip: row.ip,
            })
            .collect())
    }

    #[tracing::instrument(skip(self))]
    async fn audit_actors(&self) -> anyhow::Result<Vec<AuditActor>> {
        // Each actor under the name of their latest entry (the command line is one actor).
        let latest = audit_log::Entity::find()
            .select_only()
            .column_as(audit_log::Column::Id.max(), "id")
            .group_by(audit_log::Column::ActorId)
            .as_query()
            .to_owned();
        let rows = audit_log::Entity::find()
            .select_only()
            .column(audit_log::Column::ActorId)
            .column(audit_log::Column::ActorName)
            .filter(audit_log::Column::Id.in_subquery(latest))
            .into_model::<ActorRow>()
            .all(&self.db)
            .await
            .context("failed to list the audit log's actors")?;
        let mut actors: Vec<AuditActor> = rows
            .into_iter()
            .map(|row| AuditActor {
                id: row.actor_id,
                name: row.actor_name,
            })
            .collect();
        actors.sort_by(|a, b| {
            a.name
                .to_lowercase()
                .cmp(&b.name.to_lowercase())
                .then(a.id.cmp(&b.id))
        });
        Ok(actors)
    }
}
