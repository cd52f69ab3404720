//! Writes sample product art to a directory so it can be looked at.
//!
//! `cargo run -p garden-media --example art_preview -- /tmp/media-preview`

use std::time::Instant;

use garden_media::{generate_product_art, ArtKind, ArtSpec};

fn main() -> anyhow::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "media-preview".to_owned());
    std::fs::create_dir_all(&dir)?;
    let hues = [140.0, 20.0, 280.0, 200.0, 50.0, 330.0];
    for (k, kind) in ArtKind::ALL.into_iter().enumerate() {
        for seed in [1u64, 2] {
            let hue = hues[(k * 2 + seed as usize) % hues.len()];
            let started = Instant::now();
            let png = generate_product_art(&ArtSpec { kind, hue, seed })?;
            let took = started.elapsed();
            let path = format!("{dir}/{}-{seed}.png", kind.as_str());
            std::fs::write(&path, png)?;
            println!("{path} ({took:?})");
        }
    }
    Ok(())
}
