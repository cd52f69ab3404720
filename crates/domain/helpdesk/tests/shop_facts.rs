//! The shop's facts in the assistant's answers: the delivery promise the app measures, the
//! Discord invite when the shop has one (the help chat stands in for it when not), and the
//! refund policy's answer to "what if my order was not delivered".
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use chat::Answer;
use common::INVITE;
use garden_helpdesk::{BuiltinAssistant, ShopFacts};

fn facts(delivery_minutes: u32, invite: Option<&str>, discord_tickets: bool) -> ShopFacts {
    ShopFacts {
        delivery_minutes,
        discord_invite: invite.map(str::to_owned),
        discord_tickets,
    }
}

fn ask(facts: ShopFacts, question: &str) -> Answer {
    BuiltinAssistant::new(&common::demo_catalog(), facts).reply(question, &[])
}

/// Every combination of the Discord facts, with these minutes.
fn every_discord_setup(minutes: u32) -> Vec<ShopFacts> {
    vec![
        facts(minutes, Some(INVITE), true),
        facts(minutes, Some(INVITE), false),
        facts(minutes, None, true),
        facts(minutes, None, false),
    ]
}

/// Questions whose answers talk about Discord, the handoff or reaching staff.
const DISCORD_QUESTIONS: &[&str] = &[
    "why do i need discord",
    "what is your discord server",
    "do I have to open a ticket",
    "what happens after I pay",
    "how do I buy something",
    "how do i join the private server",
    "someone asked for my roblox password",
    "can I get a refund?",
    "how do i delete my data",
    "how long does delivery take",
];

#[test]
fn the_delivery_answer_states_the_promise_it_is_given() {
    for minutes in [10, 25] {
        for question in [
            "how long does delivery take",
            "how fast is delivery",
            "how long until i receive my order",
        ] {
            let answer = ask(facts(minutes, None, false), question);
            assert!(answer.confident, "{question}: {}", answer.text);
            assert!(
                answer.text.contains(&format!("under {minutes} minutes")),
                "{question} with {minutes} minutes: {}",
                answer.text
            );
        }
        let after = ask(
            facts(minutes, Some(INVITE), true),
            "what happens after I pay",
        );
        assert!(
            after.text.contains(&format!("under {minutes} minutes")),
            "{}",
            after.text
        );
    }
    let other = ask(facts(25, None, false), "how long does delivery take");
    assert!(!other.text.contains("10 minutes"), "{}", other.text);
}

#[test]
fn the_promise_changes_without_rebuilding_the_assistant() {
    let assistant = BuiltinAssistant::new(&common::demo_catalog(), facts(10, None, false));
    assert!(assistant
        .reply("how fast is delivery", &[])
        .text
        .contains("under 10 minutes"));
    assistant.update_facts(facts(35, None, false));
    let answer = assistant.reply("how fast is delivery", &[]);
    assert!(answer.text.contains("under 35 minutes"), "{}", answer.text);
}

#[test]
fn with_an_invite_the_discord_answers_link_it() {
    for question in [
        "why do i need discord",
        "what is your discord server",
        "do I have to open a ticket",
    ] {
        for facts in [
            facts(10, Some(INVITE), true),
            facts(10, Some(INVITE), false),
        ] {
            let answer = ask(facts, question);
            assert!(answer.confident, "{question}: {}", answer.text);
            assert!(answer.text.contains(INVITE), "{question}: {}", answer.text);
        }
    }
    // every sentence naming the Discord server carries the link
    for setup in every_discord_setup(10)
        .into_iter()
        .filter(|f| f.discord_invite.is_some())
    {
        for question in DISCORD_QUESTIONS {
            let answer = ask(setup.clone(), question);
            for sentence in answer.text.split_inclusive(['.', ';', '!', '?']) {
                if sentence.to_lowercase().contains("discord server") {
                    assert!(
                        sentence.contains(INVITE) || answer.text.contains(INVITE),
                        "{question} ({setup:?}): {}",
                        answer.text
                    );
                }
            }
        }
    }
}

#[test]
fn with_tickets_the_shop_opens_the_ticket_itself() {
    let answer = ask(facts(10, Some(INVITE), true), "do I have to open a ticket");
    let text = answer.text.to_lowercase();
    assert!(text.contains("we open a private ticket"), "{}", answer.text);
    assert!(
        text.contains("i joined, add me to my ticket"),
        "{}",
        answer.text
    );
    assert!(!text.contains("open a delivery ticket"), "{}", answer.text);
    assert!(!text.contains("open a ticket on"), "{}", answer.text);
}

#[test]
fn without_an_invite_the_answers_point_to_the_help_chat() {
    for question in [
        "why do i need discord",
        "what is your discord server",
        "do I have to open a ticket",
    ] {
        for facts in [facts(10, None, true), facts(10, None, false)] {
            let answer = ask(facts, question);
            assert!(
                answer.text.contains("help chat"),
                "{question}: {}",
                answer.text
            );
        }
    }
    for setup in every_discord_setup(10)
        .into_iter()
        .filter(|f| f.discord_invite.is_none())
    {
        for question in DISCORD_QUESTIONS {
            let answer = ask(setup.clone(), question);
            let text = answer.text.to_lowercase();
            assert!(
                !text.contains("join our discord"),
                "{question} ({setup:?}): {}",
                answer.text
            );
            assert!(
                !text.contains("discord.gg"),
                "{question} ({setup:?}): {}",
                answer.text
            );
            assert!(
                !text.contains("open a ticket"),
                "{question} ({setup:?}): {}",
                answer.text
            );
        }
    }
}

#[test]
fn the_handoff_answer_walks_through_the_real_steps() {
    for setup in every_discord_setup(15) {
        let answer = ask(setup.clone(), "what happens after I pay");
        let text = answer.text.to_lowercase();
        for step in [
            "receipt",
            "order page",
            "place in line",
            "private server in grow a garden",
            "i'm in the game",
            "delivered",
            "review",
        ] {
            assert!(text.contains(step), "{step} ({setup:?}): {}", answer.text);
        }
        // the delivery domain's script names the ticket where a bot opens it and the buyer
        // has the invite to the server it opens in
        assert_eq!(
            text.contains("ticket"),
            setup.discord_tickets && setup.discord_invite.is_some(),
            "({setup:?}): {}",
            answer.text
        );
    }
}

/// Written before the knowledge was changed for them, and not tuned to.
const REFUND_IF_NOT_DELIVERED: &[&str] = &[
    "Can I get a refund if my pet was not delivered?",
    "will you refund me if i never got my pet?",
    "what if my order doesn't get delivered, do I get my money back?",
    "do i get refunded when staff can't deliver my items",
    "my pet wasnt delivered, can i have a refund",
    "If you fail to deliver my order, will I get my money back?",
    "refund for an undelivered order?",
];

#[test]
fn a_refund_for_an_undelivered_order_gets_the_policys_conditional_answer() {
    let mut failures = vec![];
    for setup in [facts(10, Some(INVITE), true), facts(10, None, false)] {
        for question in REFUND_IF_NOT_DELIVERED {
            let answer = ask(setup.clone(), question);
            let text = answer.text.to_lowercase();
            let mut wrong = vec![];
            if text.contains("dupe") || text.contains("not a reason for a refund") {
                wrong.push("the dupe flag's refusal");
            }
            // the shop refunds what it failed to deliver...
            if !text.contains("not delivered") || !text.contains("full amount") {
                wrong.push("no refund of an order not delivered");
            }
            // ...but not wrong details or a buyer who never joined
            if !text.contains("wrong") || !text.contains("did not join the private server") {
                wrong.push("no conditions");
            }
            // and says how to reach staff
            if !answer.text.contains("Talk to Live Agent") {
                wrong.push("no way to staff");
            }
            if setup
                .discord_invite
                .as_ref()
                .is_some_and(|invite| !answer.text.contains(invite.as_str()))
            {
                wrong.push("no invite");
            }
            if !wrong.is_empty() {
                failures.push(format!(
                    "{question:?} (invite: {}): {wrong:?}\n    {}",
                    setup.discord_invite.is_some(),
                    answer.text
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn no_answer_hard_codes_a_delivery_time() {
    for setup in every_discord_setup(45) {
        for question in DISCORD_QUESTIONS
            .iter()
            .chain(["how fast is delivery", "tell me about the shop"].iter())
        {
            let answer = ask(setup.clone(), question);
            assert!(
                !answer.text.contains("10 minutes"),
                "{question}: {}",
                answer.text
            );
        }
    }
}
