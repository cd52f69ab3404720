//! Roblox for Garden Shop: checks that a username exists, gives its canonical spelling and
//! avatar headshot ([`orders::gateways::RobloxDirectory`]).
//!
//! * [`RobloxApi`] asks the Roblox web APIs and remembers answers for ten minutes.
//! * [`LocalRoblox`] stands in offline (DESIGN §5): every well-formed username exists and its
//!   avatar is a picture we draw ourselves ([`dev_avatar_svg`]), served by the app at
//!   [`dev_avatar_path`].

mod api;
mod local;

pub use api::{RobloxApi, RobloxSettings, RobloxSetupError, CACHE_TTL};
pub use local::{dev_avatar_path, dev_avatar_svg, LocalRoblox, DEV_AVATAR_PREFIX};
