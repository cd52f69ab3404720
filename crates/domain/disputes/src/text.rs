//! The evidence's text fields, written from the delivery record for the bank's reader.

use chrono::{DateTime, Utc};

use crate::{DeliveryRecord, EvidenceText};

/// A time as the evidence writes it: `2026-11-28 14:03:12 UTC`.
pub fn utc(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%d %H:%M:%S UTC").to_string()
}

/// The timeline of the order, one line per step that happened, oldest first.
pub fn timeline(record: &DeliveryRecord) -> Vec<(DateTime<Utc>, String)> {
    let address = |ip: &Option<String>| {
        ip.as_deref()
            .map(|ip| format!(" from {ip}"))
            .unwrap_or_default()
    };
    let staff = record
        .staff_name
        .as_deref()
        .map(|name| format!(" by {name}"))
        .unwrap_or_default();
    let link = record
        .server_link
        .as_deref()
        .map(|link| format!(": {link}"))
        .unwrap_or_default();
    let steps = [
        (
            Some(record.placed_at),
            format!("Order placed{}", address(&record.checkout_ip)),
        ),
        (record.paid_at, "Payment received".to_owned()),
        (record.claimed_at, format!("Claimed for delivery{staff}")),
        (
            record.server_link_shown_at,
            format!("Private server link shown to the buyer{link}"),
        ),
        (
            record.ready_at,
            format!(
                "Buyer pressed \"I'm in the game\"{}",
                address(&record.ready_ip)
            ),
        ),
        (record.delivered_at, format!("Delivered in game{staff}")),
        (
            record.received_at,
            format!(
                "Buyer confirmed \"I got my items\"{}",
                address(&record.received_ip)
            ),
        ),
    ];
    let mut lines: Vec<(DateTime<Utc>, String)> = steps
        .into_iter()
        .filter_map(|(at, what)| at.map(|at| (at, what)))
        .collect();
    lines.sort_by_key(|(at, _)| *at);
    lines
}

fn items(record: &DeliveryRecord) -> String {
    record
        .lines
        .iter()
        .map(|line| format!("{} x {}", line.quantity, line.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The name the evidence gives the buyer: the Roblox account, and the Discord account.
fn customer_name(record: &DeliveryRecord) -> String {
    match &record.discord_username {
        Some(discord) => format!("{} (Roblox), {} (Discord)", record.roblox_username, discord),
        None => format!("{} (Roblox)", record.roblox_username),
    }
}

/// The evidence's text fields from the delivery record, with staff's note for the bank.
pub fn evidence_text(record: &DeliveryRecord, note: Option<&str>) -> EvidenceText {
    let roblox = match record.roblox_user_id {
        Some(id) => format!("{} (user id {id})", record.roblox_username),
        None => record.roblox_username.clone(),
    };
    let product_description = format!(
        "Digital items for the Roblox game Grow a Garden: {}. Total {} {}. Delivered by hand \
         in the game by {} staff to the Roblox account {roblox}, which the buyer named at \
         checkout.",
        items(record),
        record.total,
        record.currency,
        record.shop_name,
    );
    let access_activity_log = timeline(record)
        .into_iter()
        .map(|(at, what)| format!("{} - {what}", utc(at)))
        .collect::<Vec<_>>()
        .join("\n");
    let policy = &record.refund_policy;
    let refund_policy_disclosure = if policy.recorded {
        format!(
            "The checkout page showed a link to the refund policy (version {}, {}) beside the \
             Complete Payment button when the buyer placed the order on {}.",
            policy.version,
            policy.url,
            utc(policy.shown_at),
        )
    } else {
        format!(
            "The refund policy (version {}, {}) is linked from the footer of every page of the \
             shop, the checkout page included, where the buyer placed the order on {}.",
            policy.version,
            policy.url,
            utc(policy.shown_at),
        )
    };
    let mut summary = format!(
        "Order #{} at {}: {}. The buyer linked the Discord account {} through Discord's own \
         sign-in and named the Roblox account {roblox}.",
        record.order_id,
        record.shop_name,
        items(record),
        record.discord_username.as_deref().unwrap_or("(none)"),
    );
    if let (Some(delivered), Some(staff)) = (record.delivered_at, &record.staff_name) {
        summary.push_str(&format!(
            " {staff} delivered the items in game on {}; the proof pictures and the full \
             timeline are in the service documentation.",
            utc(delivered)
        ));
    }
    if let Some(received) = record.received_at {
        summary.push_str(&format!(
            " The buyer confirmed receipt on the order page on {}.",
            utc(received)
        ));
    }
    if let Some(note) = note.map(str::trim).filter(|note| !note.is_empty()) {
        summary.push_str("\n\nNote from our staff: ");
        summary.push_str(note);
    }
    EvidenceText {
        customer_name: customer_name(record),
        customer_email_address: record.email.clone(),
        customer_purchase_ip: record.checkout_ip.clone(),
        product_description,
        service_date: record
            .delivered_at
            .map(|at| at.format("%Y-%m-%d").to_string()),
        access_activity_log,
        refund_policy_disclosure,
        uncategorized_text: summary,
    }
}
