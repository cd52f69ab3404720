//! The staff channel (a Discord channel webhook) as an outbox channel: a paid order waiting
//! for delivery, an order held for a look before delivery. Each is sent once per event, with
//! retries, from the order as it is when the job runs.

use std::future::Future;

use crate::gateways::StaffMessage;
use crate::lifecycle::{Channel, JobFailed, JobHandler, OrderStep, OutboxJob};
use crate::SendFailed;
use crate::{Order, OrderError, OrderRepository};

/// The channel's name in `outbox_jobs`.
pub const STAFF: &str = "staff";

/// The staff channel wants a paid order and a hold.
pub const STAFF_CHANNEL: Channel = Channel {
    name: STAFF,
    wants: |step| matches!(step, OrderStep::Paid | OrderStep::Held),
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

/// The message for `step` of `order`; `None` when the step says nothing to staff (any more).
pub fn message(step: OrderStep, order: &Order, orders_url: &str) -> Option<StaffMessage> {
    let link = Some(orders_url.to_owned());
    match step {
        OrderStep::Paid => {
            let items = order
                .lines
                .iter()
                .map(|line| format!("{} × {}", line.quantity.get(), line.name))
                .collect::<Vec<_>>()
                .join("\n");
            Some(StaffMessage {
                text: format!("New paid order #{} is waiting for delivery.", order.id),
                link,
                fields: vec![
                    ("Items".to_owned(), items),
                    ("Total".to_owned(), dollars(order.amounts.total)),
                    (
                        "Roblox username".to_owned(),
                        order.buyer.roblox_username.to_string(),
                    ),
                    ("Discord".to_owned(), order.buyer.discord.username.clone()),
                ],
            })
        }
        OrderStep::Held => order.review.as_ref().map(|reason| StaffMessage {
            text: format!("Order #{} needs a look before delivery: {reason}", order.id),
            link,
            fields: vec![("Total".to_owned(), dollars(order.amounts.total))],
        }),
        _ => None,
    }
}

/// The staff channel's handler.
#[derive(Debug, Clone)]
pub struct StaffAlerts<R, P> {
    orders: R,
    post: P,
    orders_url: String,
}

impl<R: OrderRepository, P: StaffPost> StaffAlerts<R, P> {
    /// `orders_url`: the staff's delivery queue, linked from every message.
    pub fn new(orders: R, post: P, orders_url: String) -> Self {
        StaffAlerts {
            orders,
            post,
            orders_url,
        }
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
        let Some(message) = message(job.event.step, &order, &self.orders_url) else {
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

    fn job(step: OrderStep) -> OutboxJob {
        OutboxJob {
            id: 1,
            event: OrderEvent {
                id: 5,
                order_id: OrderId::new(7),
                step,
                staff_id: None,
                at: Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap(),
            },
            attempts: 0,
        }
    }

    fn alerts(
        post: MockStaffPost,
        review: Option<&'static str>,
    ) -> StaffAlerts<MockOrderRepository, MockStaffPost> {
        let mut orders = MockOrderRepository::new();
        orders.expect_order().returning(move |_| {
            let mut order = crate::tracking::tests::order_in(crate::Lifecycle::restore(
                crate::OrderStatus::Paid,
                Some(Utc.with_ymd_and_hms(2026, 11, 26, 11, 0, 0).unwrap()),
                None,
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
}
