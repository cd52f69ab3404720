//! A delivery record like the shop's, pictures made up on the spot, and the PDF reader the
//! tests check the files with. Shared by the tests and the `write_evidence` example.

// A fixture that cannot be built is a broken test: failing loudly is what it should do. Not
// every test or the example uses every helper.
#![allow(clippy::expect_used, dead_code)]

use std::io::Cursor;

use chrono::{DateTime, TimeZone, Utc};
use disputes::{Communication, DeliveryRecord, ProofImage, RecordLine, RefundPolicyShown};
use image::{DynamicImage, ImageFormat, RgbImage};
use orders::OrderId;

pub fn at(hour: u32, minute: u32, second: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 28, hour, minute, second)
        .single()
        .expect("a valid time")
}

/// Order #4217 as delivered: paid, claimed, delivered in game, receipt confirmed.
pub fn record() -> DeliveryRecord {
    DeliveryRecord {
        order_id: OrderId::new(4217),
        shop_name: "Garden Shop".to_owned(),
        lines: vec![
            RecordLine { name: "Candy Blossom seed".to_owned(), quantity: 2, unit_price: "4.99".to_owned() },
            RecordLine { name: "Golden watering can (limited edition, autumn harvest event)".to_owned(), quantity: 1, unit_price: "12.50".to_owned() },
        ],
        total: "22.48".to_owned(),
        currency: "USD".to_owned(),
        roblox_username: "MossyGardener42".to_owned(),
        roblox_user_id: Some(3_141_592_653),
        discord_username: Some("mossy.gardener".to_owned()),
        discord_id: Some("812345678901234567".to_owned()),
        email: Some("mossy@example.com".to_owned()),
        checkout_ip: Some("203.0.113.7".to_owned()),
        placed_at: at(13, 58, 40),
        paid_at: Some(at(13, 59, 2)),
        claimed_at: Some(at(14, 3, 12)),
        staff_name: Some("Fern (staff)".to_owned()),
        server_link_shown_at: Some(at(14, 4, 30)),
        server_link: Some("https://www.roblox.com/share?code=7f3a9c21d4e84b0f9a6e5d3c2b1a0f9e&type=Server".to_owned()),
        ready_at: Some(at(14, 6, 1)),
        ready_ip: Some("203.0.113.7".to_owned()),
        delivered_at: Some(at(14, 11, 45)),
        received_at: Some(at(14, 15, 9)),
        received_ip: Some("2001:db8:85a3::8a2e:370:7334".to_owned()),
        refund_policy: policy(),
        proofs: Vec::new(),
        communications: messages(),
        staff_note: Some("The buyer joined the private server from the account above and received both items in person; the pictures show the trade window with the buyer's username.".to_owned()),
    }
}

fn policy() -> RefundPolicyShown {
    RefundPolicyShown {
        version: "2026-11-01".to_owned(),
        url: "https://shop.example/refunds".to_owned(),
        text: "Items are delivered in the game by a member of staff, usually within an hour of payment.\n\n\
               If we cannot deliver your order, we refund it in full. Once you have confirmed receipt with \"I got my items\", the order is final: virtual items cannot be returned.\n\n\
               Ask for a refund on the order page or in our Discord within 14 days."
            .to_owned(),
        shown_at: at(13, 58, 40),
        recorded: true,
    }
}

fn messages() -> Vec<Communication> {
    let message = |at, channel: &str, title: &str, body: &str| Communication {
        at,
        channel: channel.to_owned(),
        title: title.to_owned(),
        body: body.to_owned(),
        mail_kind: None,
    };
    vec![
        message(at(14, 3, 13), "e-mail", "Your order #4217 is being delivered", "Hi MossyGardener42,\n\nFern has picked up your order and will meet you in the game shortly. Open your order page to get the private server link."),
        message(at(13, 59, 3), "e-mail", "Order #4217 confirmed", "Thank you for your order. We will deliver it in the game as soon as a member of staff is free."),
        message(at(14, 4, 31), "order page", "Garden Shop staff", "Join the private server with the link below, then press \"I'm in the game\"."),
        message(at(14, 15, 10), "Discord ticket", "Garden Shop staff", "Thanks for confirming, enjoy your garden!"),
    ]
}

/// A picture of `width`×`height` pixels: a gradient under noise, so JPEG cannot shrink it to
/// nothing, in the given format.
pub fn picture(width: u32, height: u32, seed: u64, format: ImageFormat) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut noise = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 96) as u8
    };
    let image = RgbImage::from_fn(width, height, |x, y| {
        let base = ((x * 160 / width.max(1)) + (y * 80 / height.max(1))) as u8;
        image::Rgb([
            base.saturating_add(noise()),
            base / 2 + noise(),
            200u8.saturating_sub(noise()),
        ])
    });
    let mut bytes = Vec::new();
    DynamicImage::ImageRgb8(image)
        .write_to(&mut Cursor::new(&mut bytes), format)
        .expect("the picture encodes");
    bytes
}

pub fn proof(posted_at: DateTime<Utc>, bytes: Vec<u8>, content_type: &str) -> ProofImage {
    ProofImage {
        posted_at,
        content_type: content_type.to_owned(),
        path: "/media/proofs/test.jpg".to_owned(),
        bytes,
    }
}

/// The text a PDF reader finds on every page of the file.
pub fn text_of(pdf: &[u8]) -> String {
    let document = lopdf::Document::load_mem(pdf).expect("a PDF reader opens the file");
    let pages: Vec<u32> = document.get_pages().keys().copied().collect();
    document
        .extract_text(&pages)
        .expect("the text can be extracted")
}

pub fn page_count(pdf: &[u8]) -> usize {
    lopdf::Document::load_mem(pdf)
        .expect("a PDF reader opens the file")
        .get_pages()
        .len()
}
