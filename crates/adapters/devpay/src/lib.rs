//! The local stand-ins for Stripe and Discord, so the shop runs end to end offline when their
//! credentials are not set (never in production, which refuses to start without them): the dev
//! payment provider, whose page is `/dev/pay/{order_id}` on the shop itself, and the dev
//! Discord sign-in, whose page is `/dev/discord/authorize`.
//!
//! This crate gives the providers (the orders domain's `PaymentGateway` and
//! `DiscordIdentityProvider` ports) and the HTML of their pages; the app serves the pages and
//! applies what their forms post.

mod pages;
mod stand_ins;

pub use pages::{discord_page, pay_page};
pub use stand_ins::{
    bank, encode_query_value, random_token, DevDiscord, DevPayments, DEMO_IDENTITIES,
};
