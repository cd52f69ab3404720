//! The chat repository on both databases, each test on a fresh one; some through the chat
//! service, so the state machine and the store are tested together.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chat::{
    Answer, Assistant, ChatError, ChatMessage, ChatRepository, ChatService, ChatStatus, ChatUser,
    MessageText, NewChat, NewMessage, RandomIds, SenderType, SessionId, Side, StaffChatsQuery,
    StaffCursor, StaffFilter, StaffMember, StaffRole, StatusChange, BOT_GREETING,
};
use chrono::{Duration, TimeZone, Utc};
use garden_store::testing::TestDatabase;
use garden_store::{Backend, Store};
use rstest::rstest;
use shared::clock::SystemClock;
use shared::{Language, UserId};

/// Answers every question the same way.
struct EchoAssistant;

impl Assistant for EchoAssistant {
    async fn answer(
        &self,
        question: &MessageText,
        _context: &[ChatMessage],
        _asker: &chat::Asker,
    ) -> Answer {
        Answer::confident(format!("You asked: {question}"))
    }
}

type Service = ChatService<Store, EchoAssistant, SystemClock, RandomIds>;

async fn store(backend: Backend) -> (TestDatabase, Store) {
    let db = TestDatabase::create(backend).await;
    let store = Store::new(db.connection.clone(), SystemClock);
    (db, store)
}

fn service(store: &Store) -> Service {
    ChatService::new(store.clone(), EchoAssistant, SystemClock, RandomIds)
}

/// A clock one millisecond later at each reading: every write is later than the one before,
/// without waiting for the system's clock to move.
#[derive(Debug, Clone, Default)]
struct TickingClock(std::sync::Arc<std::sync::atomic::AtomicI64>);

impl chat::Clock for TickingClock {
    fn now(&self) -> chrono::DateTime<Utc> {
        let tick = self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Utc.with_ymd_and_hms(2026, 1, 1, 12, 0, 0).unwrap() + Duration::milliseconds(tick)
    }
}

fn session(name: &str) -> SessionId {
    SessionId::parse(&format!("session-{name}")).unwrap()
}

fn text(t: &str) -> MessageText {
    MessageText::parse(t).unwrap()
}

fn open_page() -> StaffChatsQuery {
    StaffChatsQuery {
        filter: StaffFilter::Open,
        before: None,
        limit: 50,
    }
}

fn staff(id: i64) -> StaffMember {
    StaffMember {
        id: UserId::new(id),
        name: format!("Staff {id}"),
        role: StaffRole::Admin,
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_chat_and_its_messages_come_back_as_stored(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let at = Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap();
    let id = chat::ChatId::random();
    let opened = store
        .create_or_open(
            NewChat {
                id,
                session: session("a"),
                user: Some(ChatUser {
                    id: UserId::new(42),
                    name: "Ana".into(),
                }),
                created_at: at,
                language: shared::Language::English,
            },
            vec![NewMessage {
                sender: SenderType::Bot,
                text: BOT_GREETING.into(),
                created_at: at,
            }],
        )
        .await
        .unwrap();
    assert!(opened.created);
    let created = opened.chat;
    assert_eq!(created.status, ChatStatus::Ai);
    assert_eq!(created.version, 1);

    let loaded = store.chat(id).await.unwrap();
    assert_eq!(loaded, created);
    assert_eq!(loaded.user.as_ref().unwrap().name, "Ana");
    assert_eq!(loaded.created_at, at);
    let messages = store.messages(id).await.unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].sender, SenderType::Bot);
    assert_eq!(messages[0].text, BOT_GREETING);
    assert_eq!(messages[0].created_at, at);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_bot_conversation_is_stored_in_order_and_every_write_raises_the_version(
    #[case] backend: Backend,
) {
    let (_db, store) = store(backend).await;
    let chats = service(&store);
    let started = chats
        .start_ai(session("a"), None, Language::English)
        .await
        .unwrap();
    let id = started.chat.id;
    let v1 = chats.stamp(id, &session("a")).await.unwrap();
    assert_eq!(v1.version, 1);

    let outcome = chats
        .send(
            id,
            &session("a"),
            text("hello there"),
            &chat::Asker::default(),
        )
        .await
        .unwrap();
    assert_eq!(outcome.message.sender, SenderType::Guest);
    assert_eq!(
        outcome.reply.unwrap().message.text,
        "You asked: hello there"
    );

    let v2 = chats.stamp(id, &session("a")).await.unwrap();
    assert_eq!(v2.version, 3, "two appends, two new versions");
    let history = chats.history(id, &session("a")).await.unwrap();
    let senders: Vec<SenderType> = history.messages.iter().map(|m| m.sender).collect();
    assert_eq!(
        senders,
        [SenderType::Bot, SenderType::Guest, SenderType::Bot]
    );
    assert!(history.messages.windows(2).all(|w| w[0].id < w[1].id));
    assert!(history.chat.updated_at >= started.chat.updated_at);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn another_session_or_a_guessed_id_finds_nothing(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let chats = service(&store);
    let id = chats
        .start_ai(session("owner"), None, Language::English)
        .await
        .unwrap()
        .chat
        .id;
    let thief = session("thief");
    assert!(matches!(
        chats.history(id, &thief).await,
        Err(ChatError::NotFound(_))
    ));
    assert!(matches!(
        chats.stamp(id, &thief).await,
        Err(ChatError::NotFound(_))
    ));
    assert!(matches!(
        chats
            .send(id, &thief, text("hi"), &chat::Asker::default())
            .await,
        Err(ChatError::NotFound(_))
    ));
    assert!(matches!(
        chats.delete(id, &thief).await,
        Err(ChatError::NotFound(_))
    ));
    let guessed = chat::ChatId::random();
    assert!(matches!(
        chats.history(guessed, &session("owner")).await,
        Err(ChatError::NotFound(_))
    ));
    assert!(matches!(
        store.messages(guessed).await,
        Err(ChatError::NotFound(_))
    ));
    assert!(store.stamp(guessed).await.unwrap().is_none());
    // nothing was written by the refused calls
    assert_eq!(store.messages(id).await.unwrap().len(), 1);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_live_chat_goes_from_ai_to_pending_to_connected_to_closed(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let chats = service(&store);
    let s = session("live");
    let ai = chats
        .start_ai(s.clone(), None, Language::English)
        .await
        .unwrap()
        .chat;

    let pending = chats
        .start_live(s.clone(), None, Language::English)
        .await
        .unwrap()
        .chat;
    assert_eq!(pending.id, ai.id, "the bot conversation is handed over");
    assert_eq!(pending.status, ChatStatus::Pending);
    assert!(pending.is_new());
    let again = chats
        .start_live(s.clone(), None, Language::English)
        .await
        .unwrap()
        .chat;
    assert_eq!((again.id, again.version), (pending.id, pending.version));

    // while waiting the shopper's messages are stored without a bot answer
    let waiting = chats
        .send(ai.id, &s, text("anyone?"), &chat::Asker::default())
        .await
        .unwrap();
    assert!(waiting.reply.is_none());
    assert!(matches!(
        chats.reply(ai.id, &staff(1), text("too early")).await,
        Err(ChatError::Refused(_))
    ));

    let connected = chats.accept(ai.id, &staff(7)).await.unwrap();
    assert_eq!(connected.status, ChatStatus::Connected);
    assert_eq!(connected.accepted_by, Some(UserId::new(7)));
    let reply = chats
        .reply(ai.id, &staff(7), text("Hi, I'm here"))
        .await
        .unwrap();
    assert_eq!(reply.sender, SenderType::Admin);
    chats
        .send(ai.id, &s, text("great, thanks"), &chat::Asker::default())
        .await
        .unwrap();

    let closed = chats.close(ai.id, &s, Language::English).await.unwrap();
    assert_eq!(closed.status, ChatStatus::Closed);
    assert!(matches!(
        chats
            .send(ai.id, &s, text("hello?"), &chat::Asker::default())
            .await,
        Err(ChatError::Refused(_))
    ));
    let senders: Vec<SenderType> = chats
        .history(ai.id, &s)
        .await
        .unwrap()
        .messages
        .iter()
        .map(|m| m.sender)
        .collect();
    assert_eq!(
        senders,
        [
            SenderType::Bot,
            SenderType::System,
            SenderType::Guest,
            SenderType::System,
            SenderType::Admin,
            SenderType::Guest,
            SenderType::System,
        ]
    );
    // a closed chat is no longer the session's open chat: a new request starts afresh
    let fresh = chats
        .start_live(s.clone(), None, Language::English)
        .await
        .unwrap()
        .chat;
    assert_ne!(fresh.id, ai.id);
    assert_eq!(fresh.status, ChatStatus::Pending);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn of_two_staff_accepting_at_once_exactly_one_wins(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let chats = service(&store);
    for round in 0..5 {
        let s = session(&format!("race-{round}"));
        let id = chats
            .start_live(s, None, Language::English)
            .await
            .unwrap()
            .chat
            .id;
        let (one, two) = (staff(1), staff(2));
        let (a, b) = tokio::join!(chats.accept(id, &one), chats.accept(id, &two));
        let winners = [&a, &b].iter().filter(|r| r.is_ok()).count();
        assert_eq!(winners, 1, "round {round}: {a:?} / {b:?}");
        let loser = if a.is_ok() { b } else { a };
        assert!(matches!(loser, Err(ChatError::Refused(_))));
        let chat = store.chat(id).await.unwrap();
        assert!(matches!(chat.accepted_by.map(UserId::get), Some(1 | 2)));
        let joined = store
            .messages(id)
            .await
            .unwrap()
            .iter()
            .filter(|m| m.text == chat::LIVE_AGENT_JOINED_NOTICE)
            .count();
        assert_eq!(joined, 1, "one join notice");
    }
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_status_change_from_a_stale_status_changes_nothing(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let chats = service(&store);
    let id = chats
        .start_ai(session("stale"), None, Language::English)
        .await
        .unwrap()
        .chat
        .id;
    let before = store.chat(id).await.unwrap();
    let applied = store
        .change_status(StatusChange {
            chat: id,
            from: ChatStatus::Pending,
            to: ChatStatus::Connected,
            accepted_by: Some(UserId::new(3)),
            notice: Some(NewMessage {
                sender: SenderType::System,
                text: "joined".into(),
                created_at: Utc::now(),
            }),
            at: Utc::now(),
        })
        .await
        .unwrap();
    assert!(!applied);
    assert_eq!(store.chat(id).await.unwrap(), before);
    assert_eq!(
        store.messages(id).await.unwrap().len(),
        1,
        "no notice stored"
    );
    let gone = chat::ChatId::random();
    assert!(matches!(
        store
            .change_status(StatusChange {
                chat: gone,
                from: ChatStatus::Ai,
                to: ChatStatus::Pending,
                accepted_by: None,
                notice: None,
                at: Utc::now(),
            })
            .await,
        Err(ChatError::NotFound(_))
    ));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn unread_messages_are_tracked_per_side(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let chats = service(&store);
    let s = session("unread");
    let id = chats
        .start_live(s.clone(), None, Language::English)
        .await
        .unwrap()
        .chat
        .id;
    chats
        .send(id, &s, text("help please"), &chat::Asker::default())
        .await
        .unwrap();

    let listed = chats.staff_chats(open_page()).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert!(listed[0].has_unread_messages && listed[0].is_new);
    assert_eq!(listed[0].last_message.as_ref().unwrap().text, "help please");

    chats.staff_mark_read(id).await.unwrap();
    let version = store.chat(id).await.unwrap().version;
    assert!(!chats.staff_chats(open_page()).await.unwrap()[0].has_unread_messages);
    // marking read again with nothing new is not a write
    chats.staff_mark_read(id).await.unwrap();
    assert_eq!(store.chat(id).await.unwrap().version, version);

    chats.accept(id, &staff(4)).await.unwrap();
    chats.reply(id, &staff(4), text("hello!")).await.unwrap();
    let listed = chats.staff_chats(open_page()).await.unwrap();
    assert!(
        !listed[0].has_unread_messages,
        "staff's own reply is not unread"
    );
    assert!(!listed[0].is_new);

    let history = chats.history(id, &s).await.unwrap();
    assert!(history.chat.has_unread(Side::Customer, &history.messages));
    chats.mark_read(id, &s).await.unwrap();
    let history = chats.history(id, &s).await.unwrap();
    assert!(!history.chat.has_unread(Side::Customer, &history.messages));

    chats
        .send(id, &s, text("thanks"), &chat::Asker::default())
        .await
        .unwrap();
    assert!(chats.staff_chats(open_page()).await.unwrap()[0].has_unread_messages);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_staff_list_leaves_bot_and_closed_chats_out_and_shows_newest_activity_first(
    #[case] backend: Backend,
) {
    let (_db, store) = store(backend).await;
    let chats = ChatService::new(
        store.clone(),
        EchoAssistant,
        TickingClock::default(),
        RandomIds,
    );
    chats
        .start_ai(session("bot-only"), None, Language::English)
        .await
        .unwrap();
    let first = chats
        .start_live(session("first"), None, Language::English)
        .await
        .unwrap()
        .chat
        .id;
    chats.accept(first, &staff(1)).await.unwrap();
    let second = chats
        .start_live(session("second"), None, Language::English)
        .await
        .unwrap()
        .chat
        .id;
    chats
        .reply(first, &staff(1), text("latest activity is here"))
        .await
        .unwrap();
    let order: Vec<chat::ChatId> = chats
        .staff_chats(open_page())
        .await
        .unwrap()
        .iter()
        .map(|s| s.chat.id)
        .collect();
    assert_eq!(order, [first, second], "the reply is the newest activity");
    let closed = chats
        .close(second, &session("second"), Language::English)
        .await
        .unwrap()
        .id;
    let open: Vec<chat::ChatId> = chats
        .staff_chats(open_page())
        .await
        .unwrap()
        .iter()
        .map(|s| s.chat.id)
        .collect();
    assert_eq!(open, [first]);
    let only_closed = chats
        .staff_chats(StaffChatsQuery {
            filter: StaffFilter::Closed,
            ..open_page()
        })
        .await
        .unwrap();
    assert_eq!(only_closed.len(), 1);
    assert_eq!(only_closed[0].chat.id, closed);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn deleting_a_chat_removes_it_and_its_messages(#[case] backend: Backend) {
    let (db, store) = store(backend).await;
    let chats = service(&store);
    let s = session("gone");
    let id = chats
        .start_ai(s.clone(), None, Language::English)
        .await
        .unwrap()
        .chat
        .id;
    chats
        .send(id, &s, text("one"), &chat::Asker::default())
        .await
        .unwrap();
    let other = chats
        .start_ai(session("kept"), None, Language::English)
        .await
        .unwrap()
        .chat
        .id;

    chats
        .staff_delete(id, &shared::Actor::command_line())
        .await
        .unwrap();
    assert!(matches!(
        chats.history(id, &s).await,
        Err(ChatError::NotFound(_))
    ));
    assert!(matches!(
        chats.staff_delete(id, &shared::Actor::command_line()).await,
        Err(ChatError::NotFound(_))
    ));
    assert!(matches!(
        store
            .append(
                id,
                vec![NewMessage {
                    sender: SenderType::Guest,
                    text: "late".into(),
                    created_at: Utc::now() + Duration::seconds(1),
                }]
            )
            .await,
        Err(ChatError::NotFound(_))
    ));
    use sea_orm::{ConnectionTrait, Statement};
    let left = db
        .connection
        .query_one(Statement::from_string(
            db.connection.get_database_backend(),
            "SELECT COUNT(*) AS n FROM chat_messages",
        ))
        .await
        .unwrap()
        .unwrap()
        .try_get::<i64>("", "n")
        .unwrap();
    assert_eq!(left, 1, "only the other chat's greeting is left");
    assert_eq!(store.messages(other).await.unwrap().len(), 1);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn fifteen_parallel_starts_for_one_session_open_one_chat(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let chats = service(&store);
    let s = session("racing");
    let started = futures::future::join_all(
        (0..15).map(|_| chats.start_ai(s.clone(), None, Language::English)),
    )
    .await;
    let ids: std::collections::HashSet<chat::ChatId> = started
        .into_iter()
        .map(|started| started.unwrap().chat.id)
        .collect();
    assert_eq!(ids.len(), 1, "one open chat per session");
    let id = *ids.iter().next().unwrap();
    assert_eq!(store.messages(id).await.unwrap().len(), 1, "one greeting");
    // and a live request racing with others on a fresh session
    let t = session("racing-live");
    let live = futures::future::join_all(
        (0..10).map(|_| chats.start_live(t.clone(), None, Language::English)),
    )
    .await;
    let live: Vec<chat::LiveRequest> = live.into_iter().map(Result::unwrap).collect();
    let ids: std::collections::HashSet<chat::ChatId> = live.iter().map(|l| l.chat.id).collect();
    assert_eq!(ids.len(), 1);
    assert!(live.iter().all(|l| l.chat.status == ChatStatus::Pending));
    assert_eq!(live.iter().filter(|l| l.notify_staff).count(), 1);
    // once closed, the session may open a new one
    chats.close(id, &s, Language::English).await.unwrap();
    let next = chats
        .start_ai(s.clone(), None, Language::English)
        .await
        .unwrap()
        .chat
        .id;
    assert_ne!(next, id);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_staff_notification_is_claimed_by_one_call_only(#[case] backend: Backend) {
    let (_db, store) = store(backend).await;
    let chats = service(&store);
    let id = chats
        .start_ai(session("claim"), None, Language::English)
        .await
        .unwrap()
        .chat
        .id;
    let claims =
        futures::future::join_all((0..12).map(|_| store.claim_staff_notification(id, Utc::now())))
            .await;
    let won = claims.into_iter().filter(|c| *c.as_ref().unwrap()).count();
    assert_eq!(won, 1);
    assert!(matches!(
        store
            .claim_staff_notification(chat::ChatId::random(), Utc::now())
            .await,
        Err(ChatError::NotFound(_))
    ));
}

/// A chat of `name` created at `at` (its last write), moved to `status` at the same moment.
async fn chat_at(
    store: &Store,
    name: &str,
    at: chrono::DateTime<Utc>,
    status: ChatStatus,
) -> chat::ChatId {
    let id = chat::ChatId::random();
    store
        .create_or_open(
            NewChat {
                id,
                session: session(name),
                user: None,
                created_at: at,
                language: shared::Language::English,
            },
            vec![NewMessage {
                sender: SenderType::Bot,
                text: BOT_GREETING.into(),
                created_at: at,
            }],
        )
        .await
        .unwrap();
    let mut from = ChatStatus::Ai;
    for to in [
        ChatStatus::Pending,
        ChatStatus::Connected,
        ChatStatus::Closed,
    ] {
        if from == status {
            break;
        }
        if to == ChatStatus::Connected && status == ChatStatus::Closed {
            // straight from pending to closed
            continue;
        }
        assert!(store
            .change_status(StatusChange {
                chat: id,
                from,
                to,
                accepted_by: (to == ChatStatus::Connected).then_some(UserId::new(1)),
                notice: None,
                at,
            })
            .await
            .unwrap());
        from = to;
    }
    id
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_staff_list_pages_by_cursor_without_overlap_and_ties_go_by_id(
    #[case] backend: Backend,
) {
    let (_db, store) = store(backend).await;
    let base = Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap();
    let mut expected = vec![];
    for i in 0..7i64 {
        // pairs share a moment: the id breaks the tie
        let at = base + Duration::seconds(i / 2);
        let status = if i % 2 == 0 {
            ChatStatus::Pending
        } else {
            ChatStatus::Connected
        };
        expected.push((at, chat_at(&store, &format!("page-{i}"), at, status).await));
    }
    chat_at(
        &store,
        "page-closed",
        base + Duration::hours(1),
        ChatStatus::Closed,
    )
    .await;
    chat_at(
        &store,
        "page-bot",
        base + Duration::hours(1),
        ChatStatus::Ai,
    )
    .await;
    expected.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then_with(|| b.1.to_string().cmp(&a.1.to_string()))
    });
    let expected: Vec<chat::ChatId> = expected.into_iter().map(|(_, id)| id).collect();

    let mut seen = vec![];
    let mut before = None;
    loop {
        let page = store
            .staff_chats(StaffChatsQuery {
                filter: StaffFilter::Open,
                before,
                limit: 3,
            })
            .await
            .unwrap();
        assert!(page.len() <= 3);
        let Some(last) = page.last() else { break };
        before = Some(StaffCursor::after(&last.chat));
        seen.extend(page.iter().map(|row| row.chat.id));
    }
    assert_eq!(seen, expected);
    let all = store
        .staff_chats(StaffChatsQuery {
            filter: StaffFilter::All,
            before: None,
            limit: 50,
        })
        .await
        .unwrap();
    assert_eq!(all.len(), 8, "every chat but the bot's");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_purge_deletes_idle_bot_chats_and_old_closed_ones_in_bounded_batches(
    #[case] backend: Backend,
) {
    let (db, store) = store(backend).await;
    let now = Utc::now();
    let idle_before = now - Duration::hours(24);
    let closed_before = now - Duration::days(30);
    let mut doomed =
        vec![chat_at(&store, "old-bot", now - Duration::hours(25), ChatStatus::Ai).await];
    for i in 0..7 {
        doomed.push(
            chat_at(
                &store,
                &format!("old-bot-{i}"),
                now - Duration::hours(30),
                ChatStatus::Ai,
            )
            .await,
        );
    }
    doomed.push(
        chat_at(
            &store,
            "old-closed",
            now - Duration::days(31),
            ChatStatus::Closed,
        )
        .await,
    );
    let recent_bot = chat_at(
        &store,
        "recent-bot",
        now - Duration::hours(1),
        ChatStatus::Ai,
    )
    .await;
    let came_back = chat_at(
        &store,
        "came-back",
        now - Duration::hours(30),
        ChatStatus::Ai,
    )
    .await;
    store
        .append(
            came_back,
            vec![NewMessage {
                sender: SenderType::Guest,
                text: "still here".into(),
                created_at: now - Duration::minutes(5),
            }],
        )
        .await
        .unwrap();
    let old_waiting = chat_at(
        &store,
        "old-waiting",
        now - Duration::days(40),
        ChatStatus::Pending,
    )
    .await;
    let old_connected = chat_at(
        &store,
        "old-connected",
        now - Duration::days(40),
        ChatStatus::Connected,
    )
    .await;
    let recent_closed = chat_at(
        &store,
        "recent-closed",
        now - Duration::days(29),
        ChatStatus::Closed,
    )
    .await;

    let mut batches = vec![];
    let mut purged = vec![];
    loop {
        let batch = store.purge(idle_before, closed_before, 3).await.unwrap();
        batches.push(batch.len());
        let done = batch.len() < 3;
        purged.extend(batch);
        if done {
            break;
        }
    }
    assert_eq!(batches, [3, 3, 3, 0]);
    purged.sort_by_key(ToString::to_string);
    doomed.sort_by_key(ToString::to_string);
    assert_eq!(purged, doomed);
    for id in &doomed {
        assert!(matches!(store.chat(*id).await, Err(ChatError::NotFound(_))));
    }
    for id in [
        recent_bot,
        came_back,
        old_waiting,
        old_connected,
        recent_closed,
    ] {
        assert!(store.chat(id).await.is_ok());
    }
    use sea_orm::{ConnectionTrait, Statement};
    let left = db
        .connection
        .query_one(Statement::from_string(
            db.connection.get_database_backend(),
            "SELECT COUNT(*) AS n FROM chat_messages",
        ))
        .await
        .unwrap()
        .unwrap()
        .try_get::<i64>("", "n")
        .unwrap();
    assert_eq!(left, 6, "the kept chats' greetings and the late message");
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn the_poll_caches_port_reads_what_changed_the_count_and_what_still_exists(
    #[case] backend: Backend,
) {
    use chat::{ChatChange, ChatChanges};

    let (_db, store) = store(backend).await;
    let chats = service(&store);
    let before = Utc::now() - Duration::seconds(5);
    let first = chats
        .start_ai(session("a"), None, Language::English)
        .await
        .unwrap()
        .chat;
    let second = chats
        .start_ai(session("b"), None, Language::English)
        .await
        .unwrap()
        .chat;
    chats
        .send(
            first.id,
            &session("a"),
            text("hello"),
            &chat::Asker::default(),
        )
        .await
        .unwrap();

    let mut changed = store.chats_changed_since(before).await.unwrap();
    changed.sort_by_key(|change| change.version);
    assert_eq!(
        changed,
        vec![
            ChatChange {
                id: second.id,
                version: 1,
                status: ChatStatus::Ai,
            },
            ChatChange {
                id: first.id,
                version: 3,
                status: ChatStatus::Ai,
            },
        ]
    );
    let later = Utc::now() + Duration::hours(1);
    assert!(store.chats_changed_since(later).await.unwrap().is_empty());
    assert_eq!(store.chat_count().await.unwrap(), 2);

    chats.delete(second.id, &session("b")).await.unwrap();
    assert_eq!(store.chat_count().await.unwrap(), 1);
    let unknown = chat::ChatId::random();
    let existing = store
        .existing_chats(&[first.id, second.id, unknown])
        .await
        .unwrap();
    assert_eq!(existing, vec![first.id]);
    assert!(store.existing_chats(&[]).await.unwrap().is_empty());
}
