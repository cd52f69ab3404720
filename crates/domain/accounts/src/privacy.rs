//! A shopper's right to see what the shop keeps about them: every personal field stored with
//! the account, its orders (with what was given to place them) and its help chats, read
//! through [`PersonalDataSource`] and stamped with the shop's clock (docs/product.md, "Your
//! data").

use std::future::Future;

use chrono::{DateTime, Utc};

use crate::{Clock, RepoError, UserId};

/// Everything the shop keeps about an account.
#[derive(Debug, Clone, PartialEq)]
pub struct PersonalData {
    /// When the account was created.
    pub account_created_at: DateTime<Utc>,
    /// Newest first.
    pub orders: Vec<OrderRecord>,
    /// Oldest first.
    pub chats: Vec<ChatRecord>,
}

/// One order of the account with every personal field the shop stored with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderRecord {
    pub id: i64,
    pub status: String,
    pub created_at: DateTime<Utc>,
    pub paid_at: Option<DateTime<Utc>>,
    pub delivered_at: Option<DateTime<Utc>>,
    /// In the order's own order.
    pub lines: Vec<LineRecord>,
    pub subtotal_cents: i64,
    pub discount_cents: i64,
    pub fee_cents: i64,
    pub total_cents: i64,
    pub promo_code: Option<String>,
    pub payment_method: String,
    pub email: String,
    /// Empty once erased (an account's own orders always have one until then).
    pub discord_id: String,
    pub discord_username: String,
    pub discord_avatar: Option<String>,
    pub roblox_username: String,
    pub client_ip: Option<String>,
    /// The address the buyer said "I'm in the game" from.
    pub buyer_ready_ip: Option<String>,
    /// The address the buyer said "I got my items" from.
    pub received_ip: Option<String>,
    /// The buyer's Discord thread for its delivery, if one was opened.
    pub ticket_thread_id: Option<String>,
    /// The problem the buyer reported with its delivery, if any.
    pub ticket_problem: Option<String>,
    pub review: Option<ReviewRecord>,
    /// The disputes of the order and what of it went to the payment provider as evidence.
    pub disputes: Vec<DisputeRecord>,
    /// The messages between the buyer and staff on the order's page, oldest first.
    pub messages: Vec<OrderMessageRecord>,
}

/// One message on an order's page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderMessageRecord {
    /// `buyer` or `staff`.
    pub from: String,
    /// The buyer's Roblox name, or the member of staff's name.
    pub author: String,
    pub text: String,
    pub created_at: DateTime<Utc>,
}

/// A dispute of one of the shopper's orders, and the evidence fields sent about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisputeRecord {
    pub dispute_id: String,
    /// `none`, `staged` or `submitted`.
    pub evidence: String,
    /// The evidence fields sent to the payment provider (none until staged).
    pub sent_to_provider: Vec<String>,
}

/// One line of an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineRecord {
    pub product_id: i64,
    pub name: String,
    pub unit_price_cents: i64,
    pub quantity: i32,
}

/// The review the shopper left on one of their orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewRecord {
    pub rating: i16,
    pub text: String,
    /// The name shown with it.
    pub name: String,
    pub created_at: DateTime<Utc>,
}

/// One help chat of the account, with its messages oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatRecord {
    pub id: String,
    pub status: String,
    pub created_at: DateTime<Utc>,
    pub messages: Vec<MessageRecord>,
}

/// One message of a help chat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageRecord {
    /// `user`, `ai`, `admin` or `system`, as stored.
    pub sender: String,
    pub text: String,
    pub created_at: DateTime<Utc>,
}

/// The export handed to the shopper: their data and when it was read.
#[derive(Debug, Clone, PartialEq)]
pub struct DataExport {
    pub exported_at: DateTime<Utc>,
    pub data: PersonalData,
}

/// Reads everything the shop keeps about an account.
#[cfg_attr(test, mockall::automock)]
pub trait PersonalDataSource: Send + Sync + 'static {
    /// `None` when there is no such account (any more).
    fn personal_data(
        &self,
        user: UserId,
    ) -> impl Future<Output = Result<Option<PersonalData>, RepoError>> + Send;
}

/// The export as a service: the source and the shop's clock.
#[derive(Debug, Clone)]
pub struct Privacy<P, C> {
    source: P,
    clock: C,
}

impl<P: PersonalDataSource, C: Clock> Privacy<P, C> {
    pub fn new(source: P, clock: C) -> Self {
        Privacy { source, clock }
    }

    /// Everything the shop keeps about the account, stamped with the shop's clock when the
    /// reading starts; `None` when the account is gone (erased since its session was checked).
    #[tracing::instrument(skip_all, fields(user = %user))]
    pub async fn export(&self, user: UserId) -> Result<Option<DataExport>, RepoError> {
        let exported_at = self.clock.now();
        let data = self.source.personal_data(user).await?;
        Ok(data.map(|data| DataExport { exported_at, data }))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use chrono::TimeZone;
    use mockall::predicate::eq;

    use super::*;
    use crate::ports::MockClock;

    fn at() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 26, 23, 0, 0).unwrap()
    }

    fn clock() -> MockClock {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(at());
        clock
    }

    fn data() -> PersonalData {
        PersonalData {
            account_created_at: at() - chrono::TimeDelta::days(3),
            orders: Vec::new(),
            chats: vec![ChatRecord {
                id: "c1".into(),
                status: "closed".into(),
                created_at: at(),
                messages: Vec::new(),
            }],
        }
    }

    #[tokio::test]
    async fn the_export_is_what_the_source_holds_stamped_with_the_shops_clock() {
        let mut source = MockPersonalDataSource::new();
        source
            .expect_personal_data()
            .with(eq(UserId::new(7)))
            .times(1)
            .returning(|_| Box::pin(async { Ok(Some(data())) }));
        let export = Privacy::new(source, clock())
            .export(UserId::new(7))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(export.exported_at, at());
        assert_eq!(export.data, data());
    }

    #[tokio::test]
    async fn an_account_gone_since_the_session_check_exports_nothing() {
        let mut source = MockPersonalDataSource::new();
        source
            .expect_personal_data()
            .returning(|_| Box::pin(async { Ok(None) }));
        let export = Privacy::new(source, clock()).export(UserId::new(7)).await;
        assert_eq!(export.unwrap(), None);
    }

    #[tokio::test]
    async fn a_failing_source_is_an_error_not_an_empty_export() {
        let mut source = MockPersonalDataSource::new();
        source.expect_personal_data().returning(|_| {
            Box::pin(async { Err(RepoError::Unknown(anyhow::anyhow!("database gone"))) })
        });
        let export = Privacy::new(source, clock()).export(UserId::new(7)).await;
        assert!(export.is_err());
    }
}
