//! The demo catalog and staff a new shop starts with, so `just run` opens a full storefront and
//! an admin to sign in to: the `demo` crate's, used only here and never in production.

pub use demo::{demo_catalog, demo_staff, print_demo_logins};
