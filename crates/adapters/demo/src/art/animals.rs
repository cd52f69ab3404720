//! The animals of the catalogue, each drawn in its own coordinates (about
//! 260 units across, the ground at y = 112) so it can fill a picture or stand
//! small in a bundle.

use super::paint::{hsl, mix, v2, Star, V2, WHITE};
use super::pen::{
    capsule, circle, coat, curl, ellipse, round_box, solid, tri, tube, Coat, Pen, Shape,
};

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
    pub(super) fn backdrop_hue(self) -> f32 {
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

/// Where the ground is, in an animal's coordinates.
pub(super) const GROUND: f32 = 112.0;

pub(super) fn draw_animal(pen: &mut Pen, animal: Animal) {
    match animal {
        Animal::Bunny => bunny(pen),
        Animal::GoldenLab => golden_lab(pen),
        Animal::Raccoon => raccoon(pen, None),
        Animal::RainbowRaccoon => raccoon(pen, Some(rainbow())),
        Animal::RedFox => red_fox(pen),
        Animal::Kitsune => kitsune(pen),
        Animal::FennecFox => fennec_fox(pen),
        Animal::PolarBear => polar_bear(pen),
        Animal::SeaOtter => sea_otter(pen),
        Animal::Hedgehog => hedgehog(pen),
        Animal::Capybara => capybara(pen),
        Animal::Owl => owl(pen, false),
        Animal::NightOwl => owl(pen, true),
        Animal::ScarletMacaw => scarlet_macaw(pen),
        Animal::Dragonfly => dragonfly(pen, coat(192.0, 0.80, 0.50), hsl(185.0, 0.7, 0.85)),
        Animal::GoldenDragonfly => {
            dragonfly(pen, coat(44.0, 0.95, 0.55), hsl(45.0, 0.95, 0.62));
        }
        Animal::Butterfly => butterfly(pen),
        Animal::DiscoBee => bee(pen, BeeCrown::DiscoBall),
        Animal::QueenBee => bee(pen, BeeCrown::Crown),
        Animal::TRex => t_rex(pen),
        Animal::Spinosaurus => spinosaurus(pen),
        Animal::Brontosaurus => brontosaurus(pen),
        Animal::MimicOctopus => mimic_octopus(pen),
    }
}

/// Red to violet, for rainbow things.
fn rainbow() -> Vec<Coat> {
    [0.0f32, 30.0, 52.0, 120.0, 205.0, 275.0]
        .into_iter()
        .map(|h| coat(h, 0.85, 0.58))
        .collect()
}

fn white_fur() -> Coat {
    coat(210.0, 0.2, 0.96)
}

fn ink() -> Coat {
    coat(230.0, 0.15, 0.16)
}

fn lerp(a: V2, b: V2, t: f32) -> V2 {
    a + (b - a) * t
}

// ---------------------------------------------------------------------------
// Mammals: one chibi body (big head, small round body), told apart by ears,
// face, tail and markings.
// ---------------------------------------------------------------------------

const HEAD: V2 = v2(0.0, -30.0);

enum Ears {
    /// Round bear ears.
    Round,
    /// Fox ears; `size` 1 is a red fox's, `tips` paints their ends.
    Pointed { size: f32, tips: Option<Coat> },
    /// Rabbit ears.
    Long,
    /// Dog ears hanging in front of the head, in their own colour.
    Floppy(Coat),
    /// Little round ears (otters, capybaras, hedgehogs).
    Small,
}

enum Face {
    /// A small nose and a "w" mouth.
    Button(Coat),
    /// White cheeks and a pointed black nose (foxes, raccoons).
    Fox,
    /// A round muzzle with a big black nose.
    Dog { tongue: bool },
}

enum Tail {
    None,
    /// A white pom-pom.
    Puff,
    /// A thin wagging tail.
    Thin,
    /// A bushy fox tail whose tip is painted with the coat.
    Bushy(Coat),
    /// A thick tail with rings in turn of these coats.
    Ringed(Vec<Coat>),
    /// Nine bushy tails fanned out, tipped with the coat.
    Fan(Coat),
}

struct Mammal {
    fur: Coat,
    /// Cheeks, belly, muzzle.
    cream: Coat,
    /// Paws (a red fox's black socks).
    feet: Coat,
    ears: Ears,
    face: Face,
    tail: Tail,
    head_r: f32,
    /// A raccoon's black eye mask.
    mask: bool,
    /// A hedgehog's spines.
    spines: Option<Coat>,
}

impl Mammal {
    fn new(fur: Coat, cream: Coat, ears: Ears, face: Face, tail: Tail) -> Self {
        Mammal {
            fur,
            cream,
            feet: fur,
            ears,
            face,
            tail,
            head_r: 60.0,
            mask: false,
            spines: None,
        }
    }

    fn head(&self) -> Shape {
        Shape::Circle(HEAD, self.head_r)
    }
}

fn mammal(pen: &mut Pen, m: &Mammal) {
    let r = m.head_r;
    mammal_tail(pen, &m.tail, m.fur);
    if let Some(spines) = m.spines {
        pen.star(
            Star::new(v2(0.0, -8.0), r * 1.62, 22, 0.8, 0.0, 3.0),
            spines,
        );
    }
    mammal_ears(pen, m, false);

    let body = [ellipse(0.0, 50.0, 46.0, 44.0, 0.0)];
    pen.part(&body, m.fur);
    pen.mark(&[ellipse(0.0, 64.0, 30.0, 32.0, 0.0)], &body, m.cream);
    for side in [-1.0f32, 1.0] {
        let foot = v2(side * 26.0, 93.0);
        pen.part(&[Shape::Ellipse(foot, v2(19.0, 12.0), 0.0)], m.feet);
        for toe in [-5.0f32, 5.0] {
            let a = foot + v2(toe, 4.0);
            pen.stroke(a, a + v2(0.0, 5.0), 2.0, m.feet.line);
        }
        pen.part(
            &[ellipse(side * 31.0, 58.0, 11.0, 15.0, side * -20.0)],
            m.feet,
        );
    }

    let head = [m.head()];
    pen.part(&head, m.fur);
    mammal_ears(pen, m, true);

    // Face.
    let eye_y = HEAD.y;
    let eye_dx = 0.36 * r;
    match m.face {
        Face::Button(nose) => {
            let at = v2(0.0, HEAD.y + 0.2 * r);
            pen.part(&[ellipse(at.x, at.y, 0.09 * r, 0.065 * r, 0.0)], nose);
            pen.smile(at + v2(0.0, 0.1 * r), 0.08 * r, m.fur.line);
        }
        Face::Fox => {
            let cheeks: Vec<Shape> = [-1.0f32, 1.0]
                .into_iter()
                .map(|s| {
                    ellipse(
                        s * 0.36 * r,
                        HEAD.y + 0.45 * r,
                        0.46 * r,
                        0.34 * r,
                        s * -20.0,
                    )
                })
                .collect();
            pen.mark(&cheeks, &head, m.cream);
            let at = v2(0.0, HEAD.y + 0.3 * r);
            pen.part(&[ellipse(at.x, at.y, 0.11 * r, 0.075 * r, 0.0)], ink());
            pen.smile(at + v2(0.0, 0.11 * r), 0.07 * r, m.fur.line);
        }
        Face::Dog { tongue } => {
            let at = v2(0.0, HEAD.y + 0.36 * r);
            if tongue {
                pen.part(
                    &[ellipse(0.0, at.y + 0.26 * r, 0.11 * r, 0.15 * r, 0.0)],
                    coat(350.0, 0.75, 0.66),
                );
            }
            pen.part(&[Shape::Ellipse(at, v2(0.4 * r, 0.27 * r), 0.0)], m.cream);
            pen.part(
                &[ellipse(0.0, at.y - 0.12 * r, 0.15 * r, 0.1 * r, 0.0)],
                ink(),
            );
            pen.stroke(
                at + v2(0.0, -0.04 * r),
                at + v2(0.0, 0.08 * r),
                2.2,
                m.fur.line,
            );
            pen.smile(at + v2(0.0, 0.08 * r), 0.08 * r, m.fur.line);
        }
    }
    // Over the white cheeks.
    if m.mask {
        let mask: Vec<Shape> = [-1.0f32, 1.0]
            .into_iter()
            .map(|s| {
                Shape::Ellipse(
                    v2(s * eye_dx, eye_y + 3.0),
                    v2(0.38 * r, 0.28 * r),
                    s * -0.25,
                )
            })
            .chain([round_box(0.0, eye_y, 0.3 * r, 0.1 * r, 3.0)])
            .collect();
        pen.mark(&mask, &head, ink());
        for s in [-1.0f32, 1.0] {
            let brow = [Shape::Ellipse(
                v2(s * 0.32 * r, eye_y - 0.27 * r),
                v2(0.22 * r, 0.08 * r),
                s * 0.15,
            )];
            pen.mark(&brow, &head, m.cream);
        }
    }
    let ring = m.mask.then_some(hsl(220.0, 0.08, 0.55));
    for s in [-1.0f32, 1.0] {
        pen.eye(v2(s * eye_dx, eye_y), 0.13 * r, ring);
        pen.blush(v2(s * 0.62 * r, HEAD.y + 0.3 * r), 0.14 * r);
    }
}

fn mammal_ears(pen: &mut Pen, m: &Mammal, in_front: bool) {
    let r = m.head_r;
    for s in [-1.0f32, 1.0] {
        match (&m.ears, in_front) {
            (Ears::Round, false) => {
                let at = HEAD + v2(s * 0.7 * r, -0.72 * r);
                let ear = [Shape::Circle(at, 0.3 * r)];
                pen.part(&ear, m.fur);
                pen.mark(&[Shape::Circle(at + v2(0.0, 2.0), 0.16 * r)], &ear, m.cream);
            }
            (Ears::Small, false) => {
                let at = HEAD + v2(s * 0.68 * r, -0.74 * r);
                pen.part(&[Shape::Circle(at, 0.17 * r)], m.fur);
                pen.flat(
                    &[Shape::Circle(at + v2(0.0, 1.5), 0.08 * r)],
                    m.fur.line,
                    0.7,
                );
            }
            (Ears::Pointed { size, tips }, false) => {
                let p0 = HEAD + v2(s * 0.2 * r, -0.8 * r);
                let p1 = HEAD + v2(s * (0.8 + 0.12 * size) * r, -0.36 * r);
                let tip = HEAD + v2(s * (0.6 + 0.3 * size) * r, -(0.72 + 0.62 * size) * r);
                let ear = [tri(p0, p1, tip, 5.0)];
                pen.part(&ear, m.fur);
                let mid = (p0 + p1 + tip) * (1.0 / 3.0);
                let shrink = |q: V2| mid + (q - mid) * 0.55 + v2(0.0, 5.0);
                let inner = [tri(shrink(p0), shrink(p1), shrink(tip), 3.0)];
                pen.mark(&inner, &ear, coat(350.0, 0.55, 0.82));
                if let Some(tips) = tips {
                    pen.mark(&[Shape::Circle(tip, 0.32 * r * size)], &ear, *tips);
                }
            }
            (Ears::Long, false) => {
                let (at, ang) = (HEAD + v2(s * 0.33 * r, -1.3 * r), s * 10.0);
                let ear = [ellipse(at.x, at.y, 0.21 * r, 0.62 * r, ang)];
                pen.part(&ear, m.fur);
                pen.mark(
                    &[ellipse(at.x, at.y + 4.0, 0.1 * r, 0.46 * r, ang)],
                    &ear,
                    coat(350.0, 0.7, 0.8),
                );
            }
            (Ears::Floppy(ear), true) => {
                let at = HEAD + v2(s * 0.9 * r, 0.05 * r);
                pen.part(&[ellipse(at.x, at.y, 0.24 * r, 0.5 * r, s * 16.0)], *ear);
            }
            _ => {}
        }
    }
}

fn mammal_tail(pen: &mut Pen, tail: &Tail, fur: Coat) {
    let (a, b) = (v2(28.0, 82.0), v2(90.0, -6.0));
    match tail {
        Tail::None => {}
        Tail::Puff => pen.part(&[circle(46.0, 80.0, 20.0)], white_fur()),
        Tail::Thin => pen.part(
            &tube(&curl(v2(34.0, 74.0), -35.0, -12.0, 14.0, 4), 7.0, 5.0),
            fur,
        ),
        Tail::Bushy(tip) => {
            let shape = [capsule(a, b, 12.0, 30.0)];
            pen.part(&shape, fur);
            pen.mark(
                &[Shape::Circle(b + (b - a).norm() * 16.0, 30.0)],
                &shape,
                *tip,
            );
        }
        Tail::Ringed(rings) => {
            let shape = [capsule(a, b, 16.0, 21.0)];
            pen.part(&shape, fur);
            let dir = b - a;
            let ang = dir.y.atan2(dir.x).to_degrees();
            for (i, t) in [0.2f32, 0.42, 0.64, 0.86, 1.08].into_iter().enumerate() {
                let c = lerp(a, b, t);
                let ring = rings[i % rings.len().max(1)];
                pen.mark(&[ellipse(c.x, c.y, 7.0, 32.0, ang)], &shape, ring);
            }
        }
        Tail::Fan(tip) => {
            let base = v2(0.0, 45.0);
            for i in 0..9 {
                let dir = V2::from_angle(super::paint::deg(-172.0 + 20.5 * i as f32));
                let shape = [capsule(base + dir * 20.0, base + dir * 118.0, 10.0, 24.0)];
                pen.part(&shape, fur);
                pen.mark(&[Shape::Circle(base + dir * 138.0, 26.0)], &shape, *tip);
            }
        }
    }
}

fn bunny(pen: &mut Pen) {
    let fur = coat(30.0, 0.3, 0.92);
    let m = Mammal::new(
        fur,
        white_fur(),
        Ears::Long,
        Face::Button(coat(350.0, 0.7, 0.7)),
        Tail::Puff,
    );
    mammal(pen, &m);
    // Buck teeth.
    pen.part(
        &[round_box(0.0, -1.0, 5.0, 5.0, 1.5)],
        solid(WHITE, fur.line),
    );
}

fn golden_lab(pen: &mut Pen) {
    let fur = coat(40.0, 0.78, 0.62);
    let mut m = Mammal::new(
        fur,
        coat(44.0, 0.8, 0.84),
        Ears::Floppy(coat(36.0, 0.7, 0.5)),
        Face::Dog { tongue: true },
        Tail::Thin,
    );
    m.head_r = 58.0;
    mammal(pen, &m);
}

fn raccoon(pen: &mut Pen, rainbow: Option<Vec<Coat>>) {
    let rings = rainbow.clone().unwrap_or_else(|| vec![ink()]);
    if rainbow.is_some() {
        for (i, band) in rings.iter().enumerate() {
            pen.arc(
                v2(0.0, 40.0),
                134.0 - 9.0 * i as f32,
                180.0,
                180.0,
                9.5,
                band.base,
            );
        }
    }
    let mut m = Mammal::new(
        coat(220.0, 0.07, 0.6),
        coat(220.0, 0.06, 0.9),
        Ears::Pointed {
            size: 0.6,
            tips: None,
        },
        Face::Fox,
        Tail::Ringed(rings),
    );
    m.mask = true;
    m.feet = coat(220.0, 0.08, 0.34);
    mammal(pen, &m);
}

fn red_fox(pen: &mut Pen) {
    let sock = coat(15.0, 0.35, 0.2);
    let mut m = Mammal::new(
        coat(18.0, 0.88, 0.54),
        white_fur(),
        Ears::Pointed {
            size: 1.0,
            tips: Some(sock),
        },
        Face::Fox,
        Tail::Bushy(white_fur()),
    );
    m.feet = sock;
    mammal(pen, &m);
}

fn kitsune(pen: &mut Pen) {
    let red = coat(355.0, 0.8, 0.52);
    let m = Mammal::new(
        coat(40.0, 0.3, 0.93),
        white_fur(),
        Ears::Pointed {
            size: 1.1,
            tips: Some(red),
        },
        Face::Fox,
        Tail::Fan(red),
    );
    mammal(pen, &m);
    // Spirit markings on the forehead.
    let head = [m.head()];
    pen.mark(&[ellipse(0.0, -70.0, 5.0, 12.0, 0.0)], &head, red);
    for s in [-1.0f32, 1.0] {
        pen.mark(&[ellipse(s * 13.0, -66.0, 3.5, 8.0, s * 25.0)], &head, red);
    }
}

fn fennec_fox(pen: &mut Pen) {
    let m = Mammal::new(
        coat(36.0, 0.55, 0.74),
        white_fur(),
        Ears::Pointed {
            size: 1.7,
            tips: None,
        },
        Face::Fox,
        Tail::Bushy(coat(25.0, 0.4, 0.3)),
    );
    mammal(pen, &m);
}

fn polar_bear(pen: &mut Pen) {
    let m = Mammal::new(
        coat(205.0, 0.3, 0.93),
        coat(45.0, 0.3, 0.95),
        Ears::Round,
        Face::Dog { tongue: false },
        Tail::None,
    );
    mammal(pen, &m);
}

fn sea_otter(pen: &mut Pen) {
    let fur = coat(24.0, 0.42, 0.36);
    let mut m = Mammal::new(
        fur,
        coat(32.0, 0.45, 0.82),
        Ears::Small,
        Face::Dog { tongue: false },
        Tail::Thin,
    );
    m.head_r = 58.0;
    mammal(pen, &m);
    // A pale face, whiskers, and a shell held on the belly.
    for s in [-1.0f32, 1.0] {
        for k in [-1.0f32, 1.0] {
            let a = v2(s * 20.0, -8.0 + k * 3.0);
            pen.stroke(a, a + v2(s * 26.0, k * 6.0), 1.6, fur.line);
        }
    }
    let shell = coat(350.0, 0.6, 0.8);
    pen.part(&[ellipse(0.0, 58.0, 20.0, 16.0, 0.0)], shell);
    for k in [-1.0f32, 0.0, 1.0] {
        pen.stroke(v2(0.0, 68.0), v2(k * 12.0, 47.0), 1.6, shell.line);
    }
    for s in [-1.0f32, 1.0] {
        pen.part(&[ellipse(s * 18.0, 58.0, 9.0, 11.0, 0.0)], fur);
    }
}

fn hedgehog(pen: &mut Pen) {
    let mut m = Mammal::new(
        coat(32.0, 0.5, 0.74),
        coat(36.0, 0.5, 0.86),
        Ears::Small,
        Face::Button(ink()),
        Tail::None,
    );
    m.spines = Some(coat(24.0, 0.4, 0.34));
    mammal(pen, &m);
}

/// A capybara from the side, facing right: barrel body, big blunt head.
fn capybara(pen: &mut Pen) {
    let fur = coat(26.0, 0.45, 0.46);
    let far = coat_darker(fur);
    for x in [-70.0f32, 24.0] {
        dino_leg(pen, v2(x, 62.0), 13.0, far);
    }
    let body = [ellipse(-22.0, 38.0, 86.0, 54.0, 0.0)];
    pen.part(&body, fur);
    pen.mark(
        &[ellipse(-22.0, 84.0, 70.0, 20.0, 0.0)],
        &body,
        coat(30.0, 0.4, 0.62),
    );
    for x in [-52.0f32, 44.0] {
        dino_leg(pen, v2(x, 70.0), 14.0, fur);
    }
    pen.part(&[ellipse(44.0, -30.0, 10.0, 8.0, 0.0)], fur);
    let head = [round_box(74.0, 0.0, 46.0, 34.0, 26.0)];
    pen.part(&head, fur);
    pen.mark(
        &[round_box(104.0, 12.0, 20.0, 24.0, 14.0)],
        &head,
        coat(22.0, 0.4, 0.36),
    );
    pen.mark(&[ellipse(112.0, -4.0, 5.0, 3.0, 0.0)], &head, ink());
    pen.arc(v2(104.0, 18.0), 10.0, 30.0, 110.0, 2.2, fur.line);
    pen.eye(v2(72.0, -12.0), 6.5, None);
    pen.blush(v2(86.0, 10.0), 9.0);
    // The capybara's famous orange on its head.
    pen.part(&[circle(70.0, -48.0, 16.0)], coat(30.0, 0.95, 0.56));
    pen.part(
        &[ellipse(80.0, -66.0, 9.0, 4.5, -25.0)],
        coat(115.0, 0.6, 0.45),
    );
}

// ---------------------------------------------------------------------------
// Birds
// ---------------------------------------------------------------------------

/// A branch to perch on, across the ground line.
fn perch(pen: &mut Pen) {
    let wood = coat(28.0, 0.45, 0.38);
    pen.part(
        &[capsule(v2(-110.0, 104.0), v2(110.0, 98.0), 10.0, 8.0)],
        wood,
    );
    pen.part(
        &[ellipse(70.0, 84.0, 14.0, 7.0, -30.0)],
        coat(110.0, 0.55, 0.5),
    );
}

fn talons(pen: &mut Pen, y: f32, spread: f32) {
    let claw = coat(38.0, 0.85, 0.55);
    for s in [-1.0f32, 1.0] {
        for k in [-1.0f32, 0.0, 1.0] {
            pen.part(
                &[ellipse(s * spread + k * 8.0, y, 4.5, 8.0, k * 15.0)],
                claw,
            );
        }
    }
}

fn owl(pen: &mut Pen, night: bool) {
    let (feathers, face, iris) =
        if night {
            // A moon behind the night owl.
            let moon = coat(50.0, 0.9, 0.8);
            pen.layer(
                super::paint::around(v2(-78.0, -78.0), 40.0, 40.0),
                0.0,
                |q| {
                    super::paint::sd_circle(q, v2(-78.0, -78.0), 38.0)
                        .max(-super::paint::sd_circle(q, v2(-60.0, -90.0), 32.0))
                },
                |_, _| (moon.base, 1.0),
            );
            (
                coat(245.0, 0.4, 0.36),
                coat(240.0, 0.3, 0.62),
                coat(50.0, 0.95, 0.58),
            )
        } else {
            (
                coat(28.0, 0.5, 0.46),
                coat(36.0, 0.55, 0.8),
                coat(30.0, 0.95, 0.55),
            )
        };
    perch(pen);
    let body = [ellipse(0.0, 8.0, 74.0, 90.0, 0.0)];
    for s in [-1.0f32, 1.0] {
        let tuft = [tri(
            v2(s * 30.0, -70.0),
            v2(s * 66.0, -50.0),
            v2(s * 64.0, -108.0),
            4.0,
        )];
        pen.part(&tuft, feathers);
    }
    pen.part(&body, feathers);
    // Chest feathers.
    pen.mark(&[ellipse(0.0, 48.0, 44.0, 46.0, 0.0)], &body, face);
    for (x, y) in [
        (-18.0, 34.0),
        (0.0, 28.0),
        (18.0, 34.0),
        (-9.0, 52.0),
        (9.0, 52.0),
        (0.0, 70.0),
    ] {
        pen.arc(v2(x, y), 7.0, 20.0, 140.0, 2.4, feathers.base);
    }
    for s in [-1.0f32, 1.0] {
        pen.part(
            &[ellipse(s * 66.0, 26.0, 20.0, 50.0, s * -12.0)],
            coat_darker(feathers),
        );
    }
    // Facial discs with big round eyes.
    let discs: Vec<Shape> = [-1.0f32, 1.0]
        .into_iter()
        .map(|s| circle(s * 30.0, -34.0, 32.0))
        .collect();
    pen.mark(&discs, &body, face);
    for s in [-1.0f32, 1.0] {
        pen.iris_eye(v2(s * 30.0, -34.0), 20.0, iris.base, feathers.line);
    }
    pen.part(
        &[tri(v2(-9.0, -14.0), v2(9.0, -14.0), v2(0.0, 4.0), 2.0)],
        coat(40.0, 0.9, 0.55),
    );
    talons(pen, 96.0, 26.0);
}

fn coat_darker(c: Coat) -> Coat {
    Coat {
        base: c.dark,
        light: c.base,
        dark: mix(c.dark, c.line, 0.4),
        line: c.line,
    }
}

fn scarlet_macaw(pen: &mut Pen) {
    let red = coat(356.0, 0.85, 0.5);
    let yellow = coat(46.0, 0.95, 0.55);
    let blue = coat(212.0, 0.8, 0.48);
    perch(pen);
    // Long tail feathers hanging behind the branch.
    let tail = [capsule(v2(0.0, 70.0), v2(12.0, 138.0), 16.0, 9.0)];
    pen.part(&tail, red);
    pen.mark(&[circle(14.0, 142.0, 24.0)], &tail, blue);
    let body = [ellipse(0.0, 32.0, 46.0, 66.0, 0.0)];
    pen.part(&body, red);
    for s in [-1.0f32, 1.0] {
        let wing = [ellipse(s * 44.0, 44.0, 24.0, 60.0, s * -14.0)];
        pen.part(&wing, red);
        pen.mark(&[ellipse(s * 48.0, 44.0, 30.0, 18.0, 0.0)], &wing, yellow);
        pen.mark(&[ellipse(s * 54.0, 90.0, 30.0, 30.0, 0.0)], &wing, blue);
    }
    let head = [circle(0.0, -50.0, 48.0)];
    pen.part(&head, red);
    // White cheek patches, the eyes in them, then the hooked beak.
    for s in [-1.0f32, 1.0] {
        pen.mark(
            &[ellipse(s * 24.0, -48.0, 20.0, 16.0, 0.0)],
            &head,
            white_fur(),
        );
        pen.eye(v2(s * 24.0, -50.0), 7.0, None);
    }
    pen.part(&[ellipse(0.0, -18.0, 13.0, 9.0, 0.0)], ink());
    pen.part(
        &[Shape::Tri(
            v2(-16.0, -40.0),
            v2(16.0, -40.0),
            v2(0.0, -8.0),
            7.0,
        )],
        coat(40.0, 0.35, 0.88),
    );
    talons(pen, 96.0, 22.0);
}

// ---------------------------------------------------------------------------
// Insects, seen from above (dragonflies, butterflies) or from the front (bees)
// ---------------------------------------------------------------------------

fn antennae(pen: &mut Pen, root: V2, spread: f32, length: f32, col: Coat) {
    for s in [-1.0f32, 1.0] {
        let tip = root + v2(s * spread, -length);
        pen.stroke(root + v2(s * 4.0, 0.0), tip, 3.0, col.line);
        pen.part(&[Shape::Circle(tip, 6.0)], col);
    }
}

fn dragonfly(pen: &mut Pen, body: Coat, wing: [f32; 3]) {
    let vein = mix(body.line, WHITE, 0.2);
    for s in [-1.0f32, 1.0] {
        pen.glass(
            &[ellipse(s * 62.0, -58.0, 64.0, 15.0, s * -8.0)],
            wing,
            vein,
        );
        pen.glass(
            &[ellipse(s * 58.0, -28.0, 58.0, 16.0, s * 10.0)],
            wing,
            vein,
        );
    }
    // Long segmented tail.
    let tail = [capsule(v2(0.0, -30.0), v2(0.0, 112.0), 10.0, 6.0)];
    pen.part(&tail, body);
    for k in 0..7 {
        let y = -6.0 + 17.0 * k as f32;
        pen.stroke(v2(-9.0, y), v2(9.0, y), 2.0, body.line);
    }
    pen.part(&[ellipse(0.0, -52.0, 16.0, 24.0, 0.0)], body);
    pen.part(&[circle(0.0, -86.0, 18.0)], body);
    for s in [-1.0f32, 1.0] {
        pen.iris_eye(
            v2(s * 13.0, -92.0),
            12.0,
            mix(body.base, WHITE, 0.3),
            body.line,
        );
    }
    pen.smile(v2(0.0, -78.0), 3.5, body.line);
}

fn butterfly(pen: &mut Pen) {
    let wing = coat(28.0, 0.95, 0.55);
    let edge = ink();
    for s in [-1.0f32, 1.0] {
        let lower = [ellipse(s * 46.0, 42.0, 44.0, 38.0, s * 25.0)];
        pen.part(&lower, wing);
        pen.mark(
            &[ellipse(s * 64.0, 62.0, 34.0, 28.0, s * 25.0)],
            &lower,
            edge,
        );
        let upper = [ellipse(s * 60.0, -30.0, 62.0, 48.0, s * -25.0)];
        pen.part(&upper, wing);
        pen.mark(
            &[ellipse(s * 100.0, -62.0, 46.0, 34.0, s * -25.0)],
            &upper,
            edge,
        );
        // White dots along the dark wing edges, yellow spots inside.
        for (x, y) in [
            (100.0, -52.0),
            (86.0, -72.0),
            (112.0, -34.0),
            (70.0, 72.0),
            (84.0, 58.0),
        ] {
            pen.flat(&[circle(s * x, y, 4.5)], WHITE, 1.0);
        }
        pen.mark(
            &[circle(s * 48.0, -26.0, 14.0), circle(s * 40.0, 36.0, 10.0)],
            &[upper[0], lower[0]],
            coat(48.0, 0.95, 0.7),
        );
    }
    let body = coat(20.0, 0.3, 0.25);
    pen.part(&[capsule(v2(0.0, -50.0), v2(0.0, 76.0), 11.0, 6.0)], body);
    antennae(pen, v2(0.0, -72.0), 26.0, 44.0, body);
    pen.part(&[circle(0.0, -66.0, 16.0)], body);
    for s in [-1.0f32, 1.0] {
        pen.eye(v2(s * 7.0, -68.0), 4.0, None);
    }
}

enum BeeCrown {
    DiscoBall,
    Crown,
}

fn bee(pen: &mut Pen, crown: BeeCrown) {
    let yellow = coat(46.0, 0.95, 0.56);
    let stripe = ink();
    let wing = hsl(200.0, 0.6, 0.9);
    for s in [-1.0f32, 1.0] {
        pen.glass(
            &[ellipse(s * 66.0, -40.0, 44.0, 28.0, s * -30.0)],
            wing,
            stripe.line,
        );
        pen.glass(
            &[ellipse(s * 70.0, 4.0, 32.0, 20.0, s * 15.0)],
            wing,
            stripe.line,
        );
    }
    antennae(pen, v2(0.0, -56.0), 30.0, 44.0, stripe);
    // Stinger and little legs.
    pen.part(
        &[tri(v2(-9.0, 92.0), v2(9.0, 92.0), v2(0.0, 112.0), 2.0)],
        stripe,
    );
    let body = [circle(0.0, 20.0, 76.0)];
    pen.part(&body, yellow);
    pen.mark(
        &[
            round_box(0.0, 36.0, 90.0, 11.0, 0.0),
            round_box(0.0, 72.0, 90.0, 11.0, 0.0),
        ],
        &body,
        stripe,
    );
    for s in [-1.0f32, 1.0] {
        pen.eye(v2(s * 26.0, -4.0), 9.0, None);
        pen.blush(v2(s * 46.0, 12.0), 9.0);
    }
    pen.smile(v2(0.0, 10.0), 6.0, stripe.line);
    match crown {
        BeeCrown::Crown => {
            let gold = coat(44.0, 0.95, 0.55);
            let points: Vec<Shape> = [-1.0f32, 0.0, 1.0]
                .into_iter()
                .map(|k| {
                    tri(
                        v2(k * 24.0 - 13.0, -66.0),
                        v2(k * 24.0 + 13.0, -66.0),
                        v2(k * 26.0, -98.0),
                        2.5,
                    )
                })
                .chain([round_box(0.0, -62.0, 38.0, 10.0, 3.0)])
                .collect();
            pen.part(&points, gold);
            for (k, h) in [(-1.0f32, 350.0), (0.0, 200.0), (1.0, 130.0)] {
                pen.part(&[circle(k * 22.0, -62.0, 5.0)], coat(h, 0.8, 0.55));
            }
        }
        BeeCrown::DiscoBall => {
            let at = v2(-80.0, -88.0);
            pen.stroke(at + v2(0.0, -40.0), at, 2.0, stripe.line);
            let ball = [Shape::Circle(at, 26.0)];
            pen.part(&ball, coat(220.0, 0.12, 0.75));
            // Mirror tiles in party colours.
            for (i, x) in [-16.0f32, -6.0, 4.0, 14.0].into_iter().enumerate() {
                for (j, y) in [-16.0f32, -6.0, 4.0, 14.0].into_iter().enumerate() {
                    let h = 60.0 * ((i + 2 * j) % 6) as f32;
                    pen.mark(
                        &[round_box(at.x + x, at.y + y, 3.8, 3.8, 1.0)],
                        &ball,
                        coat(h, 0.8, 0.68),
                    );
                }
            }
            for (x, y, h) in [
                (70.0f32, -100.0f32, 300.0f32),
                (100.0, -56.0, 180.0),
                (-108.0, -30.0, 50.0),
            ] {
                pen.sparkle(v2(x, y), 12.0, hsl(h, 0.9, 0.7));
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Dinosaurs, seen from the side and facing right
// ---------------------------------------------------------------------------

/// A leg from the hip down to a foot on the ground.
fn dino_leg(pen: &mut Pen, hip: V2, thick: f32, skin: Coat) {
    let foot = v2(hip.x + 8.0, GROUND - 8.0);
    pen.part(&[capsule(hip, foot, thick, thick * 0.75)], skin);
    pen.part(
        &[ellipse(
            foot.x + thick * 0.5,
            GROUND - 4.0,
            thick * 1.2,
            7.0,
            0.0,
        )],
        skin,
    );
}

/// A dinosaur on two legs: far leg, tail, body with a pale belly, thigh, near
/// leg and a small arm; `dy` lower than a T-Rex's and `bulk` times as heavy.
/// Returns the body, for markings.
fn biped(pen: &mut Pen, skin: Coat, belly: Coat, dy: f32, bulk: f32) -> [Shape; 1] {
    dino_leg(pen, v2(-20.0, 52.0 + dy), 15.0 * bulk, coat_darker(skin));
    let tail = capsule(
        v2(-40.0, 30.0 + dy),
        v2(-132.0, 62.0 + dy),
        30.0 * bulk,
        5.0,
    );
    pen.part(&[tail], skin);
    let body = [ellipse(-8.0, 26.0 + dy, 56.0, 44.0 * bulk, -24.0 * bulk)];
    pen.part(&body, skin);
    pen.mark(
        &[ellipse(18.0, 52.0 + dy, 40.0, 24.0, -30.0 * bulk)],
        &body,
        belly,
    );
    pen.part(
        &[ellipse(4.0, 58.0 + dy, 26.0 * bulk, 34.0 * bulk, -10.0)],
        skin,
    );
    dino_leg(pen, v2(8.0, 70.0 + dy), 14.0 * bulk, skin);
    let (shoulder, elbow) = (v2(40.0, 16.0 + dy), v2(58.0, 30.0 + dy));
    pen.part(&[capsule(shoulder, elbow, 6.0, 5.0)], skin);
    pen.part(&[capsule(elbow, elbow + v2(6.0, -6.0), 3.0, 2.0)], skin);
    body
}

fn t_rex(pen: &mut Pen) {
    let skin = coat(100.0, 0.5, 0.45);
    let body = biped(pen, skin, coat(60.0, 0.55, 0.74), 0.0, 1.0);
    // Neck and the big head, its jaws open on rows of teeth.
    pen.part(
        &[capsule(v2(18.0, -8.0), v2(48.0, -46.0), 28.0, 26.0)],
        skin,
    );
    pen.part(
        &[tri(v2(34.0, -54.0), v2(122.0, -54.0), v2(112.0, -6.0), 4.0)],
        coat(352.0, 0.55, 0.32),
    );
    let jaw = (v2(36.0, -38.0), v2(112.0, -4.0));
    let tooth = solid(WHITE, skin.line);
    pen.part(&[capsule(jaw.0, jaw.1, 14.0, 9.0)], skin);
    for x in [58.0f32, 72.0, 86.0, 100.0] {
        let y = jaw.0.y + (jaw.1.y - jaw.0.y) * (x - jaw.0.x) / (jaw.1.x - jaw.0.x) - 10.0;
        pen.part(
            &[tri(
                v2(x - 4.5, y + 3.0),
                v2(x + 4.5, y + 3.0),
                v2(x, y - 7.0),
                1.0,
            )],
            tooth,
        );
    }
    let head = [round_box(70.0, -74.0, 52.0, 26.0, 22.0)];
    pen.part(&head, skin);
    for x in [52.0f32, 66.0, 80.0, 94.0, 108.0] {
        pen.part(
            &[tri(
                v2(x - 5.0, -52.0),
                v2(x + 5.0, -52.0),
                v2(x, -40.0),
                1.0,
            )],
            tooth,
        );
    }
    for (x, y) in [(-20.0f32, 0.0f32), (-40.0, 12.0), (0.0, -8.0)] {
        pen.mark(&[ellipse(x, y, 8.0, 5.0, -24.0)], &body, coat_darker(skin));
    }
    pen.mark(&[ellipse(108.0, -84.0, 3.0, 2.0, 0.0)], &head, ink());
    pen.part(&[ellipse(70.0, -94.0, 14.0, 5.0, -8.0)], coat_darker(skin));
    pen.eye(v2(72.0, -80.0), 7.0, None);
    pen.blush(v2(92.0, -64.0), 8.0);
}

fn spinosaurus(pen: &mut Pen) {
    let skin = coat(185.0, 0.42, 0.44);
    let sail = coat(14.0, 0.8, 0.56);
    let belly = coat(50.0, 0.45, 0.78);
    // The sail along its back, ribbed by spines.
    let sail_shape = [ellipse(-18.0, -4.0, 64.0, 58.0, 0.0)];
    pen.part(&sail_shape, sail);
    for k in 0..7 {
        let a = super::paint::deg(-160.0 + 23.0 * k as f32);
        let c = v2(-18.0, -4.0);
        pen.stroke(
            c + V2::from_angle(a) * 20.0,
            c + V2::from_angle(a) * v2(60.0, 54.0).len() * 0.8,
            2.2,
            sail.line,
        );
    }
    biped(pen, skin, belly, 10.0, 0.85);
    // Neck and the long crocodile snout.
    pen.part(
        &[capsule(v2(30.0, 20.0), v2(60.0, -20.0), 24.0, 20.0)],
        skin,
    );
    pen.part(&[round_box(96.0, -20.0, 50.0, 11.0, 10.0)], skin);
    let head = [
        round_box(88.0, -34.0, 58.0, 16.0, 14.0),
        circle(62.0, -38.0, 24.0),
    ];
    pen.part(&head, skin);
    pen.stroke(v2(62.0, -22.0), v2(142.0, -24.0), 2.2, skin.line);
    pen.eye(v2(64.0, -44.0), 6.5, None);
    pen.mark(&[ellipse(136.0, -40.0, 3.0, 2.0, 0.0)], &head, ink());
}

fn brontosaurus(pen: &mut Pen) {
    let skin = coat(272.0, 0.32, 0.62);
    let belly = coat(300.0, 0.3, 0.82);
    let far = coat_darker(skin);
    for x in [-52.0f32, 16.0] {
        dino_leg(pen, v2(x, 52.0), 14.0, far);
    }
    pen.part(
        &[capsule(v2(-56.0, 40.0), v2(-138.0, 86.0), 24.0, 4.0)],
        skin,
    );
    pen.part(
        &[capsule(v2(30.0, 20.0), v2(82.0, -92.0), 22.0, 13.0)],
        skin,
    );
    let body = [ellipse(-14.0, 36.0, 70.0, 46.0, -4.0)];
    pen.part(&body, skin);
    pen.mark(&[ellipse(-10.0, 70.0, 56.0, 20.0, -4.0)], &body, belly);
    for (x, y) in [(-40.0f32, 10.0f32), (-12.0, 2.0), (16.0, 8.0)] {
        pen.mark(&[circle(x, y, 8.0)], &body, coat_darker(skin));
    }
    for x in [-36.0f32, 32.0] {
        dino_leg(pen, v2(x, 62.0), 15.0, skin);
    }
    let head = [ellipse(96.0, -98.0, 28.0, 18.0, 8.0)];
    pen.part(&head, skin);
    pen.eye(v2(96.0, -104.0), 5.5, None);
    pen.arc(v2(108.0, -96.0), 8.0, 20.0, 110.0, 2.0, skin.line);
    pen.blush(v2(108.0, -90.0), 6.0);
}

// ---------------------------------------------------------------------------
// Octopus
// ---------------------------------------------------------------------------

fn mimic_octopus(pen: &mut Pen) {
    let brown = coat(24.0, 0.5, 0.42);
    let cream = coat(34.0, 0.55, 0.84);
    // Arms curling out from under the mantle, banded like a mimic octopus.
    for s in [-1.0f32, 1.0] {
        for (x, ang, turn) in [
            (12.0f32, 92.0f32, 12.0f32),
            (30.0, 104.0, 16.0),
            (48.0, 124.0, 22.0),
        ] {
            // Mirrored for the right side: heading and turn flip.
            let (ang, turn) = if s < 0.0 {
                (ang, turn)
            } else {
                (180.0 - ang, -turn)
            };
            let points = curl(v2(s * x, 30.0), ang, turn, 17.0, 5);
            let arm = tube(&points, 17.0, 6.0);
            pen.part(&arm, brown);
            let bands: Vec<Shape> = points
                .windows(3)
                .step_by(2)
                .map(|w| {
                    let dir = w[2] - w[0];
                    Shape::Ellipse(w[1], v2(6.0, 24.0), dir.y.atan2(dir.x))
                })
                .collect();
            pen.mark(&bands, &arm, cream);
        }
    }
    let mantle = [ellipse(0.0, -30.0, 66.0, 72.0, 0.0)];
    pen.part(&mantle, brown);
    let stripes: Vec<Shape> = [-58.0f32, -30.0, 26.0]
        .into_iter()
        .map(|y| ellipse(0.0, y, 80.0, 6.0, 0.0))
        .collect();
    pen.mark(&stripes, &mantle, cream);
    for s in [-1.0f32, 1.0] {
        pen.part(&[circle(s * 28.0, 2.0, 18.0)], cream);
        pen.eye(v2(s * 28.0, 2.0), 9.0, None);
        pen.blush(v2(s * 48.0, 18.0), 8.0);
    }
    pen.smile(v2(0.0, 20.0), 5.0, brown.line);
    // It is "Shocked": little lightning sparks.
    let bolt = coat(52.0, 0.95, 0.6);
    for (x, y, s) in [(-92.0f32, -70.0f32, 1.0f32), (96.0, -52.0, -1.0)] {
        let zig = [
            tri(
                v2(x, y - 22.0),
                v2(x + s * 12.0, y - 22.0),
                v2(x - s * 2.0, y + 2.0),
                1.5,
            ),
            tri(
                v2(x - s * 6.0, y - 2.0),
                v2(x + s * 8.0, y - 2.0),
                v2(x - s * 6.0, y + 24.0),
                1.5,
            ),
        ];
        pen.part(&zig, bolt);
    }
}
