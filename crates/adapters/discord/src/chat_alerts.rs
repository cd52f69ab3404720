//! The help chat's staff alert ([`chat::StaffAlerts`]): a shopper asked for a live agent, told
//! to the staff channel through the [`StaffNotifier`].

use chat::{Chat, StaffAlerts};
use orders::gateways::{StaffMessage, StaffNotifications};
use shared::escape_markdown;

use crate::notifier::StaffNotifier;

/// The help chat's alerts to staff, with a link to the shop.
#[derive(Debug, Clone)]
pub struct ChatAlerts {
    notifier: StaffNotifier,
    /// The shop's public URL without a trailing slash.
    public_url: String,
}

impl ChatAlerts {
    /// `notifier` is the shop's one staff notifier; `public_url` the shop's address.
    pub fn new(notifier: StaffNotifier, public_url: &str) -> Self {
        ChatAlerts {
            notifier,
            public_url: public_url.trim_end_matches('/').to_owned(),
        }
    }
}

impl StaffAlerts for ChatAlerts {
    fn live_request(&self, chat: &Chat, last_question: Option<&str>) {
        self.notifier
            .notify(live_request_message(chat, last_question, &self.public_url));
    }
}

/// The staff notice of a shopper asking for a live agent. The shopper's name and message are
/// escaped for Discord markdown: they show as typed, never as a link, a heading or a mention.
fn live_request_message(
    chat: &Chat,
    last_question: Option<&str>,
    public_url: &str,
) -> StaffMessage {
    let who = match &chat.user {
        Some(user) => escape_markdown(&user.name),
        None => "A guest".to_owned(),
    };
    let mut fields = vec![("Chat".to_owned(), chat.id.to_string())];
    if let Some(question) = last_question {
        fields.push(("Last message".to_owned(), escape_markdown(question)));
    }
    StaffMessage {
        text: format!("{who} asked for a live agent in the help chat."),
        link: Some(format!("{public_url}/")),
        fields,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use chrono::Utc;

    #[test]
    fn a_live_request_shows_the_shoppers_name_and_message_as_typed() {
        let chat = Chat {
            id: chat::ChatId::random(),
            session: chat::SessionId::parse("session-of-the-shopper").unwrap(),
            user: Some(chat::ChatUser {
                id: shared::UserId::new(7),
                name: "**Ann** [claim](https://evil.example) @everyone".to_owned(),
            }),
            accepted_by: None,
            status: chat::ChatStatus::Pending,
            staff_read_through: None,
            user_read_through: None,
            created_at: Utc::now(),
            updated_at: Utc::now(),
            version: 1,
            language: shared::Language::English,
        };
        let message = live_request_message(&chat, Some("# help\nnow"), "https://shop.example");
        assert_eq!(
            message.text,
            "\\*\\*Ann\\*\\* \\[claim\\]\\(https\\://evil.example\\) \\@everyone asked for a live \
             agent in the help chat."
        );
        assert_eq!(
            message.fields[1],
            ("Last message".to_owned(), "\\# help now".to_owned())
        );
        assert_eq!(message.link.as_deref(), Some("https://shop.example/"));
    }
}
