//! Procedural product art: a 300x300 picture per product, painted pixel by
//! pixel with signed distance functions (SDFs) so every edge is anti-aliased.
//!
//! Everything is plain `f32` maths; no fonts, no bundled artwork. The same
//! [`ArtSpec`] always yields byte-identical PNGs. Each demo pet is drawn as
//! the animal its name says ([`Animal`]), Sheckles as coins and bundles as
//! the animals they hold.

use std::f32::consts::TAU;

use image::RgbaImage;

use image::codecs::png::{CompressionType as PngCompression, FilterType as PngFilter};
use media::{encode_png, MediaError};

mod animals;
mod paint;
mod pen;

pub use animals::Animal;
pub use paint::ART_SIZE;
use paint::*;
use pen::Pen;

/// What a picture shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Subject {
    Animal(Animal),
    /// A pile of golden coins, as many as given (1 to 10 are drawn).
    Sheckles(u32),
    /// The animals a bundle holds, side by side (one to four are drawn).
    Bundle(Vec<Animal>),
}

/// Input of [`generate_product_art`].
#[derive(Debug, Clone, PartialEq)]
pub struct ArtSpec {
    pub subject: Subject,
    /// Exclusive products stand on a sunburst.
    pub exclusive: bool,
    /// Varies small details (background bubbles, coins, sparkles).
    pub seed: u64,
}

/// Paints the product picture described by `spec` and returns it as a
/// 300x300 RGBA8 PNG.
pub fn generate_product_art(spec: &ArtSpec) -> Result<Vec<u8>, MediaError> {
    let img = render(spec);
    // A moderate deflate level keeps generation fast in debug builds while
    // the files stay small (about 50-85 KB).
    encode_png(&img, PngCompression::Level(3), PngFilter::Sub)
}

/// Renders without encoding (used by tests and by [`generate_product_art`]).
fn render(spec: &ArtSpec) -> RgbaImage {
    let hue = match &spec.subject {
        Subject::Animal(animal) => animal.backdrop_hue(),
        Subject::Sheckles(_) => 140.0,
        Subject::Bundle(_) => 45.0,
    };
    let mut rng = Rng::new(spec.seed ^ 0x9E37_79B9_7F4A_7C15);
    let sunburst = spec.exclusive.then(|| {
        let mut burst_rng = Rng::new(spec.seed ^ 0xA076_1D64_78BD_642F);
        Sunburst {
            centre: EXCLUSIVE_CENTRE,
            rays: 8.0 + burst_rng.below(5) as f32,
            rot: burst_rng.range(0.0, TAU),
        }
    });
    let mut canvas = Canvas::new();
    background(&mut canvas, hue, sunburst, &mut rng);
    match &spec.subject {
        Subject::Animal(animal) => draw_group(&mut canvas, hue, &[*animal]),
        Subject::Sheckles(coins) => draw_sheckles(&mut canvas, hue, &mut rng, *coins),
        Subject::Bundle(animals) => {
            draw_group(&mut canvas, hue, animals);
            // A gift bow marks the bundle.
            sparkle(&mut canvas, v2(262.0, 40.0), 16.0, WHITE, 0.0);
            sparkle(&mut canvas, v2(36.0, 52.0), 11.0, WHITE, 0.0);
        }
    }
    canvas.into_image()
}

/// Where the members of a group stand (canvas centre, scale), back row first.
fn group_layout(count: usize) -> &'static [(V2, f32)] {
    const ONE: [(V2, f32); 1] = [(v2(150.0, 152.0), 1.0)];
    const TWO: [(V2, f32); 2] = [(v2(84.0, 160.0), 0.6), (v2(216.0, 160.0), 0.6)];
    const THREE: [(V2, f32); 3] = [
        (v2(150.0, 96.0), 0.55),
        (v2(78.0, 192.0), 0.55),
        (v2(222.0, 192.0), 0.55),
    ];
    const FOUR: [(V2, f32); 4] = [
        (v2(84.0, 90.0), 0.5),
        (v2(216.0, 90.0), 0.5),
        (v2(84.0, 214.0), 0.5),
        (v2(216.0, 214.0), 0.5),
    ];
    match count {
        0 | 1 => &ONE,
        2 => &TWO,
        3 => &THREE,
        _ => &FOUR,
    }
}

fn draw_group(c: &mut Canvas, hue: f32, animals: &[Animal]) {
    let shadow = hsl(hue, 0.45, 0.28);
    for (&(at, scale), &animal) in group_layout(animals.len()).iter().zip(animals) {
        let mut pen = Pen::new(c, at, scale);
        pen.shadow(v2(0.0, animals::GROUND + 4.0), 92.0, 11.0, shadow);
        animals::draw_animal(&mut pen, animal);
    }
}

// ---------------------------------------------------------------------------
// Sheckles
// ---------------------------------------------------------------------------

#[derive(Clone, Copy)]
enum CoinMark {
    Star,
    S,
}

/// A pile of `coins` coins (1 to 10) in rows from the ground up, the middle
/// one of the front row marked with an S.
fn draw_sheckles(c: &mut Canvas, hue: f32, rng: &mut Rng, coins: u32) {
    let n = coins.clamp(1, 10) as usize;
    // Row sizes from the ground up: a pyramid as wide as `n` coins need.
    let mut width = (1..=4).find(|k| k * (k + 1) / 2 >= n).unwrap_or(4);
    let mut rows = Vec::new();
    let mut left = n;
    while left > 0 && width > 0 {
        rows.push(width.min(left));
        left -= width.min(left);
        width -= 1;
    }
    let r = match rows[0] {
        1 => 84.0,
        2 => 60.0,
        3 => 48.0,
        _ => 38.0,
    };
    let ground = 236.0;
    let centre = v2(150.0 + rng.range(-4.0, 4.0), 150.0);
    let half_width = rows[0] as f32 * r * 0.85 + 10.0;
    ground_shadow(c, hue, v2(centre.x, ground + 8.0), half_width, 13.0);
    // Upper rows stand behind, so they come first.
    for (level, &count) in rows.iter().enumerate().rev() {
        let y = ground - r - level as f32 * r * 1.05;
        for i in 0..count {
            let x = centre.x + (i as f32 - (count - 1) as f32 / 2.0) * r * 1.7;
            let at = v2(x + rng.range(-3.0, 3.0), y + rng.range(-3.0, 3.0));
            if level == 0 && i == count / 2 {
                coin(c, at, r, CoinMark::S, 0.0);
            } else {
                coin(c, at, r, CoinMark::Star, deg(rng.range(-12.0, 12.0)));
            }
        }
    }

    let glints = 2 + rng.below(2);
    for i in 0..glints {
        let ang = deg(-150.0 + 120.0 * i as f32 / glints as f32 + rng.range(-15.0, 15.0));
        let at = centre + v2(0.0, -10.0) + V2::from_angle(ang) * rng.range(100.0, 120.0);
        sparkle(
            c,
            at,
            rng.range(9.0, 15.0),
            hsl(48.0, 1.0, 0.92),
            deg(rng.range(-10.0, 10.0)),
        );
    }
}

fn coin(c: &mut Canvas, at: V2, r: f32, mark: CoinMark, mark_rot: f32) {
    let gold = hsl(44.0, 0.92, 0.56);
    let gold_light = hsl(50.0, 1.0, 0.76);
    let gold_dark = hsl(36.0, 0.85, 0.42);
    let edge = hsl(32.0, 0.80, 0.36);
    let line = hsl(28.0, 0.75, 0.20);
    let lw = 3.0;
    let b = around(at + v2(0.0, 5.0), r + 2.0, r + 8.0);

    // Face with a diagonal light gradient, and the coin's thickness (its
    // edge) peeking out below it.
    let below = at + v2(0.0, r * 0.13);
    c.layer(
        b,
        0.0,
        |p| sd_circle(p, at, r).min(sd_circle(p, below, r)),
        |p, d| {
            let d_face = sd_circle(p, at, r);
            let t = 0.5 - 0.5 * ((p - at) * (1.0 / r)).dot(v2(0.6, 0.8));
            let face_col = outlined(d_face, lw, shade3(gold_dark, gold, gold_light, t), line);
            let edge_col = outlined(d, lw, edge, line);
            (mix(edge_col, face_col, clamp01(0.5 - d_face)), 1.0)
        },
    );
    // Engraved inner rim: light lip below-right, dark groove above-left.
    let rim = r * 0.78;
    let b = around(at, rim + 4.0, rim + 4.0);
    c.fill(
        b,
        |p| (sd_circle(p, at + v2(1.2, 1.2), rim)).abs() - 1.4,
        gold_light,
        0.9,
    );
    c.fill(b, |p| (sd_circle(p, at, rim)).abs() - 1.5, gold_dark, 0.9);

    // Embossed mark: shadow, highlight, then body.
    let mark_star = Star::new(at, r * 0.46, 5, 0.47, mark_rot, 2.0);
    let mark_sdf = |p: V2| -> f32 {
        match mark {
            CoinMark::Star => mark_star.sdf(p),
            CoinMark::S => {
                let a = r * 0.215;
                let upper = dist_arc(p, at + v2(0.0, -a), a, deg(90.0), deg(235.0));
                let lower = dist_arc(p, at + v2(0.0, a), a, deg(270.0), deg(235.0));
                upper.min(lower) - r * 0.085
            }
        }
    };
    let mb = around(at, r * 0.5 + 2.0, r * 0.5 + 2.0);
    c.fill(mb, |p| mark_sdf(p - v2(1.8, 1.8)), gold_dark, 0.85);
    c.fill(mb, |p| mark_sdf(p + v2(1.2, 1.2)), gold_light, 1.0);
    c.fill(mb, mark_sdf, hsl(42.0, 0.92, 0.50), 1.0);

    // Shine streak across the upper-left of the face, fading out at its end.
    let n = v2(1.0, -1.0).norm();
    let along_dir = v2(1.0, 1.0).norm();
    c.layer(
        around(at, r, r),
        0.0,
        |p| {
            let band = ((p - at).dot(n) + r * 0.02).abs() - r * 0.09;
            band.max(sd_circle(p, at, r - lw - 1.0))
                .max((p - at).dot(along_dir) + r * 0.1)
        },
        |p, _| {
            let along = (p - at).dot(along_dir) / r;
            (WHITE, 0.38 * (1.0 - smoothstep(-0.55, -0.1, along)))
        },
    );
}

const EXCLUSIVE_CENTRE: V2 = v2(150.0, 156.0);

#[cfg(test)]
mod tests {
    use super::*;
    use image::GenericImageView;

    fn spec(subject: Subject, seed: u64) -> ArtSpec {
        ArtSpec {
            subject,
            exclusive: false,
            seed,
        }
    }

    /// One of every kind of picture: an animal of each family, coins, bundles.
    fn samples() -> Vec<Subject> {
        vec![
            Subject::Animal(Animal::RedFox),
            Subject::Animal(Animal::ScarletMacaw),
            Subject::Animal(Animal::Dragonfly),
            Subject::Animal(Animal::QueenBee),
            Subject::Animal(Animal::TRex),
            Subject::Animal(Animal::MimicOctopus),
            Subject::Sheckles(1),
            Subject::Sheckles(10),
            Subject::Bundle(vec![Animal::Spinosaurus, Animal::Brontosaurus]),
            Subject::Bundle(vec![Animal::Raccoon, Animal::Kitsune, Animal::DiscoBee]),
            Subject::Bundle(vec![
                Animal::Bunny,
                Animal::GoldenLab,
                Animal::Owl,
                Animal::Hedgehog,
            ]),
        ]
    }

    #[test]
    fn art_is_a_300px_png() {
        for subject in samples() {
            let png = generate_product_art(&spec(subject.clone(), 1)).unwrap();
            assert_eq!(image::guess_format(&png).unwrap(), image::ImageFormat::Png);
            let img = image::load_from_memory(&png).unwrap();
            assert_eq!(img.dimensions(), (300, 300), "{subject:?}");
            assert_eq!(img.color(), image::ColorType::Rgba8);
        }
    }

    #[test]
    fn art_is_deterministic() {
        for subject in samples() {
            let a = generate_product_art(&spec(subject.clone(), 42)).unwrap();
            let b = generate_product_art(&spec(subject.clone(), 42)).unwrap();
            assert_eq!(a, b, "{subject:?}");
        }
    }

    #[test]
    fn every_animal_has_a_picture_of_its_own() {
        let mut seen = std::collections::HashSet::new();
        for animal in Animal::ALL {
            assert!(
                seen.insert(render(&spec(Subject::Animal(animal), 1)).into_raw()),
                "{animal:?}"
            );
        }
        // Seeds vary the details; exclusives get a sunburst.
        let fox = Subject::Animal(Animal::RedFox);
        for seed in [2u64, 3] {
            assert!(
                seen.insert(render(&spec(fox.clone(), seed)).into_raw()),
                "{seed}"
            );
        }
        let exclusive = ArtSpec {
            exclusive: true,
            ..spec(fox, 1)
        };
        assert!(seen.insert(render(&exclusive).into_raw()), "exclusive");
    }

    #[test]
    fn animals_wear_the_colour_of_their_name() {
        // The average colour of the middle of the picture, where the animal is.
        let centre = |animal: Animal, x0: u32, y0: u32| {
            let img = render(&spec(Subject::Animal(animal), 1));
            let mut sum = [0u32; 3];
            for y in y0..y0 + 20 {
                for x in x0..x0 + 20 {
                    let px = img.get_pixel(x, y).0;
                    for i in 0..3 {
                        sum[i] += u32::from(px[i]);
                    }
                }
            }
            sum.map(|v| v / 400)
        };
        // The red fox's forehead is orange-red.
        let [r, g, b] = centre(Animal::RedFox, 120, 60);
        assert!(r > 180 && r > g + 60 && g > b, "red fox {r} {g} {b}");
        // The raccoon is grey.
        let [r, g, b] = centre(Animal::Raccoon, 140, 60);
        assert!(
            r.abs_diff(b) < 30 && r.abs_diff(g) < 30 && r < 200,
            "raccoon {r} {g} {b}"
        );
        // The T-Rex is green.
        let [r, g, b] = centre(Animal::TRex, 110, 170);
        assert!(g > r && g > b + 30, "t-rex {r} {g} {b}");
        // The golden dragonfly is gold (on its thorax).
        let [r, g, b] = centre(Animal::GoldenDragonfly, 140, 90);
        assert!(
            r > 180 && g > 120 && b < 100,
            "golden dragonfly {r} {g} {b}"
        );
    }

    #[test]
    fn emblem_is_centred_and_background_is_light() {
        for subject in samples() {
            let img = render(&spec(subject.clone(), 9));
            // The centre is covered by the picture, the corners by the
            // pale background: they must differ clearly.
            let centre = img.get_pixel(150, 160).0;
            let corner = img.get_pixel(3, 3).0;
            let diff: i32 = (0..3)
                .map(|i| (i32::from(centre[i]) - i32::from(corner[i])).abs())
                .sum();
            assert!(
                diff > 30,
                "{subject:?}: centre {centre:?} corner {corner:?}"
            );
            assert!(
                corner[..3].iter().all(|&c| c > 120),
                "{subject:?}: corner too dark {corner:?}"
            );
        }
    }

    #[test]
    fn generation_is_quick() {
        // Typically ~20-60 ms per picture in an unoptimised build; this only
        // guards against gross regressions (slow CI machines included).
        let started = std::time::Instant::now();
        for animal in [
            Animal::Kitsune,
            Animal::MimicOctopus,
            Animal::TRex,
            Animal::QueenBee,
        ] {
            generate_product_art(&spec(Subject::Animal(animal), 3)).unwrap();
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn animal_names_round_trip() {
        for animal in Animal::ALL {
            assert_eq!(Animal::from_name(animal.name()), Some(animal));
        }
        assert_eq!(Animal::from_name("red fox"), Some(Animal::RedFox));
        assert_eq!(Animal::from_name("dragon"), None);
    }

    #[test]
    fn sdf_primitives_have_the_right_sign() {
        let c = v2(0.0, 0.0);
        assert!(sd_circle(v2(0.0, 0.0), c, 10.0) < 0.0);
        assert!((sd_circle(v2(20.0, 0.0), c, 10.0) - 10.0).abs() < 1e-4);
        assert!(sd_ellipse(v2(0.0, 0.0), c, v2(10.0, 5.0), 0.3) < 0.0);
        assert!(sd_ellipse(v2(0.0, 9.0), c, v2(10.0, 5.0), 0.0) > 0.0);
        assert!(sd_round_box(v2(0.0, 0.0), c, v2(5.0, 5.0), 1.0) < 0.0);
        assert!(sd_triangle(v2(0.0, 1.0), v2(-5.0, 5.0), v2(5.0, 5.0), v2(0.0, -5.0)) < 0.0);
        assert!(sd_triangle(v2(9.0, 9.0), v2(-5.0, 5.0), v2(5.0, 5.0), v2(0.0, -5.0)) > 0.0);
        // Star: the top tip is inside, the gap between two tips is not.
        let star = Star::new(c, 10.0, 5, 0.45, 0.0, 1.0);
        assert!(star.sdf(v2(0.0, -9.0)) < 0.0);
        assert!(star.sdf(v2(0.0, 9.0)) > 0.0);
        assert!(
            (star.sdf(v2(0.0, -20.0)) - 10.0).abs() < 0.01,
            "tip distance"
        );
    }
}
