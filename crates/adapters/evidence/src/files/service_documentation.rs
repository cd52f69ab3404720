//! `service_documentation`: the delivery record of the order, the proof pictures last.

use chrono::{DateTime, Utc};
use disputes::DeliveryRecord;

use crate::fonts::Fonts;
use crate::page::{Cell, Composer, CONTENT_WIDTH};
use crate::pictures::{Entry, Selection};
use disputes::utc;

pub(crate) fn render(fonts: &Fonts, record: &DeliveryRecord, pictures: &Selection) -> Vec<u8> {
    let title = format!("Delivery record for order #{}", record.order_id);
    let header = format!(
        "{} · order #{} · delivery record",
        record.shop_name, record.order_id
    );
    let mut page = Composer::new(fonts, &record.shop_name, &title, &header);
    page.title(&title);
    page.paragraph(&format!(
        "What {} recorded about the sale and in-game delivery of order #{}. All times are UTC.",
        record.shop_name, record.order_id
    ));
    items(&mut page, record);
    accounts(&mut page, record);
    addresses(&mut page, record);
    timeline(&mut page, record);
    if let Some(note) = record
        .staff_note
        .as_deref()
        .filter(|note| !note.trim().is_empty())
    {
        page.heading(&format!("Note from {}", record.shop_name));
        page.paragraph(note);
    }
    proof_pictures(&mut page, pictures);
    page.finish()
}

fn items(page: &mut Composer<'_>, record: &DeliveryRecord) {
    page.heading("Items");
    let (quantity, price) = (70.0, 110.0);
    let name = CONTENT_WIDTH - quantity - price;
    page.row(&[
        Cell::new("Item", name).bold(),
        Cell::new("Quantity", quantity).bold().right(),
        Cell::new("Unit price", price).bold().right(),
    ]);
    for line in &record.lines {
        let unit_price = format!("{} {}", line.unit_price, record.currency);
        page.row(&[
            Cell::new(&line.name, name),
            Cell::new(&line.quantity.to_string(), quantity).right(),
            Cell::new(&unit_price, price).right(),
        ]);
    }
    page.rule();
    let total = format!("{} {}", record.total, record.currency);
    page.row(&[
        Cell::new("Total charged", name).bold(),
        Cell::new(&total, quantity + price).bold().right(),
    ]);
}

fn accounts(page: &mut Composer<'_>, record: &DeliveryRecord) {
    page.heading("The buyer's accounts");
    page.field("Roblox username", &record.roblox_username);
    page.field(
        "Roblox user id",
        &or_not_recorded(record.roblox_user_id.map(|id| id.to_string())),
    );
    page.field(
        "Discord username",
        &or_not_linked(record.discord_username.as_deref()),
    );
    page.field("Discord id", &or_not_linked(record.discord_id.as_deref()));
    page.field("E-mail", &or_not_recorded(record.email.clone()));
}

fn addresses(page: &mut Composer<'_>, record: &DeliveryRecord) {
    page.heading("The buyer's addresses");
    page.field("At checkout", &or_not_recorded(record.checkout_ip.clone()));
    page.field(
        "At \"I'm in the game\"",
        &or_not_recorded(record.ready_ip.clone()),
    );
    page.field(
        "At \"I got my items\"",
        &or_not_recorded(record.received_ip.clone()),
    );
}

fn timeline(page: &mut Composer<'_>, record: &DeliveryRecord) {
    page.heading("Timeline (UTC)");
    let time = 140.0;
    let step = CONTENT_WIDTH - time;
    for (at, what, detail) in steps(record) {
        page.row(&[Cell::new(&utc(at), time), Cell::new(what, step).bold()]);
        if !detail.is_empty() {
            page.row(&[Cell::new("", time), Cell::new(&detail, step)]);
        }
        page.space(3.0);
    }
}

/// The delivery's steps that happened, in time order: when, what, and its detail.
fn steps(record: &DeliveryRecord) -> Vec<(DateTime<Utc>, &'static str, String)> {
    let staff = record
        .staff_name
        .clone()
        .map(|name| format!("by {name}"))
        .unwrap_or_default();
    let from = |address: &Option<String>| {
        address
            .as_ref()
            .map(|ip| format!("from {ip}"))
            .unwrap_or_default()
    };
    let candidates = [
        (
            Some(record.placed_at),
            "Order placed",
            from(&record.checkout_ip),
        ),
        (record.paid_at, "Payment received", String::new()),
        (record.claimed_at, "Claimed by staff", staff.clone()),
        (
            record.server_link_shown_at,
            "Private server link shown to the buyer",
            record.server_link.clone().unwrap_or_default(),
        ),
        (
            record.ready_at,
            "Buyer pressed \"I'm in the game\"",
            from(&record.ready_ip),
        ),
        (record.delivered_at, "Items delivered in the game", staff),
        (
            record.received_at,
            "Buyer confirmed receipt (\"I got my items\")",
            from(&record.received_ip),
        ),
    ];
    let mut steps: Vec<_> = candidates
        .into_iter()
        .filter_map(|(at, what, more)| at.map(|at| (at, what, more)))
        .collect();
    steps.sort_by_key(|(at, _, _)| *at);
    steps
}

fn proof_pictures(page: &mut Composer<'_>, pictures: &Selection) {
    page.heading("Proof pictures");
    if pictures.total == 0 {
        page.paragraph("No proof pictures were posted for this order.");
        return;
    }
    page.paragraph(&format!(
        "{} picture{} posted by staff during the delivery, oldest first, scaled down to at most {} pixels on the longest side.",
        pictures.total,
        if pictures.total == 1 { " was" } else { "s were" },
        crate::pictures::MAX_SIDE,
    ));
    if let Some(left_out) = pictures.left_out {
        page.space(4.0);
        page.strong(&left_out_note(left_out));
    }
    for entry in &pictures.entries {
        page.space(8.0);
        match entry {
            Entry::Shown {
                number,
                posted_at,
                picture,
            } => {
                let caption = format!(
                    "Picture {number} of {}, posted {}",
                    pictures.total,
                    utc(*posted_at)
                );
                let id = page.add_picture(&picture.image);
                page.picture(&caption, id, picture.width, picture.height);
            }
            Entry::Unreadable { number, posted_at } => page.muted(&format!(
                "Picture {number} of {}, posted {}, could not be read and is left out.",
                pictures.total,
                utc(*posted_at)
            )),
        }
    }
}

fn left_out_note(left_out: crate::pictures::LeftOut) -> String {
    let when = if left_out.first_posted == left_out.last_posted {
        format!("posted {}", utc(left_out.first_posted))
    } else {
        format!(
            "posted from {} to {}",
            utc(left_out.first_posted),
            utc(left_out.last_posted)
        )
    };
    format!(
        "{} picture{} ({when}) {} left out to keep the evidence files within the payment provider's size limit.",
        left_out.count,
        if left_out.count == 1 { "" } else { "s" },
        if left_out.count == 1 { "is" } else { "are" },
    )
}

fn or_not_recorded(value: Option<String>) -> String {
    value
        .filter(|value| !value.is_empty())
        .unwrap_or_else(|| "not recorded".to_owned())
}

fn or_not_linked(value: Option<&str>) -> String {
    value
        .filter(|value| !value.is_empty())
        .unwrap_or("not linked")
        .to_owned()
}
