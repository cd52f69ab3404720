//! The help chat's wiring: the chat service over the store and the assistant, the poll cache,
//! the staff notifications, and the rendering of a chat into the JSON the chat calls answer
//! with (`dto::chat`).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use std::sync::Arc;

use accounts::UserId;
use assistant::{OpenAiSettings, ShopAssistant};
use chat::{
    Answer, Asker, Assistant, Chat, ChatId, ChatMessage, ChatVersions, MessageText, RandomIds,
    Retention, Side, StaffAlerts,
};
use discord::{ChatAlerts, StaffNotifier};
use helpdesk::ShopFacts;
use secrecy::ExposeSecret;
use store::Store;

use crate::auth::{AccountsService, AppClock};
use crate::notices::ShopNotices;
use crate::services::TrackingService;
use crate::settings::{AssistantSettings, ChatSettings, Settings};
use crate::snapshot::ProductSnapshot;
use dto::chat::{AcceptedBy, Cached, ChatJson, MessageJson, UserJson};

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
    async fn answer(
        &self,
        question: &MessageText,
        context: &[ChatMessage],
        asker: &Asker,
    ) -> Answer {
        self.sync_catalog();
        self.assistant.update_facts(self.facts().await);
        self.assistant.answer(question, context, asker).await
    }
}

pub type ShopChatService = chat::ChatService<Store, CatalogAssistant, AppClock, RandomIds>;

/// Everything the chat calls use; one per instance.
pub struct HelpChat {
    pub service: ShopChatService,
    pub versions: ChatVersions<Cached>,
    /// The `chat` settings: limits and retention.
    pub settings: ChatSettings,
    /// Tells staff of live-agent requests.
    alerts: ChatAlerts,
    /// Where staff names come from.
    accounts: Arc<AccountsService>,
    /// Staff names by user id, for `accepted_by_name` (names rarely change; read once).
    staff_names: Mutex<HashMap<UserId, String>>,
}

impl std::fmt::Debug for HelpChat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HelpChat")
            .field("alerts", &self.alerts)
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
    /// Awaits a change to chat `id`, then drops the chat's cached answers whether the change
    /// worked or not (the next poll reads the store again).
    pub async fn changing<T>(&self, id: ChatId, change: impl std::future::Future<Output = T>) -> T {
        let outcome = change.await;
        self.versions.changed(id);
        outcome
    }

    /// `notifier` is the app's one staff notifier, shared with checkout; `notices` hears of
    /// each chat's change, and its tracking measures the delivery promise the assistant states.
    pub fn build(
        settings: &Settings,
        notices: Arc<ShopNotices>,
        products: ProductSnapshot,
        notifier: StaffNotifier,
        clock: AppClock,
        accounts: Arc<AccountsService>,
    ) -> anyhow::Result<Self> {
        let tracking = Arc::clone(&notices.tracking);
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
            versions: ChatVersions::new(shared::Clock::now(&clock)),
            service: chat::ChatService::new(notices.store.clone(), assistant, clock, RandomIds)
                .with_notices(notices),
            settings: settings.chat.clone(),
            alerts: ChatAlerts::new(notifier, &settings.site.public_url),
            accounts,
            staff_names: Mutex::new(HashMap::new()),
        })
    }

    /// Tells staff that a shopper asked for a live agent (when a webhook is configured).
    pub fn notify_live_request(&self, chat: &Chat, last_question: Option<&str>) {
        self.alerts.live_request(chat, last_question);
    }

    pub fn remember_staff_name(&self, id: UserId, name: &str) {
        self.names().insert(id, name.to_owned());
    }

    fn names(&self) -> std::sync::MutexGuard<'_, HashMap<UserId, String>> {
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
            .user(id)
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

    /// Deletes the chats the retention no longer keeps at `now` (`chat::ChatService::
    /// purge_expired`), forgetting them in the poll cache; returns how many went.
    pub async fn purge_expired(&self, now: chrono::DateTime<chrono::Utc>) -> anyhow::Result<usize> {
        Ok(self
            .service
            .purge_expired(now, self.retention(), |ids| self.versions.forget(ids))
            .await?)
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
                id: u.id.get(),
                name: u.name.clone(),
            }),
            created_at: chat.created_at.to_rfc3339(),
            accepted_by: match (side, chat.accepted_by) {
                (_, None) => None,
                (Side::Staff, Some(id)) => Some(AcceptedBy::Staff(id.get())),
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
