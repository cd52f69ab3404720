//! Issue 22, item 17: an account's deletion leaves nothing that names the shopper, and the
//! export holds every personal field the shop stores about them. The schema is read from the
//! database and every column of it must be classified below, so a new table or column fails
//! this test until someone decides whether it holds personal data (and the erasure clears it).

use accounts::Role;
use rstest::rstest;
use sea_orm::{ConnectionTrait, Statement, Value as SqlValue};
use serde_json::{json, Value};
use store::Backend;

use crate::checkout_support::*;
use crate::helpers::{eventually, TestApp, TEST_PASSWORD};

/// Whether a column holds personal data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Names or identifies a shopper: the account's deletion removes the row or clears the
    /// value, and this test fills and checks it.
    Personal,
    /// May name someone, and is kept on purpose (see the note with each table).
    Kept,
    /// Holds nothing personal (amounts, statuses, times, the shop's own ids and texts).
    NotPersonal,
}

use Class::{Kept, NotPersonal, Personal};

/// Every table and column of the schema. A column missing here (or listed here and missing
/// from the schema) fails [`every_column_of_the_schema_is_classified`].
const SCHEMA: &[(&str, &[(&str, Class)])] = &[
    (
        "seaql_migrations",
        &[("version", NotPersonal), ("applied_at", NotPersonal)],
    ),
    (
        "products",
        &[
            ("id", NotPersonal),
            ("name", NotPersonal),
            ("description", NotPersonal),
            ("price_cents", NotPersonal),
            ("category", NotPersonal),
            ("image", NotPersonal),
            ("stock", NotPersonal),
            ("weight", NotPersonal),
            ("mutation", NotPersonal),
            ("savings_cents", NotPersonal),
            ("sort_order", NotPersonal),
            ("delete_after_out_of_stock", NotPersonal),
            ("dupe_warning", NotPersonal),
            ("archived", NotPersonal),
            ("release_at", NotPersonal),
            ("max_per_account", NotPersonal),
            ("release_announced_at", NotPersonal),
            ("created_at", NotPersonal),
            ("updated_at", NotPersonal),
        ],
    ),
    (
        "bundle_items",
        &[
            ("bundle_id", NotPersonal),
            ("product_id", NotPersonal),
            ("position", NotPersonal),
        ],
    ),
    (
        // the row goes with the account (a staff member's private server link included)
        "users",
        &[
            ("id", Personal),
            ("name", Personal),
            ("email", Personal),
            ("password_hash", Personal),
            ("role", NotPersonal),
            ("created_at", NotPersonal),
            ("updated_at", NotPersonal),
            ("reset_mailed_at", NotPersonal),
            ("private_server_url", Personal),
            // a preference of the five the shop offers (as orders.language)
            ("language", NotPersonal),
        ],
    ),
    (
        // a sign-up for the account's address waiting for its code
        "pending_signups",
        &[
            ("email", Personal),
            ("name", Personal),
            ("code_hash", Personal),
            ("attempts", NotPersonal),
            ("expires_at", NotPersonal),
            ("resend_at", NotPersonal),
            ("created_at", NotPersonal),
        ],
    ),
    (
        "password_reset_tokens",
        &[
            ("id", NotPersonal),
            ("user_id", Personal),
            ("token_hash", Personal),
            ("expires_at", NotPersonal),
            ("used_at", NotPersonal),
            ("created_at", NotPersonal),
        ],
    ),
    (
        "sessions",
        &[
            ("id", Personal),
            // the login and the linked Discord account
            ("state", Personal),
            ("expires_at", NotPersonal),
            ("user_id", Personal),
        ],
    ),
    (
        "promo_codes",
        &[
            ("id", NotPersonal),
            ("code", NotPersonal),
            ("discount_percent", NotPersonal),
            ("expires_at", NotPersonal),
            ("max_uses", NotPersonal),
            ("created_at", NotPersonal),
            ("uses", NotPersonal),
            ("active", NotPersonal),
        ],
    ),
    (
        // kept for the books without the buyer's identity
        "orders",
        &[
            ("id", NotPersonal),
            ("status", NotPersonal),
            ("user_id", Personal),
            ("discord_id", Personal),
            ("discord_username", Personal),
            ("discord_avatar", Personal),
            ("roblox_username", Personal),
            ("email", Personal),
            ("subtotal_cents", NotPersonal),
            ("discount_cents", NotPersonal),
            ("fee_cents", NotPersonal),
            ("total_cents", NotPersonal),
            ("promo_code_id", NotPersonal),
            ("promo_code", NotPersonal),
            ("discount_percent", NotPersonal),
            ("payment_method", NotPersonal),
            ("provider", NotPersonal),
            // the payment provider's ids: kept for refunds, disputes and the books
            ("provider_reference", NotPersonal),
            ("created_at", NotPersonal),
            ("paid_at", NotPersonal),
            ("delivered_at", NotPersonal),
            ("closed_at", NotPersonal),
            ("claimed_by", NotPersonal),
            ("proof_id", NotPersonal),
            ("buyer_token", Personal),
            ("client_ip", Personal),
            // the key client_ip counts under for the unpaid-orders cap (an IPv6 client's /64)
            ("client_net", Personal),
            // the shop's reason for holding a payment for review
            ("review_reason", NotPersonal),
            // a hash of the order link's random key: names no one
            ("access_key_hash", NotPersonal),
            ("claimed_at", NotPersonal),
            ("payment_id", NotPersonal),
            ("refund_id", NotPersonal),
            ("disputed_at", NotPersonal),
            ("disputed_from", NotPersonal),
            ("dispute_outcome", NotPersonal),
            ("dispute_closed_at", NotPersonal),
            ("pay_by", NotPersonal),
            ("buyer_ready_at", NotPersonal),
            // the buyer's Discord thread and what they wrote about their delivery
            ("ticket_thread_id", Personal),
            ("ticket_problem", Personal),
            // hashes of the shopper's session and key, and of what they typed at checkout
            ("idempotency_key", Personal),
            ("request_fingerprint", Personal),
            // the provider's payment page, returned to a retry: names no one
            ("payment_url", NotPersonal),
            // the staff member's private server link as the buyer was shown it
            ("server_link_shown", NotPersonal),
            ("server_link_shown_at", NotPersonal),
            ("refund_policy_version", NotPersonal),
            ("received_at", NotPersonal),
            // the client addresses of "I got my items" and "I'm in the game"
            ("received_ip", Personal),
            ("buyer_ready_ip", Personal),
            // a risk hold: the shop's reason and since when
            ("hold_reason", NotPersonal),
            ("held_at", NotPersonal),
            // when the buyer's time to join ran out under the current claim
            ("no_show_at", NotPersonal),
            // the language it was placed in: one of five codes, names no one
            ("language", NotPersonal),
            // what it was paid in: the currency, its rate, its decimals and the amount
            ("currency", NotPersonal),
            ("rate", NotPersonal),
            ("minor_units", NotPersonal),
            ("amount_paid", NotPersonal),
        ],
    ),
    (
        // the day's reference rates, per currency: the shop's, of no one
        "exchange_rates",
        &[
            ("currency", NotPersonal),
            ("per_euro", NotPersonal),
            ("as_of", NotPersonal),
            ("sample", NotPersonal),
            ("fetched_at", NotPersonal),
        ],
    ),
    (
        // when the next fetch of the rates is due, and how the last ones went
        "exchange_rate_fetch",
        &[
            ("id", NotPersonal),
            ("due_at", NotPersonal),
            ("failures", NotPersonal),
            ("last_error", NotPersonal),
        ],
    ),
    (
        "evidence_holds",
        &[
            ("order_id", NotPersonal),
            // what a dispute's evidence needs of an erased buyer, kept apart for that
            // legitimate interest until disputes.evidence_retention_days after the payment
            ("email", Personal),
            ("discord_id", Personal),
            ("discord_username", Personal),
            ("roblox_username", Personal),
            ("client_ip", Personal),
            ("buyer_ready_ip", Personal),
            ("received_ip", Personal),
            ("paid_at", NotPersonal),
            ("created_at", NotPersonal),
        ],
    ),
    (
        "order_lines",
        &[
            ("order_id", NotPersonal),
            ("position", NotPersonal),
            ("product_id", NotPersonal),
            ("name", NotPersonal),
            ("unit_price_cents", NotPersonal),
            ("quantity", NotPersonal),
            ("unit_price_paid", NotPersonal),
        ],
    ),
    (
        // a bundle's components as the order line sold them
        "order_line_parts",
        &[
            ("order_id", NotPersonal),
            ("position", NotPersonal),
            ("product_id", NotPersonal),
        ],
    ),
    (
        "order_reservations",
        &[
            ("order_id", NotPersonal),
            ("product_id", NotPersonal),
            ("quantity", NotPersonal),
        ],
    ),
    (
        // the code's count stays; the Discord account becomes `erased-{order id}`
        "promo_redemptions",
        &[
            ("promo_code_id", NotPersonal),
            ("discord_id", Personal),
            ("order_id", NotPersonal),
            ("redeemed_at", NotPersonal),
        ],
    ),
    (
        "processed_events",
        &[
            ("provider", NotPersonal),
            ("event_id", NotPersonal),
            ("processed_at", NotPersonal),
        ],
    ),
    (
        "chats",
        &[
            ("id", NotPersonal),
            ("session_id", Personal),
            ("user_id", Personal),
            ("user_name", Personal),
            ("accepted_by", NotPersonal),
            ("status", NotPersonal),
            ("staff_read_through", NotPersonal),
            ("user_read_through", NotPersonal),
            ("version", NotPersonal),
            ("created_at", NotPersonal),
            ("updated_at", NotPersonal),
            ("staff_notified_at", NotPersonal),
            // the language the chat was started in (its notices are written in it)
            ("language", NotPersonal),
        ],
    ),
    (
        "chat_messages",
        &[
            ("id", NotPersonal),
            ("chat_id", NotPersonal),
            ("sender_type", NotPersonal),
            ("message", Personal),
            ("created_at", NotPersonal),
        ],
    ),
    (
        "proofs",
        &[
            ("id", NotPersonal),
            ("items", NotPersonal),
            ("created_at", NotPersonal),
        ],
    ),
    (
        "proof_images",
        &[
            ("proof_id", NotPersonal),
            ("position", NotPersonal),
            ("path", NotPersonal),
        ],
    ),
    (
        // the account's counts (its e-mail address, its id, its chats' sessions) go; the
        // counts keyed by a client address are shared by everyone behind it and end with their
        // window (removing them would let a deletion reset the login's limit)
        "rate_limits",
        &[
            ("bucket", Personal),
            ("window_start", NotPersonal),
            ("hits", NotPersonal),
        ],
    ),
    (
        // the demo accounts' passwords, shown on the login page of a demo shop
        "demo_logins",
        &[("email", Personal), ("password", Personal)],
    ),
    (
        // the queue of the buyer's mail: dropped, and nothing is queued for an erased order
        "mail_jobs",
        &[
            ("id", NotPersonal),
            ("order_id", Personal),
            ("kind", NotPersonal),
            ("status", NotPersonal),
            ("attempts", NotPersonal),
            ("next_attempt_at", NotPersonal),
            ("last_error", Personal),
            ("created_at", NotPersonal),
            ("sent_at", NotPersonal),
            ("occurrence", NotPersonal),
        ],
    ),
    (
        // the staff's abuse list: a deletion does not lift a block
        "blocklist",
        &[
            ("id", NotPersonal),
            ("kind", NotPersonal),
            ("value", Kept),
            ("reason", Kept),
            ("added_by", NotPersonal),
            ("created_at", NotPersonal),
            ("status", NotPersonal),
            ("expires_at", NotPersonal),
            ("match_value", Kept),
        ],
    ),
    (
        // the staff's actions, append-only: it names staff, and orders by number only
        "audit_log",
        &[
            ("id", NotPersonal),
            ("at", NotPersonal),
            ("actor_id", NotPersonal),
            ("actor_name", Kept),
            ("kind", NotPersonal),
            ("target", Kept),
            ("before", Kept),
            ("after", Kept),
            ("ip", Kept),
        ],
    ),
    (
        // the messages on an order's page, both sides': they go with the buyer's data (the
        // authors' names are read from the order and the staff account, never kept here)
        "order_messages",
        &[
            ("id", NotPersonal),
            ("order_id", NotPersonal),
            ("sender", NotPersonal),
            ("staff_id", NotPersonal),
            ("text", Personal),
            ("created_at", NotPersonal),
        ],
    ),
    (
        "push_events",
        &[
            ("id", NotPersonal),
            ("topic", NotPersonal),
            // an `order_message` event carries the message itself
            ("data", Personal),
            ("public", NotPersonal),
            ("staff", NotPersonal),
            ("chat_session", Personal),
            ("order_id", NotPersonal),
            ("user_id", Personal),
            ("created_at", NotPersonal),
        ],
    ),
    (
        "order_events",
        &[
            ("id", NotPersonal),
            ("order_id", NotPersonal),
            ("step", NotPersonal),
            ("staff_id", NotPersonal),
            ("at", NotPersonal),
            ("dispatched_at", NotPersonal),
            // what the payment provider said with a dispute
            ("note", NotPersonal),
        ],
    ),
    (
        // the staff alerts and Discord ticket posts about an order: dropped
        "outbox_jobs",
        &[
            ("id", NotPersonal),
            ("event_id", NotPersonal),
            ("order_id", Personal),
            ("channel", NotPersonal),
            ("status", NotPersonal),
            ("attempts", NotPersonal),
            ("next_attempt_at", NotPersonal),
            ("last_error", Personal),
            ("created_at", NotPersonal),
            ("sent_at", NotPersonal),
            // the thread an erased order's job deletes on Discord: held by that job alone, and
            // cleared when it ends
            ("thread_id", Personal),
        ],
    ),
    (
        // the ids of the shop's posts in an order's Discord ticket: dropped with the ticket
        "ticket_posts",
        &[
            ("id", NotPersonal),
            ("order_id", Personal),
            ("event_id", NotPersonal),
            ("step", NotPersonal),
            ("message_id", Personal),
            ("staff_id", NotPersonal),
            ("shows_link", NotPersonal),
            ("created_at", NotPersonal),
            ("edited_at", NotPersonal),
        ],
    ),
    (
        // Discord's limits on the shop's bot, for every instance
        "discord_limits",
        &[
            ("name", NotPersonal),
            ("paused_until", NotPersonal),
            ("window_start", NotPersonal),
            ("invalid_count", NotPersonal),
        ],
    ),
    (
        // a pending join of the buyer's Discord account to the shop's server
        "guild_joins",
        &[
            ("id", NotPersonal),
            ("discord_id", Personal),
            ("access_token", Personal),
            ("expires_at", NotPersonal),
            ("attempts", NotPersonal),
            ("next_attempt_at", NotPersonal),
            ("lease_until", NotPersonal),
            ("last_error", Personal),
            ("created_at", NotPersonal),
        ],
    ),
    (
        "reviews",
        &[
            ("id", NotPersonal),
            ("order_id", NotPersonal),
            ("rating", NotPersonal),
            ("text", NotPersonal),
            // anonymised
            ("name", Personal),
            ("created_at", NotPersonal),
            ("hidden_at", NotPersonal),
            ("hidden_by", NotPersonal),
            ("hidden_reason", NotPersonal),
        ],
    ),
    (
        // a provider's dispute of an order's payment; the evidence is built from the order
        "disputes",
        &[
            ("id", NotPersonal),
            ("provider", NotPersonal),
            ("dispute_id", NotPersonal),
            ("order_id", NotPersonal),
            ("payment_id", NotPersonal),
            ("amount_minor", NotPersonal),
            ("currency", NotPersonal),
            ("reason", NotPersonal),
            ("status", NotPersonal),
            ("due_by", NotPersonal),
            ("evidence", NotPersonal),
            ("outcome", NotPersonal),
            // what staff wrote to the bank with the evidence (staff's words, kept with the
            // dispute; how long a dispute's evidence outlives an erasure is issue 33 item 8)
            ("staff_note", NotPersonal),
            // the provider's ids of the uploaded evidence files
            ("files", NotPersonal),
            ("submit_claimed_at", NotPersonal),
            ("attempts", NotPersonal),
            ("next_attempt_at", NotPersonal),
            // the provider's refusal, cut (names no one: the evidence is not echoed)
            ("last_error", NotPersonal),
            ("created_at", NotPersonal),
            ("updated_at", NotPersonal),
            ("staged_at", NotPersonal),
            ("submitted_at", NotPersonal),
            ("closed_at", NotPersonal),
        ],
    ),
    (
        // evidence built and uploaded at an early fraud warning on a delivered order, before
        // any dispute: the provider's file ids and the record's fingerprint, never the record
        "prepared_evidence",
        &[
            ("order_id", NotPersonal),
            ("warned_at", NotPersonal),
            ("fraud_type", NotPersonal),
            ("files", NotPersonal),
            ("fingerprint", NotPersonal),
            ("prepared_at", NotPersonal),
            ("attempts", NotPersonal),
            ("next_attempt_at", NotPersonal),
            ("last_error", NotPersonal),
        ],
    ),
];

/// The rate limit buckets keyed by a client address (kept: see `rate_limits` above).
const ADDRESS_BUCKETS: &[&str] = &[
    "login-ip:",
    "signup-code-ip:",
    "signup-verify-ip:",
    "reset-ip:",
    "roblox-lookup:ip:",
    "promo-check:ip:",
    "chat_live_ip:",
];

/// The shopper's own values, each recognisable anywhere in the database.
const EMAIL: &str = "annabel.private@example.com";
const NAME: &str = "Annabel Privacy";
const ROBLOX: &str = "AnnabelGrows77";
const IP: &str = "203.0.113.77";
const THREAD: &str = "1300000000000000077";
const TICKET_POST: &str = "1300000000000000078";
const PROBLEM: &str = "Annabel cannot find the private server";
/// Stand-ins for the hashes a checkout with an `Idempotency-Key` stores (the session and key,
/// the request typed); recognisable so the search below finds them if they stay.
const IDEMPOTENCY: &str = "annabel-idempotency-key-hash";
const FINGERPRINT: &str = "annabel-request-fingerprint";
const PRIVATE_SERVER: &str = "https://www.roblox.com/share?code=annabelsprivate&type=Server";
const ACCESS_TOKEN: &str = "annabel-discord-access-token";
const CHAT_TEXT: &str = "Hello, Annabel here, is the raccoon shy?";
const MAIL_ERROR: &str = "mailbox annabel.private@example.com is full";
const ORDER_MESSAGE: &str = "Annabel here: I cannot find your private server";

/// Runs one statement with `?` placeholders on either database.
async fn exec(app: &TestApp, sql: &str, values: Vec<SqlValue>) {
    let db = app.store.connection();
    let backend = db.get_database_backend();
    db.execute(Statement::from_sql_and_values(
        backend,
        numbered(backend, sql),
        values,
    ))
    .await
    .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

fn numbered(backend: sea_orm::DatabaseBackend, sql: &str) -> String {
    if backend != sea_orm::DatabaseBackend::Postgres {
        return sql.to_owned();
    }
    let mut n = 0;
    sql.chars()
        .map(|c| {
            if c == '?' {
                n += 1;
                format!("${n}")
            } else {
                c.to_string()
            }
        })
        .collect()
}

async fn count(app: &TestApp, sql: &str, values: Vec<SqlValue>) -> i64 {
    let db = app.store.connection();
    let backend = db.get_database_backend();
    db.query_one(Statement::from_sql_and_values(
        backend,
        numbered(backend, sql),
        values,
    ))
    .await
    .unwrap_or_else(|e| panic!("{sql}: {e}"))
    .unwrap()
    .try_get_by_index::<i64>(0)
    .unwrap()
}

/// Every table and its columns, as the database has them.
async fn schema(app: &TestApp) -> Vec<(String, Vec<String>)> {
    let db = app.store.connection();
    let backend = db.get_database_backend();
    let sql = match backend {
        sea_orm::DatabaseBackend::Postgres => {
            "SELECT table_name AS t, column_name AS c FROM information_schema.columns \
             WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
        }
        _ => {
            "SELECT m.name AS t, p.name AS c FROM sqlite_master m, pragma_table_info(m.name) p \
             WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid"
        }
    };
    let rows = db
        .query_all(Statement::from_string(backend, sql))
        .await
        .unwrap();
    let mut tables: Vec<(String, Vec<String>)> = Vec::new();
    for row in rows {
        let table: String = row.try_get("", "t").unwrap();
        let column: String = row.try_get("", "c").unwrap();
        match tables.last_mut() {
            Some((last, columns)) if *last == table => columns.push(column),
            _ => tables.push((table, vec![column])),
        }
    }
    tables
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn every_column_of_the_schema_is_classified(#[case] backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let mut unclassified = Vec::new();
    for (table, columns) in schema(&app).await {
        let known = SCHEMA.iter().find(|(name, _)| *name == table);
        for column in &columns {
            if !known.is_some_and(|(_, listed)| listed.iter().any(|(c, _)| c == column)) {
                unclassified.push(format!("{table}.{column}"));
            }
        }
    }
    assert!(
        unclassified.is_empty(),
        "classify these columns in SCHEMA (personal or not) and make the account's deletion \
         clear the personal ones: {unclassified:?}"
    );
    let actual = schema(&app).await;
    let mut gone = Vec::new();
    for (table, columns) in SCHEMA {
        for (column, _) in *columns {
            let present = actual
                .iter()
                .any(|(t, cs)| t == table && cs.iter().any(|c| c == column));
            if !present {
                gone.push(format!("{table}.{column}"));
            }
        }
    }
    assert!(gone.is_empty(), "no longer in the schema: {gone:?}");
}

/// A browser of the shopper's, coming from their own address through the trusted proxy.
fn annabels_browser() -> reqwest::Client {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert("X-Forwarded-For", IP.parse().unwrap());
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .default_headers(headers)
        .build()
        .unwrap()
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

/// The shopper's values that must be gone from every column of every table.
fn identifying_values(discord_id: &str, discord_name: &str, session: &str) -> Vec<String> {
    [
        EMAIL,
        NAME,
        ROBLOX,
        IP,
        THREAD,
        PROBLEM,
        IDEMPOTENCY,
        FINGERPRINT,
        PRIVATE_SERVER,
        ACCESS_TOKEN,
        CHAT_TEXT,
        ORDER_MESSAGE,
        discord_id,
        discord_name,
        session,
    ]
    .iter()
    .map(|v| (*v).to_owned())
    .collect()
}

/// How many rows of `table` hold `value` in `column` (compared as text).
async fn holding(app: &TestApp, table: &str, column: &str, value: &str) -> i64 {
    count(
        app,
        &format!("SELECT COUNT(*) FROM {table} WHERE CAST({column} AS TEXT) LIKE ?"),
        vec![format!("%{value}%").into()],
    )
    .await
}

/// Where each of `values` appears in the database: `table.column: value` (IP-keyed rate
/// limit counts excepted, see `rate_limits` in [`SCHEMA`]).
async fn where_found(app: &TestApp, values: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for (table, columns) in schema(app).await {
        for column in &columns {
            for value in values {
                let quoted = format!("\"{column}\"");
                let mut n = holding(app, &table, &quoted, value).await;
                if table == "rate_limits" && column == "bucket" && n > 0 {
                    let by_address = ADDRESS_BUCKETS
                        .iter()
                        .map(|b| format!("bucket = '{b}{value}'"))
                        .collect::<Vec<_>>()
                        .join(" OR ");
                    n -= count(
                        app,
                        &format!("SELECT COUNT(*) FROM rate_limits WHERE {by_address}"),
                        vec![],
                    )
                    .await;
                }
                if table == "outbox_jobs" && column == "thread_id" && n > 0 {
                    // the job deleting an erased order's ticket holds its thread until then
                    n -= count(
                        app,
                        "SELECT COUNT(*) FROM outbox_jobs j JOIN order_events e \
                         ON e.id = j.event_id WHERE e.step = 'erased' AND j.status = 'pending' \
                         AND j.thread_id = ?",
                        vec![value.clone().into()],
                    )
                    .await;
                }
                if n > 0 {
                    found.push(format!("{table}.{column}: {value}"));
                }
            }
        }
    }
    found
}

#[rstest]
#[case::sqlite(Backend::Sqlite)]
#[case::postgres(Backend::Postgres)]
#[tokio::test]
async fn a_deleted_account_leaves_no_personal_value_in_any_table_and_its_export_held_them_all(
    #[case] backend: Backend,
) {
    let app = shop_with(backend, vec![(1, product("Raccoon", "10.00", None))], |s| {
        s.stripe.webhook_secret = WEBHOOK_SECRET.to_owned().into();
        s.server.trusted_proxies = vec!["127.0.0.1/32".into()];
        s.mail.queue_poll_ms = 50;
        // the loop that purges the evidence kept of erased buyers, looked for below
        s.disputes.check_every_seconds = 1;
    })
    .await;
    let id = app.create_user(EMAIL, TEST_PASSWORD, Role::Customer).await;
    exec(
        &app,
        "UPDATE users SET name = ? WHERE id = ?",
        vec![NAME.into(), id.into()],
    )
    .await;
    let ann = annabels_browser();
    app.login(&ann, EMAIL, TEST_PASSWORD).await;
    let identity = link_discord(&app, &ann, 0).await;
    let (discord_id, discord_name) = garden_app::DEMO_IDENTITIES[0];
    assert_eq!(identity["discord_id"], discord_id, "{identity}");

    // a promo code, and an order with it, paid and delivered, with a review
    exec(
        &app,
        "INSERT INTO promo_codes (code, discount_percent, created_at, uses) VALUES (?, 10, ?, 0)",
        vec!["ANNABEL10".into(), chrono::Utc::now().into()],
    )
    .await;
    let mut body = payload(&[(1, 1)], 9.0);
    body["email"] = json!(EMAIL);
    body["roblox_username"] = json!(ROBLOX);
    body["promo_code"] = json!("ANNABEL10");
    let placed = checkout(&app, &ann, &body).await;
    assert_eq!(placed.status(), 200, "{}", placed.text().await.unwrap());
    let order: i64 = placed.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    pay(&app, &ann, order).await;
    app.wait_for_outbox(1).await;
    exec(
        &app,
        "UPDATE orders SET status = 'delivered', delivered_at = ?, ticket_thread_id = ?, \
         ticket_problem = ?, idempotency_key = ?, request_fingerprint = ?, buyer_ready_ip = ?, \
         received_ip = ? WHERE id = ?",
        vec![
            chrono::Utc::now().into(),
            THREAD.into(),
            PROBLEM.into(),
            IDEMPOTENCY.into(),
            FINGERPRINT.into(),
            IP.into(),
            IP.into(),
            order.into(),
        ],
    )
    .await;
    exec(
        &app,
        "INSERT INTO ticket_posts (order_id, event_id, step, message_id, shows_link, created_at) \
         VALUES (?, 0, 'paid', ?, ?, ?)",
        vec![
            order.into(),
            TICKET_POST.into(),
            false.into(),
            chrono::Utc::now().into(),
        ],
    )
    .await;
    let reviewed = app
        .post_json(
            &ann,
            &format!("/api/orders/{order}/review"),
            &json!({ "rating": 5, "text": "Fast and friendly, thanks!" }),
        )
        .await;
    assert_eq!(reviewed.status(), 201, "{}", reviewed.text().await.unwrap());
    let review_name = format!("{}***", &ROBLOX[..2]);
    // a message on the order's page (delivered just now: still open for messages)
    let said = app
        .post_json(
            &ann,
            &format!("/api/orders/{order}/messages"),
            &json!({ "text": ORDER_MESSAGE }),
        )
        .await;
    assert_eq!(said.status(), 201, "{}", said.text().await.unwrap());

    // a help chat while logged in
    let session = uuid::Uuid::new_v4().to_string();
    let chat: Value = app
        .post_json(
            &ann,
            "/api/chat/start-ai",
            &json!({ "session_id": session }),
        )
        .await
        .json()
        .await
        .unwrap();
    let chat_id = chat["chat_id"].as_str().unwrap().to_owned();
    let sent = app
        .post_json(
            &ann,
            "/api/chat/send",
            &json!({ "session_id": session, "chat_id": chat_id, "message": CHAT_TEXT }),
        )
        .await;
    assert_eq!(sent.status(), 200);

    // a password reset asked for (a token, the reset mail's count)
    let forgot = app
        .post_json(&ann, "/api/forgot-password", &json!({ "email": EMAIL }))
        .await;
    assert_eq!(forgot.status(), 200);
    outbox_mail_with(&app, "reset-password?token=").await;

    // what the flows above do not leave behind in a test: direct rows
    let later = chrono::Utc::now() + chrono::Duration::hours(1);
    let statements: Vec<(&str, Vec<SqlValue>)> = vec![
        (
            "UPDATE users SET private_server_url = ? WHERE id = ?",
            vec![PRIVATE_SERVER.into(), id.into()],
        ),
        (
            "INSERT INTO pending_signups (email, name, code_hash, attempts, expires_at, \
             resend_at, created_at) VALUES (?, ?, 'c0de', 0, ?, ?, ?)",
            vec![
                EMAIL.into(),
                NAME.into(),
                later.into(),
                later.into(),
                chrono::Utc::now().into(),
            ],
        ),
        (
            "INSERT INTO demo_logins (email, password) VALUES (?, 'demo-password')",
            vec![EMAIL.into()],
        ),
        (
            "INSERT INTO guild_joins (discord_id, access_token, expires_at, attempts, \
             next_attempt_at, last_error, created_at) VALUES (?, ?, ?, 1, ?, ?, ?)",
            vec![
                discord_id.into(),
                ACCESS_TOKEN.into(),
                later.into(),
                later.into(),
                format!("could not add {discord_name}").into(),
                chrono::Utc::now().into(),
            ],
        ),
        // the finding: a mail of the order still queued (a failed attempt due again later)
        (
            "INSERT INTO mail_jobs (order_id, kind, status, attempts, next_attempt_at, \
             last_error, created_at, occurrence) VALUES (?, 'delivered', 'pending', 1, ?, ?, ?, 0)",
            vec![
                order.into(),
                later.into(),
                MAIL_ERROR.into(),
                chrono::Utc::now().into(),
            ],
        ),
        (
            "INSERT INTO outbox_jobs (event_id, order_id, channel, status, attempts, \
             next_attempt_at, last_error, created_at) \
             SELECT MAX(id), ?, 'ticket', 'pending', 1, ?, ?, ? FROM order_events WHERE order_id = ?",
            vec![
                order.into(),
                later.into(),
                format!("could not post to thread {THREAD}").into(),
                chrono::Utc::now().into(),
                order.into(),
            ],
        ),
        (
            "INSERT INTO rate_limits (bucket, window_start, hits) VALUES (?, ?, 1), (?, ?, 1)",
            vec![
                format!("login-address:{EMAIL}").into(),
                chrono::Utc::now().into(),
                format!("signup-code-address:{EMAIL}").into(),
                chrono::Utc::now().into(),
            ],
        ),
    ];
    for (sql, values) in statements {
        exec(&app, sql, values).await;
    }

    // every personal column holds one of the shopper's values now
    let filled: &[(&str, &str, String)] = &[
        ("users", "email", EMAIL.to_owned()),
        ("users", "name", NAME.to_owned()),
        ("users", "private_server_url", PRIVATE_SERVER.to_owned()),
        ("pending_signups", "email", EMAIL.to_owned()),
        ("pending_signups", "name", NAME.to_owned()),
        ("demo_logins", "email", EMAIL.to_owned()),
        ("sessions", "state", discord_id.to_owned()),
        ("orders", "email", EMAIL.to_owned()),
        ("orders", "discord_id", discord_id.to_owned()),
        ("orders", "discord_username", discord_name.to_owned()),
        ("orders", "roblox_username", ROBLOX.to_owned()),
        ("orders", "client_ip", IP.to_owned()),
        ("orders", "client_net", IP.to_owned()),
        ("orders", "buyer_ready_ip", IP.to_owned()),
        ("orders", "received_ip", IP.to_owned()),
        ("orders", "ticket_thread_id", THREAD.to_owned()),
        ("orders", "ticket_problem", PROBLEM.to_owned()),
        ("orders", "idempotency_key", IDEMPOTENCY.to_owned()),
        ("orders", "request_fingerprint", FINGERPRINT.to_owned()),
        ("promo_redemptions", "discord_id", discord_id.to_owned()),
        ("reviews", "name", review_name.clone()),
        ("chats", "session_id", session.clone()),
        ("chats", "user_name", NAME.to_owned()),
        ("chat_messages", "message", CHAT_TEXT.to_owned()),
        ("order_messages", "text", ORDER_MESSAGE.to_owned()),
        ("push_events", "data", ORDER_MESSAGE.to_owned()),
        ("push_events", "chat_session", session.clone()),
        ("guild_joins", "discord_id", discord_id.to_owned()),
        ("guild_joins", "access_token", ACCESS_TOKEN.to_owned()),
        ("guild_joins", "last_error", discord_name.to_owned()),
        ("rate_limits", "bucket", EMAIL.to_owned()),
        ("rate_limits", "bucket", format!("reset-address:{id}")),
        (
            "rate_limits",
            "bucket",
            format!("chat_send_session:{session}"),
        ),
        ("rate_limits", "bucket", IP.to_owned()),
        ("mail_jobs", "last_error", EMAIL.to_owned()),
        ("outbox_jobs", "last_error", THREAD.to_owned()),
        ("ticket_posts", "message_id", TICKET_POST.to_owned()),
    ];
    for (table, column, value) in filled {
        assert!(
            holding(&app, table, column, value).await > 0,
            "{table}.{column} should hold {value} before the deletion"
        );
    }
    let by_id: &[(&str, &str)] = &[
        ("users", "id"),
        ("sessions", "user_id"),
        ("password_reset_tokens", "user_id"),
        ("orders", "user_id"),
        ("chats", "user_id"),
        ("push_events", "user_id"),
    ];
    for (table, column) in by_id {
        let n = count(
            &app,
            &format!("SELECT COUNT(*) FROM {table} WHERE {column} = ?"),
            vec![id.into()],
        )
        .await;
        assert!(n > 0, "{table}.{column} should hold the account's id");
    }
    let its_jobs = |table: &str| format!("SELECT COUNT(*) FROM {table} WHERE order_id = ?");
    assert!(count(&app, &its_jobs("mail_jobs"), vec![order.into()]).await > 0);
    assert!(count(&app, &its_jobs("outbox_jobs"), vec![order.into()]).await > 0);
    let personal_columns: Vec<String> = SCHEMA
        .iter()
        .flat_map(|(table, columns)| {
            columns
                .iter()
                .filter(|(_, class)| *class == Personal)
                .map(move |(column, _)| format!("{table}.{column}"))
        })
        .collect();
    for column in &personal_columns {
        let checked = filled.iter().any(|(t, c, _)| format!("{t}.{c}") == *column)
            || by_id.iter().any(|(t, c)| format!("{t}.{c}") == *column)
            || [
                // the rows themselves, checked by order above and below
                "mail_jobs.order_id",
                "outbox_jobs.order_id",
                "ticket_posts.order_id",
                // the erasure's own job that deletes the ticket, checked below
                "outbox_jobs.thread_id",
                // secrets and ids of the rows checked by the account's id
                "users.password_hash",
                "password_reset_tokens.token_hash",
                "sessions.id",
                "pending_signups.code_hash",
                "demo_logins.password",
                // written by the erasure itself (what a dispute needs), checked below
                "evidence_holds.email",
                "evidence_holds.discord_id",
                "evidence_holds.discord_username",
                "evidence_holds.roblox_username",
                "evidence_holds.client_ip",
                "evidence_holds.buyer_ready_ip",
                "evidence_holds.received_ip",
                // empty for the dev Discord accounts; cleared with the Discord id
                "orders.discord_avatar",
                "orders.buyer_token",
            ]
            .contains(&column.as_str());
        assert!(checked, "the test does not fill {column}");
    }

    // the export holds every personal field
    let export: Value = ann
        .get(app.url("/api/profile/export"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(export["profile"]["id"], id);
    assert_eq!(export["profile"]["email"], EMAIL);
    assert_eq!(export["profile"]["name"], NAME);
    assert!(export["profile"]["created_at"].is_string(), "{export}");
    let exported = &export["orders"][0];
    assert_eq!(exported["id"], order);
    assert_eq!(exported["email"], EMAIL);
    assert_eq!(exported["discord_id"], discord_id);
    assert_eq!(exported["discord_username"], discord_name);
    assert_eq!(exported["roblox_username"], ROBLOX);
    assert_eq!(exported["client_ip"], IP);
    assert_eq!(exported["buyer_ready_ip"], IP);
    assert_eq!(exported["received_ip"], IP);
    assert_eq!(exported["ticket_thread_id"], THREAD);
    assert_eq!(exported["ticket_problem"], PROBLEM);
    assert_eq!(exported["promo_code"], "ANNABEL10");
    assert_eq!(exported["items"][0]["name"], "Raccoon");
    assert_eq!(exported["items"][0]["quantity"], 1);
    assert_eq!(exported["items"][0]["unit_price"], 10.0);
    assert_eq!(exported["subtotal"], 10.0);
    assert_eq!(exported["discount"], 1.0);
    assert_eq!(exported["review"]["rating"], 5);
    assert_eq!(exported["review"]["name"], review_name.as_str());
    assert_eq!(exported["messages"][0]["text"], ORDER_MESSAGE);
    assert_eq!(exported["messages"][0]["from"], "buyer");
    assert_eq!(exported["messages"][0]["author"], ROBLOX);
    assert_eq!(export["chats"][0]["id"], chat_id.as_str());
    assert!(
        export["chats"][0]["messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["message"] == CHAT_TEXT),
        "{export}"
    );

    // the deletion
    let deleted = ann
        .delete(app.url("/api/profile"))
        .header("Origin", &app.address)
        .json(&json!({ "password": TEST_PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204);

    // nothing in any column of any table names the shopper, but what a dispute of the order
    // just paid needs: kept apart for disputes.evidence_retention_days after its payment
    let values = identifying_values(discord_id, discord_name, &session);
    let found = where_found(&app, &values).await;
    assert!(
        found.iter().all(|at| at.starts_with("evidence_holds.")),
        "still in the database: {found:?}"
    );
    for kept in [
        "email",
        "discord_id",
        "discord_username",
        "roblox_username",
        "client_ip",
        "buyer_ready_ip",
        "received_ip",
    ] {
        assert!(
            found
                .iter()
                .any(|at| at.starts_with(&format!("evidence_holds.{kept}:"))),
            "{kept} kept for the evidence: {found:?}"
        );
    }
    // 120 days after the payment, with no dispute open, the disputes loop purges it
    let started = app.rounds.started(garden_app::Loop::Disputes);
    app.clock
        .advance(std::time::Duration::from_secs(121 * 24 * 60 * 60));
    app.rounds
        .finished(garden_app::Loop::Disputes, started + 1)
        .await;
    let found = where_found(&app, &values).await;
    assert!(found.is_empty(), "still in the database: {found:?}");
    for (table, column) in by_id {
        let n = count(
            &app,
            &format!("SELECT COUNT(*) FROM {table} WHERE {column} = ?"),
            vec![id.into()],
        )
        .await;
        assert_eq!(n, 0, "{table}.{column} still holds the account's id");
    }
    assert_eq!(
        count(&app, &its_jobs("mail_jobs"), vec![order.into()]).await,
        0
    );
    // one job is left: the one deleting the order's Discord ticket, the only place holding the
    // thread's id until it is deleted (then cleared)
    assert_eq!(
        count(&app, &its_jobs("outbox_jobs"), vec![order.into()]).await,
        1
    );
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM outbox_jobs j JOIN order_events e ON e.id = j.event_id \
             WHERE j.order_id = ? AND e.step = 'erased' AND j.thread_id = ?",
            vec![order.into(), THREAD.into()]
        )
        .await,
        1
    );
    assert_eq!(
        count(&app, &its_jobs("ticket_posts"), vec![order.into()]).await,
        0
    );
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM rate_limits WHERE bucket = ?",
            vec![format!("reset-address:{id}").into()]
        )
        .await,
        0
    );

    // kept for the books: the order (anonymised), its promo redemption (the code's count) and
    // its review (under an anonymous name)
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM orders WHERE id = ? AND user_id IS NULL AND discord_id IS NULL \
             AND email = ? AND roblox_username = 'deleted' AND discount_cents = 100",
            vec![order.into(), format!("deleted-{id}@deleted.invalid").into()],
        )
        .await,
        1
    );
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM promo_redemptions WHERE order_id = ? AND discord_id = ?",
            vec![order.into(), format!("erased-{order}").into()],
        )
        .await,
        1
    );
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM promo_codes WHERE code = 'ANNABEL10' AND uses = 1",
            vec![],
        )
        .await,
        1
    );
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM reviews WHERE order_id = ? AND name = 'Anonymous'",
            vec![order.into()],
        )
        .await,
        1
    );
    let public: Value = app.get_json("/api/reviews").await;
    assert!(
        public.to_string().contains("Anonymous") && !public.to_string().contains(&review_name),
        "{public}"
    );

    // the erased order still reads everywhere: the staff's list of orders
    let admin = app.client_with_role(Role::SuperAdmin).await;
    let listed = admin
        .get(app.url("/api/admin/orders?filter=all"))
        .send()
        .await
        .unwrap();
    assert_eq!(listed.status(), 200);
    let listed: Value = listed.json().await.unwrap();
    let erased = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == order)
        .cloned()
        .unwrap_or_else(|| panic!("order {order} missing from {listed}"));
    assert_eq!(erased["discord_id"], Value::Null);
    assert_eq!(erased["roblox_username"], "deleted");

    // the mail that was queued is never sent: an hour later, a new buyer's receipt goes out,
    // and the shopper's mail did not go before it (the queue sends the oldest due first)
    app.clock
        .advance(std::time::Duration::from_secs(2 * 60 * 60));
    let bob = browser();
    link_discord(&app, &bob, 1).await;
    let sent_before = app.outbox_messages().len();
    let placed = checkout(&app, &bob, &payload(&[(1, 1)], 10.0)).await;
    assert_eq!(placed.status(), 200);
    let bobs: i64 = placed.json::<Value>().await.unwrap()["order_id"]
        .as_i64()
        .unwrap();
    pay(&app, &bob, bobs).await;
    outbox_mail_with(&app, "buyer@example.com").await;
    let messages = app.outbox_messages();
    assert!(messages.len() > sent_before);
    assert!(
        !messages.iter().any(|m| m.contains("deleted.invalid")),
        "a mail went to the deleted account"
    );
}

/// Waits for a mail of the outbox holding `text`.
async fn outbox_mail_with(app: &TestApp, text: &str) -> String {
    eventually(&format!("a mail with {text} is sent"), || async {
        app.outbox_messages().into_iter().find(|m| m.contains(text))
    })
    .await
}
