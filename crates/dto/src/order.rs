//! An order as its buyer sees it: on its page, in the profile, after a cancel (docs/product.md,
//! "Order page").

use orders::Order;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{dollars, in_major_units};

/// As the buyer sees it: a pending order held for staff (its payment needs a look) reads
/// "Payment under review"; its `status` stays `pending`.
pub fn status_label(order: &Order) -> &'static str {
    if order.review.is_some() && order.status() == orders::OrderStatus::Pending {
        "Payment under review"
    } else {
        order.status().label()
    }
}

/// An order's status, as `status` fields carry it (as stored: `orders::OrderStatus::as_str`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = OrderStatusName)]
pub enum OrderStatus {
    Pending,
    Paid,
    Delivered,
    Expired,
    Cancelled,
    Refunded,
    Disputed,
}

impl From<orders::OrderStatus> for OrderStatus {
    fn from(status: orders::OrderStatus) -> Self {
        match status {
            orders::OrderStatus::Pending => OrderStatus::Pending,
            orders::OrderStatus::Paid => OrderStatus::Paid,
            orders::OrderStatus::Delivered => OrderStatus::Delivered,
            orders::OrderStatus::Expired => OrderStatus::Expired,
            orders::OrderStatus::Cancelled => OrderStatus::Cancelled,
            orders::OrderStatus::Refunded => OrderStatus::Refunded,
            orders::OrderStatus::Disputed => OrderStatus::Disputed,
        }
    }
}

/// One line of an order, at the price it was bought for (dollars).
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderItemResponse {
    /// The product's id.
    pub id: i64,
    /// The product's name when it was bought.
    pub name: String,
    pub qty: u32,
    pub unit_price: f64,
    /// The unit price in the order's `currency`, as the buyer saw it (before any promo).
    pub unit_price_paid: f64,
}

/// An order as its buyer sees it. Money in the base currency (dollars), times in RFC 3339;
/// `currency`, `amount_paid` and each item's `unit_price_paid` say what the buyer paid in the
/// currency they paid in.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderResponse {
    pub id: i64,
    pub status: OrderStatus,
    /// The status to show: its label ("Paid"), or "Payment under review" for a pending order
    /// held for staff.
    #[schema(example = "Paid")]
    pub status_label: &'static str,
    pub items: Vec<OrderItemResponse>,
    /// The items at their prices.
    pub subtotal: f64,
    /// The promo code's discount (0 without one).
    pub discount: f64,
    /// The payment method's fee.
    pub fee: f64,
    /// What the buyer pays: the subtotal less the discount, plus the fee.
    pub total: f64,
    /// The currency the buyer paid in.
    #[schema(example = "BRL")]
    pub currency: String,
    /// What the buyer paid in `currency` (the grand total).
    pub amount_paid: f64,
    /// Units of `currency` one unit of the base currency bought at checkout (a decimal string;
    /// "1" in the base currency).
    #[schema(example = "5.34144")]
    pub rate: String,
    /// Where the items are delivered.
    pub roblox_username: String,
    #[schema(format = DateTime)]
    pub created_at: String,
    #[schema(format = DateTime)]
    pub paid_at: Option<String>,
    /// The language the order was placed in (a BCP 47 code of `GET /api/site`'s `languages`):
    /// its mails are written in it; its page follows the viewer's language.
    #[schema(example = "pt-BR")]
    pub language: String,
    /// The buyer finished the payment page with a method that confirms later (a voucher such
    /// as OXXO or Boleto, a bank debit): the order is `pending` until the money arrives (then
    /// paid) or `pay_by` passes (then expired). The page says "awaiting your payment until
    /// <pay_by>".
    pub awaiting_payment: bool,
    /// While pending: when the order stops holding its stock and expires unpaid, when it has a
    /// deadline of its own (a drop's shorter window, a delayed method's deadline); `null`
    /// otherwise (the usual payment window) and once it is no longer pending.
    #[schema(required = true, format = DateTime)]
    pub pay_by: Option<String>,
}

impl From<&Order> for OrderResponse {
    fn from(order: &Order) -> Self {
        let paid = order.amounts.paid;
        OrderResponse {
            id: order.id.get(),
            status: order.status().into(),
            status_label: status_label(order),
            items: order
                .lines
                .iter()
                .map(|line| OrderItemResponse {
                    id: line.product_id.get(),
                    name: line.name.clone(),
                    qty: line.quantity.get(),
                    unit_price: dollars(line.unit_price),
                    unit_price_paid: in_major_units(line.unit_price_paid, paid.minor_units),
                })
                .collect(),
            subtotal: dollars(order.amounts.subtotal),
            discount: dollars(order.amounts.discount),
            fee: dollars(order.amounts.fee),
            total: dollars(order.amounts.total),
            currency: paid.currency.to_string(),
            amount_paid: in_major_units(paid.amount, paid.minor_units),
            rate: paid.rate.normalize().to_string(),
            roblox_username: order.buyer.roblox_username.to_string(),
            created_at: order.created_at.to_rfc3339(),
            paid_at: order.paid_at().map(|at| at.to_rfc3339()),
            language: order.buyer.language.code().to_owned(),
            awaiting_payment: order.awaits_delayed_payment(),
            pay_by: order
                .pay_by
                .filter(|_| order.status() == orders::OrderStatus::Pending)
                .map(|at| at.to_rfc3339()),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct KeyQuery {
    /// The key of the order's link (the receipt's); not needed in the session that placed the
    /// order or when logged in as its owner.
    #[param(max_length = 128)]
    pub key: Option<String>,
}

/// One step of the order's way.
#[derive(Debug, Serialize, ToSchema)]
pub struct TimelineStepResponse {
    /// `paid`, `claimed`, `delivered`, `received` (the buyer said they got their items); or
    /// `refunded`, `expired`, `cancelled`.
    #[schema(example = "paid")]
    pub status: &'static str,
    #[schema(format = DateTime)]
    pub at: String,
}

/// The handoff as the buyer sees it: who is on the way, where to meet them, the ticket.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderDeliveryResponse {
    /// Who claimed the order (and, once delivered, who delivered it).
    #[schema(required = true, example = "Ann")]
    pub staff_name: Option<String>,
    /// The claimer's private game server: only while the order is paid and claimed.
    #[schema(required = true)]
    pub private_server_url: Option<String>,
    #[schema(required = true, format = DateTime)]
    pub claimed_at: Option<String>,
    /// When the buyer said "I'm in the game" (cleared when staff release the order).
    #[schema(required = true, format = DateTime)]
    pub buyer_ready_at: Option<String>,
    /// Once delivered: when the buyer said "I got my items" (`null` until then).
    #[schema(required = true, format = DateTime)]
    pub received_at: Option<String>,
    /// The order's Discord ticket (a private thread), when the shop opened one.
    #[schema(required = true)]
    pub ticket_url: Option<String>,
    /// Why there is no ticket or the buyer is not in it, in a sentence.
    #[schema(required = true)]
    pub ticket_problem: Option<String>,
    /// Once delivered with a proof: its first picture (`/media/proofs/…`).
    #[schema(required = true)]
    pub proof_picture: Option<String>,
    /// While the order waits in line again after staff let it go: who did, when and why.
    #[schema(required = true)]
    pub released: Option<ReleaseResponse>,
    /// While claimed: the buyer's time to join ran out (`join_by` passed without "I'm in the
    /// game"); staff may let the order go.
    pub no_show: bool,
}

/// A member of staff let the claimed order go, back in line.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReleaseResponse {
    #[schema(format = DateTime)]
    pub at: String,
    #[schema(required = true, example = "Ann")]
    pub staff_name: Option<String>,
    /// What they told the buyer (1 to 200 characters).
    #[schema(
        required = true,
        example = "My game crashed; the next member of staff takes it."
    )]
    pub reason: Option<String>,
}

impl From<&delivery::BuyerDelivery> for OrderDeliveryResponse {
    fn from(delivery: &delivery::BuyerDelivery) -> Self {
        OrderDeliveryResponse {
            staff_name: delivery.staff_name.clone(),
            private_server_url: delivery.private_server_url.clone(),
            claimed_at: delivery.claimed_at.map(|at| at.to_rfc3339()),
            buyer_ready_at: delivery.buyer_ready_at.map(|at| at.to_rfc3339()),
            received_at: delivery.received_at.map(|at| at.to_rfc3339()),
            ticket_url: delivery.ticket_url.clone(),
            ticket_problem: delivery.ticket_problem.clone(),
            proof_picture: delivery.proof_picture.clone(),
            released: delivery.released.as_ref().map(|release| ReleaseResponse {
                at: release.at.to_rfc3339(),
                staff_name: release.staff_name.clone(),
                reason: release.reason.clone(),
            }),
            no_show: delivery.no_show,
        }
    }
}

/// The order as its page shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct TrackedOrderResponse {
    #[serde(flatten)]
    pub order: OrderResponse,
    #[schema(format = DateTime)]
    pub delivered_at: Option<String>,
    /// `[{status, at}]`, oldest first: paid, claimed, delivered; or refunded.
    pub timeline: Vec<TimelineStepResponse>,
    /// The order's place among the paid orders waiting for a claim (not on a risk hold), in
    /// order of payment: 1 = the next staff claim; the staff queue shows the same line. Null
    /// once claimed, while being checked, or once done.
    pub queue_position: Option<u32>,
    /// Paid longer ago than the promise (`estimate_minutes`) and still not delivered: the page
    /// says it is taking longer than usual (the staff queue says the same of it).
    pub over_promise: bool,
    /// While claimed and the buyer has not said "I'm in the game": by when to join the member
    /// of staff's private server (`delivery.no_show_minutes` after the claim).
    #[schema(format = DateTime)]
    pub join_by: Option<String>,
    /// The shop is checking the payment before delivery (the order is out of the queue until
    /// it is done); why is not said.
    pub being_checked: bool,
    pub delivery: OrderDeliveryResponse,
    /// "Usually delivered in under N minutes".
    #[schema(example = 10)]
    pub estimate_minutes: u32,
    /// The script from payment to delivery, in order, each step marked `done` when the order
    /// is past it: the first step not done is the one the order is at.
    pub steps: Vec<crate::site::OrderStep>,
}

impl From<&delivery::TrackedOrder> for TrackedOrderResponse {
    fn from(tracked: &delivery::TrackedOrder) -> Self {
        TrackedOrderResponse {
            order: OrderResponse::from(&tracked.order),
            delivered_at: tracked.order.delivered_at().map(|at| at.to_rfc3339()),
            timeline: tracked
                .timeline
                .iter()
                .map(|step| TimelineStepResponse {
                    status: step.status,
                    at: step.at.to_rfc3339(),
                })
                .collect(),
            queue_position: tracked.queue_position,
            over_promise: tracked.over_promise,
            join_by: tracked.join_by.map(|at| at.to_rfc3339()),
            being_checked: tracked.order.held().is_some(),
            delivery: OrderDeliveryResponse::from(&tracked.delivery),
            estimate_minutes: tracked.estimate_minutes,
            steps: tracked.steps.iter().map(Into::into).collect(),
        }
    }
}

/// One order as the profile lists it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ProfileOrder {
    pub id: i64,
    /// What the buyer pays, in the base currency.
    pub total: f64,
    /// The currency the buyer paid in.
    #[schema(example = "BRL")]
    pub currency: String,
    /// What the buyer paid in `currency` (the grand total).
    pub amount_paid: f64,
    pub status: String,
    pub status_label: String,
    pub created_at: String,
}

impl From<&Order> for ProfileOrder {
    fn from(order: &Order) -> Self {
        ProfileOrder {
            id: order.id.get(),
            total: dollars(order.amounts.total),
            currency: order.amounts.paid.currency.to_string(),
            amount_paid: in_major_units(order.amounts.paid.amount, order.amounts.paid.minor_units),
            status: order.status().as_str().to_owned(),
            status_label: status_label(order).to_owned(),
            created_at: order.created_at.to_rfc3339(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_is_sent_as_stored() {
        for status in orders::OrderStatus::ALL {
            let sent = serde_json::to_value(OrderStatus::from(status)).unwrap();
            assert_eq!(sent, status.as_str());
        }
    }
}
