//! Writes the three evidence files of a sample order to a folder, to open and look at:
//! `cargo run -p garden-evidence --example write_evidence -- [folder] [pictures] [unusual]`
//! (default: a new temporary folder, kept; 3 pictures). `unusual` gives the buyer names in
//! other scripts and with emoji, an unreadable picture and a message of several pages.

#[path = "../tests/support/mod.rs"]
mod support;

use std::path::PathBuf;
use std::time::Instant;

use disputes::EvidenceFile;
use garden_evidence::PdfEvidence;
use image::ImageFormat;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let folder = match args.next() {
        Some(folder) => PathBuf::from(folder),
        None => tempfile::tempdir()?.keep(),
    };
    let pictures: u32 = args
        .next()
        .map(|count| count.parse())
        .transpose()?
        .unwrap_or(3);
    let unusual = args.next().is_some_and(|flag| flag == "unusual");
    let mut record = support::record();
    record.proofs = (0..pictures)
        .map(|index| {
            let (width, height) = if index % 2 == 0 {
                (1920, 1080)
            } else {
                (1080, 1920)
            };
            let bytes = support::picture(width, height, u64::from(index), ImageFormat::Jpeg);
            support::proof(support::at(14, 8 + index % 50, 0), bytes, "image/jpeg")
        })
        .collect();
    if unusual {
        make_unusual(&mut record);
    }
    let started = Instant::now();
    let files = PdfEvidence::new()?.render(&record)?;
    println!("rendered in {:?}", started.elapsed());
    std::fs::create_dir_all(&folder)?;
    for file in EvidenceFile::ALL {
        let path = folder.join(format!("{}.pdf", file.field()));
        std::fs::write(&path, files.get(file))?;
        println!("{} ({} bytes)", path.display(), files.get(file).len());
    }
    Ok(())
}

fn make_unusual(record: &mut disputes::DeliveryRecord) {
    record.roblox_username = "Жук_Zoë".to_owned();
    record.discord_username = Some("花子🌱 نور".to_owned());
    record.staff_name = Some("Ἀλέξανδρος".to_owned());
    record.communications[0].title = "Заказ #4217 доставлен ✓ 配達".to_owned();
    record.communications[0].body =
        "The buyer asked where the items were and staff answered. ".repeat(200);
    record.proofs.push(support::proof(
        support::at(14, 7, 0),
        b"not a picture".to_vec(),
        "image/jpeg",
    ));
}
