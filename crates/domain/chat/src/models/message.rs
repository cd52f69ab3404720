use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Utc};

/// The assistant's first message in every new chat.
pub const BOT_GREETING: &str = "Hi! I'm the Garden Shop assistant. Ask me about prices, stock, \
delivery or payment, or press 'Talk to Live Agent' to chat with our staff.";

/// What the assistant adds when it cannot answer well: the widget offers the live agent.
pub const LIVE_AGENT_OFFER: &str =
    "Press 'Talk to Live Agent' and a member of our staff will help you.";

/// The system notice stored when a shopper asks for a live agent.
pub const LIVE_AGENT_REQUESTED_NOTICE: &str =
    "You asked for a live agent. A member of our staff will join shortly.";

/// The system notice stored when a member of staff accepts the chat.
pub const LIVE_AGENT_JOINED_NOTICE: &str = "You are now connected to a live agent.";

/// The system notice stored when a chat is closed.
pub const CHAT_CLOSED_NOTICE: &str = "The conversation has ended.";

/// A message's database id; ids grow, so "after the last one read" is a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MessageId(i64);

impl MessageId {
    pub fn new(id: i64) -> Self {
        MessageId(id)
    }

    pub fn get(self) -> i64 {
        self.0
    }
}

impl fmt::Display for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The two sides of a conversation, each with its own unread messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The shopper, signed in or a guest.
    Customer,
    /// Admins and super_admins.
    Staff,
}

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SenderType {
    Admin,
    SuperAdmin,
    User,
    Guest,
    System,
    Bot,
}

impl SenderType {
    pub fn as_str(self) -> &'static str {
        match self {
            SenderType::Admin => "admin",
            SenderType::SuperAdmin => "super_admin",
            SenderType::User => "user",
            SenderType::Guest => "guest",
            SenderType::System => "system",
            SenderType::Bot => "bot",
        }
    }

    /// Written by the shopper.
    pub fn is_customer(self) -> bool {
        matches!(self, SenderType::User | SenderType::Guest)
    }

    /// Whether a message from this sender counts as unread for `side` until that side reads
    /// it. Staff care about what shoppers write; shoppers about everything the shop says
    /// (staff, the assistant and system notices).
    pub fn is_unread_for(self, side: Side) -> bool {
        match side {
            Side::Staff => self.is_customer(),
            Side::Customer => !self.is_customer(),
        }
    }
}

impl fmt::Display for SenderType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown sender type {0:?}")]
pub struct UnknownSenderType(pub String);

impl FromStr for SenderType {
    type Err = UnknownSenderType;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "admin" => SenderType::Admin,
            "super_admin" => SenderType::SuperAdmin,
            "user" => SenderType::User,
            "guest" => SenderType::Guest,
            "system" => SenderType::System,
            "bot" => SenderType::Bot,
            other => return Err(UnknownSenderType(other.to_owned())),
        })
    }
}

/// A stored message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatMessage {
    pub id: MessageId,
    pub sender: SenderType,
    pub text: String,
    pub created_at: DateTime<Utc>,
}

/// A message about to be stored; the store assigns the id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMessage {
    pub sender: SenderType,
    pub text: String,
    pub created_at: DateTime<Utc>,
}

/// Who is asking the assistant, as far as the shop knows them: given by the app with each
/// question, so that "where is my order?" can be answered with the shopper's own orders.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Asker {
    /// The asker's open orders (placed in this browser's session or on their logged-in
    /// account), newest first; empty when there are none or nothing is known.
    pub orders: Vec<AskerOrder>,
}

/// One of the asker's open orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AskerOrder {
    /// The order's number, as its page and receipt show it.
    pub number: i64,
    /// Its status as the buyer reads it ("Paid", "Pending", "Payment under review").
    pub status: String,
    /// The address of its page (the asker opens it without a key: it is theirs).
    pub link: String,
}

/// The assistant's answer to a shopper's question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub text: String,
    /// `false` when the assistant could not answer well: the widget then offers the live agent.
    pub confident: bool,
}

impl Answer {
    pub fn confident(text: impl Into<String>) -> Self {
        Answer {
            text: text.into(),
            confident: true,
        }
    }

    /// An answer that hands the shopper to a person; `lead` says why, and the live-agent offer
    /// follows it.
    pub fn offer_live_agent(lead: &str) -> Self {
        let lead = lead.trim();
        let text = if lead.is_empty() {
            LIVE_AGENT_OFFER.to_owned()
        } else {
            format!("{lead} {LIVE_AGENT_OFFER}")
        };
        Answer {
            text,
            confident: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sender_types_round_trip_through_their_names() {
        for sender in [
            SenderType::Admin,
            SenderType::SuperAdmin,
            SenderType::User,
            SenderType::Guest,
            SenderType::System,
            SenderType::Bot,
        ] {
            assert_eq!(sender.as_str().parse::<SenderType>(), Ok(sender));
        }
        assert!("robot".parse::<SenderType>().is_err());
    }

    #[test]
    fn staff_count_only_shopper_messages_as_unread_and_shoppers_everything_else() {
        assert!(SenderType::Guest.is_unread_for(Side::Staff));
        assert!(SenderType::User.is_unread_for(Side::Staff));
        assert!(!SenderType::Bot.is_unread_for(Side::Staff));
        assert!(!SenderType::Admin.is_unread_for(Side::Staff));
        assert!(SenderType::Admin.is_unread_for(Side::Customer));
        assert!(SenderType::SuperAdmin.is_unread_for(Side::Customer));
        assert!(SenderType::Bot.is_unread_for(Side::Customer));
        assert!(SenderType::System.is_unread_for(Side::Customer));
        assert!(!SenderType::Guest.is_unread_for(Side::Customer));
    }

    #[test]
    fn an_unsure_answer_ends_with_the_live_agent_offer() {
        let answer = Answer::offer_live_agent("I don't know that one.");
        assert!(!answer.confident);
        assert!(answer.text.starts_with("I don't know that one. "));
        assert!(answer.text.ends_with(LIVE_AGENT_OFFER));
        assert_eq!(Answer::offer_live_agent("").text, LIVE_AGENT_OFFER);
    }
}
