//! Promo codes and the rules for redeeming them: unique uppercase codes, a whole-percent
//! discount, an optional expiry, an optional total use limit, one redemption per Discord
//! account, counted when the order is paid.

mod error;
mod models;
mod ports;
mod service;

pub use cart_pricing::DiscountPercent;
pub use error::{
    CreatePromoError, DeletePromoError, ListPromoError, UpdatePromoError, ValidatePromoError,
};
pub use models::{
    evaluate, AppliedPromo, DiscordId, DiscordIdError, MaxUses, NewPromo, Promo, PromoChange,
    PromoCode, PromoCodeError, PromoId, PromoSummary, PromoUsage, PromoValidation, Rejection,
};
#[cfg(any(test, feature = "mocks"))]
pub use ports::MockPromoRepository;
pub use ports::{PromoRepository, PromoService};
pub use service::Promos;
pub use shared::{Clock, FixedClock};
