use shared::Actor;

use crate::{
    evaluate, Clock, CreatePromoError, DeletePromoError, DiscordId, ListPromoError, NewPromo,
    Promo, PromoChange, PromoCode, PromoId, PromoRepository, PromoService, PromoSummary,
    PromoValidation, Rejection, UpdatePromoError, ValidatePromoError,
};

/// The promo rules over a repository and a clock.
#[derive(Debug, Clone)]
pub struct Promos<R, C> {
    repository: R,
    clock: C,
}

impl<R: PromoRepository, C: Clock> Promos<R, C> {
    pub fn new(repository: R, clock: C) -> Self {
        Promos { repository, clock }
    }

    pub fn repository(&self) -> &R {
        &self.repository
    }

    /// Creates a code (super_admin `actor`). See [`PromoRepository::create`] for the errors.
    #[tracing::instrument(skip(self, actor), fields(code = %promo.code))]
    pub async fn create(&self, promo: NewPromo, actor: &Actor) -> Result<Promo, CreatePromoError> {
        self.repository.create(promo, actor).await
    }

    /// Every code with its uses so far, newest first (super_admin).
    #[tracing::instrument(skip(self))]
    pub async fn list(&self) -> Result<Vec<PromoSummary>, ListPromoError> {
        self.repository.list().await
    }

    /// Changes a code (super_admin `actor`). See [`PromoRepository::update`].
    #[tracing::instrument(skip(self, actor))]
    pub async fn update(
        &self,
        id: PromoId,
        change: PromoChange,
        actor: &Actor,
    ) -> Result<PromoSummary, UpdatePromoError> {
        self.repository.update(id, change, actor).await
    }

    /// Deletes a never-used code (super_admin `actor`). See [`PromoRepository::delete`].
    #[tracing::instrument(skip(self, actor))]
    pub async fn delete(&self, id: PromoId, actor: &Actor) -> Result<(), DeletePromoError> {
        self.repository.delete(id, actor).await
    }
}

impl<R: PromoRepository, C: Clock> PromoService for Promos<R, C> {
    #[tracing::instrument(skip(self, discord_id))]
    async fn validate(
        &self,
        code: &str,
        discord_id: &DiscordId,
    ) -> Result<PromoValidation, ValidatePromoError> {
        let Ok(code) = PromoCode::parse(code) else {
            return Ok(PromoValidation::Rejected(Rejection::Invalid));
        };
        Ok(match self.repository.usage(&code, discord_id).await? {
            None => PromoValidation::Rejected(Rejection::Invalid),
            Some(usage) => evaluate(&usage, self.clock.now()),
        })
    }
}

#[cfg(test)]
mod tests {
    use cart_pricing::DiscountPercent;
    use chrono::{DateTime, Duration, TimeZone, Utc};
    use mockall::predicate::eq;

    use super::*;
    use crate::ports::MockPromoRepository;
    use crate::{AppliedPromo, FixedClock, MaxUses, PromoId, PromoUsage};

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap()
    }

    fn discord() -> DiscordId {
        DiscordId::parse("123456789012345678").unwrap()
    }

    fn usage(
        expires_in: Option<Duration>,
        max_uses: Option<i64>,
        uses: u32,
        used: bool,
    ) -> PromoUsage {
        PromoUsage {
            promo: Promo {
                id: PromoId::new(7),
                code: PromoCode::parse("SPRING").unwrap(),
                discount: DiscountPercent::new(15).unwrap(),
                expires_at: expires_in.map(|d| now() + d),
                max_uses: max_uses.and_then(MaxUses::new),
                active: true,
                created_at: now() - Duration::days(3),
            },
            uses,
            used_by_account: used,
        }
    }

    fn promos(found: Option<PromoUsage>) -> Promos<MockPromoRepository, FixedClock> {
        let mut repo = MockPromoRepository::new();
        repo.expect_usage()
            .with(eq(PromoCode::parse("SPRING").unwrap()), eq(discord()))
            .returning(move |_, _| {
                let found = found.clone();
                Box::pin(async move { Ok(found) })
            });
        Promos::new(repo, FixedClock(now()))
    }

    async fn check(found: Option<PromoUsage>, typed: &str) -> PromoValidation {
        promos(found).validate(typed, &discord()).await.unwrap()
    }

    #[tokio::test]
    async fn a_live_code_gives_its_discount_whatever_the_case_typed() {
        let result = check(
            Some(usage(Some(Duration::hours(1)), Some(10), 9, false)),
            " spring ",
        )
        .await;
        assert_eq!(
            result,
            PromoValidation::Valid(AppliedPromo {
                id: PromoId::new(7),
                code: PromoCode::parse("SPRING").unwrap(),
                discount: DiscountPercent::new(15).unwrap(),
            })
        );
    }

    #[tokio::test]
    async fn an_unknown_code_is_invalid() {
        assert_eq!(
            check(None, "SPRING").await,
            PromoValidation::Rejected(Rejection::Invalid)
        );
    }

    #[tokio::test]
    async fn text_that_cannot_be_a_code_is_invalid_without_asking_the_store() {
        let promos = Promos::new(MockPromoRepository::new(), FixedClock(now()));
        let result = promos.validate("no spaces!", &discord()).await.unwrap();
        assert_eq!(result, PromoValidation::Rejected(Rejection::Invalid));
    }

    #[tokio::test]
    async fn a_code_expires_at_its_expiry_time() {
        let at_expiry = usage(Some(Duration::zero()), None, 0, false);
        assert_eq!(
            check(Some(at_expiry), "SPRING").await,
            PromoValidation::Rejected(Rejection::Expired)
        );
        let a_second_before = usage(Some(Duration::seconds(1)), None, 0, false);
        assert!(matches!(
            check(Some(a_second_before), "SPRING").await,
            PromoValidation::Valid(_)
        ));
    }

    #[tokio::test]
    async fn a_code_used_as_often_as_allowed_is_used_up() {
        let used_up = usage(None, Some(3), 3, false);
        assert_eq!(
            check(Some(used_up), "SPRING").await,
            PromoValidation::Rejected(Rejection::UsedUp)
        );
        let unlimited = usage(None, None, 10_000, false);
        assert!(matches!(
            check(Some(unlimited), "SPRING").await,
            PromoValidation::Valid(_)
        ));
    }

    #[tokio::test]
    async fn one_discord_account_redeems_a_code_once() {
        let used = usage(None, None, 1, true);
        assert_eq!(
            check(Some(used), "SPRING").await,
            PromoValidation::Rejected(Rejection::AlreadyUsed)
        );
    }

    #[tokio::test]
    async fn the_account_holding_the_last_use_hears_it_used_the_code() {
        let held_by_this_account = usage(None, Some(1), 1, true);
        assert_eq!(
            check(Some(held_by_this_account), "SPRING").await,
            PromoValidation::Rejected(Rejection::AlreadyUsed)
        );
    }

    #[tokio::test]
    async fn a_switched_off_code_is_refused_before_every_other_reason() {
        let mut off = usage(None, None, 0, false);
        off.promo.active = false;
        assert_eq!(
            check(Some(off), "SPRING").await,
            PromoValidation::Rejected(Rejection::Inactive)
        );
        let mut everything = usage(Some(-Duration::days(1)), Some(1), 1, true);
        everything.promo.active = false;
        assert_eq!(
            check(Some(everything), "SPRING").await,
            PromoValidation::Rejected(Rejection::Inactive)
        );
    }

    #[test]
    fn a_change_touches_only_the_fields_it_names() {
        let promo = usage(Some(Duration::days(1)), Some(5), 0, false).promo;
        assert!(PromoChange::default().is_empty());
        assert_eq!(PromoChange::default().apply(&promo), promo);
        let change = PromoChange {
            max_uses: Some(None),
            active: Some(false),
            ..PromoChange::default()
        };
        let changed = change.apply(&promo);
        assert_eq!(changed.max_uses, None);
        assert!(!changed.active);
        assert_eq!(
            (changed.discount, changed.expires_at, &changed.code),
            (promo.discount, promo.expires_at, &promo.code)
        );
    }

    #[tokio::test]
    async fn expiry_is_reported_before_the_other_reasons() {
        let everything = usage(Some(-Duration::days(1)), Some(1), 1, true);
        assert_eq!(
            check(Some(everything), "SPRING").await,
            PromoValidation::Rejected(Rejection::Expired)
        );
    }

    #[tokio::test]
    async fn a_duplicate_code_is_reported_as_such() {
        let mut repo = MockPromoRepository::new();
        repo.expect_create().returning(|promo, _| {
            Box::pin(async move { Err(CreatePromoError::Duplicate(promo.code)) })
        });
        let promos = Promos::new(repo, FixedClock(now()));
        let result = promos
            .create(
                NewPromo {
                    code: PromoCode::parse("spring").unwrap(),
                    discount: DiscountPercent::new(10).unwrap(),
                    expires_at: None,
                    max_uses: None,
                },
                &Actor::command_line(),
            )
            .await;
        assert!(
            matches!(result, Err(CreatePromoError::Duplicate(code)) if code.as_str() == "SPRING")
        );
    }
}
