//! The three evidence files as a PDF reader sees them.

#![allow(clippy::expect_used)]

mod support;

use disputes::{EvidenceFile, EvidenceFiles};
use garden_evidence::{PdfEvidence, BUDGET};
use image::ImageFormat;
use support::{at, page_count, picture, proof, record, text_of};

fn render(record: &disputes::DeliveryRecord) -> EvidenceFiles {
    PdfEvidence::new()
        .expect("the fonts load")
        .render(record)
        .expect("the files render")
}

#[test]
fn every_file_is_a_pdf_a_reader_can_open() {
    let files = render(&record());
    for file in EvidenceFile::ALL {
        let pdf = files.get(file);
        assert!(
            pdf.starts_with(b"%PDF-"),
            "{} does not start with %PDF-",
            file.field()
        );
        assert!(page_count(pdf) >= 1, "{} has no page", file.field());
    }
}

#[test]
fn the_delivery_record_names_the_order_the_accounts_the_times_and_the_addresses() {
    let text = text_of(&render(&record()).service_documentation);
    for expected in [
        "Delivery record for order #4217",
        "Garden Shop",
        "Candy Blossom seed",
        "4.99 USD",
        "22.48 USD",
        "MossyGardener42",
        "3141592653",
        "mossy.gardener",
        "812345678901234567",
        "mossy@example.com",
        "Claimed by staff",
        "2026-11-28 14:03:12 UTC",
        "Fern (staff)",
        "Items delivered in the game",
        "2026-11-28 14:11:45 UTC",
        "2026-11-28 14:15:09 UTC",
        "203.0.113.7",
        "2001:db8:85a3::8a2e:370:7334",
        "No proof pictures were posted",
        "Page 1 of",
    ] {
        assert!(
            text.contains(expected),
            "{expected:?} is not in the delivery record:\n{text}"
        );
    }
}

#[test]
fn steps_without_a_time_are_left_out_of_the_timeline() {
    let mut record = record();
    record.delivered_at = None;
    record.received_at = None;
    let text = text_of(&render(&record).service_documentation);
    assert!(text.contains("Claimed by staff"));
    assert!(!text.contains("Items delivered in the game"), "{text}");
    assert!(!text.contains("Buyer confirmed receipt"), "{text}");
}

#[test]
fn the_messages_file_names_every_subject_in_time_order() {
    let text = text_of(&render(&record()).customer_communication);
    assert!(text.contains("Messages about order #4217"), "{text}");
    let confirmed = text
        .find("Order #4217 confirmed")
        .expect("the first mail is there");
    let delivering = text
        .find("Your order #4217 is being delivered")
        .expect("the second mail is there");
    assert!(
        confirmed < delivering,
        "the messages are not in time order:\n{text}"
    );
    assert!(text.contains("Discord ticket"), "{text}");
    assert!(text.contains("2026-11-28 14:15:10 UTC"), "{text}");
}

#[test]
fn a_long_message_flows_over_pages() {
    let mut record = record();
    record.communications[0].body =
        "The buyer asked where the items were and staff answered. ".repeat(600);
    let pdf = render(&record).customer_communication;
    assert!(page_count(&pdf) >= 3, "{} pages", page_count(&pdf));
    assert!(text_of(&pdf).contains("Page 3 of"));
}

#[test]
fn the_policy_file_names_its_version_where_it_is_published_and_when_it_was_shown() {
    let text = text_of(&render(&record()).refund_policy);
    for expected in [
        "Refund policy, version 2026-11-01",
        "https://shop.example/refunds",
        "2026-11-28 13:58:40 UTC",
        "virtual items cannot be returned",
    ] {
        assert!(
            text.contains(expected),
            "{expected:?} is not in the policy:\n{text}"
        );
    }
}

#[test]
fn proof_pictures_are_shown_with_their_posted_time() {
    let mut record = record();
    record.proofs = vec![
        proof(
            at(14, 9, 0),
            picture(1600, 900, 1, ImageFormat::Png),
            "image/png",
        ),
        proof(
            at(14, 10, 0),
            picture(900, 1600, 2, ImageFormat::Jpeg),
            "image/jpeg",
        ),
        proof(
            at(14, 8, 0),
            picture(640, 480, 3, ImageFormat::WebP),
            "image/webp",
        ),
    ];
    let files = render(&record);
    let text = text_of(&files.service_documentation);
    assert!(
        text.contains("Picture 1 of 3, posted 2026-11-28 14:08:00 UTC"),
        "{text}"
    );
    assert!(
        text.contains("Picture 3 of 3, posted 2026-11-28 14:10:00 UTC"),
        "{text}"
    );
    assert!(!text.contains("left out"), "{text}");
}

#[test]
fn forty_large_pictures_stay_within_the_budget_and_the_file_says_how_many_were_left_out() {
    let photo = picture(4000, 3000, 7, ImageFormat::Jpeg);
    let mut record = record();
    record.proofs = (0..40)
        .map(|minute| proof(at(15, minute, 0), photo.clone(), "image/jpeg"))
        .collect();
    let files = render(&record);
    assert!(files.total_len() <= BUDGET, "{} bytes", files.total_len());
    assert!(files.total_len() < 4_500_000);
    let text = text_of(&files.service_documentation);
    let shown = text.matches(" of 40, posted").count();
    let left_out = 40 - shown;
    assert!(shown >= 1 && left_out >= 1, "{shown} shown:\n{text}");
    assert!(
        text.contains(&format!("{left_out} pictures (posted from")),
        "the file does not say {left_out} pictures were left out:\n{text}"
    );
    println!(
        "40 pictures: {shown} shown; service_documentation {} bytes, customer_communication {} bytes, refund_policy {} bytes",
        files.service_documentation.len(),
        files.customer_communication.len(),
        files.refund_policy.len()
    );
}

#[test]
fn a_picture_that_cannot_be_decoded_is_skipped_with_a_line_saying_so() {
    let mut record = record();
    record.proofs = vec![
        proof(at(14, 9, 0), b"not a picture at all".to_vec(), "image/jpeg"),
        proof(
            at(14, 10, 0),
            picture(800, 600, 4, ImageFormat::Png),
            "image/png",
        ),
    ];
    let text = text_of(&render(&record).service_documentation);
    assert!(
        text.contains("Picture 1 of 2, posted 2026-11-28 14:09:00 UTC, could not be read"),
        "{text}"
    );
    assert!(
        text.contains("Picture 2 of 2, posted 2026-11-28 14:10:00 UTC"),
        "{text}"
    );
}

#[test]
fn a_record_with_non_latin_names_still_renders() {
    let mut record = record();
    record.roblox_username = "Жук_Zoë".to_owned();
    record.discord_username = Some("花子🌱 نور".to_owned());
    record.staff_name = Some("Ἀλέξανδρος".to_owned());
    record.communications[0].title = "Заказ #4217 доставлен ✓ 配達".to_owned();
    record.refund_policy.text = "Возврат в течение 14 дней. 返金ポリシー 🌱".to_owned();
    let files = render(&record);
    for file in EvidenceFile::ALL {
        assert!(
            page_count(files.get(file)) >= 1,
            "{} does not open",
            file.field()
        );
    }
    let text = text_of(&files.service_documentation);
    assert!(text.contains("Жук_Zoë"), "{text}");
    assert!(text.contains("Ἀλέξανδρος"), "{text}");
    assert!(text.contains("??? ???"), "{text}");
    assert!(text_of(&files.customer_communication).contains("Заказ #4217 доставлен ✓ ??"));
}

#[test]
fn a_typical_record_is_small() {
    let mut record = record();
    record.proofs = (0..3)
        .map(|index| {
            proof(
                at(14, 9 + index, 0),
                picture(1920, 1080, u64::from(index), ImageFormat::Jpeg),
                "image/jpeg",
            )
        })
        .collect();
    let files = render(&record);
    println!(
        "typical record: service_documentation {} bytes, customer_communication {} bytes, refund_policy {} bytes",
        files.service_documentation.len(),
        files.customer_communication.len(),
        files.refund_policy.len()
    );
    assert!(files.customer_communication.len() < 100_000);
    assert!(files.refund_policy.len() < 100_000);
}

/// poppler is stricter than lopdf and is what many viewers are built on: it must draw every
/// page without a complaint. Skipped where `pdftoppm` is not installed
/// (`apt-get install poppler-utils`).
#[test]
fn poppler_draws_every_page_without_complaint() {
    let Ok(version) = std::process::Command::new("pdftoppm").arg("-v").output() else {
        eprintln!("pdftoppm is not installed; skipped");
        return;
    };
    assert!(version.status.success());
    let mut record = record();
    record.proofs = vec![proof(
        at(14, 9, 0),
        picture(1600, 900, 5, ImageFormat::Jpeg),
        "image/jpeg",
    )];
    let files = render(&record);
    let folder = tempfile::tempdir().expect("a temporary folder");
    for file in EvidenceFile::ALL {
        let pdf = folder.path().join(format!("{}.pdf", file.field()));
        std::fs::write(&pdf, files.get(file)).expect("the file is written");
        let output = std::process::Command::new("pdftoppm")
            .args(["-png", "-r", "40"])
            .arg(&pdf)
            .arg(folder.path().join(file.field()))
            .output()
            .expect("pdftoppm runs");
        let complaints = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success() && complaints.is_empty(),
            "{}: {complaints}",
            file.field()
        );
        let first_page = folder.path().join(format!("{}-1.png", file.field()));
        assert!(
            first_page.exists(),
            "no picture of the first page of {}",
            file.field()
        );
    }
}
