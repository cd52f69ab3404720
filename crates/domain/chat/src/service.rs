use std::sync::Arc;

use chrono::{DateTime, Utc};
use shared::{Actor, Language, UserId};

use crate::{
    Asker, Assistant, Chat, ChatAction, ChatError, ChatId, ChatMessage, ChatNotices,
    ChatRepository, ChatSentences, ChatStamp, ChatStatus, ChatSummary, ChatUser, ChatWithMessages,
    Clock, IdGenerator, MessageText, NewChat, NewMessage, Refused, Retention, SenderType,
    SessionId, Side, StaffChatsQuery, StaffMember, StatusChange,
};

/// How many chats one purge statement deletes at most.
pub const PURGE_BATCH: u32 = 500;
/// How many batches one purge run deletes at most (the next run goes on).
pub const PURGE_BATCHES_PER_RUN: usize = 20;

/// How many earlier messages the assistant sees with a question.
const ASSISTANT_CONTEXT_MESSAGES: usize = 10;

/// The help chat for shoppers and staff.
///
/// Shopper calls take the chat id and the session id the browser sent: a chat of another
/// session answers [`ChatError::NotFound`], exactly like an id that does not exist. Staff calls
/// (`staff_*`, [`accept`](Self::accept), [`reply`](Self::reply)) take no session: the HTTP layer
/// has checked the caller's role.
#[derive(Clone)]
pub struct ChatService<R, A, C, I> {
    repository: R,
    assistant: A,
    clock: C,
    ids: I,
    notices: Arc<dyn ChatNotices>,
}

/// The result of a shopper's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendOutcome {
    /// The shopper's message as stored.
    pub message: ChatMessage,
    /// The assistant's answer, while the chat is with the assistant.
    pub reply: Option<BotReply>,
}

/// What asking for a live agent led to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveRequest {
    /// The session's chat, pending (or connected when an agent had already joined).
    pub chat: Chat,
    /// This call is the one that tells staff: true once per chat, whatever the number of
    /// requests or how they race.
    pub notify_staff: bool,
}

/// The assistant's stored answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotReply {
    pub message: ChatMessage,
    /// The assistant was not sure: show 'Talk to Live Agent' prominently.
    pub offer_live_agent: bool,
}

impl<R, A, C, I> ChatService<R, A, C, I>
where
    R: ChatRepository,
    A: Assistant,
    C: Clock,
    I: IdGenerator,
{
    pub fn new(repository: R, assistant: A, clock: C, ids: I) -> Self {
        ChatService {
            repository,
            assistant,
            clock,
            ids,
            notices: Arc::new(shared::Unheard),
        }
    }

    /// The same service telling `notices` of each change it makes.
    pub fn with_notices(mut self, notices: Arc<dyn ChatNotices>) -> Self {
        self.notices = notices;
        self
    }

    pub fn assistant(&self) -> &A {
        &self.assistant
    }

    // ---- the shopper's side ----------------------------------------------------------------

    /// Opens the session's chat: its open chat when it has one (any status but closed, with
    /// what was said so far), otherwise a new chat with the assistant, which greets with
    /// its greeting in `language` (the one the chat widget is shown in). However often or
    /// however fast it is called, a session has one open chat.
    #[tracing::instrument(skip(self, session, user))]
    pub async fn start_ai(
        &self,
        session: SessionId,
        user: Option<ChatUser>,
        language: Language,
    ) -> Result<ChatWithMessages, ChatError> {
        if let Some(chat) = self.repository.latest_open_chat(&session).await? {
            let messages = self.repository.messages(chat.id).await?;
            return Ok(ChatWithMessages { chat, messages });
        }
        let now = self.clock.now();
        let chat = NewChat {
            id: self.ids.chat_id(),
            session,
            user,
            created_at: now,
            language,
        };
        let greeting = NewMessage {
            sender: SenderType::Bot,
            text: ChatSentences::of(language).greeting.to_owned(),
            created_at: now,
        };
        let chat = self.opened(chat, vec![greeting]).await?;
        let messages = self.repository.messages(chat.id).await?;
        Ok(ChatWithMessages { chat, messages })
    }

    /// Asks for a live agent. The session's open chat with the assistant moves to pending, so
    /// staff see what was said; a session already waiting for or talking to an agent gets that
    /// chat back (a second click changes nothing); otherwise a new chat is started and moved to
    /// pending. A system notice in `language` records the request. Staff are to be told once
    /// per chat: the store decides which call that is.
    #[tracing::instrument(skip(self, session, user))]
    pub async fn start_live(
        &self,
        session: SessionId,
        user: Option<ChatUser>,
        language: Language,
    ) -> Result<LiveRequest, ChatError> {
        let chat = match self.repository.latest_open_chat(&session).await? {
            Some(chat) => chat,
            None => {
                let chat = NewChat {
                    id: self.ids.chat_id(),
                    session,
                    user,
                    created_at: self.clock.now(),
                    language,
                };
                self.opened(chat, vec![]).await?
            }
        };
        let chat = if chat.status == ChatStatus::Ai {
            match self
                .transition(
                    &chat,
                    ChatAction::RequestAgent,
                    None,
                    ChatSentences::of(language).live_agent_requested,
                )
                .await
            {
                Ok(moved) => moved,
                // a parallel request moved it first: that request's chat is this one
                Err(ChatError::Refused(Refused {
                    status: ChatStatus::Pending | ChatStatus::Connected,
                    ..
                })) => self.repository.chat(chat.id).await?,
                Err(error) => return Err(error),
            }
        } else {
            chat
        };
        let notify_staff = chat.status == ChatStatus::Pending
            && self
                .repository
                .claim_staff_notification(chat.id, self.clock.now())
                .await?;
        Ok(LiveRequest { chat, notify_staff })
    }

    /// Whether the session is already waiting for or talking to an agent: asking again
    /// changes nothing, so it is not a new request.
    #[tracing::instrument(skip(self, session))]
    pub async fn waiting_for_agent(&self, session: &SessionId) -> Result<bool, ChatError> {
        let open = self.repository.latest_open_chat(session).await?;
        Ok(open.is_some_and(|chat| chat.status != ChatStatus::Ai))
    }

    /// The messages of a chat the caller already holds (from [`start_live`](Self::start_live)),
    /// oldest first.
    pub async fn messages_of(&self, chat: &Chat) -> Result<Vec<ChatMessage>, ChatError> {
        self.repository.messages(chat.id).await
    }

    /// Stores the shopper's message. While the chat is with the assistant, the assistant's
    /// answer (to `asker`: who the app knows the shopper to be) is stored after it and
    /// returned; while waiting for or talking to an agent the message is only stored (the agent
    /// answers). A closed chat refuses.
    #[tracing::instrument(skip(self, session, text, asker))]
    pub async fn send(
        &self,
        chat: ChatId,
        session: &SessionId,
        text: MessageText,
        asker: &Asker,
    ) -> Result<SendOutcome, ChatError> {
        let chat = self.own_chat(chat, session).await?;
        chat.status.apply(ChatAction::Send)?;
        let context = if chat.status == ChatStatus::Ai {
            let mut earlier = self.repository.messages(chat.id).await?;
            let keep_from = earlier.len().saturating_sub(ASSISTANT_CONTEXT_MESSAGES);
            earlier.drain(..keep_from);
            Some(earlier)
        } else {
            None
        };
        let message = self
            .store_one(chat.id, chat.customer_sender(), text.as_ref().to_owned())
            .await?;
        let Some(context) = context else {
            return Ok(SendOutcome {
                message,
                reply: None,
            });
        };
        let answer = self.assistant.answer(&text, &context, asker).await;
        let reply = self
            .store_one(chat.id, SenderType::Bot, answer.text)
            .await?;
        Ok(SendOutcome {
            message,
            reply: Some(BotReply {
                message: reply,
                offer_live_agent: !answer.confident,
            }),
        })
    }

    /// The chat and its messages, oldest first.
    #[tracing::instrument(skip(self, session))]
    pub async fn history(
        &self,
        chat: ChatId,
        session: &SessionId,
    ) -> Result<ChatWithMessages, ChatError> {
        let chat = self.own_chat(chat, session).await?;
        let messages = self.repository.messages(chat.id).await?;
        Ok(ChatWithMessages { chat, messages })
    }

    /// The chat without its messages (status, accepted_by).
    #[tracing::instrument(skip(self, session))]
    pub async fn status(&self, chat: ChatId, session: &SessionId) -> Result<Chat, ChatError> {
        self.own_chat(chat, session).await
    }

    /// The chat's stamp (version, status, accepted_by), read cheaply: a poller compares the
    /// version with the one it has and fetches the history only when it grew.
    #[tracing::instrument(skip(self, session))]
    pub async fn stamp(&self, chat: ChatId, session: &SessionId) -> Result<ChatStamp, ChatError> {
        match self.repository.stamp(chat).await? {
            Some(stamp) if stamp.session == *session => Ok(stamp),
            _ => Err(ChatError::NotFound(chat)),
        }
    }

    /// Records that the shopper has read every message so far.
    #[tracing::instrument(skip(self, session))]
    pub async fn mark_read(&self, chat: ChatId, session: &SessionId) -> Result<(), ChatError> {
        let chat = self.own_chat(chat, session).await?;
        self.repository
            .mark_read(chat.id, Side::Customer, self.clock.now())
            .await
    }

    /// Ends the chat (from any open status); a system notice in `language` records it.
    #[tracing::instrument(skip(self, session))]
    pub async fn close(
        &self,
        chat: ChatId,
        session: &SessionId,
        language: Language,
    ) -> Result<Chat, ChatError> {
        let chat = self.own_chat(chat, session).await?;
        let notice = ChatSentences::of(language).chat_closed;
        self.transition(&chat, ChatAction::Close, None, notice)
            .await
    }

    /// Deletes the chat and its messages.
    #[tracing::instrument(skip(self, session))]
    pub async fn delete(&self, chat: ChatId, session: &SessionId) -> Result<(), ChatError> {
        let chat = self.own_chat(chat, session).await?;
        self.repository.delete(chat.id, None).await?;
        self.notices.chat_deleted(&(&chat).into()).await;
        Ok(())
    }

    // ---- staff ------------------------------------------------------------------------------

    /// One page of the chats that asked for a live agent, newest activity first, each with
    /// whether the shopper wrote something staff have not read.
    #[tracing::instrument(skip(self))]
    pub async fn staff_chats(&self, query: StaffChatsQuery) -> Result<Vec<ChatSummary>, ChatError> {
        Ok(self
            .repository
            .staff_chats(query)
            .await?
            .into_iter()
            .map(ChatSummary::from_row)
            .collect())
    }

    /// Any chat with its messages.
    #[tracing::instrument(skip(self))]
    pub async fn staff_chat(&self, chat: ChatId) -> Result<ChatWithMessages, ChatError> {
        let chat = self.repository.chat(chat).await?;
        let messages = self.repository.messages(chat.id).await?;
        Ok(ChatWithMessages { chat, messages })
    }

    /// Any chat's messages, oldest first.
    #[tracing::instrument(skip(self))]
    pub async fn staff_messages(&self, chat: ChatId) -> Result<Vec<ChatMessage>, ChatError> {
        self.repository.messages(chat).await
    }

    /// Records that staff have read every message so far.
    #[tracing::instrument(skip(self))]
    pub async fn staff_mark_read(&self, chat: ChatId) -> Result<(), ChatError> {
        self.repository
            .mark_read(chat, Side::Staff, self.clock.now())
            .await
    }

    /// Joins a waiting chat: pending -> connected, `accepted_by` = the member of staff. Of two
    /// accepting at once one wins; the other gets [`ChatError::Refused`].
    #[tracing::instrument(skip(self, staff), fields(staff = %staff.id))]
    pub async fn accept(&self, chat: ChatId, staff: &StaffMember) -> Result<Chat, ChatError> {
        let chat = self.repository.chat(chat).await?;
        self.transition(
            &chat,
            ChatAction::Accept,
            Some(staff.id),
            ChatSentences::of(chat.language).live_agent_joined,
        )
        .await
    }

    /// A member of staff writes in a connected chat.
    #[tracing::instrument(skip(self, staff, text), fields(staff = %staff.id))]
    pub async fn reply(
        &self,
        chat: ChatId,
        staff: &StaffMember,
        text: MessageText,
    ) -> Result<ChatMessage, ChatError> {
        let chat = self.repository.chat(chat).await?;
        chat.status.apply(ChatAction::Reply)?;
        self.store_one(chat.id, staff.sender(), text.into_string())
            .await
    }

    /// Deletes any chat and its messages, with the audit log's entry by `actor`.
    #[tracing::instrument(skip(self, actor))]
    pub async fn staff_delete(&self, chat: ChatId, actor: &Actor) -> Result<(), ChatError> {
        let before = self.repository.stamp(chat).await?;
        self.repository.delete(chat, Some(actor.clone())).await?;
        if let Some(stamp) = before {
            self.notices.chat_deleted(&stamp).await;
        }
        Ok(())
    }

    // ---- upkeep -----------------------------------------------------------------------------

    /// Deletes one batch (at most `batch`) of the chats `retention` no longer keeps at `now`;
    /// returns their ids (fewer than `batch`: nothing is left to delete).
    #[tracing::instrument(skip(self))]
    pub async fn purge_batch(
        &self,
        now: DateTime<Utc>,
        retention: Retention,
        batch: u32,
    ) -> Result<Vec<ChatId>, ChatError> {
        let (idle_ai_before, closed_before) = retention.cutoffs(now);
        let purged = self.repository.purge(idle_ai_before, closed_before, batch);
        let purged = purged.await?;
        if !purged.is_empty() {
            self.notices.chats_purged().await;
        }
        Ok(purged)
    }

    /// Deletes the chats `retention` no longer keeps at `now`, in batches of [`PURGE_BATCH`]
    /// (at most [`PURGE_BATCHES_PER_RUN`] batches: the next run goes on), handing each batch's
    /// ids to `purged` as it goes; returns how many went.
    pub async fn purge_expired(
        &self,
        now: DateTime<Utc>,
        retention: Retention,
        mut purged: impl FnMut(&[ChatId]),
    ) -> Result<usize, ChatError> {
        let mut count = 0;
        for _ in 0..PURGE_BATCHES_PER_RUN {
            let ids = self.purge_batch(now, retention, PURGE_BATCH).await?;
            count += ids.len();
            purged(&ids);
            if ids.len() < PURGE_BATCH as usize {
                break;
            }
        }
        Ok(count)
    }

    // ---- helpers ----------------------------------------------------------------------------

    /// Opens `chat` with `messages` (see [`ChatRepository::create_or_open`]), telling of it
    /// when it is new.
    async fn opened(&self, chat: NewChat, messages: Vec<NewMessage>) -> Result<Chat, ChatError> {
        let opened = self.repository.create_or_open(chat, messages).await?;
        if opened.created {
            self.notices
                .chat_changed(&(&opened.chat).into(), None)
                .await;
        }
        Ok(opened.chat)
    }

    async fn own_chat(&self, id: ChatId, session: &SessionId) -> Result<Chat, ChatError> {
        match self.repository.chat(id).await {
            Ok(chat) if chat.belongs_to(session) => Ok(chat),
            Ok(_) => Err(ChatError::NotFound(id)),
            Err(error) => Err(error),
        }
    }

    async fn store_one(
        &self,
        chat: ChatId,
        sender: SenderType,
        text: String,
    ) -> Result<ChatMessage, ChatError> {
        let message = NewMessage {
            sender,
            text,
            created_at: self.clock.now(),
        };
        let stored = self.repository.append(chat, vec![message]).await?;
        match self.repository.stamp(chat).await {
            Ok(Some(stamp)) => self.notices.chat_changed(&stamp, None).await,
            Ok(None) => {}
            Err(error) => tracing::warn!(error = ?error, "could not read a chat to tell of it"),
        }
        (stored.into_iter().next())
            .ok_or_else(|| anyhow::anyhow!("the store returned no message for chat {chat}").into())
    }

    /// Moves the chat on by `action` if the state machine allows it and no one moved it first.
    async fn transition(
        &self,
        chat: &Chat,
        action: ChatAction,
        accepted_by: Option<UserId>,
        notice: &str,
    ) -> Result<Chat, ChatError> {
        let to = chat.status.apply(action)?;
        let now = self.clock.now();
        let change = StatusChange {
            chat: chat.id,
            from: chat.status,
            to,
            accepted_by,
            notice: Some(NewMessage {
                sender: SenderType::System,
                text: notice.to_owned(),
                created_at: now,
            }),
            at: now,
        };
        if self.repository.change_status(change).await? {
            let now = self.repository.chat(chat.id).await?;
            self.notices
                .chat_changed(&(&now).into(), Some(chat.status))
                .await;
            return Ok(now);
        }
        // Someone else moved the chat first: refuse against the status it has now.
        let current = self.repository.chat(chat.id).await?;
        Err(current
            .status
            .apply(action)
            .err()
            .unwrap_or(Refused {
                action,
                status: current.status,
            })
            .into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::{MockAssistant, MockChatRepository, MockClock, MockIdGenerator};
    use crate::{
        Answer, MessageId, Opened, StaffChatsQuery, StaffFilter, StaffRole, BOT_GREETING,
        CHAT_CLOSED_NOTICE, LIVE_AGENT_REQUESTED_NOTICE,
    };
    use chrono::{DateTime, TimeZone, Utc};
    use mockall::predicate::eq;
    use std::sync::{Arc, Mutex};

    type Service = ChatService<MockChatRepository, MockAssistant, MockClock, MockIdGenerator>;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap()
    }

    fn chat_id() -> ChatId {
        "6f1d3c9a-2b4e-4f60-9a7b-0c1d2e3f4a5b".parse().unwrap()
    }

    fn session() -> SessionId {
        SessionId::parse("browser-session-1").unwrap()
    }

    fn other_session() -> SessionId {
        SessionId::parse("browser-session-2").unwrap()
    }

    fn chat(status: ChatStatus) -> Chat {
        Chat {
            id: chat_id(),
            session: session(),
            user: None,
            accepted_by: None,
            status,
            staff_read_through: None,
            user_read_through: None,
            created_at: now(),
            updated_at: now(),
            version: 1,
            language: Language::English,
        }
    }

    fn stored(id: i64, message: &NewMessage) -> ChatMessage {
        ChatMessage {
            id: MessageId::new(id),
            sender: message.sender,
            text: message.text.clone(),
            created_at: message.created_at,
        }
    }

    fn admin() -> StaffMember {
        StaffMember {
            id: UserId::new(9),
            name: "Mia".into(),
            role: StaffRole::Admin,
        }
    }

    fn text(t: &str) -> MessageText {
        MessageText::parse(t).unwrap()
    }

    fn service(repo: MockChatRepository, assistant: MockAssistant) -> Service {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now());
        let mut ids = MockIdGenerator::new();
        ids.expect_chat_id().return_const(chat_id());
        ChatService::new(repo, assistant, clock, ids)
    }

    /// A repository holding one chat in `status`, appending to a shared log of messages.
    fn repo_with(status: ChatStatus, appended: Arc<Mutex<Vec<NewMessage>>>) -> MockChatRepository {
        let mut repo = MockChatRepository::new();
        repo.expect_chat()
            .with(eq(chat_id()))
            .returning(move |_| Box::pin(async move { Ok(chat(status)) }));
        repo.expect_messages()
            .returning(|_| Box::pin(async { Ok(vec![]) }));
        repo.expect_stamp()
            .returning(move |_| Box::pin(async move { Ok(Some((&chat(status)).into())) }));
        repo.expect_append().returning(move |_, messages| {
            let mut log = appended.lock().unwrap();
            let start = log.len() as i64;
            let out = messages
                .iter()
                .enumerate()
                .map(|(i, m)| stored(start + i as i64 + 1, m))
                .collect();
            log.extend(messages);
            Box::pin(async move { Ok(out) })
        });
        repo
    }

    #[tokio::test]
    async fn a_new_ai_chat_opens_with_the_fixed_greeting() {
        let mut repo = MockChatRepository::new();
        repo.expect_latest_open_chat()
            .returning(|_| Box::pin(async { Ok(None) }));
        repo.expect_create_or_open()
            .withf(|chat, messages| {
                chat.id == chat_id()
                    && chat.session == session()
                    && chat.created_at == now()
                    && messages.len() == 1
                    && messages[0].sender == SenderType::Bot
                    && messages[0].text == BOT_GREETING
            })
            .returning(|_, _| {
                Box::pin(async {
                    Ok(Opened {
                        chat: chat(ChatStatus::Ai),
                        created: true,
                    })
                })
            });
        repo.expect_messages().returning(|_| {
            Box::pin(async {
                Ok(vec![stored(
                    1,
                    &NewMessage {
                        sender: SenderType::Bot,
                        text: BOT_GREETING.into(),
                        created_at: now(),
                    },
                )])
            })
        });
        let started = service(repo, MockAssistant::new())
            .start_ai(session(), None, Language::English)
            .await
            .unwrap();
        assert_eq!(started.chat.status, ChatStatus::Ai);
        assert_eq!(started.messages[0].text, BOT_GREETING);
    }

    #[tokio::test]
    async fn the_greeting_is_in_the_language_the_chat_is_shown_in() {
        let mut repo = MockChatRepository::new();
        repo.expect_latest_open_chat()
            .returning(|_| Box::pin(async { Ok(None) }));
        repo.expect_create_or_open()
            .withf(|_, messages| messages[0].text == ChatSentences::GERMAN.greeting)
            .returning(|_, _| {
                Box::pin(async {
                    Ok(Opened {
                        chat: chat(ChatStatus::Ai),
                        created: true,
                    })
                })
            });
        repo.expect_messages()
            .returning(|_| Box::pin(async { Ok(vec![]) }));
        service(repo, MockAssistant::new())
            .start_ai(session(), None, Language::German)
            .await
            .unwrap();
    }

    #[test]
    fn every_language_has_its_own_sentences() {
        let english = ChatSentences::of(Language::English);
        for language in Language::ALL.into_iter().skip(1) {
            let own = ChatSentences::of(language);
            assert_ne!(own.greeting, english.greeting, "{language}");
            assert_ne!(own.live_agent_offer, english.live_agent_offer, "{language}");
            assert_ne!(own.live_agent_requested, english.live_agent_requested);
            assert_ne!(
                own.live_agent_joined, english.live_agent_joined,
                "{language}"
            );
            assert_ne!(own.chat_closed, english.chat_closed, "{language}");
        }
    }

    #[tokio::test]
    async fn in_ai_status_the_assistant_answers_and_both_messages_are_stored() {
        let log = Arc::new(Mutex::new(vec![]));
        let repo = repo_with(ChatStatus::Ai, log.clone());
        let mut assistant = MockAssistant::new();
        assistant
            .expect_answer()
            .withf(|question, _, _| question.as_ref() == "how much is the raccoon?")
            .returning(|_, _, _| {
                Box::pin(async { Answer::confident("The Raccoon costs $24.99.") })
            });
        let outcome = service(repo, assistant)
            .send(
                chat_id(),
                &session(),
                text("  how much is the raccoon?  "),
                &Asker::default(),
            )
            .await
            .unwrap();
        assert_eq!(outcome.message.sender, SenderType::Guest);
        assert_eq!(outcome.message.text, "how much is the raccoon?");
        let reply = outcome.reply.unwrap();
        assert_eq!(reply.message.sender, SenderType::Bot);
        assert_eq!(reply.message.text, "The Raccoon costs $24.99.");
        assert!(!reply.offer_live_agent);
        let senders: Vec<SenderType> = log.lock().unwrap().iter().map(|m| m.sender).collect();
        assert_eq!(senders, vec![SenderType::Guest, SenderType::Bot]);
    }

    #[tokio::test]
    async fn an_unsure_answer_offers_the_live_agent() {
        let log = Arc::new(Mutex::new(vec![]));
        let repo = repo_with(ChatStatus::Ai, log);
        let mut assistant = MockAssistant::new();
        assistant.expect_answer().returning(|_, _, _| {
            Box::pin(async { Answer::offer_live_agent("Sorry.", Language::English) })
        });
        let outcome = service(repo, assistant)
            .send(
                chat_id(),
                &session(),
                text("my order 1234 never came"),
                &Asker::default(),
            )
            .await
            .unwrap();
        assert!(outcome.reply.unwrap().offer_live_agent);
    }

    #[tokio::test]
    async fn while_waiting_or_connected_messages_are_only_stored() {
        for status in [ChatStatus::Pending, ChatStatus::Connected] {
            let log = Arc::new(Mutex::new(vec![]));
            let repo = repo_with(status, log.clone());
            // no expectation on the assistant: calling it would fail the test
            let outcome = service(repo, MockAssistant::new())
                .send(chat_id(), &session(), text("hello?"), &Asker::default())
                .await
                .unwrap();
            assert_eq!(outcome.reply, None, "{status}");
            assert_eq!(log.lock().unwrap().len(), 1, "{status}");
        }
    }

    #[tokio::test]
    async fn a_closed_chat_refuses_messages_and_stores_nothing() {
        let log = Arc::new(Mutex::new(vec![]));
        let repo = repo_with(ChatStatus::Closed, log.clone());
        let result = service(repo, MockAssistant::new())
            .send(chat_id(), &session(), text("hello?"), &Asker::default())
            .await;
        assert!(matches!(
            result,
            Err(ChatError::Refused(Refused {
                action: ChatAction::Send,
                status: ChatStatus::Closed
            }))
        ));
        assert!(log.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn another_sessions_chat_is_not_found_for_every_shopper_call() {
        let log = Arc::new(Mutex::new(vec![]));
        let repo = repo_with(ChatStatus::Ai, log.clone());
        let service = service(repo, MockAssistant::new());
        let other = other_session();
        let not_found =
            |r: Result<(), ChatError>| matches!(r, Err(ChatError::NotFound(id)) if id == chat_id());
        assert!(not_found(
            service
                .send(chat_id(), &other, text("hi"), &Asker::default())
                .await
                .map(|_| ())
        ));
        assert!(not_found(
            service.history(chat_id(), &other).await.map(|_| ())
        ));
        assert!(not_found(
            service.status(chat_id(), &other).await.map(|_| ())
        ));
        assert!(not_found(
            service.stamp(chat_id(), &other).await.map(|_| ())
        ));
        assert!(not_found(service.mark_read(chat_id(), &other).await));
        assert!(not_found(
            service
                .close(chat_id(), &other, Language::English)
                .await
                .map(|_| ())
        ));
        assert!(not_found(service.delete(chat_id(), &other).await));
        assert!(log.lock().unwrap().is_empty());
        // the owner's session sees it
        assert_eq!(
            service.stamp(chat_id(), &session()).await.unwrap().version,
            1
        );
    }

    #[tokio::test]
    async fn an_unknown_chat_is_not_found() {
        let mut repo = MockChatRepository::new();
        repo.expect_chat()
            .returning(|id| Box::pin(async move { Err(ChatError::NotFound(id)) }));
        repo.expect_stamp()
            .returning(|_| Box::pin(async { Ok(None) }));
        let service = service(repo, MockAssistant::new());
        assert!(matches!(
            service.history(chat_id(), &session()).await,
            Err(ChatError::NotFound(_))
        ));
        assert!(matches!(
            service.stamp(chat_id(), &session()).await,
            Err(ChatError::NotFound(_))
        ));
        assert!(matches!(
            service.accept(chat_id(), &admin()).await,
            Err(ChatError::NotFound(_))
        ));
    }

    /// A repository whose chat moves through statuses as `change_status` applies them; the
    /// session's latest open chat is that chat when `session_has_it`.
    fn stateful_repo(
        start: ChatStatus,
        session_has_it: bool,
    ) -> (MockChatRepository, Arc<Mutex<Vec<StatusChange>>>) {
        stateful_repo_of(chat(start), session_has_it)
    }

    fn stateful_repo_of(
        initial: Chat,
        session_has_it: bool,
    ) -> (MockChatRepository, Arc<Mutex<Vec<StatusChange>>>) {
        let start = initial.status;
        let state = Arc::new(Mutex::new(initial));
        let changes = Arc::new(Mutex::new(vec![]));
        let mut repo = MockChatRepository::new();
        let read = state.clone();
        repo.expect_chat().returning(move |_| {
            let c = read.lock().unwrap().clone();
            Box::pin(async move { Ok(c) })
        });
        let latest = state.clone();
        repo.expect_latest_open_chat().returning(move |_| {
            let c = latest.lock().unwrap().clone();
            let found = (session_has_it && c.status.is_open()).then_some(c);
            Box::pin(async move { Ok(found) })
        });
        // staff were told when the chat went pending, before this test began
        let claimed = Arc::new(Mutex::new(start != ChatStatus::Ai));
        repo.expect_claim_staff_notification()
            .returning(move |_, _| {
                let first = !std::mem::replace(&mut *claimed.lock().unwrap(), true);
                Box::pin(async move { Ok(first) })
            });
        let write = state.clone();
        let log = changes.clone();
        repo.expect_change_status().returning(move |change| {
            let mut c = write.lock().unwrap();
            let applied = c.status == change.from;
            if applied {
                c.status = change.to;
                if change.accepted_by.is_some() {
                    c.accepted_by = change.accepted_by;
                }
                log.lock().unwrap().push(change);
            }
            Box::pin(async move { Ok(applied) })
        });
        (repo, changes)
    }

    #[tokio::test]
    async fn asking_for_an_agent_moves_the_sessions_ai_chat_to_pending_with_a_notice() {
        let (repo, changes) = stateful_repo(ChatStatus::Ai, true);
        let live = service(repo, MockAssistant::new())
            .start_live(session(), None, Language::English)
            .await
            .unwrap();
        assert_eq!(live.chat.status, ChatStatus::Pending);
        assert!(live.notify_staff, "the first request tells staff");
        let changes = changes.lock().unwrap();
        assert_eq!(changes.len(), 1);
        assert_eq!(
            (changes[0].from, changes[0].to),
            (ChatStatus::Ai, ChatStatus::Pending)
        );
        let notice = changes[0].notice.as_ref().unwrap();
        assert_eq!(notice.sender, SenderType::System);
        assert_eq!(notice.text, LIVE_AGENT_REQUESTED_NOTICE);
    }

    #[tokio::test]
    async fn asking_for_an_agent_without_a_chat_starts_one_and_moves_it_to_pending() {
        let (mut repo, changes) = stateful_repo(ChatStatus::Ai, false);
        repo.expect_create_or_open()
            .withf(|chat, messages| chat.id == chat_id() && messages.is_empty())
            .times(1)
            .returning(|_, _| {
                Box::pin(async {
                    Ok(Opened {
                        chat: chat(ChatStatus::Ai),
                        created: true,
                    })
                })
            });
        let live = service(repo, MockAssistant::new())
            .start_live(session(), None, Language::English)
            .await
            .unwrap();
        assert_eq!(live.chat.status, ChatStatus::Pending);
        assert!(live.notify_staff);
        assert_eq!(changes.lock().unwrap().len(), 1);
    }

    #[tokio::test]
    async fn asking_again_while_waiting_or_connected_returns_the_same_chat_unchanged() {
        for status in [ChatStatus::Pending, ChatStatus::Connected] {
            let (repo, changes) = stateful_repo(status, true);
            let live = service(repo, MockAssistant::new())
                .start_live(session(), None, Language::English)
                .await
                .unwrap();
            assert_eq!(live.chat.status, status);
            assert!(!live.notify_staff, "{status}: staff were told already");
            assert!(changes.lock().unwrap().is_empty());
        }
    }

    #[tokio::test]
    async fn staff_accept_a_waiting_chat_and_become_its_agent() {
        let (repo, changes) = stateful_repo(ChatStatus::Pending, true);
        let accepted = service(repo, MockAssistant::new())
            .accept(chat_id(), &admin())
            .await
            .unwrap();
        assert_eq!(accepted.status, ChatStatus::Connected);
        assert_eq!(accepted.accepted_by, Some(UserId::new(9)));
        let changes = changes.lock().unwrap();
        assert_eq!(changes[0].accepted_by, Some(UserId::new(9)));
        assert_eq!(
            changes[0].notice.as_ref().unwrap().text,
            crate::LIVE_AGENT_JOINED_NOTICE
        );
    }

    /// The chat remembers the language it was started in: the agent's joining is told in it,
    /// whatever language the member of staff reads.
    #[tokio::test]
    async fn the_agent_s_joining_is_told_in_the_language_the_chat_started_in() {
        let german = Chat {
            language: Language::German,
            ..chat(ChatStatus::Pending)
        };
        let (repo, changes) = stateful_repo_of(german, true);
        service(repo, MockAssistant::new())
            .accept(chat_id(), &admin())
            .await
            .unwrap();
        assert_eq!(
            changes.lock().unwrap()[0].notice.as_ref().unwrap().text,
            ChatSentences::of(Language::German).live_agent_joined
        );
    }

    #[tokio::test]
    async fn a_new_chat_keeps_the_language_it_is_started_in() {
        let mut repo = MockChatRepository::new();
        repo.expect_latest_open_chat()
            .returning(|_| Box::pin(async { Ok(None) }));
        repo.expect_create_or_open()
            .withf(|new, _| new.language == Language::BrazilianPortuguese)
            .times(1)
            .returning(|_, _| Box::pin(async { Err(ChatError::Unknown(anyhow::anyhow!("stop"))) }));
        let started = service(repo, MockAssistant::new())
            .start_ai(session(), None, Language::BrazilianPortuguese)
            .await;
        assert!(started.is_err());
    }

    #[tokio::test]
    async fn accepting_is_refused_unless_the_chat_is_waiting() {
        for status in [ChatStatus::Ai, ChatStatus::Connected, ChatStatus::Closed] {
            let (repo, changes) = stateful_repo(status, true);
            let result = service(repo, MockAssistant::new())
                .accept(chat_id(), &admin())
                .await;
            assert!(
                matches!(result, Err(ChatError::Refused(r)) if r == Refused { action: ChatAction::Accept, status }),
                "{status}: {result:?}"
            );
            assert!(changes.lock().unwrap().is_empty());
        }
    }

    #[tokio::test]
    async fn of_two_staff_accepting_at_once_the_loser_is_refused() {
        // The loser read the chat while it was pending; the store's conditional update then
        // finds it connected.
        let mut repo = MockChatRepository::new();
        let reads = Arc::new(Mutex::new(0));
        let count = reads.clone();
        repo.expect_chat().returning(move |_| {
            let mut n = count.lock().unwrap();
            *n += 1;
            let status = if *n == 1 {
                ChatStatus::Pending
            } else {
                ChatStatus::Connected
            };
            Box::pin(async move {
                Ok(Chat {
                    accepted_by: (status == ChatStatus::Connected).then_some(UserId::new(5)),
                    ..chat(status)
                })
            })
        });
        repo.expect_change_status()
            .times(1)
            .returning(|_| Box::pin(async { Ok(false) }));
        let result = service(repo, MockAssistant::new())
            .accept(chat_id(), &admin())
            .await;
        let Err(ChatError::Refused(refused)) = result else {
            panic!("expected a refusal, got {result:?}");
        };
        assert_eq!(refused.status, ChatStatus::Connected);
        assert_eq!(
            refused.message(),
            "Another agent has already joined this chat."
        );
    }

    #[tokio::test]
    async fn staff_reply_only_in_a_connected_chat_with_their_role_as_sender() {
        let log = Arc::new(Mutex::new(vec![]));
        let repo = repo_with(ChatStatus::Connected, log.clone());
        let super_admin = StaffMember {
            role: StaffRole::SuperAdmin,
            ..admin()
        };
        let reply = service(repo, MockAssistant::new())
            .reply(chat_id(), &super_admin, text("On my way!"))
            .await
            .unwrap();
        assert_eq!(reply.sender, SenderType::SuperAdmin);
        assert_eq!(reply.text, "On my way!");

        for status in [ChatStatus::Ai, ChatStatus::Pending, ChatStatus::Closed] {
            let log = Arc::new(Mutex::new(vec![]));
            let repo = repo_with(status, log.clone());
            let result = service(repo, MockAssistant::new())
                .reply(chat_id(), &admin(), text("hello"))
                .await;
            assert!(matches!(result, Err(ChatError::Refused(_))), "{status}");
            assert!(log.lock().unwrap().is_empty(), "{status}");
        }
    }

    #[tokio::test]
    async fn a_chat_closes_from_every_open_status_and_only_once() {
        for status in [ChatStatus::Ai, ChatStatus::Pending, ChatStatus::Connected] {
            let (repo, changes) = stateful_repo(status, true);
            let service = service(repo, MockAssistant::new());
            let closed = service
                .close(chat_id(), &session(), Language::English)
                .await
                .unwrap();
            assert_eq!(closed.status, ChatStatus::Closed, "{status}");
            assert_eq!(
                changes.lock().unwrap()[0].notice.as_ref().unwrap().text,
                CHAT_CLOSED_NOTICE
            );
            assert!(matches!(
                service
                    .close(chat_id(), &session(), Language::English)
                    .await,
                Err(ChatError::Refused(Refused {
                    action: ChatAction::Close,
                    status: ChatStatus::Closed
                }))
            ));
        }
    }

    #[tokio::test]
    async fn reading_marks_the_right_side() {
        let mut repo = MockChatRepository::new();
        repo.expect_chat()
            .returning(|_| Box::pin(async { Ok(chat(ChatStatus::Connected)) }));
        repo.expect_mark_read()
            .with(eq(chat_id()), eq(Side::Customer), eq(now()))
            .times(1)
            .returning(|_, _, _| Box::pin(async { Ok(()) }));
        repo.expect_mark_read()
            .with(eq(chat_id()), eq(Side::Staff), eq(now()))
            .times(1)
            .returning(|_, _, _| Box::pin(async { Ok(()) }));
        let service = service(repo, MockAssistant::new());
        service.mark_read(chat_id(), &session()).await.unwrap();
        service.staff_mark_read(chat_id()).await.unwrap();
    }

    fn page() -> StaffChatsQuery {
        StaffChatsQuery {
            filter: StaffFilter::Open,
            before: None,
            limit: 50,
        }
    }

    #[tokio::test]
    async fn the_staff_list_keeps_the_stores_order_and_flags_unread_and_new_chats() {
        let mut repo = MockChatRepository::new();
        repo.expect_staff_chats().with(eq(page())).returning(|_| {
            Box::pin(async {
                Ok(vec![
                    crate::StaffChatRow {
                        chat: Chat {
                            accepted_by: Some(UserId::new(9)),
                            staff_read_through: Some(MessageId::new(4)),
                            ..chat(ChatStatus::Connected)
                        },
                        last_customer_message: Some(MessageId::new(4)),
                        last_message: None,
                    },
                    crate::StaffChatRow {
                        chat: chat(ChatStatus::Pending),
                        last_customer_message: Some(MessageId::new(2)),
                        last_message: None,
                    },
                ])
            })
        });
        let list = service(repo, MockAssistant::new())
            .staff_chats(page())
            .await
            .unwrap();
        assert_eq!(
            list.iter()
                .map(|s| (s.chat.status, s.is_new, s.has_unread_messages))
                .collect::<Vec<_>>(),
            vec![
                (ChatStatus::Connected, false, false),
                (ChatStatus::Pending, true, true)
            ]
        );
    }

    #[tokio::test]
    async fn two_requests_racing_on_one_ai_chat_both_get_it_and_staff_are_told_once() {
        // the loser read the chat while it was with the assistant; the winner moved it first
        let mut repo = MockChatRepository::new();
        repo.expect_latest_open_chat()
            .returning(|_| Box::pin(async { Ok(Some(chat(ChatStatus::Ai))) }));
        repo.expect_change_status()
            .times(1)
            .returning(|_| Box::pin(async { Ok(false) }));
        repo.expect_chat()
            .returning(|_| Box::pin(async { Ok(chat(ChatStatus::Pending)) }));
        repo.expect_claim_staff_notification()
            .times(1)
            .returning(|_, _| Box::pin(async { Ok(false) }));
        let live = service(repo, MockAssistant::new())
            .start_live(session(), None, Language::English)
            .await
            .unwrap();
        assert_eq!(live.chat.status, ChatStatus::Pending);
        assert!(!live.notify_staff, "the winner told staff");
    }

    #[tokio::test]
    async fn a_session_with_an_open_chat_gets_it_back_from_start_ai() {
        let mut repo = MockChatRepository::new();
        repo.expect_latest_open_chat()
            .returning(|_| Box::pin(async { Ok(Some(chat(ChatStatus::Pending))) }));
        repo.expect_create_or_open().never();
        repo.expect_messages()
            .returning(|_| Box::pin(async { Ok(vec![]) }));
        let started = service(repo, MockAssistant::new())
            .start_ai(session(), None, Language::English)
            .await
            .unwrap();
        assert_eq!(started.chat.id, chat_id());
        assert_eq!(started.chat.status, ChatStatus::Pending);
    }

    #[tokio::test]
    async fn a_purge_asks_the_store_for_the_cutoffs_of_the_retention() {
        let mut repo = MockChatRepository::new();
        repo.expect_purge()
            .with(
                eq(now() - chrono::Duration::hours(24)),
                eq(now() - chrono::Duration::days(30)),
                eq(500),
            )
            .times(1)
            .returning(|_, _, _| Box::pin(async { Ok(vec![chat_id()]) }));
        let retention = crate::Retention {
            idle_ai: chrono::Duration::hours(24),
            closed: chrono::Duration::days(30),
        };
        let purged = service(repo, MockAssistant::new())
            .purge_batch(now(), retention, 500)
            .await
            .unwrap();
        assert_eq!(purged, vec![chat_id()]);
    }

    #[tokio::test]
    async fn a_purge_run_goes_on_while_batches_are_full_and_hands_each_batch_on() {
        let mut repo = MockChatRepository::new();
        let mut batches = vec![3, PURGE_BATCH as usize, PURGE_BATCH as usize];
        repo.expect_purge()
            .with(
                mockall::predicate::always(),
                mockall::predicate::always(),
                eq(PURGE_BATCH),
            )
            .times(3)
            .returning(move |_, _, _| {
                let ids = (0..batches.pop().unwrap_or_default())
                    .map(|_| ChatId::random())
                    .collect();
                Box::pin(async move { Ok(ids) })
            });
        let retention = crate::Retention {
            idle_ai: chrono::Duration::hours(24),
            closed: chrono::Duration::days(30),
        };
        let mut handed = vec![];
        let purged = service(repo, MockAssistant::new())
            .purge_expired(now(), retention, |ids| handed.push(ids.len()))
            .await
            .unwrap();
        assert_eq!(purged, 2 * PURGE_BATCH as usize + 3);
        assert_eq!(handed, vec![500, 500, 3]);
    }
}
