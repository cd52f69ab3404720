//! Writes every picture the art can draw to a directory, and a contact sheet
//! (`sheet.png`) of them all, so they can be looked at.
//!
//! `cargo run -p garden-demo --example art_preview -- /tmp/media-preview`

use std::time::Instant;

use garden_demo::{generate_product_art, Animal, ArtSpec, Subject, ART_SIZE};
use image::{imageops, RgbaImage};

fn main() -> anyhow::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "media-preview".to_owned());
    std::fs::create_dir_all(&dir)?;
    let mut subjects: Vec<(String, Subject)> = Animal::ALL
        .into_iter()
        .map(|a| (a.name().to_owned(), Subject::Animal(a)))
        .collect();
    for coins in [1, 4, 7, 10] {
        subjects.push((format!("{coins} Sheckles"), Subject::Sheckles(coins)));
    }
    subjects.push((
        "Bundle of four".to_owned(),
        Subject::Bundle(vec![
            Animal::Bunny,
            Animal::GoldenLab,
            Animal::Owl,
            Animal::Hedgehog,
        ]),
    ));
    let mut pictures = Vec::new();
    for (seed, (name, subject)) in subjects.into_iter().enumerate() {
        let started = Instant::now();
        let png = generate_product_art(&ArtSpec {
            subject,
            exclusive: false,
            seed: seed as u64,
        })?;
        let took = started.elapsed();
        let path = format!("{dir}/{}.png", name.to_lowercase().replace(' ', "-"));
        std::fs::write(&path, &png)?;
        println!("{path} ({took:?})");
        pictures.push(image::load_from_memory(&png)?.to_rgba8());
    }
    let sheet = contact_sheet(&pictures, 6);
    let path = format!("{dir}/sheet.png");
    sheet.save(&path)?;
    println!("{path}");
    Ok(())
}

/// The pictures in rows of `columns`, at half size.
fn contact_sheet(pictures: &[RgbaImage], columns: u32) -> RgbaImage {
    let side = ART_SIZE / 2;
    let rows = (pictures.len() as u32).div_ceil(columns);
    let mut sheet = RgbaImage::from_pixel(side * columns, side * rows, image::Rgba([255; 4]));
    for (i, picture) in pictures.iter().enumerate() {
        let small = imageops::resize(picture, side, side, imageops::FilterType::Triangle);
        let (col, row) = (i as u32 % columns, i as u32 / columns);
        imageops::overlay(
            &mut sheet,
            &small,
            i64::from(col * side),
            i64::from(row * side),
        );
    }
    sheet
}
