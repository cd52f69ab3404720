use chrono::{TimeZone, Utc};
use mockall::predicate::{always, eq};

use super::*;
use crate::OrderEvent;

const BUYER: &str = "80351110224678912";
const THREAD: &str = "1100000000000000001";
const ROLE: &str = "990000000000000009";

fn id(text: &str) -> DiscordId {
    DiscordId::parse(text).unwrap()
}

fn order(thread: Option<&str>, problem: Option<TicketProblem>) -> TicketOrder {
    TicketOrder {
        id: OrderId::new(7),
        buyer: Some(id(BUYER)),
        discord_username: "kid_*one*".into(),
        roblox_username: "Builder_man".into(),
        items: vec![
            TicketItem {
                name: "Golden *Can*".into(),
                quantity: 2,
            },
            TicketItem {
                name: "Seed Pack".into(),
                quantity: 1,
            },
        ],
        claimed_by: Some(UserId::new(3)),
        proof_picture: Some("/media/proofs/abc.png".into()),
        thread: thread.map(id),
        problem: problem.map(|p| p.sentence().to_owned()),
    }
}

fn job(step: OrderStep, staff_id: Option<UserId>) -> OutboxJob {
    OutboxJob {
        id: 90,
        event: OrderEvent {
            id: 41,
            order_id: OrderId::new(7),
            step,
            staff_id,
            note: None,
            at: Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap(),
        },
        attempts: 0,
        thread: None,
    }
}

fn reading(order: TicketOrder) -> MockTicketRepository {
    let mut repo = MockTicketRepository::new();
    repo.expect_ticket_order()
        .with(eq(OrderId::new(7)))
        .returning(move |_| {
            let order = order.clone();
            Box::pin(async move { Ok(order) })
        });
    keeping_posts(&mut repo);
    repo
}

/// The posts' ids are kept; none shows a link.
fn keeping_posts(repo: &mut MockTicketRepository) {
    repo.expect_store_post()
        .returning(|_| Box::pin(async { Ok(()) }));
    repo.expect_linked_posts()
        .returning(|_| Box::pin(async { Ok(vec![]) }));
}

fn expect_problem(repo: &mut MockTicketRepository, problem: Option<TicketProblem>) {
    repo.expect_set_ticket_problem()
        .with(
            eq(OrderId::new(7)),
            eq(problem.map(|p| p.sentence().to_owned())),
        )
        .times(1)
        .returning(|_, _| Box::pin(async { Ok(()) }));
}

fn tickets(
    repo: MockTicketRepository,
    desk: MockTicketDesk,
) -> Tickets<MockTicketRepository, MockTicketDesk> {
    Tickets::new(
        repo,
        desk,
        TicketSettings {
            public_url: "https://shop.test/".into(),
            staff_role: Some(id(ROLE)),
        },
    )
}

fn ok() -> std::pin::Pin<Box<dyn Future<Output = Result<(), DeskError>> + Send>> {
    Box::pin(async { Ok(()) })
}

fn posted() -> std::pin::Pin<Box<dyn Future<Output = Result<DiscordId, DeskError>> + Send>> {
    Box::pin(async { Ok(id("1300000000000000001")) })
}

/// The release posts nothing but takes the private server link off the claim post.
#[test]
fn the_ticket_wants_the_steps_it_posts() {
    let wanted: Vec<OrderStep> = OrderStep::ALL
        .into_iter()
        .filter(|s| (TICKET_CHANNEL.wants)(*s))
        .collect();
    assert_eq!(TICKET_CHANNEL.name, "ticket");
    assert_eq!(
        wanted,
        vec![
            OrderStep::Paid,
            OrderStep::Held,
            OrderStep::Claimed,
            OrderStep::Released,
            OrderStep::Ready,
            OrderStep::Delivered,
            OrderStep::Refunded,
            OrderStep::Disputed,
            OrderStep::RiskHeld,
            OrderStep::HoldReleased,
            OrderStep::Message,
        ]
    );
}

#[test]
fn every_problem_reads_back_from_its_sentence() {
    for problem in TicketProblem::ALL {
        assert_eq!(TicketProblem::parse(problem.sentence()), Some(problem));
    }
    assert_eq!(
        TicketProblem::NotOpenedNoPermission.sentence(),
        "Ticket not opened: the bot lacks permission in the ticket channel."
    );
    assert_eq!(
        TicketProblem::BuyerNotInServer.sentence(),
        "Buyer not added to the ticket: they are not in the Discord server."
    );
    assert_eq!(
        TicketProblem::NotOpenedUnavailable.sentence(),
        "Ticket not opened: Discord is unavailable; trying again."
    );
}

#[tokio::test]
async fn a_paid_order_gets_a_thread_with_the_buyer_and_the_order_posted() {
    let mut repo = reading(order(None, None));
    repo.expect_store_thread()
        .with(eq(OrderId::new(7)), eq(id(THREAD)))
        .times(1)
        .returning(|_, _| Box::pin(async { Ok(true) }));
    let mut desk = MockTicketDesk::new();
    desk.expect_open_thread()
        .withf(|name| name == "order-7")
        .times(1)
        .returning(|_| Box::pin(async { Ok(id(THREAD)) }));
    desk.expect_add_member()
        .with(eq(id(THREAD)), eq(id(BUYER)))
        .times(1)
        .returning(|_, _| ok());
    desk.expect_post()
        .withf(|thread, post| {
            thread == &id(THREAD)
                && post.text
                    == "<@&990000000000000009> New order #7 for <@80351110224678912> \
                        (kid\\_\\*one\\*)\n\
                        • 2 × Golden \\*Can\\*\n\
                        • 1 × Seed Pack\n\
                        Roblox name: Builder\\_man\n\
                        Staff queue: https://shop.test/admin/orders"
                && post.users == vec![id(BUYER)]
                && post.roles == vec![id(ROLE)]
                && post.nonce == "e41"
        })
        .times(1)
        .returning(|_, _| posted());

    tickets(repo, desk)
        .handle(&job(OrderStep::Paid, None))
        .await
        .unwrap();
}

#[tokio::test]
async fn a_retried_paid_job_uses_the_stored_thread_and_clears_the_problem() {
    let mut repo = reading(order(
        Some(THREAD),
        Some(TicketProblem::BuyerNotAddedUnavailable),
    ));
    repo.expect_store_thread().never();
    expect_problem(&mut repo, None);
    let mut desk = MockTicketDesk::new();
    desk.expect_open_thread().never();
    desk.expect_add_member().times(1).returning(|_, _| ok());
    desk.expect_post().times(1).returning(|_, _| posted());

    tickets(repo, desk)
        .handle(&job(OrderStep::Paid, None))
        .await
        .unwrap();
}

#[tokio::test]
async fn without_permission_the_ticket_gives_up_and_says_why() {
    let mut repo = reading(order(None, None));
    expect_problem(&mut repo, Some(TicketProblem::NotOpenedNoPermission));
    let mut desk = MockTicketDesk::new();
    desk.expect_open_thread().times(1).returning(|_| {
        Box::pin(async { Err(DeskError::MissingPermission("Missing Access".into())) })
    });
    desk.expect_add_member().never();
    desk.expect_post().never();
    let tickets = tickets(repo, desk);

    let failed = tickets
        .handle(&job(OrderStep::Paid, None))
        .await
        .unwrap_err();

    assert!(!failed.retry);
    assert!(tickets.failures().contains(&("missing_permission", 1)));
}

#[tokio::test]
async fn while_discord_is_down_the_ticket_is_tried_again() {
    let mut repo = reading(order(None, None));
    expect_problem(&mut repo, Some(TicketProblem::NotOpenedUnavailable));
    let mut desk = MockTicketDesk::new();
    desk.expect_open_thread()
        .times(1)
        .returning(|_| Box::pin(async { Err(DeskError::Unavailable("502".into())) }));

    let failed = tickets(repo, desk)
        .handle(&job(OrderStep::Paid, None))
        .await
        .unwrap_err();

    assert!(failed.retry);
}

#[tokio::test]
async fn a_buyer_outside_the_server_still_gets_the_order_posted_and_the_job_gives_up() {
    let mut repo = reading(order(Some(THREAD), None));
    expect_problem(&mut repo, Some(TicketProblem::BuyerNotInServer));
    let mut desk = MockTicketDesk::new();
    desk.expect_add_member()
        .times(1)
        .returning(|_, _| Box::pin(async { Err(DeskError::UnknownMember) }));
    desk.expect_post().times(1).returning(|_, _| posted());

    let failed = tickets(repo, desk)
        .handle(&job(OrderStep::Paid, None))
        .await
        .unwrap_err();

    assert!(!failed.retry);
}

#[tokio::test]
async fn a_member_add_that_discord_could_not_answer_posts_nothing_yet() {
    let mut repo = reading(order(Some(THREAD), None));
    expect_problem(&mut repo, Some(TicketProblem::BuyerNotAddedUnavailable));
    let mut desk = MockTicketDesk::new();
    desk.expect_add_member()
        .times(1)
        .returning(|_, _| Box::pin(async { Err(DeskError::Unavailable("timeout".into())) }));
    desk.expect_post().never();

    let failed = tickets(repo, desk)
        .handle(&job(OrderStep::Paid, None))
        .await
        .unwrap_err();

    assert!(failed.retry);
}

#[tokio::test]
async fn a_thread_made_twice_keeps_the_stored_one_and_closes_the_other() {
    let mut repo = MockTicketRepository::new();
    keeping_posts(&mut repo);
    let mut reads = 0;
    repo.expect_ticket_order().times(2).returning(move |_| {
        reads += 1;
        let order = order((reads > 1).then_some(THREAD), None);
        Box::pin(async move { Ok(order) })
    });
    repo.expect_store_thread()
        .times(1)
        .returning(|_, _| Box::pin(async { Ok(false) }));
    let mut desk = MockTicketDesk::new();
    desk.expect_open_thread()
        .times(1)
        .returning(|_| Box::pin(async { Ok(id("1200000000000000002")) }));
    desk.expect_close_thread()
        .with(eq(id("1200000000000000002")))
        .times(1)
        .returning(|_| ok());
    desk.expect_add_member()
        .with(eq(id(THREAD)), always())
        .times(1)
        .returning(|_, _| ok());
    desk.expect_post()
        .withf(|thread, _| thread == &id(THREAD))
        .times(1)
        .returning(|_, _| posted());

    tickets(repo, desk)
        .handle(&job(OrderStep::Paid, None))
        .await
        .unwrap();
}

#[tokio::test]
async fn a_claim_names_the_staff_and_their_private_server() {
    let mut repo = reading(order(Some(THREAD), None));
    repo.expect_ticket_staff()
        .with(eq(UserId::new(5)))
        .times(1)
        .returning(|_| {
            Box::pin(async {
                Ok(Some(TicketStaff {
                    name: "Ann_B".into(),
                    private_server_url: Some(
                        "https://www.roblox.com/share?code=abc&type=Server".into(),
                    ),
                }))
            })
        });
    let mut desk = MockTicketDesk::new();
    desk.expect_post()
        .withf(|thread, post| {
            thread == &id(THREAD)
                && post.text
                    == "<@80351110224678912> Claimed by Ann\\_B — private server: \
                        https://www.roblox.com/share?code=abc&type=Server"
                && post.users == vec![id(BUYER)]
                && post.roles.is_empty()
                && post.nonce == "e41"
        })
        .times(1)
        .returning(|_, _| posted());
    desk.expect_close_thread().never();

    tickets(repo, desk)
        .handle(&job(OrderStep::Claimed, Some(UserId::new(5))))
        .await
        .unwrap();
}

#[tokio::test]
async fn delivery_posts_the_proof_and_the_review_link_then_closes_the_thread() {
    let repo = reading(order(Some(THREAD), None));
    let mut desk = MockTicketDesk::new();
    let mut seq = mockall::Sequence::new();
    desk.expect_post()
        .withf(|_, post| {
            post.text
                == "Delivered. Proof: https://shop.test/media/proofs/abc.png\n\
                    Leave a review: https://shop.test/orders/7"
                && post.users.is_empty()
                && post.roles.is_empty()
        })
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_, _| posted());
    desk.expect_close_thread()
        .with(eq(id(THREAD)))
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_| ok());

    tickets(repo, desk)
        .handle(&job(OrderStep::Delivered, Some(UserId::new(5))))
        .await
        .unwrap();
}

#[tokio::test]
async fn a_refund_closes_the_thread_and_a_ready_buyer_does_not() {
    let repo = reading(order(Some(THREAD), None));
    let mut desk = MockTicketDesk::new();
    desk.expect_post()
        .withf(|_, post| post.text == "Refunded. This ticket is closed.")
        .times(1)
        .returning(|_, _| posted());
    desk.expect_post()
        .withf(|_, post| post.text == "The buyer is in the game.")
        .times(1)
        .returning(|_, _| posted());
    desk.expect_close_thread().times(1).returning(|_| ok());
    let tickets = tickets(repo, desk);

    tickets.handle(&job(OrderStep::Ready, None)).await.unwrap();
    tickets
        .handle(&job(OrderStep::Refunded, None))
        .await
        .unwrap();
}

/// The message step of message `id`.
fn message_job(note: Option<&str>) -> OutboxJob {
    let mut job = job(OrderStep::Message, None);
    job.event.note = note.map(str::to_owned);
    job
}

#[tokio::test]
async fn a_message_is_mirrored_as_a_post_of_the_shop_with_every_mention_neutralised() {
    let mut repo = reading(order(Some(THREAD), None));
    repo.expect_ticket_message()
        .with(eq(OrderId::new(7)), eq(12))
        .returning(|_, _| {
            Box::pin(async {
                Ok(Some(TicketMessage {
                    from_staff: false,
                    author: "Builder_man".into(),
                    text: "@everyone I can't join <@&990000000000000009> **now**".into(),
                }))
            })
        });
    repo.expect_ticket_message()
        .with(eq(OrderId::new(7)), eq(13))
        .returning(|_, _| {
            Box::pin(async {
                Ok(Some(TicketMessage {
                    from_staff: true,
                    author: "Ann".into(),
                    text: "Try again".into(),
                }))
            })
        });
    repo.expect_ticket_message()
        .with(eq(OrderId::new(7)), eq(14))
        .returning(|_, _| Box::pin(async { Ok(None) }));
    let mut desk = MockTicketDesk::new();
    desk.expect_post()
        .withf(|_, post| {
            post.text
                == "The buyer, Builder\\_man, wrote on the order page: \\@everyone I can't join \\<\\@&990000000000000009\\> \\*\\*now\\*\\*"
                && post.users.is_empty()
                && post.roles.is_empty()
                && post.nonce == "e41"
        })
        .times(1)
        .returning(|_, _| posted());
    desk.expect_post()
        .withf(|_, post| post.text == "Ann (staff) wrote on the order page: Try again")
        .times(1)
        .returning(|_, _| posted());
    let tickets = tickets(repo, desk);
    tickets.handle(&message_job(Some("12"))).await.unwrap();
    tickets.handle(&message_job(Some("13"))).await.unwrap();
    // erased with the buyer's data, or a step naming nothing: nothing to post
    tickets.handle(&message_job(Some("14"))).await.unwrap();
    tickets.handle(&message_job(None)).await.unwrap();
}

#[tokio::test]
async fn a_later_step_waits_for_the_thread_unless_it_will_never_come() {
    let desk = || {
        let mut desk = MockTicketDesk::new();
        desk.expect_post().never();
        desk
    };
    let waiting = tickets(reading(order(None, None)), desk())
        .handle(&job(OrderStep::Claimed, Some(UserId::new(5))))
        .await
        .unwrap_err();
    assert!(waiting.retry);

    tickets(
        reading(order(None, Some(TicketProblem::NotOpenedNoPermission))),
        desk(),
    )
    .handle(&job(OrderStep::Claimed, Some(UserId::new(5))))
    .await
    .unwrap();
}

#[tokio::test]
async fn a_failed_post_is_retried_unless_retrying_cannot_help() {
    for (error, retry) in [
        (DeskError::Unavailable("500".into()), true),
        (DeskError::MissingPermission("no".into()), false),
    ] {
        let repo = reading(order(Some(THREAD), None));
        let mut desk = MockTicketDesk::new();
        let error = std::sync::Mutex::new(Some(error));
        desk.expect_post().times(1).returning(move |_, _| {
            let error = error.lock().unwrap().take().unwrap();
            Box::pin(async move { Err(error) })
        });
        let failed = tickets(repo, desk)
            .handle(&job(OrderStep::Held, None))
            .await
            .unwrap_err();
        assert_eq!(failed.retry, retry);
    }
}

#[tokio::test]
async fn rejoining_adds_the_buyer_and_clears_the_problem() {
    let mut repo = reading(order(Some(THREAD), Some(TicketProblem::BuyerNotInServer)));
    expect_problem(&mut repo, None);
    let mut desk = MockTicketDesk::new();
    desk.expect_add_member()
        .with(eq(id(THREAD)), eq(id(BUYER)))
        .times(1)
        .returning(|_, _| ok());

    tickets(repo, desk).rejoin(OrderId::new(7)).await.unwrap();
}

#[tokio::test]
async fn rejoining_before_joining_the_server_says_so() {
    let mut repo = reading(order(Some(THREAD), Some(TicketProblem::BuyerNotInServer)));
    expect_problem(&mut repo, Some(TicketProblem::BuyerNotInServer));
    let mut desk = MockTicketDesk::new();
    desk.expect_add_member()
        .times(1)
        .returning(|_, _| Box::pin(async { Err(DeskError::UnknownMember) }));

    let error = tickets(repo, desk)
        .rejoin(OrderId::new(7))
        .await
        .unwrap_err();

    assert!(matches!(error, RejoinError::NotInServer));
}

#[tokio::test]
async fn rejoining_an_order_without_a_ticket_is_refused() {
    let mut desk = MockTicketDesk::new();
    desk.expect_add_member().never();
    let error = tickets(reading(order(None, None)), desk)
        .rejoin(OrderId::new(7))
        .await
        .unwrap_err();
    assert!(matches!(error, RejoinError::NoTicket));
}

#[tokio::test]
async fn a_retried_paid_job_adopts_the_thread_an_unanswered_attempt_made() {
    let mut repo = reading(order(None, None));
    repo.expect_store_thread()
        .with(eq(OrderId::new(7)), eq(id(THREAD)))
        .times(1)
        .returning(|_, _| Box::pin(async { Ok(true) }));
    let mut desk = MockTicketDesk::new();
    desk.expect_find_thread()
        .with(eq("order-7"))
        .times(1)
        .returning(|_| Box::pin(async { Ok(Some(id(THREAD))) }));
    desk.expect_open_thread().never();
    desk.expect_add_member().times(1).returning(|_, _| ok());
    desk.expect_post().times(1).returning(|_, _| posted());
    let mut retried = job(OrderStep::Paid, None);
    retried.attempts = 1;
    tickets(repo, desk).handle(&retried).await.unwrap();
}

#[tokio::test]
async fn a_release_takes_the_private_server_link_off_the_claim_post() {
    let mut repo = MockTicketRepository::new();
    repo.expect_ticket_order()
        .returning(|_| Box::pin(async { Ok(order(Some(THREAD), None)) }));
    repo.expect_linked_posts().times(1).returning(|_| {
        Box::pin(async {
            Ok(vec![StoredPost {
                order: OrderId::new(7),
                event: 40,
                step: OrderStep::Claimed,
                message: id("1300000000000000009"),
                staff: Some(UserId::new(3)),
                shows_link: true,
            }])
        })
    });
    repo.expect_ticket_staff().returning(|_| {
        Box::pin(async {
            Ok(Some(TicketStaff {
                name: "Sam".into(),
                private_server_url: Some("https://www.roblox.com/share?code=x".into()),
            }))
        })
    });
    repo.expect_link_removed()
        .with(eq(id("1300000000000000009")))
        .times(1)
        .returning(|_| Box::pin(async { Ok(()) }));
    let mut desk = MockTicketDesk::new();
    desk.expect_post().never();
    desk.expect_edit_post()
        .withf(|thread, message, text| {
            thread.as_str() == THREAD
                && message.as_str() == "1300000000000000009"
                && text.contains("Claimed by Sam")
                && !text.contains("roblox.com")
        })
        .times(1)
        .returning(|_, _, _| ok());
    tickets(repo, desk)
        .handle(&job(OrderStep::Released, Some(UserId::new(3))))
        .await
        .unwrap();
}

#[tokio::test]
async fn an_erased_orders_job_deletes_the_thread_it_carries() {
    let repo = MockTicketRepository::new();
    let mut desk = MockTicketDesk::new();
    desk.expect_delete_thread()
        .with(eq(id(THREAD)))
        .times(1)
        .returning(|_| Box::pin(async { Err(DeskError::NotFound("gone".into())) }));
    let mut erased = job(OrderStep::Erased, None);
    erased.thread = Some(id(THREAD));
    tickets(repo, desk).handle(&erased).await.unwrap();
}
