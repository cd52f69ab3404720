use std::future::Future;

use shared::Actor;

use crate::{
    CreatePromoError, DiscordId, NewPromo, Promo, PromoCode, PromoUsage, PromoValidation,
    ValidatePromoError,
};

/// Where promo codes and their redemptions are kept.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait PromoRepository: Send + Sync + 'static {
    /// Stores a new code with the current time as its creation time, and the audit log's
    /// entry for it by `actor` in the same transaction.
    /// `CreatePromoError::Duplicate` when the code exists already (codes are unique);
    /// anything else is `CreatePromoError::Unknown`.
    fn create(
        &self,
        promo: NewPromo,
        actor: &Actor,
    ) -> impl Future<Output = Result<Promo, CreatePromoError>> + Send;

    /// The code with its redemption count and whether `discord_id` has redeemed it;
    /// `Ok(None)` for an unknown code. Fails only with `ValidatePromoError::Unknown`.
    fn usage(
        &self,
        code: &PromoCode,
        discord_id: &DiscordId,
    ) -> impl Future<Output = Result<Option<PromoUsage>, ValidatePromoError>> + Send;
}

/// What the promo rules offer the rest of the shop.
pub trait PromoService: Send + Sync + 'static {
    /// Creates a code (super_admin `actor`). See [`PromoRepository::create`] for the errors.
    fn create(
        &self,
        promo: NewPromo,
        actor: &Actor,
    ) -> impl Future<Output = Result<Promo, CreatePromoError>> + Send;

    /// Whether the shopper with this Discord account may use the code typed now. Text that is
    /// not a well-formed code is simply an invalid code.
    fn validate(
        &self,
        code: &str,
        discord_id: &DiscordId,
    ) -> impl Future<Output = Result<PromoValidation, ValidatePromoError>> + Send;
}
