//! `customer_communication`: every message the shop sent the buyer about the order.

use disputes::DeliveryRecord;

use crate::fonts::Fonts;
use crate::page::Composer;
use disputes::utc;

pub(crate) fn render(fonts: &Fonts, record: &DeliveryRecord) -> Vec<u8> {
    let title = format!("Messages about order #{}", record.order_id);
    let header = format!(
        "{} · order #{} · messages to the buyer",
        record.shop_name, record.order_id
    );
    let mut page = Composer::new(fonts, &record.shop_name, &title, &header);
    page.title(&title);
    page.paragraph(&format!(
        "Every message {} sent the buyer about order #{}, or posted where the buyer reads it, oldest first. All times are UTC.",
        record.shop_name, record.order_id
    ));
    let mut messages: Vec<_> = record.communications.iter().collect();
    messages.sort_by_key(|message| message.at);
    if messages.is_empty() {
        page.space(8.0);
        page.paragraph("No messages were sent about this order.");
    }
    for message in messages {
        page.space(10.0);
        page.rule();
        page.space(4.0);
        page.muted(&format!("{} · {}", utc(message.at), message.channel));
        page.strong(&message.title);
        page.space(3.0);
        page.paragraph(&message.body);
    }
    page.finish()
}
