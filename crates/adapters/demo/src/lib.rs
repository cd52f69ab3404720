//! The demo shop a development database starts with (docs/architecture.md, "The crates"): the
//! demo staff ([`demo_staff`], [`print_demo_logins`]), the demo catalog ([`demo_catalog`]) and
//! the product art it is drawn with
//! ([`generate_product_art`]: plain maths, no fonts, no bundled artwork; each demo [`Animal`] as
//! itself, Sheckles as coins, bundles as their animals). Only seeding uses it; the app never
//! seeds in production.

// Tests may unwrap freely; production code may not (workspace lints).
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

mod art;
mod catalog;
mod staff;

pub use art::{generate_product_art, Animal, ArtSpec, Subject, ART_SIZE};
pub use catalog::demo_catalog;
pub use staff::{demo_staff, print_demo_logins};
