//! The blocklist on both databases: its entries, the staff's writes to them (audited) and the
//! check checkout asks of a buyer's identities.

use anyhow::Context;
use blocklist::{BlockEntry, BlockStatus, BlocklistRepository, NewBlock};
use chrono::{DateTime, Utc};
use orders::{BlockKind, Blocklist, BuyerIdentities, StaffMember};
use sea_orm::{ConnectionTrait, DatabaseTransaction, QueryResult, Value};
use shared::UserId;
use shared::{Actor, AuditKind};

use crate::sql::{fetch_all, fetch_one, lock_row, run};
use crate::Store;

/// Takes a blocklist entry's write lock (`lock_row`).
const LOCK_ENTRY: &str = "UPDATE blocklist SET reason = reason WHERE id = ?";

const BLOCK_INSERT: &str = "INSERT INTO blocklist \
     (kind, value, match_value, reason, added_by, created_at, status, expires_at) \
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, value) DO NOTHING";

fn block_values(block: &NewBlock) -> Vec<Value> {
    vec![
        block.kind.as_str().into(),
        block.value.clone().into(),
        block.kind.match_form(&block.value).into(),
        block.reason.clone().into(),
        block.added_by.map(UserId::get).into(),
        block.created_at.into(),
        block.status.as_str().into(),
        block.expires_at.into(),
    ]
}

/// The statement that adds `block` (a dispute's, in the dispute's transaction); an entry of the
/// same kind and value already there stays as it is.
pub(crate) fn insert_block(block: &NewBlock) -> (String, Vec<Value>) {
    (BLOCK_INSERT.to_owned(), block_values(block))
}

const BLOCK_SELECT: &str = "SELECT b.id, b.kind, b.value, b.reason, b.added_by, b.created_at, \
     b.status, b.expires_at, u.name AS added_by_name FROM blocklist b";

/// The entries `then` (a WHERE or ORDER BY clause) picks, with the names of who added them.
fn entries(then: &str) -> String {
    let adder = crate::accounts::user_join("u", "b.added_by");
    format!("{BLOCK_SELECT} {adder} {then}")
}

fn to_entry(row: &QueryResult) -> anyhow::Result<BlockEntry> {
    let id: i64 = row.try_get("", "id")?;
    let kind: String = row.try_get("", "kind")?;
    let status: String = row.try_get("", "status")?;
    let added_by: Option<i64> = row.try_get("", "added_by")?;
    let name: Option<String> = row.try_get("", "added_by_name")?;
    Ok(BlockEntry {
        id,
        kind: BlockKind::parse(&kind)
            .with_context(|| format!("blocklist entry {id} has an unknown kind {kind}"))?,
        value: row.try_get("", "value")?,
        reason: row.try_get("", "reason")?,
        added_by: added_by.map(|id| StaffMember {
            id: UserId::new(id),
            name: name.unwrap_or_else(|| format!("staff #{id}")),
        }),
        created_at: row.try_get("", "created_at")?,
        status: BlockStatus::parse(&status)
            .with_context(|| format!("blocklist entry {id} has an unknown status {status}"))?,
        expires_at: row.try_get("", "expires_at")?,
    })
}

/// A blocklist entry as the audit log keeps it.
fn block_json(entry: &BlockEntry) -> serde_json::Value {
    serde_json::json!({
        "kind": entry.kind.as_str(),
        "value": entry.value,
        "reason": entry.reason,
        "status": entry.status.as_str(),
        "expires_at": entry.expires_at,
    })
}

async fn entry_where(
    db: &impl ConnectionTrait,
    condition: &str,
    values: Vec<Value>,
) -> anyhow::Result<Option<BlockEntry>> {
    fetch_one(db, &entries(&format!("WHERE {condition}")), values)
        .await
        .context("failed to load a blocklist entry")?
        .as_ref()
        .map(to_entry)
        .transpose()
}

impl BlocklistRepository for Store {
    #[tracing::instrument(skip(self))]
    async fn entries(&self, limit: u64) -> anyhow::Result<(Vec<BlockEntry>, u64)> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = fetch_all(
            &self.db,
            &entries("ORDER BY b.created_at DESC, b.id DESC LIMIT ?"),
            vec![limit.into()],
        )
        .await
        .context("failed to list the blocklist")?;
        let entries = rows.iter().map(to_entry).collect::<anyhow::Result<_>>()?;
        let total: i64 = fetch_one(&self.db, "SELECT COUNT(*) FROM blocklist", vec![])
            .await
            .context("failed to count the blocklist")?
            .context("a count answered no row")?
            .try_get_by_index(0)?;
        Ok((entries, u64::try_from(total).unwrap_or(0)))
    }

    #[tracing::instrument(skip_all, fields(kind = %entry.kind))]
    async fn add(&self, entry: NewBlock, actor: &Actor) -> anyhow::Result<Option<BlockEntry>> {
        let txn: DatabaseTransaction = self.begin().await?;
        let inserted = run(&txn, BLOCK_INSERT, block_values(&entry))
            .await
            .context("failed to add a blocklist entry")?;
        if inserted.rows_affected() != 1 {
            txn.rollback().await.context("failed to roll back")?;
            return Ok(None);
        }
        let added = entry_where(
            &txn,
            "b.kind = ? AND b.value = ?",
            vec![entry.kind.as_str().into(), entry.value.clone().into()],
        )
        .await?
        .context("a blocklist entry vanished as it was added")?;
        self.audit(
            &txn,
            actor,
            AuditKind::BlocklistAdd,
            format!("blocklist:{}", added.id),
            None,
            Some(block_json(&added)),
        )
        .await?;
        txn.commit()
            .await
            .context("failed to commit a blocklist entry")?;
        Ok(Some(added))
    }

    #[tracing::instrument(skip(self, actor))]
    async fn confirm(&self, id: i64, actor: &Actor) -> anyhow::Result<Option<BlockEntry>> {
        // the write lock first, then the entry as it was
        let Some(txn) = lock_row(&self.db, LOCK_ENTRY, id, "a blocklist entry").await? else {
            return Ok(None);
        };
        let before = entry_where(&txn, "b.id = ?", vec![id.into()])
            .await?
            .context("a locked blocklist entry vanished")?;
        // the flagged entry turns active once: of two confirmations, one writes
        let confirmed = run(
            &txn,
            "UPDATE blocklist SET status = ? WHERE id = ? AND status = ?",
            vec![
                BlockStatus::Active.as_str().into(),
                id.into(),
                BlockStatus::Flagged.as_str().into(),
            ],
        )
        .await
        .context("failed to confirm a blocklist entry")?;
        if confirmed.rows_affected() != 1 {
            txn.rollback().await.context("failed to roll back")?;
            return Ok(Some(before));
        }
        let after = entry_where(&txn, "b.id = ?", vec![id.into()])
            .await?
            .context("a confirmed blocklist entry vanished")?;
        self.audit(
            &txn,
            actor,
            AuditKind::BlocklistConfirm,
            format!("blocklist:{id}"),
            Some(block_json(&before)),
            Some(block_json(&after)),
        )
        .await?;
        txn.commit()
            .await
            .context("failed to commit the confirmation of a blocklist entry")?;
        Ok(Some(after))
    }

    #[tracing::instrument(skip(self, actor))]
    async fn remove(&self, id: i64, actor: &Actor) -> anyhow::Result<bool> {
        // the write lock first, then the values this removal takes away
        let Some(txn) = lock_row(&self.db, LOCK_ENTRY, id, "a blocklist entry").await? else {
            return Ok(false);
        };
        let before = entry_where(&txn, "b.id = ?", vec![id.into()])
            .await?
            .context("a locked blocklist entry vanished")?;
        run(&txn, "DELETE FROM blocklist WHERE id = ?", vec![id.into()])
            .await
            .context("failed to remove a blocklist entry")?;
        self.audit(
            &txn,
            actor,
            AuditKind::BlocklistRemove,
            format!("blocklist:{id}"),
            Some(block_json(&before)),
            None,
        )
        .await?;
        txn.commit()
            .await
            .context("failed to commit the removal of a blocklist entry")?;
        Ok(true)
    }
}

impl Blocklist for Store {
    #[tracing::instrument(skip_all)]
    async fn is_blocked(
        &self,
        identities: BuyerIdentities,
        now: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        if identities.values.is_empty() {
            return Ok(false);
        }
        let condition = identities
            .values
            .iter()
            .map(|_| "(kind = ? AND match_value = ?)")
            .collect::<Vec<_>>()
            .join(" OR ");
        let mut values: Vec<Value> = identities
            .values
            .into_iter()
            .flat_map(|(kind, value)| [Value::from(kind.as_str()), Value::from(value)])
            .collect();
        values.extend([BlockStatus::Active.as_str().into(), now.into()]);
        let found = fetch_one(
            &self.db,
            &format!(
                "SELECT 1 AS found FROM blocklist WHERE ({condition}) AND status = ? \
                     AND (expires_at IS NULL OR expires_at > ?) LIMIT 1"
            ),
            values,
        )
        .await
        .context("failed to look the buyer up on the blocklist")?;
        Ok(found.is_some())
    }
}
