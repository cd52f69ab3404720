//! The drawing toolkit the art is made with: 2-D vectors, colours, signed distances, the
//! canvas and its backgrounds.

use std::f32::consts::{PI, TAU};
use std::ops::{Add, Mul, Neg, Sub};

use image::RgbaImage;

/// Width and height of generated art, in pixels.
pub const ART_SIZE: u32 = 300;
pub(super) const SIZE: usize = ART_SIZE as usize;
/// Side of the square tiles used to skip empty areas quickly.
pub(super) const TILE: usize = 8;

// ---------------------------------------------------------------------------
// Small maths toolkit
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct V2 {
    pub(super) x: f32,
    pub(super) y: f32,
}

pub(super) const fn v2(x: f32, y: f32) -> V2 {
    V2 { x, y }
}

impl V2 {
    pub(super) fn len(self) -> f32 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
    pub(super) fn dot(self, o: V2) -> f32 {
        self.x * o.x + self.y * o.y
    }
    pub(super) fn abs(self) -> V2 {
        v2(self.x.abs(), self.y.abs())
    }
    /// Rotates by `a` radians (clockwise on screen, where y points down).
    pub(super) fn rot(self, a: f32) -> V2 {
        let (s, c) = a.sin_cos();
        v2(self.x * c - self.y * s, self.x * s + self.y * c)
    }
    pub(super) fn norm(self) -> V2 {
        let l = self.len();
        if l > 0.0 {
            self * (1.0 / l)
        } else {
            self
        }
    }
    pub(super) fn from_angle(a: f32) -> V2 {
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
pub(super) fn clamp01(x: f32) -> f32 {
    if x <= 0.0 {
        0.0
    } else if x >= 1.0 {
        1.0
    } else {
        x
    }
}

pub(super) fn smoothstep(e0: f32, e1: f32, x: f32) -> f32 {
    let t = clamp01((x - e0) / (e1 - e0));
    t * t * (3.0 - 2.0 * t)
}

pub(super) fn deg(d: f32) -> f32 {
    d * PI / 180.0
}

/// Deterministic PRNG (SplitMix64).
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    pub(super) fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    pub(super) fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

// ---------------------------------------------------------------------------
// Colour
// ---------------------------------------------------------------------------

pub(super) type Rgb = [f32; 3];

pub(super) const WHITE: Rgb = [1.0, 1.0, 1.0];

pub(super) fn hsl(h: f32, s: f32, l: f32) -> Rgb {
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
pub(super) fn tone(h: f32, s: f32, l: f32) -> Rgb {
    let h = h.rem_euclid(360.0);
    let yellowness = clamp01(1.0 - (h - 58.0).abs() / 38.0);
    let darkness = clamp01((0.7 - l) / 0.45);
    let hue = h - 30.0 * yellowness * darkness;
    let sat = (s + 0.12 * yellowness + 0.12 * yellowness * darkness).min(1.0);
    let lift = 0.06 * yellowness * clamp01(1.0 - (l - 0.6).abs() / 0.3);
    hsl(hue, sat, (l + lift).min(0.97))
}

pub(super) fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    let t = clamp01(t);
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// Fill colour with an anti-aliased border of width `w` just inside the
/// shape edge (`d` is the shape's signed distance).
pub(super) fn outlined(d: f32, w: f32, fill: Rgb, border: Rgb) -> Rgb {
    mix(border, fill, clamp01(-d - w + 0.5))
}

// ---------------------------------------------------------------------------
// Signed distance functions (negative inside, in pixels)
// ---------------------------------------------------------------------------

pub(super) fn sd_circle(p: V2, c: V2, r: f32) -> f32 {
    (p - c).len() - r
}

/// Ellipse centred at `c` with radii `r`, rotated by `angle`.
/// Uses a first-order approximation that is exact enough near the edge.
pub(super) fn sd_ellipse(p: V2, c: V2, r: V2, angle: f32) -> f32 {
    let q = (p - c).rot(-angle);
    let k0 = v2(q.x / r.x, q.y / r.y).len();
    let k1 = v2(q.x / (r.x * r.x), q.y / (r.y * r.y)).len();
    if k1 <= f32::EPSILON {
        -r.x.min(r.y)
    } else {
        k0 * (k0 - 1.0) / k1
    }
}

pub(super) fn sd_round_box(p: V2, c: V2, half: V2, radius: f32) -> f32 {
    let q = (p - c).abs() - half + v2(radius, radius);
    v2(q.x.max(0.0), q.y.max(0.0)).len() + q.x.max(q.y).min(0.0) - radius
}

/// Distance to a circular arc centred at `c`, starting at angle `a0` and
/// sweeping `sweep` radians clockwise on screen.
pub(super) fn dist_arc(p: V2, c: V2, radius: f32, a0: f32, sweep: f32) -> f32 {
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

pub(super) fn sd_triangle(p: V2, p0: V2, p1: V2, p2: V2) -> f32 {
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
pub(super) struct Star {
    pub(super) centre: V2,
    /// Outer radius minus the rounding.
    pub(super) r: f32,
    pub(super) round: f32,
    /// Half the angle between two tips.
    pub(super) an: f32,
    pub(super) acs: V2,
    pub(super) ecs: V2,
    /// `(sin, cos)` of `-rot`.
    pub(super) unrot: (f32, f32),
}

impl Star {
    /// `inner` is the inner (valley) radius as a fraction of `r`.
    pub(super) fn new(centre: V2, r: f32, n: u32, inner: f32, rot: f32, round: f32) -> Star {
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
    pub(super) fn sdf(&self, p: V2) -> f32 {
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
pub(super) struct Bounds {
    pub(super) min: V2,
    pub(super) max: V2,
}

pub(super) fn around(c: V2, rx: f32, ry: f32) -> Bounds {
    Bounds {
        min: v2(c.x - rx, c.y - ry),
        max: v2(c.x + rx, c.y + ry),
    }
}

pub(super) struct Canvas {
    pub(super) px: Vec<Rgb>,
}

impl Canvas {
    pub(super) fn new() -> Self {
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
    pub(super) fn layer(
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
    pub(super) fn map(&mut self, f: impl Fn(V2, Rgb) -> Rgb) {
        for y in 0..SIZE {
            let row = y * SIZE;
            for x in 0..SIZE {
                let p = v2(x as f32 + 0.5, y as f32 + 0.5);
                self.px[row + x] = f(p, self.px[row + x]);
            }
        }
    }

    /// Convenience: a solid colour shape with a crisp edge.
    pub(super) fn fill(&mut self, bounds: Bounds, sdf: impl Fn(V2) -> f32, col: Rgb, alpha: f32) {
        self.layer(bounds, 0.0, sdf, |_, _| (col, alpha));
    }

    /// Converts to an opaque 8-bit RGBA image.
    pub(super) fn into_image(self) -> RgbaImage {
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

pub(super) fn to_u8(v: f32) -> u8 {
    // `as` saturates, so out-of-range values clamp to 0..=255.
    (v * 255.0 + 0.5) as u8
}

// ---------------------------------------------------------------------------
// Shared scenery
// ---------------------------------------------------------------------------

/// Light rays radiating from a point, with a soft glow in the middle.
#[derive(Clone, Copy)]
pub(super) struct Sunburst {
    pub(super) centre: V2,
    pub(super) rays: f32,
    pub(super) rot: f32,
}

pub(super) fn background(c: &mut Canvas, hue: f32, sunburst: Option<Sunburst>, rng: &mut Rng) {
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
pub(super) fn ground_shadow(c: &mut Canvas, hue: f32, at: V2, rx: f32, ry: f32) {
    let col = hsl(hue, 0.45, 0.28);
    c.layer(
        around(at, rx, ry),
        9.0,
        |p| sd_ellipse(p, at, v2(rx, ry), 0.0),
        |_, _| (col, 0.30),
    );
}

/// A four-pointed twinkle with a soft glow.
pub(super) fn sparkle(c: &mut Canvas, at: V2, size: f32, col: Rgb, rot: f32) {
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
pub(super) fn sphere_light(n: V2) -> f32 {
    let z = (1.0 - n.dot(n)).max(0.0).sqrt();
    let l = [-0.45f32, -0.62, 0.64];
    let inv = 1.0 / (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]).sqrt();
    clamp01((n.x * l[0] + n.y * l[1] + z * l[2]) * inv)
}

pub(super) fn shade3(dark: Rgb, base: Rgb, light: Rgb, t: f32) -> Rgb {
    if t < 0.5 {
        mix(dark, base, t * 2.0)
    } else {
        mix(base, light, (t - 0.5) * 2.0)
    }
}
