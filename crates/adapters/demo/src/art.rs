//! Procedural product art: a 300x300 picture per product, painted pixel by
//! pixel with signed distance functions (SDFs) so every edge is anti-aliased.
//!
//! Everything is plain `f32` maths; no fonts, no bundled artwork. The same
//! [`ArtSpec`] always yields byte-identical PNGs. Each demo pet is drawn as
//! the animal its name says ([`Animal`]), Sheckles as coins and bundles as
//! the animals they hold.

use std::f32::consts::{PI, TAU};
use std::ops::{Add, Mul, Neg, Sub};

use image::RgbaImage;

use image::codecs::png::{CompressionType as PngCompression, FilterType as PngFilter};
use media::{encode_png, MediaError};

mod animals;
mod pen;

use pen::Pen;

/// Width and height of generated art, in pixels.
pub const ART_SIZE: u32 = 300;
const SIZE: usize = ART_SIZE as usize;
/// Side of the square tiles used to skip empty areas quickly.
const TILE: usize = 8;

/// The animals the demo catalogue sells, each drawn as itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Animal {
    Bunny,
    GoldenLab,
    Raccoon,
    RainbowRaccoon,
    RedFox,
    Kitsune,
    FennecFox,
    PolarBear,
    SeaOtter,
    Hedgehog,
    Capybara,
    Owl,
    NightOwl,
    ScarletMacaw,
    Dragonfly,
    GoldenDragonfly,
    Butterfly,
    DiscoBee,
    QueenBee,
    TRex,
    Spinosaurus,
    Brontosaurus,
    MimicOctopus,
}

impl Animal {
    /// All animals, in declaration order.
    pub const ALL: [Animal; 23] = [
        Animal::Bunny,
        Animal::GoldenLab,
        Animal::Raccoon,
        Animal::RainbowRaccoon,
        Animal::RedFox,
        Animal::Kitsune,
        Animal::FennecFox,
        Animal::PolarBear,
        Animal::SeaOtter,
        Animal::Hedgehog,
        Animal::Capybara,
        Animal::Owl,
        Animal::NightOwl,
        Animal::ScarletMacaw,
        Animal::Dragonfly,
        Animal::GoldenDragonfly,
        Animal::Butterfly,
        Animal::DiscoBee,
        Animal::QueenBee,
        Animal::TRex,
        Animal::Spinosaurus,
        Animal::Brontosaurus,
        Animal::MimicOctopus,
    ];

    /// The animal's name as the catalogue spells it ("Red Fox", "T-Rex").
    pub fn name(self) -> &'static str {
        match self {
            Animal::Bunny => "Bunny",
            Animal::GoldenLab => "Golden Lab",
            Animal::Raccoon => "Raccoon",
            Animal::RainbowRaccoon => "Rainbow Raccoon",
            Animal::RedFox => "Red Fox",
            Animal::Kitsune => "Kitsune",
            Animal::FennecFox => "Fennec Fox",
            Animal::PolarBear => "Polar Bear",
            Animal::SeaOtter => "Sea Otter",
            Animal::Hedgehog => "Hedgehog",
            Animal::Capybara => "Capybara",
            Animal::Owl => "Owl",
            Animal::NightOwl => "Night Owl",
            Animal::ScarletMacaw => "Scarlet Macaw",
            Animal::Dragonfly => "Dragonfly",
            Animal::GoldenDragonfly => "Golden Dragonfly",
            Animal::Butterfly => "Butterfly",
            Animal::DiscoBee => "Disco Bee",
            Animal::QueenBee => "Queen Bee",
            Animal::TRex => "T-Rex",
            Animal::Spinosaurus => "Spinosaurus",
            Animal::Brontosaurus => "Brontosaurus",
            Animal::MimicOctopus => "Mimic Octopus",
        }
    }

    /// Inverse of [`Animal::name`] (case-insensitive).
    pub fn from_name(name: &str) -> Option<Animal> {
        Animal::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Hue of the pale backdrop, chosen to set the animal off.
    fn backdrop_hue(self) -> f32 {
        match self {
            Animal::RedFox | Animal::FennecFox | Animal::GoldenLab | Animal::Butterfly => 195.0,
            Animal::Capybara | Animal::SeaOtter | Animal::MimicOctopus => 190.0,
            Animal::Raccoon | Animal::Hedgehog | Animal::Owl => 110.0,
            Animal::ScarletMacaw | Animal::Brontosaurus => 150.0,
            Animal::PolarBear | Animal::Dragonfly | Animal::NightOwl => 220.0,
            Animal::TRex | Animal::Spinosaurus | Animal::Bunny => 45.0,
            Animal::DiscoBee | Animal::RainbowRaccoon => 280.0,
            Animal::QueenBee | Animal::Kitsune => 330.0,
            Animal::GoldenDragonfly => 265.0,
        }
    }
}

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
// Small maths toolkit
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq)]
struct V2 {
    x: f32,
    y: f32,
}

const fn v2(x: f32, y: f32) -> V2 {
    V2 { x, y }
}

impl V2 {
    fn len(self) -> f32 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
    fn dot(self, o: V2) -> f32 {
        self.x * o.x + self.y * o.y
    }
    fn abs(self) -> V2 {
        v2(self.x.abs(), self.y.abs())
    }
    /// Rotates by `a` radians (clockwise on screen, where y points down).
    fn rot(self, a: f32) -> V2 {
        let (s, c) = a.sin_cos();
        v2(self.x * c - self.y * s, self.x * s + self.y * c)
    }
    fn norm(self) -> V2 {
        let l = self.len();
        if l > 0.0 {
            self * (1.0 / l)
        } else {
            self
        }
    }
    fn from_angle(a: f32) -> V2 {
        let (s, c) = a.sin_cos();
        v2(c, s)
    }
}

impl Add for V2 {
    type Output = V2;
    fn add(self, o: V2) -> V2 {
        v2(self.x + o.x, self.y + o.y)
    }
}
impl Sub for V2 {
    type Output = V2;
    fn sub(self, o: V2) -> V2 {
        v2(self.x - o.x, self.y - o.y)
    }
}
impl Mul<f32> for V2 {
    type Output = V2;
    fn mul(self, k: f32) -> V2 {
        v2(self.x * k, self.y * k)
    }
}
impl Neg for V2 {
    type Output = V2;
    fn neg(self) -> V2 {
        v2(-self.x, -self.y)
    }
}

// Written out: `f32::clamp` is noticeably slower in unoptimised builds, and
// this is the hottest helper of the renderer.
#[allow(clippy::manual_clamp)]
fn clamp01(x: f32) -> f32 {
    if x <= 0.0 {
        0.0
    } else if x >= 1.0 {
        1.0
    } else {
        x
    }
}

fn smoothstep(e0: f32, e1: f32, x: f32) -> f32 {
    let t = clamp01((x - e0) / (e1 - e0));
    t * t * (3.0 - 2.0 * t)
}

fn deg(d: f32) -> f32 {
    d * PI / 180.0
}

/// Deterministic PRNG (SplitMix64).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed)
    }
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

// ---------------------------------------------------------------------------
// Colour
// ---------------------------------------------------------------------------

type Rgb = [f32; 3];

const WHITE: Rgb = [1.0, 1.0, 1.0];

fn hsl(h: f32, s: f32, l: f32) -> Rgb {
    let h = h.rem_euclid(360.0) / 60.0;
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    [r + m, g + m, b + m]
}

/// Like [`hsl`], tuned for cartoon palettes: yellow-ish hues turn olive when
/// simply darkened, so their shades lean towards orange, get a bit more
/// saturation, and their mid tones are lifted slightly.
fn tone(h: f32, s: f32, l: f32) -> Rgb {
    let h = h.rem_euclid(360.0);
    let yellowness = clamp01(1.0 - (h - 58.0).abs() / 38.0);
    let darkness = clamp01((0.7 - l) / 0.45);
    let hue = h - 30.0 * yellowness * darkness;
    let sat = (s + 0.12 * yellowness + 0.12 * yellowness * darkness).min(1.0);
    let lift = 0.06 * yellowness * clamp01(1.0 - (l - 0.6).abs() / 0.3);
    hsl(hue, sat, (l + lift).min(0.97))
}

fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    let t = clamp01(t);
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// Fill colour with an anti-aliased border of width `w` just inside the
/// shape edge (`d` is the shape's signed distance).
fn outlined(d: f32, w: f32, fill: Rgb, border: Rgb) -> Rgb {
    mix(border, fill, clamp01(-d - w + 0.5))
}

// ---------------------------------------------------------------------------
// Signed distance functions (negative inside, in pixels)
// ---------------------------------------------------------------------------

fn sd_circle(p: V2, c: V2, r: f32) -> f32 {
    (p - c).len() - r
}

/// Ellipse centred at `c` with radii `r`, rotated by `angle`.
/// Uses a first-order approximation that is exact enough near the edge.
fn sd_ellipse(p: V2, c: V2, r: V2, angle: f32) -> f32 {
    let q = (p - c).rot(-angle);
    let k0 = v2(q.x / r.x, q.y / r.y).len();
    let k1 = v2(q.x / (r.x * r.x), q.y / (r.y * r.y)).len();
    if k1 <= f32::EPSILON {
        -r.x.min(r.y)
    } else {
        k0 * (k0 - 1.0) / k1
    }
}

fn sd_round_box(p: V2, c: V2, half: V2, radius: f32) -> f32 {
    let q = (p - c).abs() - half + v2(radius, radius);
    v2(q.x.max(0.0), q.y.max(0.0)).len() + q.x.max(q.y).min(0.0) - radius
}

/// Distance to a circular arc centred at `c`, starting at angle `a0` and
/// sweeping `sweep` radians clockwise on screen.
fn dist_arc(p: V2, c: V2, radius: f32, a0: f32, sweep: f32) -> f32 {
    let d = p - c;
    let ang = d.y.atan2(d.x);
    if (ang - a0).rem_euclid(TAU) <= sweep {
        (d.len() - radius).abs()
    } else {
        let e0 = c + V2::from_angle(a0) * radius;
        let e1 = c + V2::from_angle(a0 + sweep) * radius;
        (p - e0).len().min((p - e1).len())
    }
}

fn sd_triangle(p: V2, p0: V2, p1: V2, p2: V2) -> f32 {
    let (e0, e1, e2) = (p1 - p0, p2 - p1, p0 - p2);
    let (w0, w1, w2) = (p - p0, p - p1, p - p2);
    let pq = |w: V2, e: V2| w - e * clamp01(w.dot(e) / e.dot(e).max(f32::EPSILON));
    let (q0, q1, q2) = (pq(w0, e0), pq(w1, e1), pq(w2, e2));
    let s = (e0.x * e2.y - e0.y * e2.x).signum();
    let dx = q0.dot(q0).min(q1.dot(q1)).min(q2.dot(q2));
    let dy = (s * (w0.x * e0.y - w0.y * e0.x))
        .min(s * (w1.x * e1.y - w1.y * e1.x))
        .min(s * (w2.x * e2.y - w2.y * e2.x));
    -dx.sqrt() * dy.signum()
}

/// Regular `n`-pointed star with one tip pointing up, rotated clockwise by
/// `rot`, with its corners rounded by `round`. Construction precomputes the
/// trigonometry so evaluating the distance per pixel stays cheap.
#[derive(Clone, Copy)]
struct Star {
    centre: V2,
    /// Outer radius minus the rounding.
    r: f32,
    round: f32,
    /// Half the angle between two tips.
    an: f32,
    acs: V2,
    ecs: V2,
    /// `(sin, cos)` of `-rot`.
    unrot: (f32, f32),
}

impl Star {
    /// `inner` is the inner (valley) radius as a fraction of `r`.
    fn new(centre: V2, r: f32, n: u32, inner: f32, rot: f32, round: f32) -> Star {
        let an = PI / n.max(2) as f32;
        let en = an.sin().atan2(an.cos() - inner);
        Star {
            centre,
            r: r - round,
            round,
            an,
            acs: v2(an.cos(), an.sin()),
            ecs: v2(en.cos(), en.sin()),
            unrot: (-rot).sin_cos(),
        }
    }

    /// Signed distance (after Inigo Quilez's `sdStar`).
    fn sdf(&self, p: V2) -> f32 {
        let d = p - self.centre;
        let (s, c) = self.unrot;
        // Rotate back, and flip to maths orientation (y up).
        let q = v2(d.x * c - d.y * s, -(d.x * s + d.y * c));
        let bn = q.x.atan2(q.y).rem_euclid(2.0 * self.an) - self.an;
        let l = q.len();
        let (sb, cb) = bn.sin_cos();
        let mut q = v2(l * cb, l * sb.abs());
        q = q - self.acs * self.r;
        q = q + self.ecs
            * (-q.dot(self.ecs))
                .max(0.0)
                .min(self.r * self.acs.y / self.ecs.y);
        q.len() * q.x.signum() - self.round
    }
}

// ---------------------------------------------------------------------------
// Canvas
// ---------------------------------------------------------------------------

/// Axis-aligned bounds in pixel coordinates.
#[derive(Clone, Copy)]
struct Bounds {
    min: V2,
    max: V2,
}

fn around(c: V2, rx: f32, ry: f32) -> Bounds {
    Bounds {
        min: v2(c.x - rx, c.y - ry),
        max: v2(c.x + rx, c.y + ry),
    }
}

struct Canvas {
    px: Vec<Rgb>,
}

impl Canvas {
    fn new() -> Self {
        Canvas {
            px: vec![WHITE; SIZE * SIZE],
        }
    }

    /// Composites one shape. Only pixels inside `bounds` (grown by the edge
    /// width) are visited. `sdf` gives the signed distance, `paint` the
    /// colour and opacity at a point (it also receives the distance).
    ///
    /// With `soft == 0` the edge is a crisp one-pixel anti-aliased ramp;
    /// otherwise it fades over `2 * soft` pixels (shadows, glows).
    fn layer(
        &mut self,
        bounds: Bounds,
        soft: f32,
        sdf: impl Fn(V2) -> f32,
        paint: impl Fn(V2, f32) -> (Rgb, f32),
    ) {
        let margin = soft + 1.5;
        let to_px = |v: f32| -> usize { v.clamp(0.0, SIZE as f32) as usize };
        let (x0, x1) = (
            to_px((bounds.min.x - margin).floor()),
            to_px((bounds.max.x + margin).ceil()),
        );
        let (y0, y1) = (
            to_px((bounds.min.y - margin).floor()),
            to_px((bounds.max.y + margin).ceil()),
        );
        // Tiles whose centre is far outside the shape are skipped whole.
        // Twice the tile's half-diagonal leaves room for SDFs that are only
        // approximately distances (ellipses).
        let reach = TILE as f32 * std::f32::consts::SQRT_2 + margin;
        for ty in (y0..y1).step_by(TILE) {
            let ty1 = (ty + TILE).min(y1);
            for tx in (x0..x1).step_by(TILE) {
                let tx1 = (tx + TILE).min(x1);
                let tile_centre = v2((tx + tx1) as f32 * 0.5, (ty + ty1) as f32 * 0.5);
                if sdf(tile_centre) > reach {
                    continue;
                }
                for y in ty..ty1 {
                    for x in tx..tx1 {
                        let p = v2(x as f32 + 0.5, y as f32 + 0.5);
                        let d = sdf(p);
                        let cover = if soft > 0.0 {
                            1.0 - smoothstep(-soft, soft, d)
                        } else {
                            clamp01(0.5 - d)
                        };
                        if cover <= 0.0 {
                            continue;
                        }
                        let (col, alpha) = paint(p, d);
                        let a = clamp01(alpha * cover);
                        if a <= 0.0 {
                            continue;
                        }
                        let dst = &mut self.px[y * SIZE + x];
                        *dst = mix(*dst, col, a);
                    }
                }
            }
        }
    }

    /// Applies `f` to every pixel (full-canvas effects).
    fn map(&mut self, f: impl Fn(V2, Rgb) -> Rgb) {
        for y in 0..SIZE {
            let row = y * SIZE;
            for x in 0..SIZE {
                let p = v2(x as f32 + 0.5, y as f32 + 0.5);
                self.px[row + x] = f(p, self.px[row + x]);
            }
        }
    }

    /// Convenience: a solid colour shape with a crisp edge.
    fn fill(&mut self, bounds: Bounds, sdf: impl Fn(V2) -> f32, col: Rgb, alpha: f32) {
        self.layer(bounds, 0.0, sdf, |_, _| (col, alpha));
    }

    /// Converts to an opaque 8-bit RGBA image.
    fn into_image(self) -> RgbaImage {
        let mut img = RgbaImage::new(ART_SIZE, ART_SIZE);
        let raw: &mut [u8] = &mut img;
        for (i, c) in self.px.iter().enumerate() {
            let o = i * 4;
            raw[o] = to_u8(c[0]);
            raw[o + 1] = to_u8(c[1]);
            raw[o + 2] = to_u8(c[2]);
            raw[o + 3] = 255;
        }
        img
    }
}

fn to_u8(v: f32) -> u8 {
    // `as` saturates, so out-of-range values clamp to 0..=255.
    (v * 255.0 + 0.5) as u8
}

// ---------------------------------------------------------------------------
// Shared scenery
// ---------------------------------------------------------------------------

/// Light rays radiating from a point, with a soft glow in the middle.
#[derive(Clone, Copy)]
struct Sunburst {
    centre: V2,
    rays: f32,
    rot: f32,
}

fn background(c: &mut Canvas, hue: f32, sunburst: Option<Sunburst>, rng: &mut Rng) {
    let inner = hsl(hue, 0.75, 0.95);
    let mid = hsl(hue, 0.62, 0.86);
    let outer = hsl(hue + 8.0, 0.50, 0.74);
    let centre = v2(150.0, 128.0);
    let reach = 215.0;
    // The gradient only depends on the distance from the centre: tabulate it
    // every 0.25 px instead of evaluating smoothsteps for every pixel.
    const STEPS_PER_PX: f32 = 4.0;
    let lut: Vec<Rgb> = (0..=(reach * STEPS_PER_PX) as usize)
        .map(|i| {
            let t = i as f32 / STEPS_PER_PX / reach;
            if t < 0.55 {
                mix(inner, mid, smoothstep(0.0, 0.55, t))
            } else {
                mix(mid, outer, smoothstep(0.55, 1.0, t))
            }
        })
        .collect();
    let last = lut.len() - 1;
    c.map(|p, _| {
        let idx = ((p - centre).len() * STEPS_PER_PX) as usize;
        let col = lut[idx.min(last)];
        match sunburst {
            None => col,
            Some(b) => {
                let d = p - b.centre;
                let dist = d.len();
                let ray = smoothstep(-0.15, 0.15, (d.y.atan2(d.x) * b.rays + b.rot).sin());
                let ray_alpha = ray * (1.0 - smoothstep(40.0, 175.0, dist)) * 0.22;
                let glow_alpha = 0.45 * (1.0 - smoothstep(-45.0, 45.0, dist - 70.0));
                mix(mix(col, WHITE, ray_alpha), WHITE, glow_alpha)
            }
        }
    });
    // Soft "bokeh" bubbles near the edges.
    let bubbles = 4 + rng.below(3);
    for _ in 0..bubbles {
        let ang = rng.range(0.0, TAU);
        let dist = rng.range(105.0, 150.0);
        let at = v2(150.0, 150.0) + V2::from_angle(ang) * dist;
        let r = rng.range(9.0, 26.0);
        let alpha = rng.range(0.16, 0.30);
        c.layer(
            around(at, r, r),
            1.2,
            |p| sd_circle(p, at, r),
            |_, _| (WHITE, alpha),
        );
    }
}

/// Soft contact shadow under the emblem.
fn ground_shadow(c: &mut Canvas, hue: f32, at: V2, rx: f32, ry: f32) {
    let col = hsl(hue, 0.45, 0.28);
    c.layer(
        around(at, rx, ry),
        9.0,
        |p| sd_ellipse(p, at, v2(rx, ry), 0.0),
        |_, _| (col, 0.30),
    );
}

/// A four-pointed twinkle with a soft glow.
fn sparkle(c: &mut Canvas, at: V2, size: f32, col: Rgb, rot: f32) {
    let twinkle = Star::new(at, size, 4, 0.26, rot, 0.8);
    c.layer(
        around(at, size * 0.7, size * 0.7),
        4.0,
        |p| sd_circle(p, at, size * 0.25),
        |_, _| (WHITE, 0.55),
    );
    c.fill(around(at, size, size), |p| twinkle.sdf(p), col, 1.0);
}

/// Sphere-like shading: `n` is the position inside a disc of radius 1.
fn sphere_light(n: V2) -> f32 {
    let z = (1.0 - n.dot(n)).max(0.0).sqrt();
    let l = [-0.45f32, -0.62, 0.64];
    let inv = 1.0 / (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]).sqrt();
    clamp01((n.x * l[0] + n.y * l[1] + z * l[2]) * inv)
}

fn shade3(dark: Rgb, base: Rgb, light: Rgb, t: f32) -> Rgb {
    if t < 0.5 {
        mix(dark, base, t * 2.0)
    } else {
        mix(base, light, (t - 0.5) * 2.0)
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
