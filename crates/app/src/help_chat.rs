//! The help chat's wiring: the chat service over the store and the assistant, the poll cache,
//! the staff notifications and the JSON the chat calls answer with.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use std::sync::Arc;

use accounts::UserId;
use assistant::{OpenAiSettings, ShopAssistant, ShopFacts};
use chat::{Answer, Assistant, Chat, ChatMessage, MessageText, RandomIds, Retention, Side};
use discord::StaffNotifier;
use orders::gateways::{StaffMessage, StaffNotifications};
use secrecy::ExposeSecret;
use serde::Serialize;
use shared::escape_markdown;
use utoipa::ToSchema;

use crate::dispatch::EventsStore;

use crate::auth::{AccountsService, AppClock};
use crate::chat_versions::ChatVersions;
use crate::services::TrackingService;
use crate::settings::{AssistantSettings, ChatSettings, Settings};
use crate::snapshot::ProductSnapshot;

/// How many chats one purge statement deletes at most.
pub const PURGE_BATCH: u32 = 500;
/// How many batches one purge run deletes at most (the next run goes on).
const PURGE_BATCHES_PER_RUN: usize = 20;
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

/// What an agent is called to a shopper when their account has no name to show.
const AGENT: &str = "Agent";

/// The assistant the chat service asks: the shop's assistant, kept in step with the product
/// snapshot (the live catalog) before each answer, without reading the database, and told the
/// shop's facts at each answer: the delivery promise as the tracking service measures it (the
/// same `estimate_minutes` the order page shows; it measures at most once a minute), the
/// Discord invite and whether the shop opens Discord tickets.
#[derive(Clone)]
pub struct CatalogAssistant {
    assistant: ShopAssistant,
    products: ProductSnapshot,
    /// The ETag of the snapshot the assistant's catalog was built from.
    seen: std::sync::Arc<Mutex<String>>,
    /// Where the delivery promise comes from.
    tracking: Arc<TrackingService>,
    /// `site.discord_invite_url`, checked.
    discord_invite: Option<String>,
    /// Whether the shop opens a Discord ticket for each paid order.
    discord_tickets: bool,
}

impl std::fmt::Debug for CatalogAssistant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CatalogAssistant")
            .field("assistant", &self.assistant)
            .field("discord_invite", &self.discord_invite)
            .field("discord_tickets", &self.discord_tickets)
            .finish_non_exhaustive()
    }
}

impl CatalogAssistant {
    pub fn new(
        assistant: ShopAssistant,
        products: ProductSnapshot,
        tracking: Arc<TrackingService>,
        discord_invite: Option<String>,
        discord_tickets: bool,
    ) -> Self {
        CatalogAssistant {
            assistant,
            products,
            seen: std::sync::Arc::new(Mutex::new(String::new())),
            tracking,
            discord_invite,
            discord_tickets,
        }
    }

    /// The shop's facts now.
    async fn facts(&self) -> ShopFacts {
        ShopFacts {
            delivery_minutes: self.tracking.estimate_minutes().await,
            discord_invite: self.discord_invite.clone(),
            discord_tickets: self.discord_tickets,
        }
    }

    /// Rebuilds the assistant's catalog when the snapshot changed since the last answer.
    fn sync_catalog(&self) {
        let current = self.products.current();
        let mut seen = match self.seen.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        if *seen != current.etag {
            self.assistant.update_catalog(&current.products);
            seen.clone_from(&current.etag);
        }
    }
}

impl Assistant for CatalogAssistant {
    async fn answer(&self, question: &MessageText, context: &[ChatMessage]) -> Answer {
        self.sync_catalog();
        self.assistant.update_facts(self.facts().await);
        self.assistant.answer(question, context).await
    }
}

pub type ShopChatService = chat::ChatService<EventsStore, CatalogAssistant, AppClock, RandomIds>;

/// Everything the chat calls use; one per instance.
pub struct HelpChat {
    pub service: ShopChatService,
    pub versions: ChatVersions,
    /// The `chat` settings: limits and retention.
    pub settings: ChatSettings,
    notifier: StaffNotifier,
    /// `site.public_url` without a trailing slash.
    public_url: String,
    /// Where staff names come from.
    accounts: Arc<AccountsService>,
    /// Staff names by user id, for `accepted_by_name` (names rarely change; read once).
    staff_names: Mutex<HashMap<i64, String>>,
}

impl std::fmt::Debug for HelpChat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HelpChat")
            .field("notifier", &self.notifier)
            .field("cached_chats", &self.versions.len())
            .finish_non_exhaustive()
    }
}

/// The remote assistant's settings, when `assistant.api_base`, `model` and `api_key` are set.
pub fn remote_assistant(settings: &AssistantSettings) -> Option<OpenAiSettings> {
    let configured = !settings.api_base.trim().is_empty()
        && !settings.model.trim().is_empty()
        && !settings.api_key.expose_secret().trim().is_empty();
    configured.then(|| OpenAiSettings {
        api_base: settings.api_base.trim().trim_end_matches('/').to_owned(),
        model: settings.model.trim().to_owned(),
        api_key: settings.api_key.clone(),
        timeout: Duration::from_millis(settings.timeout_ms.max(1)),
    })
}

impl HelpChat {
    /// `notifier` is the app's one staff notifier, shared with checkout; `tracking` measures
    /// the delivery promise the assistant states.
    pub fn build(
        settings: &Settings,
        store: EventsStore,
        products: ProductSnapshot,
        notifier: StaffNotifier,
        clock: AppClock,
        accounts: Arc<AccountsService>,
        tracking: Arc<TrackingService>,
    ) -> anyhow::Result<Self> {
        let remote = remote_assistant(&settings.assistant);
        if remote.is_some() {
            tracing::info!("the help chat asks the configured OpenAI-compatible assistant");
        }
        let discord_invite = settings.site.discord_invite()?.map(str::to_owned);
        // as `discord::DiscordTickets::from_settings` decides
        let discord_tickets = settings.discord.guild_join().is_some()
            && !settings.discord.ticket_channel_id.trim().is_empty();
        let facts = ShopFacts {
            // until the first answer asks the tracking service
            delivery_minutes: tracking.handoff().delivery_minutes,
            discord_invite: discord_invite.clone(),
            discord_tickets,
        };
        let assistant = ShopAssistant::new(remote, &products.current().products, facts)?;
        let assistant = CatalogAssistant::new(
            assistant,
            products,
            tracking,
            discord_invite,
            discord_tickets,
        );
        Ok(HelpChat {
            service: chat::ChatService::new(store, assistant, clock, RandomIds),
            versions: ChatVersions::new(),
            settings: settings.chat.clone(),
            notifier,
            public_url: settings.site.public_url.trim_end_matches('/').to_owned(),
            accounts,
            staff_names: Mutex::new(HashMap::new()),
        })
    }

    /// Tells staff that a shopper asked for a live agent (when a webhook is configured).
    pub fn notify_live_request(&self, chat: &Chat, last_question: Option<&str>) {
        self.notifier
            .notify(live_request_message(chat, last_question, &self.public_url));
    }

    pub fn remember_staff_name(&self, id: i64, name: &str) {
        self.names().insert(id, name.to_owned());
    }

    fn names(&self) -> std::sync::MutexGuard<'_, HashMap<i64, String>> {
        match self.staff_names.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// The name of the member of staff who accepted the chat.
    pub async fn accepted_by_name(&self, chat: &Chat) -> anyhow::Result<Option<String>> {
        let Some(id) = chat.accepted_by else {
            return Ok(None);
        };
        if let Some(name) = self.names().get(&id) {
            return Ok(Some(name.clone()));
        }
        let user = self
            .accounts
            .user(UserId::new(id))
            .await
            .map_err(|e| anyhow::anyhow!("failed to load the staff member {id}: {e}"))?;
        let name = user.map(|u| u.name.as_str().to_owned());
        if let Some(name) = &name {
            self.remember_staff_name(id, name);
        }
        Ok(name)
    }

    /// How long chats are kept.
    pub fn retention(&self) -> Retention {
        Retention {
            idle_ai: chrono::Duration::hours(i64::from(self.settings.idle_purge_hours)),
            closed: chrono::Duration::days(i64::from(self.settings.closed_retention_days)),
        }
    }

    /// Deletes the chats the retention no longer keeps at `now`, in batches of
    /// [`PURGE_BATCH`] (at most a few batches per run); returns how many went.
    pub async fn purge_expired(&self, now: chrono::DateTime<chrono::Utc>) -> anyhow::Result<usize> {
        let mut purged = 0;
        for _ in 0..PURGE_BATCHES_PER_RUN {
            let ids = self
                .service
                .purge_batch(now, self.retention(), PURGE_BATCH)
                .await?;
            purged += ids.len();
            self.versions.forget(&ids);
            if ids.len() < PURGE_BATCH as usize {
                break;
            }
        }
        Ok(purged)
    }

    /// The chat as JSON for `side`, with its messages when given. A shopper sees who joined
    /// by display name only; staff also get the member of staff's user id.
    pub async fn render_chat(
        &self,
        chat: &Chat,
        messages: &[ChatMessage],
        side: Side,
        with_messages: bool,
    ) -> anyhow::Result<ChatJson> {
        let accepted_by_name = self.accepted_by_name(chat).await?;
        Ok(ChatJson {
            id: chat.id.to_string(),
            status: chat.status.as_str(),
            user: chat.user.as_ref().map(|u| UserJson {
                id: u.id,
                name: u.name.clone(),
            }),
            created_at: chat.created_at.to_rfc3339(),
            accepted_by: match (side, chat.accepted_by) {
                (_, None) => None,
                (Side::Staff, Some(id)) => Some(AcceptedBy::Staff(id)),
                (Side::Customer, Some(_)) => Some(AcceptedBy::Shopper(
                    accepted_by_name.clone().unwrap_or_else(|| AGENT.to_owned()),
                )),
            },
            accepted_by_name,
            has_unread_messages: chat.has_unread(side, messages),
            messages: with_messages.then(|| messages.iter().map(MessageJson::from).collect()),
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UserJson {
    pub id: i64,
    pub name: String,
}

/// Who joined the chat: staff see the user id; a shopper sees the agent's display name (set
/// when an agent joined, as the spec's client expects, but never a staff user id).
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum AcceptedBy {
    Staff(i64),
    Shopper(String),
}

/// A chat as every chat call answers it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatJson {
    #[schema(format = Uuid)]
    pub id: String,
    /// `ai`, `pending` (waiting for an agent), `connected` or `closed`.
    #[schema(example = "ai")]
    pub status: &'static str,
    /// The logged-in shopper; `null` for a guest.
    pub user: Option<UserJson>,
    #[schema(format = DateTime)]
    pub created_at: String,
    pub accepted_by: Option<AcceptedBy>,
    /// The display name of the member of staff who joined.
    pub accepted_by_name: Option<String>,
    /// Whether the other side wrote something this side has not read.
    pub has_unread_messages: bool,
    /// Oldest first; left out where a call answers the chat without its messages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub messages: Option<Vec<MessageJson>>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MessageJson {
    pub id: i64,
    pub message: String,
    /// `user`, `guest`, `bot`, `system`, `admin` or `super_admin`.
    #[schema(example = "guest")]
    pub sender_type: &'static str,
    #[schema(format = DateTime)]
    pub created_at: String,
}

impl From<&ChatMessage> for MessageJson {
    fn from(message: &ChatMessage) -> Self {
        MessageJson {
            id: message.id.get(),
            message: message.text.clone(),
            sender_type: message.sender.as_str(),
            created_at: message.created_at.to_rfc3339(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    #[test]
    fn a_live_request_shows_the_shoppers_name_and_message_as_typed() {
        let chat = Chat {
            id: chat::ChatId::random(),
            session: chat::SessionId::parse("session-of-the-shopper").unwrap(),
            user: Some(chat::ChatUser {
                id: 7,
                name: "**Ann** [claim](https://evil.example) @everyone".to_owned(),
            }),
            accepted_by: None,
            status: chat::ChatStatus::Pending,
            staff_read_through: None,
            user_read_through: None,
            created_at: Utc::now(),
            updated_at: Utc::now(),
            version: 1,
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
