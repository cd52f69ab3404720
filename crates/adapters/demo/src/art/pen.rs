//! Drawing in a creature's own coordinates: a [`Pen`] places shapes described
//! around the origin (one unit is one pixel at scale 1) anywhere on the canvas
//! at any size, so the same animal can fill a picture or stand in a bundle.

use super::paint::{
    around, clamp01, dist_arc, mix, outlined, sd_circle, sd_ellipse, sd_round_box, sd_triangle,
    shade3, sphere_light, tone, v2, Bounds, Canvas, Rgb, Star, V2, WHITE,
};

/// The colours of one material (fur, scales, feathers): a base with its
/// highlight, its shadow and the ink of its outline.
#[derive(Clone, Copy)]
pub(super) struct Coat {
    pub base: Rgb,
    pub light: Rgb,
    pub dark: Rgb,
    pub line: Rgb,
}

/// A coat around the colour `hsl(h, s, l)`.
pub(super) fn coat(h: f32, s: f32, l: f32) -> Coat {
    Coat {
        base: tone(h, s, l),
        light: tone(h, s, (l + 0.16).min(0.97)),
        dark: tone(h, s, l * 0.78),
        line: tone(h, (s * 0.7 + 0.1).min(1.0), (l * 0.3).min(0.2)),
    }
}

/// A primitive shape in a creature's coordinates.
#[derive(Clone, Copy)]
pub(super) enum Shape {
    Circle(V2, f32),
    /// Centre, radii, rotation.
    Ellipse(V2, V2, f32),
    /// A stroke from `a` to `b` whose radius goes from `ra` to `rb`.
    Capsule(V2, V2, f32, f32),
    /// A triangle with its corners rounded by the last value.
    Tri(V2, V2, V2, f32),
    /// Centre, half size, corner radius.
    RoundBox(V2, V2, f32),
}

pub(super) fn circle(x: f32, y: f32, r: f32) -> Shape {
    Shape::Circle(v2(x, y), r)
}

pub(super) fn ellipse(x: f32, y: f32, rx: f32, ry: f32, deg: f32) -> Shape {
    Shape::Ellipse(v2(x, y), v2(rx, ry), super::paint::deg(deg))
}

pub(super) fn capsule(a: V2, b: V2, ra: f32, rb: f32) -> Shape {
    Shape::Capsule(a, b, ra, rb)
}

pub(super) fn tri(a: V2, b: V2, c: V2, round: f32) -> Shape {
    Shape::Tri(a, b, c, round)
}

pub(super) fn round_box(x: f32, y: f32, hx: f32, hy: f32, round: f32) -> Shape {
    Shape::RoundBox(v2(x, y), v2(hx, hy), round)
}

impl Shape {
    fn sdf(&self, p: V2) -> f32 {
        match *self {
            Shape::Circle(c, r) => sd_circle(p, c, r),
            Shape::Ellipse(c, r, a) => sd_ellipse(p, c, r, a),
            Shape::Capsule(a, b, ra, rb) => {
                let (pa, ba) = (p - a, b - a);
                let h = clamp01(pa.dot(ba) / ba.dot(ba).max(f32::EPSILON));
                (pa - ba * h).len() - (ra + (rb - ra) * h)
            }
            Shape::Tri(a, b, c, round) => sd_triangle(p, a, b, c) - round,
            Shape::RoundBox(c, half, round) => sd_round_box(p, c, half, round),
        }
    }

    fn bounds(&self) -> Bounds {
        match *self {
            Shape::Circle(c, r) => around(c, r, r),
            Shape::Ellipse(c, r, _) => {
                let m = r.x.max(r.y);
                around(c, m, m)
            }
            Shape::Capsule(a, b, ra, rb) => {
                let m = ra.max(rb);
                Bounds {
                    min: v2(a.x.min(b.x) - m, a.y.min(b.y) - m),
                    max: v2(a.x.max(b.x) + m, a.y.max(b.y) + m),
                }
            }
            Shape::Tri(a, b, c, round) => Bounds {
                min: v2(a.x.min(b.x).min(c.x) - round, a.y.min(b.y).min(c.y) - round),
                max: v2(a.x.max(b.x).max(c.x) + round, a.y.max(b.y).max(c.y) + round),
            },
            Shape::RoundBox(c, half, _) => around(c, half.x, half.y),
        }
    }
}

fn union_sdf(shapes: &[Shape], p: V2) -> f32 {
    shapes
        .iter()
        .map(|s| s.sdf(p))
        .fold(f32::INFINITY, f32::min)
}

fn union_bounds(shapes: &[Shape]) -> Bounds {
    let mut b = Bounds {
        min: v2(f32::INFINITY, f32::INFINITY),
        max: v2(f32::NEG_INFINITY, f32::NEG_INFINITY),
    };
    for s in shapes {
        let sb = s.bounds();
        b.min = v2(b.min.x.min(sb.min.x), b.min.y.min(sb.min.y));
        b.max = v2(b.max.x.max(sb.max.x), b.max.y.max(sb.max.y));
    }
    b
}

fn centre_and_half(b: Bounds) -> (V2, V2) {
    let half = (b.max - b.min) * 0.5;
    (b.min + half, v2(half.x.max(1.0), half.y.max(1.0)))
}

/// Draws on a canvas in local coordinates: `local = (canvas - at) / scale`.
pub(super) struct Pen<'a> {
    canvas: &'a mut Canvas,
    at: V2,
    scale: f32,
    /// Outline width in canvas pixels.
    lw: f32,
}

impl<'a> Pen<'a> {
    pub fn new(canvas: &'a mut Canvas, at: V2, scale: f32) -> Self {
        Pen {
            canvas,
            at,
            scale,
            lw: (3.5 * scale).max(1.8),
        }
    }

    fn to_canvas(&self, b: Bounds) -> Bounds {
        Bounds {
            min: self.at + b.min * self.scale,
            max: self.at + b.max * self.scale,
        }
    }

    /// The general case: `sdf` is in local units and `paint` gets the local
    /// point and the distance in canvas pixels.
    pub fn layer(
        &mut self,
        bounds: Bounds,
        soft: f32,
        sdf: impl Fn(V2) -> f32,
        paint: impl Fn(V2, f32) -> (Rgb, f32),
    ) {
        let (at, scale) = (self.at, self.scale);
        let local = move |p: V2| (p - at) * (1.0 / scale);
        let b = self.to_canvas(bounds);
        self.canvas.layer(
            b,
            soft * scale,
            |p| sdf(local(p)) * scale,
            |p, d| paint(local(p), d),
        );
    }

    /// A shaded, outlined part (the union of `shapes`), lit from the upper left.
    pub fn part(&mut self, shapes: &[Shape], coat: Coat) {
        let (c, half) = centre_and_half(union_bounds(shapes));
        self.shaded(
            union_bounds(shapes),
            |q| union_sdf(shapes, q),
            c,
            half,
            coat,
        );
    }

    /// Like [`Pen::part`] for any signed distance in local units.
    pub fn shaded(&mut self, bounds: Bounds, sdf: impl Fn(V2) -> f32, c: V2, half: V2, coat: Coat) {
        let lw = self.lw;
        self.layer(bounds, 0.0, sdf, |q, d| {
            let t = light_at(q, c, half);
            (
                outlined(
                    d,
                    lw,
                    shade3(coat.dark, coat.base, coat.light, t),
                    coat.line,
                ),
                1.0,
            )
        });
    }

    /// A marking: `shapes` painted with `coat` but only inside `clip`, so the
    /// outline of the part it lies on stays visible. Shaded like the part.
    pub fn mark(&mut self, shapes: &[Shape], clip: &[Shape], coat: Coat) {
        let (c, half) = centre_and_half(union_bounds(clip));
        let inset = self.lw / self.scale - 0.3;
        self.layer(
            union_bounds(shapes),
            0.0,
            |q| union_sdf(shapes, q).max(union_sdf(clip, q) + inset),
            |q, _| {
                let t = light_at(q, c, half);
                (shade3(coat.dark, coat.base, coat.light, t), 1.0)
            },
        );
    }

    /// A flat colour without outline.
    pub fn flat(&mut self, shapes: &[Shape], col: Rgb, alpha: f32) {
        self.layer(
            union_bounds(shapes),
            0.0,
            |q| union_sdf(shapes, q),
            |_, _| (col, alpha),
        );
    }

    /// A see-through part (wings): tinted glass with an outline and a sheen.
    pub fn glass(&mut self, shapes: &[Shape], tint: Rgb, line: Rgb) {
        let lw = self.lw * 0.8;
        let (c, half) = centre_and_half(union_bounds(shapes));
        self.layer(
            union_bounds(shapes),
            0.0,
            |q| union_sdf(shapes, q),
            |q, d| {
                let sheen = mix(tint, WHITE, 0.55 * light_at(q, c, half));
                let edge = clamp01(-d - lw + 0.5);
                (mix(line, sheen, edge), 0.55 + 0.45 * (1.0 - edge))
            },
        );
    }

    /// A stroke from `a` to `b`, `w` units wide.
    pub fn stroke(&mut self, a: V2, b: V2, w: f32, col: Rgb) {
        self.flat(&[capsule(a, b, w * 0.5, w * 0.5)], col, 1.0);
    }

    /// An arc stroke (see [`dist_arc`]), angles in degrees.
    pub fn arc(&mut self, c: V2, r: f32, from_deg: f32, sweep_deg: f32, w: f32, col: Rgb) {
        let (a0, sweep) = (super::paint::deg(from_deg), super::paint::deg(sweep_deg));
        self.layer(
            around(c, r + w, r + w),
            0.0,
            |q| dist_arc(q, c, r, a0, sweep) - w * 0.5,
            |_, _| (col, 1.0),
        );
    }

    /// A soft contact shadow on the ground.
    pub fn shadow(&mut self, at: V2, rx: f32, ry: f32, col: Rgb) {
        self.layer(
            around(at, rx, ry),
            9.0,
            |q| sd_ellipse(q, at, v2(rx, ry), 0.0),
            |_, _| (col, 0.30),
        );
    }

    /// A star shaped part (spines, crowns of sparks), shaded like [`Pen::part`].
    pub fn star(&mut self, star: Star, coat: Coat) {
        let (c, r) = (star.centre, star.r + star.round);
        self.shaded(around(c, r, r), |q| star.sdf(q), c, v2(r, r), coat);
    }

    /// A glossy cartoon eye: a dark oval with two white glints. `r` is its
    /// half width; `ring` draws a light rim first (eyes on dark fur).
    pub fn eye(&mut self, at: V2, r: f32, ring: Option<Rgb>) {
        if let Some(ring) = ring {
            self.flat(
                &[Shape::Ellipse(at, v2(r + 3.0, r * 1.25 + 3.0), 0.0)],
                ring,
                1.0,
            );
        }
        let ink = [0.08, 0.07, 0.10];
        self.flat(&[Shape::Ellipse(at, v2(r, r * 1.25), 0.0)], ink, 1.0);
        self.flat(
            &[Shape::Circle(at + v2(-r * 0.33, -r * 0.45), r * 0.4)],
            WHITE,
            1.0,
        );
        self.flat(
            &[Shape::Circle(at + v2(r * 0.35, r * 0.45), r * 0.2)],
            WHITE,
            0.85,
        );
    }

    /// A big round eye with a coloured iris (owls, dinosaurs seen from the side).
    pub fn iris_eye(&mut self, at: V2, r: f32, iris: Rgb, line: Rgb) {
        self.part(&[Shape::Circle(at, r)], solid(iris, line));
        self.eye(at + v2(r * 0.08, 0.0), r * 0.5, None);
    }

    /// Rosy cheeks.
    pub fn blush(&mut self, at: V2, rx: f32) {
        self.layer(
            around(at, rx + 2.0, rx * 0.6 + 2.0),
            2.0,
            |q| sd_ellipse(q, at, v2(rx, rx * 0.58), 0.0),
            |_, _| ([0.96, 0.55, 0.62], 0.5),
        );
    }

    /// A cat-like "w" mouth under the nose.
    pub fn smile(&mut self, at: V2, size: f32, col: Rgb) {
        for side in [-1.0f32, 1.0] {
            self.arc(
                at + v2(side * size, 0.0),
                size,
                10.0,
                160.0,
                size * 0.5,
                col,
            );
        }
    }

    /// Four-pointed glints with a glow (canvas scale).
    pub fn sparkle(&mut self, at: V2, size: f32, col: Rgb) {
        let c = self.at + at * self.scale;
        super::paint::sparkle(self.canvas, c, size * self.scale, col, 0.0);
    }
}

/// A coat of one flat colour with its own outline (eyes, claws, jewels).
/// Light on a part at `q`, for a part centred at `c` with half size `half`:
/// never fully in shadow, so markings keep their colour.
fn light_at(q: V2, c: V2, half: V2) -> f32 {
    0.25 + 0.75 * sphere_light(v2((q.x - c.x) / half.x, (q.y - c.y) / half.y))
}

pub(super) fn solid(col: Rgb, line: Rgb) -> Coat {
    Coat {
        base: col,
        light: mix(col, WHITE, 0.35),
        dark: mix(col, line, 0.2),
        line,
    }
}

/// Points of a curling limb: starts at `from` heading `deg` degrees, turning by
/// `turn` degrees per step of length `step`.
pub(super) fn curl(from: V2, deg: f32, turn: f32, step: f32, steps: usize) -> Vec<V2> {
    let mut out = Vec::with_capacity(steps + 1);
    let (mut p, mut a) = (from, deg);
    out.push(p);
    for _ in 0..steps {
        p = p + V2::from_angle(super::paint::deg(a)) * step;
        a += turn;
        out.push(p);
    }
    out
}

/// Capsules along `points`, tapering from radius `r0` to `r1`.
pub(super) fn tube(points: &[V2], r0: f32, r1: f32) -> Vec<Shape> {
    let n = points.len().saturating_sub(1).max(1) as f32;
    points
        .windows(2)
        .enumerate()
        .map(|(i, w)| {
            let ra = r0 + (r1 - r0) * i as f32 / n;
            let rb = r0 + (r1 - r0) * (i + 1) as f32 / n;
            capsule(w[0], w[1], ra, rb)
        })
        .collect()
}
