//! The demo shop a development database starts with (docs/architecture.md, "The crates"): the
//! demo staff ([`demo_staff`], [`print_demo_logins`]) and the demo catalog ([`demo_catalog`])
//! with a picture of each product. Only seeding uses it; the app never seeds in production.

// Tests may unwrap freely; production code may not (workspace lints).
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

mod catalog;
mod staff;

pub use catalog::demo_catalog;
pub use staff::{demo_staff, print_demo_logins};
