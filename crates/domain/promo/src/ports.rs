use std::future::Future;

use shared::Actor;

use crate::{
    CreatePromoError, DeletePromoError, DiscordId, ListPromoError, NewPromo, Promo, PromoChange,
    PromoCode, PromoId, PromoSummary, PromoUsage, PromoValidation, UpdatePromoError,
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

    /// Every code with its uses so far, newest first.
    fn list(&self) -> impl Future<Output = Result<Vec<PromoSummary>, ListPromoError>> + Send;

    /// Applies `change` to the code and appends the audit log's entry (before and after) in the
    /// same transaction, the code's row held so no order claims a use meanwhile.
    /// `UpdatePromoError::NotFound` for an unknown id; `MaxUsesBelowUses` when the new limit is
    /// below the uses so far (nothing written).
    fn update(
        &self,
        id: PromoId,
        change: PromoChange,
        actor: &Actor,
    ) -> impl Future<Output = Result<PromoSummary, UpdatePromoError>> + Send;

    /// Deletes a code no order ever used, with its audit entry, in one transaction.
    /// `DeletePromoError::NotFound` for an unknown id; `Used` when an order (of any status)
    /// names it or a use is held (nothing written).
    fn delete(
        &self,
        id: PromoId,
        actor: &Actor,
    ) -> impl Future<Output = Result<(), DeletePromoError>> + Send;

    /// The code with its redemption count and whether `discord_id` has redeemed it;
    /// `Ok(None)` for an unknown code. Fails only with `ValidatePromoError::Unknown`.
    fn usage(
        &self,
        code: &PromoCode,
        discord_id: &DiscordId,
    ) -> impl Future<Output = Result<Option<PromoUsage>, ValidatePromoError>> + Send;
}

/// What the promo rules decide for the rest of the shop (the codes themselves are kept
/// through [`PromoRepository`], which `Promos` passes its admin's changes to).
pub trait PromoService: Send + Sync + 'static {
    /// Whether the shopper with this Discord account may use the code typed now. Text that is
    /// not a well-formed code is simply an invalid code.
    fn validate(
        &self,
        code: &str,
        discord_id: &DiscordId,
    ) -> impl Future<Output = Result<PromoValidation, ValidatePromoError>> + Send;
}
