//! Orders: what a shopper bought, from whom, for how much, and where it stands.

pub mod gateways;
