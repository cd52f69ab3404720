//! The delivery script as the assistant tells it: the buyer's steps after paying, in order.
//!
//! This is the ONE place the assistant words the steps (the knowledge's answers say `{steps}`).
//! Issue 34 makes the script a list owned by the delivery domain (`delivery::script`: steps
//! keyed `discord`, `wait`, `join`, `ready`, `receive`, `review`, depending on whether a Discord
//! invite is set and whether a bot runs); when it lands, [`steps`] is to return the domain's
//! list instead, and the rest of the assistant follows.

use crate::facts::ShopFacts;

/// One step of the script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// What the step is, the same keys as the delivery domain's: `discord`, `wait`, `join`,
    /// `ready`, `receive`, `review`.
    pub key: &'static str,
    /// The step in words, one sentence without its full stop.
    pub title: String,
}

/// The steps after paying in this shop: `discord` only where an invite is set; the Discord
/// ticket is named only where the shop's bot opens one.
pub fn steps(facts: &ShopFacts) -> Vec<Step> {
    let mut steps = vec![];
    if let Some(invite) = &facts.discord_invite {
        steps.push(Step {
            key: "discord",
            title: if facts.discord_tickets {
                format!(
                    "Join our Discord server ({invite}), where we add you to your order's \
                     private ticket"
                )
            } else {
                format!("Join our Discord server ({invite}), so staff can reach you there")
            },
        });
    }
    steps.push(Step {
        key: "wait",
        title: "Wait for a member of staff to pick up your order: your order page shows your \
                place in the queue and updates by itself"
            .to_owned(),
    });
    steps.push(Step {
        key: "join",
        title: if facts.discord_tickets {
            "When they do, your order page, your Discord ticket and an e-mail show their name \
             and the link to their private Grow a Garden server: join it with the Roblox account \
             you gave at checkout"
        } else {
            "When they do, your order page and an e-mail show their name and the link to their \
             private Grow a Garden server: join it with the Roblox account you gave at checkout"
        }
        .to_owned(),
    });
    steps.push(Step {
        key: "ready",
        title: "Press \"I'm in the game\" on your order page".to_owned(),
    });
    steps.push(Step {
        key: "receive",
        title: "Stay in the server while staff hand over your items; your order page then shows \
                Delivered"
            .to_owned(),
    });
    steps.push(Step {
        key: "review",
        title: "Leave a review from your order page".to_owned(),
    });
    steps
}

/// The steps as numbered lines, each on its own line (the chat keeps line breaks):
/// "\n1) Join ….\n2) Wait ….\n…\n6) Leave a review ….\n".
pub fn numbered(facts: &ShopFacts) -> String {
    let mut text = String::from("\n");
    for (i, step) in steps(facts).iter().enumerate() {
        text.push_str(&format!("{}) {}.\n", i + 1, step.title));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(invite: Option<&str>, tickets: bool) -> ShopFacts {
        ShopFacts {
            delivery_minutes: 20,
            discord_invite: invite.map(str::to_owned),
            discord_tickets: tickets,
        }
    }

    fn keys(facts: &ShopFacts) -> Vec<&'static str> {
        steps(facts).iter().map(|s| s.key).collect()
    }

    #[test]
    fn the_discord_step_comes_only_with_an_invite_and_carries_it() {
        let with = facts(Some("https://discord.gg/x"), true);
        assert_eq!(
            keys(&with),
            ["discord", "wait", "join", "ready", "receive", "review"]
        );
        assert!(steps(&with)[0].title.contains("https://discord.gg/x"));
        for tickets in [true, false] {
            let without = facts(None, tickets);
            assert_eq!(
                keys(&without),
                ["wait", "join", "ready", "receive", "review"]
            );
            assert!(!numbered(&without).to_lowercase().contains("discord server"));
        }
    }

    #[test]
    fn the_ticket_is_named_only_where_the_bot_opens_one() {
        for invite in [Some("https://discord.gg/x"), None] {
            assert!(numbered(&facts(invite, true)).contains("ticket"));
            assert!(!numbered(&facts(invite, false)).contains("ticket"));
        }
    }

    #[test]
    fn the_steps_are_numbered_in_order() {
        let text = numbered(&facts(None, false));
        assert!(
            text.starts_with("\n1) Wait for a member of staff"),
            "{text}"
        );
        assert!(text.contains(".\n3) Press \"I'm in the game\""), "{text}");
        assert!(
            text.ends_with("\n5) Leave a review from your order page.\n"),
            "{text}"
        );
    }
}
