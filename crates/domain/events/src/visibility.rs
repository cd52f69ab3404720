use std::collections::HashSet;

use shared::UserId;

use crate::models::NewPushEvent;

/// Who a stream is for, as the calls decide it: the chat session id the browser holds, the
/// orders its cookie session placed, the account logged in, and whether that account is staff.
#[derive(Debug, Clone, Default)]
pub struct Viewer {
    pub chat_session: Option<String>,
    pub orders: HashSet<i64>,
    pub user_id: Option<UserId>,
    pub staff: bool,
}

impl Viewer {
    /// Whether this viewer may hear the event: the same rules as the calls it makes refetch.
    pub fn may_see(&self, event: &NewPushEvent) -> bool {
        if event.public || (event.staff && self.staff) {
            return true;
        }
        if let (Some(mine), Some(theirs)) = (&self.chat_session, &event.chat_session) {
            if mine == theirs {
                return true;
            }
        }
        if let Some(order) = event.order_id {
            if self.orders.contains(&order) {
                return true;
            }
            if let (Some(me), Some(owner)) = (self.user_id, event.user_id) {
                return me == owner;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::{topic, ChatChanged};

    fn event() -> NewPushEvent {
        NewPushEvent {
            topic: topic::CHAT.to_owned(),
            data: "{}".to_owned(),
            public: false,
            staff: false,
            chat_session: None,
            order_id: None,
            user_id: None,
        }
    }

    #[test]
    fn a_viewer_sees_public_events_their_chat_their_orders_and_staff_events_only_as_staff() {
        let shopper = Viewer {
            chat_session: Some("session-mine".into()),
            orders: HashSet::from([7]),
            user_id: Some(UserId::new(3)),
            staff: false,
        };
        let staff = Viewer {
            staff: true,
            ..Viewer::default()
        };
        let public = NewPushEvent {
            public: true,
            ..event()
        };
        assert!(shopper.may_see(&public) && staff.may_see(&public));

        let my_chat = NewPushEvent {
            chat_session: Some("session-mine".into()),
            ..event()
        };
        let their_chat = NewPushEvent {
            chat_session: Some("session-theirs".into()),
            staff: true,
            ..event()
        };
        assert!(shopper.may_see(&my_chat));
        assert!(!shopper.may_see(&their_chat));
        assert!(staff.may_see(&their_chat));
        assert!(!staff.may_see(&my_chat), "a chat still with the assistant");

        let session_order = NewPushEvent {
            order_id: Some(7),
            staff: true,
            ..event()
        };
        let account_order = NewPushEvent {
            order_id: Some(8),
            user_id: Some(UserId::new(3)),
            ..event()
        };
        let other_order = NewPushEvent {
            order_id: Some(9),
            user_id: Some(UserId::new(4)),
            ..event()
        };
        let guest_order = NewPushEvent {
            order_id: Some(10),
            ..event()
        };
        assert!(shopper.may_see(&session_order));
        assert!(shopper.may_see(&account_order));
        assert!(!shopper.may_see(&other_order));
        assert!(!shopper.may_see(&guest_order));
        assert!(!Viewer::default().may_see(&account_order));
    }

    #[test]
    fn what_each_change_publishes_is_heard_by_whom_the_calls_answer() {
        let owner = Viewer {
            chat_session: Some("session-mine".into()),
            orders: HashSet::from([7]),
            ..Viewer::default()
        };
        let staff = Viewer {
            staff: true,
            ..Viewer::default()
        };
        let stranger = Viewer::default();

        let products = NewPushEvent::products_changed("\"v2\"");
        assert!([&owner, &staff, &stranger]
            .iter()
            .all(|v| v.may_see(&products)));

        let chat = ChatChanged {
            chat_id: "c1",
            session: "session-mine",
            status: "open",
            version: Some(3),
            staff: false,
        };
        let with_assistant = NewPushEvent::chat_changed(chat);
        assert!(owner.may_see(&with_assistant));
        assert!(!staff.may_see(&with_assistant));
        assert!(!stranger.may_see(&with_assistant));
        let with_staff = NewPushEvent::chat_changed(ChatChanged {
            staff: true,
            ..chat
        });
        assert!(owner.may_see(&with_staff) && staff.may_see(&with_staff));

        let purged = NewPushEvent::chat_list_changed();
        assert!(staff.may_see(&purged));
        assert!(!owner.may_see(&purged));

        let order = NewPushEvent::order_changed(7, None, "paid", "paid");
        assert!(owner.may_see(&order) && staff.may_see(&order));
        assert!(!stranger.may_see(&order));

        let message = NewPushEvent::order_message(crate::OrderMessagePosted {
            order_id: 7,
            user_id: None,
            id: 1,
            from: "staff",
            author: "Ann",
            text: "Join me now",
            created_at: chrono::Utc::now(),
        });
        assert!(owner.may_see(&message) && staff.may_see(&message));
        assert!(!stranger.may_see(&message));
    }
}
