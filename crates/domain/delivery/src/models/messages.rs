//! The line between an order's buyer and the shop's staff, as values: who wrote, what, and when
//! the order is open for it.

use chrono::{DateTime, Duration, Utc};
use orders::{OrderId, OrderStatus};
use shared::UserId;

/// Which side of the order wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageSide {
    /// Whoever holds the order: its session, its logged-in owner, or its link's key.
    Buyer,
    /// Any member of staff.
    Staff,
}

impl MessageSide {
    pub const fn as_str(&self) -> &'static str {
        match self {
            MessageSide::Buyer => "buyer",
            MessageSide::Staff => "staff",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "buyer" => Some(MessageSide::Buyer),
            "staff" => Some(MessageSide::Staff),
            _ => None,
        }
    }
}

impl std::fmt::Display for MessageSide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a message's text was refused (422).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MessageTextError {
    #[error("Write a message first.")]
    Empty,
    #[error("A message is at most {} characters.", MessageText::MAX_CHARS)]
    TooLong,
}

/// A message's text: trimmed, 1 to [`MessageText::MAX_CHARS`] characters. It is kept as
/// written; every place that shows it escapes it (the page by React, Discord with
/// `shared::escape_markdown`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageText(String);

impl MessageText {
    pub const MAX_CHARS: usize = 1000;

    pub fn parse(text: &str) -> Result<Self, MessageTextError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(MessageTextError::Empty);
        }
        if trimmed.chars().count() > Self::MAX_CHARS {
            return Err(MessageTextError::TooLong);
        }
        Ok(MessageText(trimmed.to_owned()))
    }
}

impl AsRef<str> for MessageText {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// One message of an order's thread, as both sides read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderMessage {
    pub id: i64,
    pub order_id: OrderId,
    pub from: MessageSide,
    /// The buyer's Roblox name, or the member of staff's name.
    pub author: String,
    pub text: String,
    pub created_at: DateTime<Utc>,
}

/// A message to keep: `staff` is the member of staff who wrote it (staff side only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewOrderMessage {
    pub order_id: OrderId,
    pub from: MessageSide,
    pub staff: Option<UserId>,
    pub text: MessageText,
    pub at: DateTime<Utc>,
}

/// What the line needs from the shop's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageSettings {
    /// Messages per order and side per minute (`delivery.messages_per_order_per_minute`).
    pub per_minute: u32,
    /// How many days after its delivery an order stays open for messages
    /// (`delivery.messages_days_after_delivery`).
    pub days_after_delivery: u32,
}

impl Default for MessageSettings {
    fn default() -> Self {
        MessageSettings {
            per_minute: 10,
            days_after_delivery: 7,
        }
    }
}

impl MessageSettings {
    /// Deliveries at or after this time keep their orders open for messages at `now`.
    pub fn delivered_since(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        now - Duration::days(i64::from(self.days_after_delivery))
    }

    /// Whether an order in `status`, delivered at `delivered_at`, takes messages at `now`:
    /// while it is paid (waiting, claimed, or checked), and for `days_after_delivery` days
    /// after its delivery. Never before the payment, nor once refunded, disputed or closed.
    pub fn open(
        &self,
        status: OrderStatus,
        delivered_at: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> bool {
        match status {
            OrderStatus::Paid => true,
            OrderStatus::Delivered => {
                delivered_at.is_some_and(|at| at >= self.delivered_since(now))
            }
            _ => false,
        }
    }
}

/// The rate limit bucket of messages; the key is [`message_limit_key`].
pub const MESSAGES_BUCKET: &str = "order_message";

/// The key a message counts under: its order and its side, so a chatty buyer never holds back
/// the staff's answer (nor the other way round), and every instance counts alike.
pub fn message_limit_key(order: OrderId, side: MessageSide) -> String {
    format!("{order}:{side}")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use chrono::TimeZone;

    fn at(days: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap() + Duration::days(days)
    }

    #[test]
    fn a_text_is_trimmed_and_between_one_and_a_thousand_characters() {
        assert_eq!(
            MessageText::parse("  I can't join the server \n")
                .unwrap()
                .as_ref(),
            "I can't join the server"
        );
        assert_eq!(MessageText::parse(" \n\t "), Err(MessageTextError::Empty));
        assert_eq!(MessageText::parse(""), Err(MessageTextError::Empty));
        let most = "é".repeat(1000);
        assert_eq!(MessageText::parse(&most).unwrap().as_ref(), most);
        assert_eq!(
            MessageText::parse(&"a".repeat(1001)),
            Err(MessageTextError::TooLong)
        );
        // surrounding spaces do not count
        assert!(MessageText::parse(&format!("  {}  ", "a".repeat(1000))).is_ok());
    }

    #[test]
    fn an_order_is_open_while_paid_and_for_seven_days_after_its_delivery() {
        let settings = MessageSettings::default();
        let now = at(0);
        assert!(settings.open(OrderStatus::Paid, None, now));
        assert!(settings.open(OrderStatus::Delivered, Some(at(-7)), now));
        assert!(settings.open(OrderStatus::Delivered, Some(at(-1)), now));
        assert!(!settings.open(
            OrderStatus::Delivered,
            Some(at(-7) - Duration::seconds(1)),
            now
        ));
        assert!(!settings.open(OrderStatus::Delivered, Some(at(-8)), now));
        assert!(!settings.open(OrderStatus::Delivered, None, now));
        for closed in [
            OrderStatus::Pending,
            OrderStatus::Refunded,
            OrderStatus::Disputed,
            OrderStatus::Expired,
            OrderStatus::Cancelled,
        ] {
            assert!(!settings.open(closed, Some(at(0)), now), "{closed:?}");
        }
    }

    #[test]
    fn each_side_of_each_order_counts_apart() {
        let order = OrderId::new(7);
        assert_eq!(message_limit_key(order, MessageSide::Buyer), "7:buyer");
        assert_eq!(message_limit_key(order, MessageSide::Staff), "7:staff");
        assert_ne!(
            message_limit_key(OrderId::new(8), MessageSide::Buyer),
            message_limit_key(order, MessageSide::Buyer)
        );
        assert_eq!(MessageSide::parse("staff"), Some(MessageSide::Staff));
        assert_eq!(MessageSide::parse("Staff"), None);
    }
}
