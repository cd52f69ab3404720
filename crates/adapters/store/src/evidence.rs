//! An order's delivery record, read for a dispute's evidence: the order with its buyer and
//! checkout address, the member of staff who delivered it, its steps, the mails sent and the
//! posts made in its ticket, and its proof pictures (their paths; the disputes service reads
//! them).

use anyhow::Context;
use chrono::{DateTime, Utc};
use disputes::{Communication, DeliveryRecord, RecordLine, RefundPolicyShown};
use orders::OrderId;
use sea_orm::QueryResult;

use crate::sql::{fetch_all, fetch_one};
use crate::Store;

/// The order as the evidence reads it: an erased buyer's names, e-mail and addresses from what
/// the erasure kept apart for the evidence (`evidence_holds`), while it is kept.
const ORDER: &str = "SELECT o.id, \
     COALESCE(h.roblox_username, o.roblox_username) AS roblox_username, \
     COALESCE(h.discord_username, o.discord_username) AS discord_username, \
     COALESCE(h.discord_id, o.discord_id) AS discord_id, \
     COALESCE(h.email, o.email) AS email, \
     COALESCE(h.client_ip, o.client_ip) AS client_ip, \
     COALESCE(h.buyer_ready_ip, o.buyer_ready_ip) AS buyer_ready_ip, \
     COALESCE(h.received_ip, o.received_ip) AS received_ip, \
     o.created_at, o.paid_at, o.claimed_at, o.buyer_ready_at, o.delivered_at, o.received_at, \
     o.server_link_shown, o.server_link_shown_at, o.refund_policy_version, o.total_cents, \
     o.proof_id, o.status, u.name AS staff_name FROM orders o";

/// [`ORDER`] with its staff member's name and what the erasure kept, for order `?`.
fn order_sql() -> String {
    let staff = crate::accounts::user_join("u", "o.claimed_by");
    let kept = crate::dispute_rows::kept_evidence_join("h", "o.id");
    format!("{ORDER} {staff} {kept} WHERE o.id = ?")
}

async fn lines(store: &Store, order: i64) -> anyhow::Result<Vec<disputes::RecordLine>> {
    let rows = fetch_all(
        &store.db,
        "SELECT name, quantity, unit_price_cents FROM order_lines WHERE order_id = ? \
             ORDER BY position",
        vec![order.into()],
    )
    .await
    .with_context(|| format!("failed to read the lines of order {order}"))?;
    rows.iter()
        .map(|row| {
            Ok(record_line(
                row.try_get("", "name")?,
                row.try_get("", "quantity")?,
                row.try_get("", "unit_price_cents")?,
            ))
        })
        .collect()
}

/// The mails sent about the order and the posts made in its ticket, oldest first.
async fn communications(store: &Store, order: i64) -> anyhow::Result<Vec<Communication>> {
    let mails = fetch_all(
        &store.db,
        "SELECT kind, sent_at FROM mail_jobs WHERE order_id = ? AND sent_at IS NOT NULL",
        vec![order.into()],
    )
    .await
    .with_context(|| format!("failed to read the mails of order {order}"))?;
    let posts = fetch_all(
        &store.db,
        &format!(
            "SELECT p.step, p.created_at, u.name AS staff_name FROM ticket_posts p \
                 {} WHERE p.order_id = ?",
            crate::accounts::user_join("u", "p.staff_id")
        ),
        vec![order.into()],
    )
    .await
    .with_context(|| format!("failed to read the ticket posts of order {order}"))?;
    let mut said = Vec::with_capacity(mails.len() + posts.len());
    for mail in &mails {
        let kind: String = mail.try_get("", "kind")?;
        let at: DateTime<Utc> = mail.try_get("", "sent_at")?;
        said.push(mail_communication(&kind, order, at));
    }
    for post in &posts {
        said.push(ticket_post(post, order)?);
    }
    said.sort_by_key(|said| said.at);
    Ok(said)
}

/// A post the shop made in the order's Discord ticket.
fn ticket_post(row: &QueryResult, order: i64) -> anyhow::Result<Communication> {
    let step: String = row.try_get("", "step")?;
    let staff: Option<String> = row.try_get("", "staff_name")?;
    let body = match step.as_str() {
        "paid" => format!("Order #{order} is paid and waits for a member of staff."),
        "claimed" => format!(
            "{} took order #{order} and waits in the private server (the link was posted \
             with it).",
            staff.as_deref().unwrap_or("A member of staff")
        ),
        "ready" => "The buyer pressed \"I'm in the game\".".to_owned(),
        "delivered" => format!("Order #{order} was delivered in the game."),
        "risk_held" => {
            format!("Order #{order} was on hold while the shop checked the payment.")
        }
        "hold_released" => {
            format!("The payment was checked: order #{order} went back in the delivery queue.")
        }
        other => format!("Order #{order}: {other}."),
    };
    Ok(Communication {
        at: row.try_get("", "created_at")?,
        channel: "Discord ticket".to_owned(),
        title: "Garden Shop bot".to_owned(),
        body,
        mail_kind: None,
    })
}

/// The delivery record of `order`, `None` when there is no such order.
pub(crate) async fn delivery_record(
    store: &Store,
    order: OrderId,
) -> anyhow::Result<Option<DeliveryRecord>> {
    let id = order.get();
    let Some(row) = fetch_one(&store.db, &order_sql(), vec![id.into()])
        .await
        .with_context(|| format!("failed to read order {id}"))?
    else {
        return Ok(None);
    };
    let created_at: DateTime<Utc> = row.try_get("", "created_at")?;
    let discord_id: Option<String> = row.try_get("", "discord_id")?;
    let discord_name: String = row.try_get("", "discord_username")?;
    let email: String = row.try_get("", "email")?;
    Ok(Some(DeliveryRecord {
        order_id: order,
        shop_name: "Garden Shop".to_owned(),
        lines: lines(store, id).await?,
        total: cents_text(row.try_get("", "total_cents")?),
        currency: "USD".to_owned(),
        roblox_username: row.try_get("", "roblox_username")?,
        roblox_user_id: None,
        discord_username: discord_id.as_ref().map(|_| discord_name),
        discord_id,
        email: Some(email).filter(|email| !email.is_empty()),
        checkout_ip: row.try_get("", "client_ip")?,
        placed_at: created_at,
        paid_at: row.try_get("", "paid_at")?,
        claimed_at: row.try_get("", "claimed_at")?,
        staff_name: row.try_get("", "staff_name")?,
        server_link_shown_at: row.try_get("", "server_link_shown_at")?,
        server_link: row.try_get("", "server_link_shown")?,
        ready_at: row.try_get("", "buyer_ready_at")?,
        ready_ip: row.try_get("", "buyer_ready_ip")?,
        delivered_at: row.try_get("", "delivered_at")?,
        received_at: row.try_get("", "received_at")?,
        received_ip: row.try_get("", "received_ip")?,
        refund_policy: policy_shown(row.try_get("", "refund_policy_version")?, created_at),
        proofs: crate::proofs::evidence_pictures(&store.db, row.try_get("", "proof_id")?).await?,
        communications: communications(store, id).await?,
        staff_note: None,
    }))
}

/// What a mail of this kind told the buyer, for the customer communication file.
fn mail_summary(kind: &str, order: i64) -> (String, String) {
    let (title, body) = match kind {
        "receipt" => (
            format!("Your Garden Shop order #{order} is paid"),
            "The receipt: the items, the total paid, the link to the order page, and how the \
             delivery works (join the private server when staff pick the order up, press \
             \"I'm in the game\", accept the trade).",
        ),
        "claimed" => (
            format!("Order #{order}: staff are waiting in the game"),
            "A member of staff took the order and waits in the private server; the mail links \
             to the order page with the server link.",
        ),
        "delivered" => (
            format!("Order #{order} was delivered"),
            "The items were traded in the game; the mail links to the order page, where the \
             buyer can confirm receipt.",
        ),
        "refunded" => (
            format!("Order #{order} was refunded"),
            "The payment was given back.",
        ),
        other => (format!("Order #{order}: {other}"), ""),
    };
    (title, body.to_owned())
}

/// A sent mail as a communication.
fn mail_communication(kind: &str, order: i64, at: DateTime<Utc>) -> Communication {
    let (title, body) = mail_summary(kind, order);
    Communication {
        at,
        channel: "e-mail".to_owned(),
        title,
        body,
        mail_kind: Some(kind.to_owned()),
    }
}

/// An order line as the record shows it.
fn record_line(name: String, quantity: i32, unit_cents: i64) -> RecordLine {
    RecordLine {
        name,
        quantity: u32::try_from(quantity).unwrap_or(0),
        unit_price: cents_text(unit_cents),
    }
}

/// `1234` cents as `12.34`.
fn cents_text(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let cents = cents.unsigned_abs();
    format!("{sign}{}.{:02}", cents / 100, cents % 100)
}

/// The refund policy shown with an order placed at `at`.
fn policy_shown(version: Option<String>, at: DateTime<Utc>) -> RefundPolicyShown {
    RefundPolicyShown {
        recorded: version.is_some(),
        version: version.unwrap_or_default(),
        url: String::new(),
        text: String::new(),
        shown_at: at,
    }
}
