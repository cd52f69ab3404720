//! `refund_policy`: the refund policy of the version the buyer was shown at checkout.

use disputes::DeliveryRecord;

use crate::fonts::Fonts;
use crate::page::Composer;
use disputes::utc;

pub(crate) fn render(fonts: &Fonts, record: &DeliveryRecord) -> Vec<u8> {
    let policy = &record.refund_policy;
    let title = format!("Refund policy, version {}", policy.version);
    let header = format!(
        "{} · order #{} · refund policy",
        record.shop_name, record.order_id
    );
    let mut page = Composer::new(fonts, &record.shop_name, &title, &header);
    page.title(&title);
    page.field("Shop", &record.shop_name);
    page.field("Order", &format!("#{}", record.order_id));
    page.field("Published at", &policy.url);
    page.field(
        "Shown to the buyer",
        &format!(
            "{}, at the checkout of order #{}",
            utc(policy.shown_at),
            record.order_id
        ),
    );
    page.heading("The policy as shown");
    page.paragraph(policy.text.trim());
    page.finish()
}
