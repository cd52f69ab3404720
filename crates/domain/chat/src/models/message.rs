use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Utc};
use shared::Language;

/// The sentences the chat writes on its own (the assistant's greeting, its live-agent offer, the
/// system notices), in one language. The shopper reads them in the language the chat widget is
/// shown in; [`ChatSentences::of`] gives each language's (the compiler keeps every language
/// complete: adding one is its constant here and its line in `of`). The buttons they name
/// ('Talk to Live Agent') are named as the storefront labels them in that language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChatSentences {
    /// The assistant's first message in every new chat.
    pub greeting: &'static str,
    /// What the assistant adds when it cannot answer well: the widget offers the live agent.
    pub live_agent_offer: &'static str,
    /// The system notice stored when a shopper asks for a live agent.
    pub live_agent_requested: &'static str,
    /// The system notice stored when a member of staff accepts the chat.
    pub live_agent_joined: &'static str,
    /// The system notice stored when a chat is closed.
    pub chat_closed: &'static str,
}

impl ChatSentences {
    pub const ENGLISH: ChatSentences = ChatSentences {
        greeting: "Hi! I'm the Garden Shop assistant. Ask me about prices, stock, delivery or \
                   payment, or press 'Talk to Live Agent' to chat with our staff.",
        live_agent_offer: "Press 'Talk to Live Agent' and a member of our staff will help you.",
        live_agent_requested: "You asked for a live agent. A member of our staff will join \
                               shortly.",
        live_agent_joined: "You are now connected to a live agent.",
        chat_closed: "The conversation has ended.",
    };

    pub const SPANISH: ChatSentences = ChatSentences {
        greeting:
            "¡Hola! Soy el asistente de Garden Shop. Pregúntame por precios, stock, \
                   entregas o pagos, o pulsa 'Hablar con un agente' para hablar con nuestro equipo.",
        live_agent_offer: "Pulsa 'Hablar con un agente' y alguien de nuestro equipo te \
                           ayudará.",
        live_agent_requested: "Has pedido hablar con una persona. Alguien de nuestro equipo se \
                               unirá en breve.",
        live_agent_joined: "Ya estás hablando con una persona de nuestro equipo.",
        chat_closed: "La conversación ha terminado.",
    };

    pub const BRAZILIAN_PORTUGUESE: ChatSentences = ChatSentences {
        greeting: "Oi! Eu sou o assistente da Garden Shop. Pergunte sobre preços, estoque, \
                   entrega ou pagamento, ou toque em 'Falar com um atendente' para falar com a \
                   nossa equipe.",
        live_agent_offer: "Toque em 'Falar com um atendente' e alguém da nossa equipe vai te \
                           ajudar.",
        live_agent_requested: "Você pediu para falar com uma pessoa. Alguém da nossa equipe vai \
                               entrar em breve.",
        live_agent_joined: "Agora você está falando com uma pessoa da nossa equipe.",
        chat_closed: "A conversa terminou.",
    };

    pub const FRENCH: ChatSentences = ChatSentences {
        greeting: "Salut ! Je suis l'assistant de Garden Shop. Pose-moi tes questions sur les \
                   prix, le stock, la livraison ou le paiement, ou appuie sur 'Parler à un \
                   conseiller' pour parler à notre équipe.",
        live_agent_offer: "Appuie sur 'Parler à un conseiller' et quelqu'un de notre équipe \
                           t'aidera.",
        live_agent_requested: "Tu as demandé à parler à quelqu'un. Un membre de notre équipe \
                               arrive bientôt.",
        live_agent_joined: "Tu parles maintenant avec un membre de notre équipe.",
        chat_closed: "La conversation est terminée.",
    };

    pub const GERMAN: ChatSentences = ChatSentences {
        greeting: "Hi! Ich bin der Assistent von Garden Shop. Frag mich nach Preisen, Vorrat, \
                   Lieferung oder Bezahlung, oder drück auf 'Mit dem Support chatten', um mit \
                   unserem Team zu schreiben.",
        live_agent_offer: "Drück auf 'Mit dem Support chatten', dann hilft dir jemand aus \
                           unserem Team.",
        live_agent_requested: "Du hast nach einem Menschen gefragt. Gleich meldet sich jemand \
                               aus unserem Team.",
        live_agent_joined: "Du bist jetzt mit jemandem aus unserem Team verbunden.",
        chat_closed: "Das Gespräch ist beendet.",
    };

    /// The sentences in `language`.
    pub fn of(language: Language) -> &'static ChatSentences {
        match language {
            Language::English => &Self::ENGLISH,
            Language::Spanish => &Self::SPANISH,
            Language::BrazilianPortuguese => &Self::BRAZILIAN_PORTUGUESE,
            Language::French => &Self::FRENCH,
            Language::German => &Self::GERMAN,
        }
    }
}

/// The assistant's first message in every new chat, in English.
pub const BOT_GREETING: &str = ChatSentences::ENGLISH.greeting;

/// The live-agent offer in English (see [`ChatSentences::live_agent_offer`]).
pub const LIVE_AGENT_OFFER: &str = ChatSentences::ENGLISH.live_agent_offer;

/// The system notice stored when a shopper asks for a live agent, in English.
pub const LIVE_AGENT_REQUESTED_NOTICE: &str = ChatSentences::ENGLISH.live_agent_requested;

/// The system notice stored when a member of staff accepts the chat, in English.
pub const LIVE_AGENT_JOINED_NOTICE: &str = ChatSentences::ENGLISH.live_agent_joined;

/// The system notice stored when a chat is closed, in English.
pub const CHAT_CLOSED_NOTICE: &str = ChatSentences::ENGLISH.chat_closed;

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
/// question, so that "where is my order?" can be answered with the shopper's own orders, in
/// their language.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Asker {
    /// The asker's open orders (placed in this browser's session or on their logged-in
    /// account), newest first; empty when there are none or nothing is known.
    pub orders: Vec<AskerOrder>,
    /// The language the chat is shown in: the assistant answers in it.
    pub language: Language,
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
    /// in `language` follows it.
    pub fn offer_live_agent(lead: &str, language: Language) -> Self {
        let lead = lead.trim();
        let offer = ChatSentences::of(language).live_agent_offer;
        let text = if lead.is_empty() {
            offer.to_owned()
        } else {
            format!("{lead} {offer}")
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
        let answer = Answer::offer_live_agent("I don't know that one.", Language::English);
        assert!(!answer.confident);
        assert!(answer.text.starts_with("I don't know that one. "));
        assert!(answer.text.ends_with(LIVE_AGENT_OFFER));
        assert_eq!(
            Answer::offer_live_agent("", Language::English).text,
            LIVE_AGENT_OFFER
        );
        let spanish = Answer::offer_live_agent("No lo sé.", Language::Spanish);
        assert_eq!(
            spanish.text,
            format!("No lo sé. {}", ChatSentences::SPANISH.live_agent_offer)
        );
    }
}
