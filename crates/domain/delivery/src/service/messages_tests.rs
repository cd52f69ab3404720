#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};

use chrono::{Duration, TimeZone};
use shared::{FixedClock, MemoryLimiter, UserId};

use super::*;
use crate::ports::MockMessageRepository;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 30).unwrap()
}

fn staff() -> Actor {
    Actor::staff(UserId::new(4), "Ann", "127.0.0.1")
}

/// A store holding one order in `status` (delivered at `delivered_at`), keeping what it is
/// given when the order is open at the write; answers the messages it kept.
fn store(
    status: OrderStatus,
    delivered_at: Option<DateTime<Utc>>,
) -> (MockMessageRepository, Arc<Mutex<Vec<NewOrderMessage>>>) {
    let kept = Arc::new(Mutex::new(Vec::new()));
    let mut repo = MockMessageRepository::new();
    repo.expect_message_window()
        .returning(move |_| Box::pin(async move { Ok((status, delivered_at)) }));
    let sink = Arc::clone(&kept);
    repo.expect_add_message()
        .returning(move |message, since, actor| {
            let open = status == OrderStatus::Paid
                || (status == OrderStatus::Delivered && delivered_at.is_some_and(|at| at >= since));
            assert_eq!(
                actor.is_some(),
                message.from == MessageSide::Staff,
                "a staff message is audited, a buyer's is not"
            );
            let mut kept = sink.lock().unwrap();
            kept.push(message.clone());
            let answer = open.then(|| OrderMessage {
                id: kept.len() as i64,
                order_id: message.order_id,
                from: message.from,
                author: "Builderman".into(),
                text: message.text.as_ref().to_owned(),
                created_at: message.at,
            });
            Box::pin(async move { Ok(answer) })
        });
    (repo, kept)
}

fn service(
    repo: MockMessageRepository,
) -> OrderMessages<MockMessageRepository, MemoryLimiter, FixedClock> {
    OrderMessages::new(
        repo,
        MemoryLimiter::new(),
        FixedClock(now()),
        MessageSettings::default(),
    )
}

#[tokio::test]
async fn a_message_is_kept_trimmed_with_its_side_and_time() {
    let (repo, kept) = store(OrderStatus::Paid, None);
    let messages = service(repo);
    let message = messages
        .post(
            OrderId::new(7),
            MessageAuthor::Buyer,
            "  I can't join the server ",
        )
        .await
        .unwrap();
    assert_eq!(message.text, "I can't join the server");
    assert_eq!(message.from, MessageSide::Buyer);
    let answer = messages
        .post(
            OrderId::new(7),
            MessageAuthor::Staff(&staff()),
            "Try again now",
        )
        .await
        .unwrap();
    assert_eq!(answer.from, MessageSide::Staff);
    let kept = kept.lock().unwrap();
    assert_eq!(kept[0].staff, None);
    assert_eq!(kept[1].staff, Some(UserId::new(4)));
    assert_eq!(kept[1].at, now());
}

#[tokio::test]
async fn an_empty_or_too_long_text_is_refused_before_anything_is_counted_or_kept() {
    let (repo, kept) = store(OrderStatus::Paid, None);
    let messages = service(repo);
    for text in ["", "   \n ", &"a".repeat(1001)] {
        let error = messages
            .post(OrderId::new(7), MessageAuthor::Buyer, text)
            .await
            .unwrap_err();
        assert!(matches!(error, MessageError::Text(_)), "{error:?}");
    }
    assert!(kept.lock().unwrap().is_empty());
    // none of them counted: ten messages still go through this minute
    for n in 0..10 {
        messages
            .post(
                OrderId::new(7),
                MessageAuthor::Buyer,
                &format!("message {n}"),
            )
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn the_eleventh_message_of_a_side_in_a_minute_waits_and_the_other_side_still_writes() {
    let (repo, _) = store(OrderStatus::Paid, None);
    let messages = service(repo);
    for n in 0..10 {
        messages
            .post(OrderId::new(7), MessageAuthor::Buyer, &format!("hello {n}"))
            .await
            .unwrap();
    }
    let error = messages
        .post(OrderId::new(7), MessageAuthor::Buyer, "one more")
        .await
        .unwrap_err();
    match error {
        MessageError::TooMany { retry_after } => {
            assert_eq!(retry_after, std::time::Duration::from_secs(30))
        }
        other => panic!("{other:?}"),
    }
    messages
        .post(OrderId::new(7), MessageAuthor::Staff(&staff()), "answer")
        .await
        .unwrap();
    messages
        .post(OrderId::new(8), MessageAuthor::Buyer, "another order")
        .await
        .unwrap();
}

#[tokio::test]
async fn a_closed_order_takes_no_message_and_says_why() {
    let cases = [
        (OrderStatus::Pending, None, "once the order is paid"),
        (
            OrderStatus::Delivered,
            Some(now() - Duration::days(8)),
            "close 7 days after its delivery",
        ),
        (OrderStatus::Refunded, None, "closed for messages"),
        (OrderStatus::Disputed, None, "closed for messages"),
        (OrderStatus::Cancelled, None, "closed for messages"),
    ];
    for (status, delivered_at, says) in cases {
        let (repo, kept) = store(status, delivered_at);
        let error = service(repo)
            .post(OrderId::new(7), MessageAuthor::Staff(&staff()), "hello")
            .await
            .unwrap_err();
        match error {
            MessageError::Closed(reason) => {
                let message = reason.sentence();
                assert!(message.contains(says), "{message}")
            }
            other => panic!("{status:?}: {other:?}"),
        }
        assert!(kept.lock().unwrap().is_empty(), "{status:?}");
    }
    let (repo, _) = store(OrderStatus::Delivered, Some(now() - Duration::days(6)));
    service(repo)
        .post(OrderId::new(7), MessageAuthor::Buyer, "thanks!")
        .await
        .unwrap();
}

#[tokio::test]
async fn an_order_gone_is_not_found() {
    let mut repo = MockMessageRepository::new();
    repo.expect_message_window()
        .returning(|id| Box::pin(async move { Err(orders::OrderError::NotFound(id)) }));
    let error = service(repo)
        .post(OrderId::new(7), MessageAuthor::Buyer, "hello")
        .await
        .unwrap_err();
    assert!(matches!(error, MessageError::NotFound(_)));
}
