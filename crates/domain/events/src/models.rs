use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use shared::UserId;

/// The topics a browser hears.
pub mod topic {
    /// The storefront's product list changed: `{"version": etag}`.
    pub const PRODUCTS: &str = "products";
    /// A help chat changed: `{"chat_id", "status", "version"}` (`status` "deleted" when gone).
    pub const CHAT: &str = "chat";
    /// Staff's chat list changed as a whole (chats purged): `{}`.
    pub const CHAT_LIST: &str = "chat_list";
    /// An order's status or its place in the delivery queue changed:
    /// `{"order_id", "status", "step"}` (`step`: `orders::OrderStep`, e.g. `claimed`).
    pub const ORDER: &str = "order";
    /// A message on an order's page, from its buyer or staff: `{"order_id", "message": {"id",
    /// "from", "author", "text", "created_at"}}` (the message itself, which both sides show at
    /// once).
    pub const ORDER_MESSAGE: &str = "order_message";
}

/// An event to publish: its topic, the JSON a browser receives, and who may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewPushEvent {
    pub topic: String,
    /// The JSON a browser receives.
    pub data: String,
    /// Every viewer may see it.
    pub public: bool,
    /// Staff may see it.
    pub staff: bool,
    /// The chat session it belongs to.
    pub chat_session: Option<String>,
    /// The order it is about.
    pub order_id: Option<i64>,
    /// The account it belongs to.
    pub user_id: Option<UserId>,
}

/// A published event with its number in the event log (the stream's `id`, where a browser
/// resumes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushEventRow {
    pub id: i64,
    #[serde(flatten)]
    pub event: NewPushEvent,
    pub created_at: DateTime<Utc>,
}

/// A chat's change as published.
#[derive(Debug, Clone, Copy)]
pub struct ChatChanged<'a> {
    pub chat_id: &'a str,
    /// The chat's session id: who owns it (never sent to a browser).
    pub session: &'a str,
    pub status: &'a str,
    pub version: Option<u64>,
    /// Whether staff see it.
    pub staff: bool,
}

/// A message on an order's page as published.
#[derive(Debug, Clone, Copy)]
pub struct OrderMessagePosted<'a> {
    pub order_id: i64,
    /// The account the order belongs to (never sent to a browser).
    pub user_id: Option<UserId>,
    pub id: i64,
    /// `buyer` or `staff`.
    pub from: &'a str,
    pub author: &'a str,
    pub text: &'a str,
    pub created_at: DateTime<Utc>,
}

impl NewPushEvent {
    /// The storefront's list changed; `version` is its new ETag. Everyone hears it.
    pub fn products_changed(version: &str) -> Self {
        NewPushEvent {
            topic: topic::PRODUCTS.to_owned(),
            data: json!({ "version": version }).to_string(),
            public: true,
            staff: true,
            chat_session: None,
            order_id: None,
            user_id: None,
        }
    }

    /// A chat changed: its owner hears it; staff too unless it is (and was) with the
    /// assistant, which staff do not list.
    pub fn chat_changed(change: ChatChanged<'_>) -> Self {
        NewPushEvent {
            topic: topic::CHAT.to_owned(),
            data: json!({
                "chat_id": change.chat_id,
                "status": change.status,
                "version": change.version,
            })
            .to_string(),
            public: false,
            staff: change.staff,
            chat_session: Some(change.session.to_owned()),
            order_id: None,
            user_id: None,
        }
    }

    /// Staff's chat list changed as a whole (chats purged).
    pub fn chat_list_changed() -> Self {
        NewPushEvent {
            topic: topic::CHAT_LIST.to_owned(),
            data: "{}".to_owned(),
            public: false,
            staff: true,
            chat_session: None,
            order_id: None,
            user_id: None,
        }
    }

    /// An order changed: its buyer (the session that placed it, or the account it belongs to)
    /// and staff hear it. `step` is the `orders::OrderStep` recorded, as its name.
    pub fn order_changed(order_id: i64, user_id: Option<UserId>, status: &str, step: &str) -> Self {
        NewPushEvent {
            topic: topic::ORDER.to_owned(),
            data: json!({ "order_id": order_id, "status": status, "step": step }).to_string(),
            public: false,
            staff: true,
            chat_session: None,
            order_id: Some(order_id),
            user_id,
        }
    }
}

impl NewPushEvent {
    /// A message on an order's page: the order's buyer (as for [`NewPushEvent::order_changed`])
    /// and staff hear it, with the message.
    pub fn order_message(posted: OrderMessagePosted<'_>) -> Self {
        NewPushEvent {
            topic: topic::ORDER_MESSAGE.to_owned(),
            data: json!({
                "order_id": posted.order_id,
                "message": {
                    "id": posted.id,
                    "from": posted.from,
                    "author": posted.author,
                    "text": posted.text,
                    "created_at": posted.created_at.to_rfc3339(),
                },
            })
            .to_string(),
            public: false,
            staff: true,
            chat_session: None,
            order_id: Some(posted.order_id),
            user_id: posted.user_id,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_stored_event_travels_as_flat_json_and_reads_back_the_same() {
        let row = PushEventRow {
            id: 42,
            event: NewPushEvent::order_changed(7, Some(UserId::new(3)), "paid", "paid"),
            created_at: DateTime::from_timestamp(1_700_000_000, 0).unwrap(),
        };
        let json: serde_json::Value = serde_json::to_value(&row).unwrap();
        assert_eq!(json["id"], 42);
        assert_eq!(json["topic"], "order");
        assert_eq!(json["order_id"], 7);
        assert_eq!(
            json["user_id"], 3,
            "a bare number, as before the id had its own type"
        );
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&row.event.data).unwrap(),
            json!({ "order_id": 7, "status": "paid", "step": "paid" })
        );
        assert_eq!(serde_json::from_value::<PushEventRow>(json).unwrap(), row);
    }

    #[test]
    fn a_message_travels_whole_to_the_orders_buyer_and_staff() {
        let event = NewPushEvent::order_message(OrderMessagePosted {
            order_id: 7,
            user_id: Some(UserId::new(3)),
            id: 12,
            from: "buyer",
            author: "Builderman",
            text: "I can't join the server <b>",
            created_at: DateTime::from_timestamp(1_700_000_000, 0).unwrap(),
        });
        assert_eq!(event.topic, "order_message");
        assert_eq!((event.public, event.staff), (false, true));
        assert_eq!(event.order_id, Some(7));
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&event.data).unwrap(),
            json!({ "order_id": 7, "message": {
                "id": 12, "from": "buyer", "author": "Builderman",
                "text": "I can't join the server <b>",
                "created_at": "2023-11-14T22:13:20+00:00",
            }})
        );
    }
}
