//! What the other areas read or write of the disputes' rows: the evidence an erasure keeps, an
//! order's disputes for its buyer's export, and the kept evidence joined to an order. It calls
//! no other area but the orders' fragments.

use anyhow::Context;
use sea_orm::ConnectionTrait;

use crate::sql::fetch_all;

/// What a dispute's evidence needs of an erased buyer, kept apart (for that legitimate
/// interest) for the orders paid within the retention or under an open dispute, before the
/// orders forget them; purged by the disputes loop.
pub(crate) fn evidence_kept(erasure: &accounts::Erasure) -> crate::sql::Step {
    (
        format!(
            "INSERT INTO evidence_holds (order_id, email, discord_id, discord_username, \
               roblox_username, client_ip, buyer_ready_ip, received_ip, paid_at, created_at) \
             {} AND (paid_at >= ? OR id IN \
               (SELECT order_id FROM disputes WHERE closed_at IS NULL AND order_id IS NOT NULL)) \
             ON CONFLICT (order_id) DO NOTHING",
            crate::order_rows::PAID_BUYER_FIELDS
        ),
        vec![
            erasure.at.into(),
            erasure.user.get().into(),
            erasure.evidence_paid_since.into(),
        ],
    )
}

/// The disputes of an order for its buyer's export, with the evidence fields sent.
pub(crate) async fn dispute_records(
    db: &impl ConnectionTrait,
    order: i64,
) -> anyhow::Result<Vec<accounts::DisputeRecord>> {
    let rows = fetch_all(
        db,
        "SELECT dispute_id, evidence FROM disputes WHERE order_id = ? ORDER BY id",
        vec![order.into()],
    )
    .await
    .with_context(|| format!("failed to load the disputes of order {order}"))?;
    rows.iter()
        .map(|row| {
            let evidence: String = row.try_get("", "evidence")?;
            let sent = if evidence == disputes::EvidenceState::None.as_str() {
                vec![]
            } else {
                disputes::EvidenceText::sent_fields()
                    .into_iter()
                    .map(str::to_owned)
                    .collect()
            };
            Ok(accounts::DisputeRecord {
                dispute_id: row.try_get("", "dispute_id")?,
                evidence,
                sent_to_provider: sent,
            })
        })
        .collect()
}

/// For another area's statement about an order (its id in `column`): what an erasure kept of
/// its buyer for a dispute's evidence, as `alias`, while it is kept.
pub(crate) fn kept_evidence_join(alias: &str, column: &str) -> String {
    format!("LEFT JOIN evidence_holds {alias} ON {alias}.order_id = {column}")
}
