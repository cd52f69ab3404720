//! Server push over HTTP (`GET /api/events`): a stream carries only what its viewer may see,
//! staff streams need a staff session, `Last-Event-ID` replays what was missed (or says
//! "resync"), a heartbeat keeps it open, streams are limited per address, and on PostgreSQL
//! one instance's writes reach another instance's streams.

use std::time::Duration;

use accounts::Role;
use rstest::rstest;
use serde_json::{json, Value};
use store::testing::TestDatabase;
use store::Backend;

use crate::checkout_support::{browser, checkout, link_discord, payload, product, shop};
use crate::first_load::{bootstrap, write_index};
use crate::helpers::{eventually, Options, TestApp};

/// One frame of the stream.
#[derive(Debug, Clone, Default)]
pub(crate) struct Frame {
    pub id: Option<i64>,
    pub event: Option<String>,
    pub data: Option<Value>,
    comment: bool,
}

/// An open event stream, read frame by frame.
pub(crate) struct Sse {
    response: reqwest::Response,
    buffer: String,
}

impl Sse {
    pub(crate) async fn open(app: &TestApp, client: &reqwest::Client, query: &str) -> Sse {
        Self::open_from(&app.address, client, query, None).await
    }

    pub(crate) async fn open_from(
        address: &str,
        client: &reqwest::Client,
        query: &str,
        last_event_id: Option<i64>,
    ) -> Sse {
        let response = Self::request(address, client, query, last_event_id).await;
        assert_eq!(response.status(), 200, "GET /api/events{query}");
        assert_eq!(
            response.headers()["content-type"],
            "text/event-stream",
            "an event stream"
        );
        Sse {
            response,
            buffer: String::new(),
        }
    }

    async fn request(
        address: &str,
        client: &reqwest::Client,
        query: &str,
        last_event_id: Option<i64>,
    ) -> reqwest::Response {
        let mut request = client.get(format!("{address}/api/events{query}"));
        if let Some(id) = last_event_id {
            request = request.header("Last-Event-ID", id.to_string());
        }
        request.send().await.unwrap()
    }

    /// The next frame, or `None` when nothing came within `wait`.
    async fn frame(&mut self, wait: Duration) -> Option<Frame> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut frame = Frame::default();
                for line in block.lines() {
                    if let Some(comment) = line.strip_prefix(':') {
                        frame.comment = !comment.is_empty();
                    } else if let Some(id) = line.strip_prefix("id: ") {
                        frame.id = Some(id.parse().unwrap());
                    } else if let Some(event) = line.strip_prefix("event: ") {
                        frame.event = Some(event.to_owned());
                    } else if let Some(data) = line.strip_prefix("data: ") {
                        frame.data = Some(serde_json::from_str(data).unwrap());
                    }
                }
                return Some(frame);
            }
            let chunk = tokio::time::timeout_at(deadline, self.response.chunk()).await;
            match chunk {
                Ok(Ok(Some(bytes))) => self.buffer.push_str(std::str::from_utf8(&bytes).unwrap()),
                Ok(Ok(None)) | Ok(Err(_)) | Err(_) => return None,
            }
        }
    }

    /// Whether the server ended the stream within `wait` (frames before the end are skipped);
    /// `false` when it was still open.
    async fn closed_within(&mut self, wait: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            match tokio::time::timeout_at(deadline, self.response.chunk()).await {
                Ok(Ok(Some(_))) => {}
                Ok(Ok(None)) | Ok(Err(_)) => return true,
                Err(_) => return false,
            }
        }
    }

    /// The next frame that is an event (not a heartbeat), waiting up to 10 s.
    pub(crate) async fn event(&mut self) -> Frame {
        loop {
            let frame = self
                .frame(Duration::from_secs(10))
                .await
                .expect("an event within 10 s");
            if frame.event.is_some() {
                return frame;
            }
        }
    }

    /// Every event up to and including the first one `fence` accepts.
    pub(crate) async fn events_until(&mut self, fence: impl Fn(&Frame) -> bool) -> Vec<Frame> {
        let mut seen = Vec::new();
        loop {
            let frame = loop {
                match self.frame(Duration::from_secs(10)).await {
                    Some(frame) if frame.event.is_some() => break frame,
                    Some(_) => {}
                    None => panic!("the fence never came; seen: {seen:?}"),
                }
            };
            let done = fence(&frame);
            seen.push(frame);
            if done {
                return seen;
            }
        }
    }
}

fn new_session() -> String {
    uuid::Uuid::new_v4().to_string()
}

async fn start_ai(app: &TestApp, session: &str) -> String {
    let response = app
        .post_json(
            &app.client,
            "/api/chat/start-ai",
            &json!({ "session_id": session }),
        )
        .await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    body["chat_id"].as_str().unwrap().to_owned()
}

async fn start_live(app: &TestApp, session: &str) -> String {
    let response = app
        .post_json(
            &app.client,
            "/api/chat/start-live",
            &json!({ "session_id": session }),
        )
        .await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    body["chat_id"].as_str().unwrap().to_owned()
}

async fn send(app: &TestApp, chat: &str, session: &str, text: &str) {
    let response = app
        .post_json(
            &app.client,
            "/api/chat/send",
            &json!({ "chat_id": chat, "session_id": session, "message": text }),
        )
        .await;
    assert_eq!(response.status(), 200, "send {text:?}");
}

/// The id of the newest stored event addressed to this chat session.
async fn newest_event_of_session(app: &TestApp, session: &str) -> i64 {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.store.connection();
    db.query_one(Statement::from_string(
        db.get_database_backend(),
        format!("SELECT MAX(id) FROM push_events WHERE chat_session = '{session}'"),
    ))
    .await
    .unwrap()
    .unwrap()
    .try_get_by_index(0)
    .unwrap()
}

fn is_chat(frame: &Frame, chat: &str) -> bool {
    frame.event.as_deref() == Some("chat")
        && frame.data.as_ref().is_some_and(|d| d["chat_id"] == chat)
}

fn mentions_chat(frames: &[Frame], chat: &str) -> bool {
    frames.iter().any(|f| is_chat(f, chat))
}

fn is_order(frame: &Frame, order: i64) -> bool {
    frame.event.as_deref() == Some("order")
        && frame.data.as_ref().is_some_and(|d| d["order_id"] == order)
}

/// Places an order with the dev payment page in this browser's session; returns its id.
async fn place_order(app: &TestApp, client: &reqwest::Client) -> i64 {
    let response = checkout(app, client, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    body["order_id"].as_i64().unwrap()
}

async fn pay(app: &TestApp, client: &reqwest::Client, order: i64) {
    let paid = client
        .post(app.url(&format!("/dev/pay/{order}/pay")))
        .header("Origin", &app.address)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 303);
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_stream_never_carries_another_sessions_chat_or_order(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(50)))]).await;
    let (mine, theirs) = (new_session(), new_session());
    let my_chat = start_ai(&app, &mine).await;
    let their_chat = start_ai(&app, &theirs).await;

    // each browser places an order in its own cookie session, then opens its stream
    let my_browser = browser();
    link_discord(&app, &my_browser, 0).await;
    let my_order = place_order(&app, &my_browser).await;
    let their_browser = browser();
    link_discord(&app, &their_browser, 1).await;
    let their_order = place_order(&app, &their_browser).await;

    let mut my_stream = Sse::open(&app, &my_browser, &format!("?chat_session={mine}")).await;
    let ready = my_stream.event().await;
    assert_eq!(ready.event.as_deref(), Some("ready"));
    assert!(ready.id.is_some(), "a fresh stream says where it starts");
    let mut their_stream =
        Sse::open(&app, &their_browser, &format!("?chat_session={theirs}")).await;
    assert_eq!(their_stream.event().await.event.as_deref(), Some("ready"));

    send(&app, &their_chat, &theirs, "their secret question").await;
    pay(&app, &their_browser, their_order).await;
    send(&app, &my_chat, &mine, "my question").await;
    pay(&app, &my_browser, my_order).await;

    // streams are in order: once my order's event came, everything before it was judged
    let seen = my_stream.events_until(|f| is_order(f, my_order)).await;
    assert!(mentions_chat(&seen, &my_chat), "my chat: {seen:?}");
    assert!(!mentions_chat(&seen, &their_chat), "their chat: {seen:?}");
    assert!(
        !seen.iter().any(|f| is_order(f, their_order)),
        "their order: {seen:?}"
    );
    let paid = seen.iter().find(|f| is_order(f, my_order)).unwrap();
    assert_eq!(paid.data.as_ref().unwrap()["status"], "paid");
    let chat = seen.iter().find(|f| is_chat(f, &my_chat)).unwrap();
    assert!(
        chat.data.as_ref().unwrap().get("session").is_none()
            && !chat.data.as_ref().unwrap().to_string().contains(&mine),
        "the chat session id never travels in an event"
    );

    // a fence their stream may see, after all of mine: their next message
    send(&app, &their_chat, &theirs, "their fence").await;
    let seen = their_stream
        .events_until(|f| {
            is_chat(f, &their_chat) && f.data.as_ref().unwrap()["version"].as_u64() >= Some(4)
        })
        .await;
    assert!(seen.iter().any(|f| is_order(f, their_order)), "{seen:?}");
    assert!(
        !seen
            .iter()
            .any(|f| is_chat(f, &my_chat) || is_order(f, my_order)),
        "my events reached their stream: {seen:?}"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn an_order_link_with_a_wrong_key_streams_for_the_session_that_placed_it_and_no_one_else(
    #[case] backend: Backend,
) {
    let app = shop(backend, vec![(1, product("Raccoon", "10.00", Some(50)))]).await;
    let buyer = browser();
    link_discord(&app, &buyer, 0).await;
    let response = checkout(&app, &buyer, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(response.status(), 200);
    let placed: Value = response.json().await.unwrap();
    let order = placed["order_id"].as_i64().unwrap();
    let key = placed["order_key"].as_str().unwrap().to_owned();
    let wrong = "0".repeat(key.len());

    // the browser that placed it sees the order whatever the key, and so does its stream
    let page = buyer
        .get(app.url(&format!("/api/orders/{order}?key={wrong}")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let mut stream = Sse::open(&app, &buyer, &format!("?order={order}&key={wrong}")).await;
    assert_eq!(stream.event().await.event.as_deref(), Some("ready"));
    pay(&app, &buyer, order).await;
    let seen = stream.events_until(|f| is_order(f, order)).await;
    let paid = seen.iter().find(|f| is_order(f, order)).unwrap();
    assert_eq!(paid.data.as_ref().unwrap()["status"], "paid");

    // another browser: the wrong key (or none) is refused like the page, the right one opens
    let stranger = app.new_client();
    for query in [
        format!("?order={order}&key={wrong}"),
        format!("?order={order}"),
        format!("?key={key}"),
    ] {
        let refused = Sse::request(&app.address, &stranger, &query, None).await;
        assert_eq!(refused.status(), 404, "GET /api/events{query}");
    }
    let page = stranger
        .get(app.url(&format!("/api/orders/{order}?key={wrong}")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 404);
    let mut stream = Sse::open(&app, &stranger, &format!("?order={order}&key={key}")).await;
    assert_eq!(stream.event().await.event.as_deref(), Some("ready"));
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn staff_streams_need_a_staff_session_and_carry_every_live_chat(#[case] backend: Backend) {
    let app = shop(backend, vec![(1, product("Owl", "3.00", Some(2)))]).await;
    let nobody = app.new_client();
    let response = Sse::request(&app.address, &nobody, "?staff=1", None).await;
    assert_eq!(response.status(), 401);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["message"], "Please log in.");
    let customer = app.client_with_role(Role::Customer).await;
    assert_eq!(
        Sse::request(&app.address, &customer, "?staff=1", None)
            .await
            .status(),
        403
    );
    let bad = Sse::request(&app.address, &nobody, "?chat_session=%20%20x%0A", None).await;
    assert!(
        bad.status() == 200 || bad.status() == 422,
        "a chat session id is checked like the chat calls check it"
    );
    let bad = Sse::request(&app.address, &nobody, "?last_event_id=minus", None).await;
    assert_eq!(bad.status(), 422);
    let body: Value = bad.json().await.unwrap();
    assert!(body["errors"]["last_event_id"].is_array());

    let admin = app.client_with_role(Role::Admin).await;
    let mut staff = Sse::open(&app, &admin, "?staff=1").await;
    assert_eq!(staff.event().await.event.as_deref(), Some("ready"));
    // a customer's stream without a chat session hears no one's chat
    let mut shopper = Sse::open(&app, &customer, "").await;
    assert_eq!(shopper.event().await.event.as_deref(), Some("ready"));

    let session = new_session();
    let bot_chat = start_ai(&app, &session).await;
    send(&app, &bot_chat, &session, "hello bot").await;
    let live = start_live(&app, &session).await;
    assert_eq!(live, bot_chat, "the chat with the bot moves to pending");
    let seen = staff
        .events_until(|f| is_chat(f, &live) && f.data.as_ref().unwrap()["status"] == "pending")
        .await;
    assert_eq!(
        seen.iter().filter(|f| is_chat(f, &live)).count(),
        1,
        "staff do not hear a chat while it is with the bot: {seen:?}"
    );

    // the fence for the shopper: a public event after everything above
    let other = app.client_with_role(Role::SuperAdmin).await;
    let changed = app
        .post_json(
            &other,
            "/api/admin/products/1/inventory",
            &json!({ "inventory": 5 }),
        )
        .await;
    assert_eq!(changed.status(), 200, "{}", changed.text().await.unwrap());
    let seen = shopper
        .events_until(|f| f.event.as_deref() == Some("products"))
        .await;
    assert!(
        !seen.iter().any(|f| f.event.as_deref() == Some("chat")),
        "another session's chat reached a shopper: {seen:?}"
    );
    let products = seen.last().unwrap();
    let etag = app.get("/api/products").await.headers()["etag"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(products.data.as_ref().unwrap()["version"], etag.as_str());
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn last_event_id_replays_what_was_missed_and_says_resync_when_it_is_gone(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let session = new_session();
    let chat = start_ai(&app, &session).await;
    let client = app.new_client();
    let query = format!("?chat_session={session}");
    let mut stream = Sse::open(&app, &client, &query).await;
    let ready = stream.event().await;
    let start = ready.id.unwrap();
    assert_eq!(ready.data.unwrap()["resumed"], false);
    drop(stream);

    // missed while away: the question and the bot's answer, and someone else's chat
    send(&app, &chat, &session, "first while away").await;
    let other = new_session();
    let other_chat = start_ai(&app, &other).await;
    send(&app, &other_chat, &other, "not yours").await;
    send(&app, &chat, &session, "second while away").await;

    let mut resumed = Sse::open_from(&app.address, &client, &query, Some(start)).await;
    let ready = resumed.event().await;
    assert_eq!(ready.event.as_deref(), Some("ready"));
    assert_eq!(ready.data.unwrap()["resumed"], true);
    // each send stores the question and the bot's answer: an event each; the replay is read
    // up to the newest event of this session (stored before the stream opened), so anything
    // wrongly replayed from the other chat, stored before it, is among what was read
    let newest = newest_event_of_session(&app, &session).await;
    let replayed = resumed
        .events_until(|f| f.id.is_some_and(|id| id >= newest))
        .await;
    assert!(replayed.len() >= 2, "{replayed:?}");
    assert!(
        replayed.iter().all(|f| is_chat(f, &chat)),
        "only this session's chat is replayed: {replayed:?}"
    );
    let ids: Vec<i64> = replayed.iter().map(|f| f.id.unwrap()).collect();
    assert!(
        ids[0] > start && ids.windows(2).all(|w| w[0] < w[1]),
        "{ids:?}"
    );
    let (first, second) = (&replayed[0], &replayed[1]);

    // the same through the query (a stream the browser opened itself)
    let mut again = Sse::open(
        &app,
        &client,
        &format!("{query}&last_event_id={}", first.id.unwrap()),
    )
    .await;
    assert_eq!(again.event().await.data.unwrap()["resumed"], true);
    assert_eq!(again.event().await.id, second.id);

    // an id from the future (another database) or one whose events are gone: resync
    let mut future = Sse::open_from(&app.address, &client, &query, Some(1_000_000)).await;
    future.event().await;
    assert_eq!(future.event().await.event.as_deref(), Some("resync"));
    app.store
        .purge_push_events(chrono::Utc::now() + chrono::Duration::hours(1))
        .await
        .unwrap();
    let mut gone = Sse::open_from(&app.address, &client, &query, Some(start)).await;
    gone.event().await;
    let resync = gone.event().await;
    assert_eq!(resync.event.as_deref(), Some("resync"));
    assert!(resync.id.unwrap() >= second.id.unwrap());
}

/// The page tells the app the last event number its own data already holds: a stream opened
/// from it carries what changed after the page was made, and nothing from before it.
#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_stream_resumed_from_the_pages_event_number_carries_what_changed_since_the_page(
    #[case] backend: Backend,
) {
    let app = shop(backend, vec![(1, product("Owl", "3.00", Some(2)))]).await;
    write_index(
        &app,
        "<!doctype html><html><head></head><body></body></html>",
    );
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let set_stock = |inventory: i64| {
        let (app, admin) = (&app, &admin);
        async move {
            let changed = app
                .post_json(
                    admin,
                    "/api/admin/products/1/inventory",
                    &json!({ "inventory": inventory }),
                )
                .await;
            assert_eq!(changed.status(), 200, "{}", changed.text().await.unwrap());
        }
    };
    // a change before the page, heard by this instance: the page's list already shows it
    let shopper = app.new_client();
    let mut watching = Sse::open(&app, &shopper, "").await;
    assert_eq!(watching.event().await.event.as_deref(), Some("ready"));
    set_stock(7).await;
    let heard = watching
        .events_until(|f| f.event.as_deref() == Some("products"))
        .await;
    let earlier = heard.last().unwrap().id.unwrap();
    let page = shopper.get(app.url("/")).send().await.unwrap();
    let page_data = bootstrap(&page.text().await.unwrap());
    let fresh_as_of = page_data["events"].as_i64().unwrap();
    assert!(fresh_as_of >= earlier, "{fresh_as_of} < {earlier}");
    let stock_of_1 = page_data["products"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == 1)
        .map(|p| p["inventory"].clone());
    assert_eq!(stock_of_1, Some(json!(7)));

    // a change while the page loads, before the app opens its stream
    set_stock(3).await;
    let mut resumed = Sse::open(&app, &shopper, &format!("?last_event_id={fresh_as_of}")).await;
    let ready = resumed.event().await;
    assert_eq!(ready.event.as_deref(), Some("ready"));
    assert_eq!(ready.data.unwrap()["resumed"], true);
    let missed = resumed.event().await;
    assert_eq!(missed.event.as_deref(), Some("products"), "{missed:?}");
    assert!(missed.id.unwrap() > fresh_as_of);
    let etag = app.get("/api/products").await.headers()["etag"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(missed.data.unwrap()["version"], etag.as_str());
    // and nothing else: the earlier change is not replayed (the next event is one made now)
    set_stock(4).await;
    let next = resumed.event().await;
    let etag = app.get("/api/products").await.headers()["etag"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(next.event.as_deref(), Some("products"), "{next:?}");
    assert_eq!(
        next.data.as_ref().unwrap()["version"],
        etag.as_str(),
        "only the change after the page: {next:?}"
    );
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_heartbeat_keeps_an_idle_stream_open_and_streams_are_limited_per_address(
    #[case] backend: Backend,
) {
    let app = TestApp::spawn_with(
        TestDatabase::create(backend).await,
        Options::demo_data(false),
        |settings| {
            settings.events.heartbeat_seconds = 1;
            settings.events.max_streams_per_ip = 2;
        },
    )
    .await;
    let mut first = Sse::open(&app, &app.client, "").await;
    assert_eq!(first.event().await.event.as_deref(), Some("ready"));
    let beat = first
        .frame(Duration::from_millis(2500))
        .await
        .expect("a heartbeat within the interval");
    assert!(beat.comment && beat.event.is_none(), "{beat:?}");
    assert!(beat.id.is_some(), "the heartbeat moves the resume point");

    let second = Sse::open(&app, &app.client, "").await;
    let third = Sse::request(&app.address, &app.client, "", None).await;
    assert_eq!(third.status(), 429);
    assert!(third.headers().contains_key("retry-after"));
    let body: Value = third.json().await.unwrap();
    assert!(body["message"].as_str().unwrap().contains("Too many"));

    // a closed stream gives its place back (noticed at the latest by its next heartbeat)
    drop(second);
    eventually("the place of a closed stream is freed", || async {
        match Sse::request(&app.address, &app.client, "", None)
            .await
            .status()
        {
            reqwest::StatusCode::OK => Ok(()),
            refused => Err(refused),
        }
    })
    .await;
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_stream_ends_at_the_next_heartbeat_once_its_session_is_gone(#[case] backend: Backend) {
    let app = TestApp::spawn_with(
        TestDatabase::create(backend).await,
        Options::demo_data(false),
        |settings| settings.events.heartbeat_seconds = 1,
    )
    .await;
    let customer = app.client_with_role(Role::Customer).await;
    let staff = app.client_with_role(Role::Admin).await;
    let mut mine = Sse::open(&app, &customer, "").await;
    let mut theirs = Sse::open(&app, &staff, "?staff=1").await;
    // an anonymous stream has no session to end
    let mut anonymous = Sse::open(&app, &app.new_client(), "").await;
    for stream in [&mut mine, &mut theirs, &mut anonymous] {
        assert_eq!(stream.event().await.event.as_deref(), Some("ready"));
    }
    for (client, stream) in [(&customer, &mut mine), (&staff, &mut theirs)] {
        let out = app.post_json(client, "/api/logout", &json!({})).await;
        assert_eq!(out.status(), 200);
        // the next heartbeat finds the session gone: the stream says so, then closes
        assert_eq!(stream.event().await.event.as_deref(), Some("ended"));
        assert!(
            stream.closed_within(Duration::from_secs(30)).await,
            "closed"
        );
    }
    // the staff stream no longer hears the queue, and the anonymous one lives on
    let beat = anonymous
        .frame(Duration::from_secs(5))
        .await
        .expect("a heartbeat");
    assert!(beat.comment, "{beat:?}");
}

#[tokio::test]
async fn shutting_down_ends_the_streams_at_once_and_the_server_stops_when_nothing_is_in_flight() {
    // a heartbeat far off: only the shutdown can end these streams
    let app = TestApp::spawn_with(
        TestDatabase::create(Backend::Sqlite).await,
        Options::demo_data(false),
        |settings| settings.events.heartbeat_seconds = 3600,
    )
    .await;
    let staff = app.client_with_role(Role::Admin).await;
    let mut streams = vec![
        Sse::open(&app, &app.new_client(), "").await,
        Sse::open(&app, &staff, "?staff=1").await,
    ];
    for stream in &mut streams {
        assert_eq!(stream.event().await.event.as_deref(), Some("ready"));
    }
    let stopped = app.stopped.notified();
    tokio::spawn(app.shutdown.clone().now());
    for stream in &mut streams {
        // closed by the server: without the shutdown nothing would come for an hour
        assert!(stream.closed_within(Duration::from_secs(60)).await);
    }
    // the server stops (its 30 s grace for requests in flight is not needed: none is left)
    tokio::time::timeout(Duration::from_secs(25), stopped)
        .await
        .expect("the server stopped once its streams ended");
    assert!(
        app.new_client()
            .get(app.url("/api/health"))
            .send()
            .await
            .is_err(),
        "no new connections"
    );
}

#[tokio::test]
async fn on_postgres_another_instances_write_reaches_this_instances_streams_at_once() {
    let app = TestApp::spawn(Backend::Postgres).await;
    let other = app.start_another_instance().await;
    let session = new_session();
    let chat = start_ai(&app, &session).await;
    let client = app.new_client();
    // the history is cached on the other instance before the write
    let history = format!("{other}/api/chat/history?chat_id={chat}&session_id={session}");
    assert_eq!(client.get(&history).send().await.unwrap().status(), 200);

    let mut stream =
        Sse::open_from(&other, &client, &format!("?chat_session={session}"), None).await;
    assert_eq!(stream.event().await.event.as_deref(), Some("ready"));
    let sent = std::time::Instant::now();
    send(&app, &chat, &session, "through the first instance").await;
    let heard = stream.event().await;
    assert!(is_chat(&heard, &chat), "{heard:?}");
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "{:?}",
        sent.elapsed()
    );
    // and the other instance's poll cache was dropped before the stream said so
    let body: Value = client
        .get(&history)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        body.to_string().contains("through the first instance"),
        "the refetch finds the message: {body}"
    );
}
