//! Issue 34 item 8: after paying, the assistant tells the delivery script and the way to the
//! order page; where the app knows the asker's open orders, it links those (and only those).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use chat::{Asker, AskerOrder};
use common::INVITE;
use garden_helpdesk::{delivery_steps, BuiltinAssistant, ShopFacts};

fn facts(invite: Option<&str>, discord_tickets: bool) -> ShopFacts {
    ShopFacts {
        delivery_minutes: 20,
        discord_invite: invite.map(str::to_owned),
        discord_tickets,
    }
}

fn order(number: i64, status: &str) -> AskerOrder {
    AskerOrder {
        number,
        status: status.to_owned(),
        link: format!("https://shop.example/orders/{number}"),
    }
}

fn assistant(facts: ShopFacts) -> BuiltinAssistant {
    BuiltinAssistant::new(&common::demo_catalog(), facts)
}

#[test]
fn where_is_my_order_links_the_askers_own_open_orders() {
    let asker = Asker {
        orders: vec![order(12, "Paid"), order(9, "Pending")],
        ..Asker::default()
    };
    for question in [
        "where is my order?",
        "order status?",
        "I paid but nothing happened",
    ] {
        let answer = assistant(common::shop_facts()).reply_to(question, &[], &asker);
        assert!(answer.confident, "{question}: {}", answer.text);
        assert!(
            answer
                .text
                .contains("order #12 (Paid): https://shop.example/orders/12"),
            "{question}: {}",
            answer.text
        );
        assert!(
            answer
                .text
                .contains("order #9 (Pending): https://shop.example/orders/9"),
            "{question}: {}",
            answer.text
        );
        // the live agent is a follow-up, not the answer
        assert!(
            answer.text.contains("Talk to Live Agent"),
            "{}",
            answer.text
        );
        assert!(!answer.text.contains("I'm sorry"), "{}", answer.text);
    }
}

#[test]
fn without_known_orders_the_answer_says_where_to_find_the_order() {
    let answer = assistant(common::shop_facts()).reply("where is my order?", &[]);
    assert!(answer.confident, "{}", answer.text);
    assert!(answer.text.contains("receipt e-mail"), "{}", answer.text);
    assert!(answer.text.contains("profile page"), "{}", answer.text);
    assert!(!answer.text.contains("/orders/"), "{}", answer.text);
}

#[test]
fn the_script_is_told_step_by_step_in_every_setup() {
    for setup in [
        facts(Some(INVITE), true),
        facts(Some(INVITE), false),
        facts(None, true),
        facts(None, false),
    ] {
        for question in [
            "how does delivery work",
            "how long does delivery take",
            "where is my order?",
        ] {
            let answer = assistant(setup.clone()).reply(question, &[]);
            for (i, step) in delivery_steps(
                setup.delivery_minutes,
                setup.discord_invite.as_deref(),
                setup.discord_tickets,
            )
            .iter()
            .enumerate()
            {
                let numbered = format!("{}) {}", i + 1, step.title);
                assert!(
                    answer.text.contains(&numbered),
                    "{question} ({setup:?}) lacks step {:?}: {}",
                    step.key,
                    answer.text
                );
            }
            assert!(answer.text.contains("under 20 minutes"), "{}", answer.text);
            let discord = answer.text.to_lowercase().contains("discord server");
            assert_eq!(discord, setup.discord_invite.is_some(), "{}", answer.text);
        }
    }
}

#[test]
fn a_complaint_still_goes_to_a_person_with_the_order_linked() {
    let asker = Asker {
        orders: vec![order(12, "Paid")],
        ..Asker::default()
    };
    let answer = assistant(common::shop_facts()).reply_to(
        "my order never arrived, i was charged twice",
        &[],
        &asker,
    );
    assert!(!answer.confident, "{}", answer.text);
    assert!(
        answer.text.contains("https://shop.example/orders/12"),
        "{}",
        answer.text
    );
    assert!(
        answer.text.contains("Talk to Live Agent"),
        "{}",
        answer.text
    );
}

#[test]
fn questions_about_other_things_never_show_the_askers_orders() {
    let asker = Asker {
        orders: vec![order(12, "Paid")],
        ..Asker::default()
    };
    let assistant = assistant(common::shop_facts());
    for question in [
        "how much is the raccoon",
        "can I get a refund?",
        "what payment methods do you accept",
        "hi",
    ] {
        let answer = assistant.reply_to(question, &[], &asker);
        assert!(
            !answer.text.contains("/orders/12"),
            "{question}: {}",
            answer.text
        );
    }
}
