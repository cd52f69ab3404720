//! The staff channel (a Discord channel webhook) as an outbox channel: a paid order waiting
//! for delivery, an order held for a look before delivery, a payment that came after its order
//! closed, a risky payment and the card issuer's fraud warning (each once, saying where the
//! order stands), and what the payment provider did after the sale (a refund staff did not ask
//! for, a partial refund, a dispute and its outcome). Each is sent once per event, with
//! retries, from the order as it is when the job runs.

use std::future::Future;

use shared::escape_markdown;

use crate::gateways::StaffMessage;
use crate::lifecycle::{Channel, JobFailed, JobHandler, OrderEvent, OrderStep, OutboxJob};
use crate::SendFailed;
use crate::{HoldReason, Order, OrderError, OrderRepository, OrderStatus};

/// The channel's name in `outbox_jobs`.
pub const STAFF: &str = "staff";

/// The staff channel wants the steps staff must act on or know of.
pub const STAFF_CHANNEL: Channel = Channel {
    name: STAFF,
    wants: |step| {
        matches!(
            step,
            OrderStep::Paid
                | OrderStep::PaidAfterExpiry
                | OrderStep::Held
                | OrderStep::Refunded
                | OrderStep::PartlyRefunded
                | OrderStep::Disputed
                | OrderStep::DisputeWon
                | OrderStep::DisputeLost
                | OrderStep::RiskHeld
                | OrderStep::FraudWarning
        )
    },
};

/// Where staff messages go: one attempt, which answers whether it arrived.
#[cfg_attr(test, mockall::automock)]
pub trait StaffPost: Send + Sync + 'static {
    fn post(&self, message: StaffMessage) -> impl Future<Output = Result<(), SendFailed>> + Send;
}

/// Dollars for people to read: `$12.50`.
fn dollars(money: cart_pricing::Money) -> String {
    format!("${:.2}", money.as_decimal())
}

/// Who the buyer is, for staff to find them. Both names were typed by someone (the Discord one
/// comes from Discord, where it is the buyer's choice too): escaped so they show as typed.
fn buyer_fields(order: &Order) -> Vec<(String, String)> {
    vec![
        (
            "Roblox username".to_owned(),
            escape_markdown(order.buyer.roblox_username.as_ref()),
        ),
        (
            "Discord".to_owned(),
            escape_markdown(
                order
                    .buyer
                    .discord
                    .as_ref()
                    .map_or("(account deleted)", |d| d.username.as_str()),
            ),
        ),
    ]
}

/// What the provider said with a step (a kind of fraud, a risk level) as people read it.
fn provider_words(note: Option<&str>) -> Option<String> {
    note.filter(|note| !note.trim().is_empty())
        .map(|note| escape_markdown(&note.replace('_', " ")))
}

/// The card issuer's fraud warning on `order`, where the order stands now; `refunding`: the
/// shop refunds a held order at a warning by itself (the refund may not have landed yet).
fn fraud_warning_text(order: &Order, kind: Option<&str>, refunding: bool) -> String {
    let id = order.id;
    let kind = provider_words(kind).map_or_else(String::new, |kind| format!(" ({kind})"));
    if order.held().is_some() {
        return if refunding {
            format!(
                "Order #{id} got an early fraud warning from the card's issuer{kind}: it is on \
                 hold and the shop is refunding it at once. If that refund fails it stays on \
                 hold: refund it from the held orders."
            )
        } else {
            format!(
                "Order #{id} got an early fraud warning from the card's issuer{kind}: it is on \
                 hold, out of the delivery queue. Refunding it is advised (it avoids a dispute \
                 and its fee); or release it to the queue."
            )
        };
    }
    match order.status() {
        OrderStatus::Refunded => format!(
            "Order #{id} got an early fraud warning from the card's issuer{kind} and is \
             refunded: do not deliver it."
        ),
        OrderStatus::Delivered => format!(
            "Delivered order #{id} got an early fraud warning from the card's issuer{kind}: a \
             dispute may follow. Its delivery record is being prepared as evidence and sent to \
             the payment provider in advance; see the disputes page."
        ),
        _ => format!("Order #{id} got an early fraud warning from the card's issuer{kind}."),
    }
}

/// The message for `event` of `order` (as it is now); `None` when the step says nothing to
/// staff: a refund staff made themselves, or one of an order delivered already or on a risk
/// hold (out of the queue: nothing to stop); a payment or a risk hold whose own message tells
/// more, or that staff dealt with already. `refunding`: the shop refunds an order held at a
/// fraud warning by itself.
pub fn message(
    event: &OrderEvent,
    order: &Order,
    orders_url: &str,
    refunding: bool,
) -> Option<StaffMessage> {
    let (text, fields) = match event.step {
        OrderStep::Paid | OrderStep::Held | OrderStep::PaidAfterExpiry | OrderStep::RiskHeld => {
            before_delivery(event, order)?
        }
        _ => after_the_sale(event, order, refunding)?,
    };
    Some(StaffMessage {
        text,
        link: Some(orders_url.to_owned()),
        fields,
    })
}

/// A message's text and its fields.
type Said = (String, Vec<(String, String)>);

/// What staff hear of a payment: an order to deliver, or one to look at before delivery.
fn before_delivery(event: &OrderEvent, order: &Order) -> Option<Said> {
    let id = order.id;
    let total = || vec![("Total".to_owned(), dollars(order.amounts.total))];
    match event.step {
        // the hold's own message tells staff of it
        OrderStep::Paid if order.held().is_some() => None,
        OrderStep::Paid => {
            let items = order
                .lines
                .iter()
                .map(|line| format!("{} × {}", line.quantity.get(), escape_markdown(&line.name)))
                .collect::<Vec<_>>()
                .join("\n");
            let mut fields = vec![("Items".to_owned(), items)];
            fields.extend(total());
            fields.extend(buyer_fields(order));
            Some((
                format!("New paid order #{id} is waiting for delivery."),
                fields,
            ))
        }
        OrderStep::Held => Some((
            format!(
                "Order #{id} needs a look before delivery: {}",
                order.review.as_deref()?
            ),
            total(),
        )),
        OrderStep::PaidAfterExpiry => {
            let closed = match order.status() {
                status @ (OrderStatus::Expired | OrderStatus::Cancelled) => {
                    status.label().to_lowercase()
                }
                _ => "closed".to_owned(),
            };
            Some((
                format!("Order #{id} was paid after it was {closed}: refund the payment."),
                total(),
            ))
        }
        // a fraud warning's hold is told by the warning's own step; a hold staff released
        // or refunded since needs nothing more
        OrderStep::RiskHeld => match order.held()?.reason {
            HoldReason::FraudWarning => None,
            HoldReason::RiskLevel => {
                let level = provider_words(event.note.as_deref())
                    .map_or_else(String::new, |level| format!(" as {level}"));
                let mut fields = total();
                fields.extend(buyer_fields(order));
                Some((
                    format!(
                        "Order #{id} is on hold before delivery: {} rates the payment's risk{level}. \
                         Refund it, or release it to the queue if you trust it.",
                        order.payment.provider.name()
                    ),
                    fields,
                ))
            }
        },
        _ => None,
    }
}

/// What staff hear of what the provider did after the sale: a refund, a dispute and its
/// outcome, the card issuer's fraud warning.
fn after_the_sale(event: &OrderEvent, order: &Order, refunding: bool) -> Option<Said> {
    let id = order.id;
    let text = match event.step {
        // staff refunded it themselves, it was delivered, or it never left its risk hold:
        // nothing to stop
        OrderStep::Refunded
            if event.staff_id.is_some()
                || order.delivered_at().is_some()
                || order.hold.is_some() =>
        {
            return None
        }
        OrderStep::Refunded => {
            format!("Order #{id} was refunded at the provider: do not deliver it.")
        }
        OrderStep::PartlyRefunded => format!("Order #{id} was partly refunded at the provider."),
        OrderStep::Disputed => {
            let why = event
                .note
                .as_deref()
                .map_or_else(String::new, |reason| format!(" ({reason})"));
            format!(
                "Order #{id} is disputed{why}: do not deliver it. The buyer's Discord \
                 account, e-mail and Roblox username are on the blocklist."
            )
        }
        OrderStep::DisputeWon => format!(
            "The dispute on order #{id} was won: the order is {} again. The buyer stays on \
             the blocklist until someone removes them.",
            order.status().label().to_lowercase()
        ),
        OrderStep::DisputeLost => format!("The dispute on order #{id} was lost."),
        OrderStep::FraudWarning => fraud_warning_text(order, event.note.as_deref(), refunding),
        _ => return None,
    };
    Some((text, buyer_fields(order)))
}

/// The staff channel's handler.
#[derive(Debug, Clone)]
pub struct StaffAlerts<R, P> {
    orders: R,
    post: P,
    orders_url: String,
    refund_on_fraud_warning: bool,
}

impl<R: OrderRepository, P: StaffPost> StaffAlerts<R, P> {
    /// `orders_url`: the staff's delivery queue, linked from every message.
    pub fn new(orders: R, post: P, orders_url: String) -> Self {
        StaffAlerts {
            orders,
            post,
            orders_url,
            refund_on_fraud_warning: false,
        }
    }

    /// Whether the shop refunds an order held at a fraud warning by itself
    /// (`payments.refund_on_fraud_warning`): the warning's message says so, since the refund
    /// may land after the message is written.
    pub fn refunding_at_fraud_warnings(mut self, refunding: bool) -> Self {
        self.refund_on_fraud_warning = refunding;
        self
    }
}

impl<R: OrderRepository, P: StaffPost> JobHandler for StaffAlerts<R, P> {
    async fn handle(&self, job: &OutboxJob) -> Result<(), JobFailed> {
        let order = match self.orders.order(job.event.order_id).await {
            Ok(order) => order,
            // an order deleted since (a shopper's account erased): nothing to say
            Err(OrderError::NotFound(_)) => return Ok(()),
            Err(OrderError::Unknown(e)) => return Err(JobFailed::retry(e)),
        };
        let Some(message) = message(
            &job.event,
            &order,
            &self.orders_url,
            self.refund_on_fraud_warning,
        ) else {
            return Ok(());
        };
        self.post
            .post(message)
            .await
            .map_err(|failed| JobFailed::retry(failed.0))
    }
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use super::*;
    use crate::lifecycle::OrderEvent;
    use crate::ports::MockOrderRepository;
    use crate::OrderId;
    use shared::UserId;

    fn order_in(lifecycle: crate::Lifecycle) -> Order {
        use cart_pricing::{Money, PaymentMethod};
        Order::restore(
            OrderId::new(3),
            vec![],
            crate::Buyer {
                discord: Some(crate::DiscordIdentity {
                    discord_id: crate::DiscordId::parse("80351110224678912").unwrap(),
                    username: "kid".into(),
                    avatar_url: None,
                }),
                roblox_username: crate::RobloxUsername::parse("Builderman").unwrap(),
                email: crate::Email::parse("kid@example.com").unwrap(),
                user_id: None,
                language: shared::Language::English,
            },
            crate::Amounts {
                subtotal: Money::ZERO,
                discount: Money::ZERO,
                fee: Money::ZERO,
                total: Money::ZERO,
                paid: crate::Paid::in_base(cart_pricing::CurrencyCode::USD, Money::ZERO),
            },
            None,
            crate::Payment {
                method: PaymentMethod::Card,
                provider: crate::PaymentProvider::Dev,
                reference: None,
                payment_id: None,
            },
            Utc.with_ymd_and_hms(2026, 11, 24, 12, 0, 0).unwrap(),
            None,
            lifecycle,
        )
    }

    fn job(step: OrderStep) -> OutboxJob {
        noted(step, None, None)
    }

    fn noted(step: OrderStep, staff_id: Option<UserId>, note: Option<&str>) -> OutboxJob {
        OutboxJob {
            id: 1,
            event: OrderEvent {
                id: 5,
                order_id: OrderId::new(7),
                step,
                staff_id,
                note: note.map(str::to_owned),
                at: Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap(),
            },
            attempts: 0,
            thread: None,
        }
    }

    fn alerts(
        post: MockStaffPost,
        review: Option<&'static str>,
    ) -> StaffAlerts<MockOrderRepository, MockStaffPost> {
        alerts_in(post, review, OrderStatus::Paid, false)
    }

    fn alerts_in(
        post: MockStaffPost,
        review: Option<&'static str>,
        status: OrderStatus,
        delivered: bool,
    ) -> StaffAlerts<MockOrderRepository, MockStaffPost> {
        let mut orders = MockOrderRepository::new();
        orders.expect_order().returning(move |_| {
            let mut order = order_in(crate::Lifecycle::restore(
                status,
                Some(Utc.with_ymd_and_hms(2026, 11, 26, 11, 0, 0).unwrap()),
                delivered.then(|| Utc.with_ymd_and_hms(2026, 11, 26, 11, 30, 0).unwrap()),
                None,
            ));
            order.review = review.map(str::to_owned);
            Box::pin(async move { Ok(order) })
        });
        StaffAlerts::new(orders, post, "https://shop.example/admin/orders".into())
    }

    #[tokio::test]
    async fn a_paid_order_tells_staff_what_to_deliver_to_whom() {
        let mut post = MockStaffPost::new();
        post.expect_post()
            .withf(|m| {
                m.text.starts_with("New paid order #")
                    && m.link.as_deref() == Some("https://shop.example/admin/orders")
                    && m.fields.iter().any(|(name, _)| name == "Roblox username")
            })
            .times(1)
            .returning(|_| Box::pin(async { Ok(()) }));
        alerts(post, None)
            .handle(&job(OrderStep::Paid))
            .await
            .unwrap();
    }

    #[test]
    fn names_go_to_staff_escaped_as_typed() {
        let mut order = order_in(crate::Lifecycle::restore(
            OrderStatus::Paid,
            Some(Utc.with_ymd_and_hms(2026, 11, 26, 11, 0, 0).unwrap()),
            None,
            None,
        ));
        order.buyer.discord.as_mut().unwrap().username =
            "**kid**\n[free](https://evil.example) @everyone".into();
        order.buyer.roblox_username = crate::RobloxUsername::parse("Builder_man").unwrap();
        let message = message(
            &job(OrderStep::Paid).event,
            &order,
            "https://shop.example",
            false,
        )
        .unwrap();
        let field = |wanted: &str| {
            message
                .fields
                .iter()
                .find(|(name, _)| name == wanted)
                .map(|(_, value)| value.clone())
                .unwrap()
        };
        assert_eq!(field("Roblox username"), "Builder\\_man");
        assert_eq!(
            field("Discord"),
            "\\*\\*kid\\*\\* \\[free\\]\\(https\\://evil.example\\) \\@everyone"
        );
    }

    #[tokio::test]
    async fn a_failed_post_is_retried_and_a_hold_names_its_reason() {
        let mut post = MockStaffPost::new();
        post.expect_post()
            .withf(|m| {
                m.text
                    .ends_with("needs a look before delivery: amount differs")
            })
            .times(1)
            .returning(|_| Box::pin(async { Err(SendFailed(anyhow::anyhow!("502"))) }));
        let failed = alerts(post, Some("amount differs"))
            .handle(&job(OrderStep::Held))
            .await
            .unwrap_err();
        assert!(failed.retry);
    }

    /// Posts what `job` says about an order in `status` and answers the text, or `None`.
    async fn said(job: OutboxJob, status: OrderStatus, delivered: bool) -> Option<String> {
        let said = std::sync::Arc::new(std::sync::Mutex::new(None));
        let mut post = MockStaffPost::new();
        let keep = std::sync::Arc::clone(&said);
        post.expect_post().returning(move |message| {
            *keep.lock().unwrap() = Some(message.text);
            Box::pin(async { Ok(()) })
        });
        alerts_in(post, None, status, delivered)
            .handle(&job)
            .await
            .unwrap();
        let text = said.lock().unwrap().take();
        text
    }

    #[tokio::test]
    async fn after_the_sale_staff_hear_what_they_must_act_on_and_nothing_they_did_themselves() {
        use OrderStatus::*;
        let cases: [(OutboxJob, OrderStatus, bool, Option<&str>); 9] = [
            (
                job(OrderStep::PaidAfterExpiry),
                Expired,
                false,
                Some("Order #3 was paid after it was expired: refund the payment."),
            ),
            (
                job(OrderStep::PaidAfterExpiry),
                Cancelled,
                false,
                Some("Order #3 was paid after it was cancelled: refund the payment."),
            ),
            (
                job(OrderStep::Refunded),
                Refunded,
                false,
                Some("Order #3 was refunded at the provider: do not deliver it."),
            ),
            // a refund staff made, or one after the delivery: nothing to stop
            (
                noted(OrderStep::Refunded, Some(UserId::new(3)), None),
                Refunded,
                false,
                None,
            ),
            (job(OrderStep::Refunded), Refunded, true, None),
            (
                job(OrderStep::PartlyRefunded),
                Paid,
                false,
                Some("Order #3 was partly refunded at the provider."),
            ),
            (
                noted(OrderStep::Disputed, None, Some("fraudulent")),
                Disputed,
                false,
                Some(
                    "Order #3 is disputed (fraudulent): do not deliver it. The buyer's Discord \
                     account, e-mail and Roblox username are on the blocklist.",
                ),
            ),
            (
                job(OrderStep::DisputeWon),
                Delivered,
                true,
                Some(
                    "The dispute on order #3 was won: the order is delivered again. The buyer \
                     stays on the blocklist until someone removes them.",
                ),
            ),
            (
                job(OrderStep::DisputeLost),
                Disputed,
                false,
                Some("The dispute on order #3 was lost."),
            ),
        ];
        for (job, status, delivered, expected) in cases {
            let step = job.event.step;
            assert_eq!(
                said(job, status, delivered).await.as_deref(),
                expected,
                "{step} of an order {status:?}"
            );
        }
    }

    /// Order 3 in `status` (delivered when `Delivered`), on a risk hold for `reason` if given.
    fn held_order(status: OrderStatus, reason: Option<HoldReason>) -> Order {
        let paid = Utc.with_ymd_and_hms(2026, 11, 26, 11, 0, 0).unwrap();
        let mut order = order_in(crate::Lifecycle::restore(
            status,
            Some(paid),
            (status == OrderStatus::Delivered).then_some(paid),
            None,
        ));
        order.payment.provider = crate::PaymentProvider::Stripe;
        order.hold = reason.map(|reason| crate::RiskHold {
            reason,
            since: paid,
        });
        order
    }

    fn text_of(step: OrderStep, note: Option<&str>, order: &Order) -> Option<String> {
        message(
            &noted(step, None, note).event,
            order,
            "https://shop.example",
            false,
        )
        .map(|message| message.text)
    }

    #[test]
    fn a_fraud_warning_tells_staff_once_where_the_order_stands() {
        use OrderStatus::*;
        let warned = |status, reason| {
            text_of(
                OrderStep::FraudWarning,
                Some("unauthorized_use_of_card"),
                &held_order(status, reason),
            )
        };
        assert_eq!(
            warned(Paid, Some(HoldReason::FraudWarning)).as_deref(),
            Some(
                "Order #3 got an early fraud warning from the card's issuer (unauthorized use of \
                 card): it is on hold, out of the delivery queue. Refunding it is advised (it \
                 avoids a dispute and its fee); or release it to the queue."
            )
        );
        assert_eq!(
            warned(Refunded, Some(HoldReason::FraudWarning)).as_deref(),
            Some(
                "Order #3 got an early fraud warning from the card's issuer (unauthorized use of \
                 card) and is refunded: do not deliver it."
            )
        );
        assert!(warned(Delivered, None)
            .unwrap()
            .starts_with("Delivered order #3 got an early fraud warning"));
        // a shop that refunds at a warning says so while the refund may still be on its way
        let refunding = message(
            &noted(OrderStep::FraudWarning, None, Some("misc")).event,
            &held_order(Paid, Some(HoldReason::FraudWarning)),
            "https://shop.example",
            true,
        )
        .unwrap();
        assert!(
            refunding.text.ends_with(
                "it is on hold and the shop is refunding it at once. If that refund fails it \
                 stays on hold: refund it from the held orders."
            ),
            "{}",
            refunding.text
        );
        // its hold and its refund say nothing more: one message per warning
        let held = held_order(Paid, Some(HoldReason::FraudWarning));
        assert_eq!(text_of(OrderStep::RiskHeld, Some("misc"), &held), None);
        assert_eq!(text_of(OrderStep::Paid, None, &held), None);
        let refunded = held_order(Refunded, Some(HoldReason::FraudWarning));
        assert_eq!(text_of(OrderStep::Refunded, None, &refunded), None);
    }

    #[test]
    fn a_risky_payment_names_the_providers_rating_until_staff_deal_with_it() {
        let held = held_order(OrderStatus::Paid, Some(HoldReason::RiskLevel));
        assert_eq!(
            text_of(OrderStep::RiskHeld, Some("elevated"), &held).as_deref(),
            Some(
                "Order #3 is on hold before delivery: Stripe rates the payment's risk as \
                 elevated. Refund it, or release it to the queue if you trust it."
            )
        );
        assert_eq!(text_of(OrderStep::Paid, None, &held), None);
        // released (or refunded) before the job ran: nothing left to say
        let released = held_order(OrderStatus::Paid, None);
        assert_eq!(
            text_of(OrderStep::RiskHeld, Some("elevated"), &released),
            None
        );
        assert!(text_of(OrderStep::Paid, None, &released).is_some());
    }
}
