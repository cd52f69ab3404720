//! The delivery script as the assistant tells it: the buyer's steps after paying, in order.
//!
//! The steps are the delivery domain's one list (`delivery::delivery_script`: the same the
//! success and order pages, the receipt and delivered mails, the FAQ and How it works show);
//! here they are only written as numbered lines for the chat (the knowledge's answers say
//! `{steps}`).

use delivery::{HandoffSettings, ScriptStep};
use shared::Language;

use crate::texts::{fill, texts};

/// The steps after paying in this shop (its promise in minutes, its Discord invite, whether its
/// bot opens tickets), as the delivery domain words them: `discord` only where an invite is set;
/// the Discord ticket named only where the shop's bot opens one.
pub fn steps(delivery_minutes: u32, invite: Option<&str>, tickets: bool) -> Vec<ScriptStep> {
    let handoff = HandoffSettings {
        delivery_minutes,
        discord_invite: invite.map(str::to_owned),
        guild_id: None,
        no_show_minutes: 0,
        tickets,
    };
    delivery::delivery_script(&handoff, delivery_minutes)
}

/// The steps in `language`: the delivery domain's words in English, the language file's
/// translation of each step (by its key) in the others. The Discord step's detail tells of the
/// ticket only where the shop's bot opens one (`discord_tickets` beside `discord`).
pub fn steps_in(
    delivery_minutes: u32,
    invite: Option<&str>,
    tickets: bool,
    language: Language,
) -> Vec<ScriptStep> {
    let translated = &texts(language).script;
    let minutes = delivery_minutes.to_string();
    steps(delivery_minutes, invite, tickets)
        .into_iter()
        .map(|step| {
            let key = match step.key.as_str() {
                "discord" if tickets => "discord_tickets",
                key => key,
            };
            match translated.get(key) {
                Some(own) => ScriptStep {
                    title: own.title.clone(),
                    detail: fill(&own.detail, &[("minutes", &minutes)]),
                    ..step
                },
                None => step,
            }
        })
        .collect()
}

/// The steps as numbered lines, each on its own line (the chat keeps line breaks), the Discord
/// step with its invite: "\n1) Join our Discord server (https://…): Use ….\n2) Wait …".
pub fn numbered(
    delivery_minutes: u32,
    invite: Option<&str>,
    tickets: bool,
    language: Language,
) -> String {
    let mut text = String::from("\n");
    for (i, step) in steps_in(delivery_minutes, invite, tickets, language)
        .iter()
        .enumerate()
    {
        let link = step
            .link
            .as_ref()
            .map(|link| format!(" ({link})"))
            .unwrap_or_default();
        text.push_str(&format!(
            "{}) {}{link}: {}\n",
            i + 1,
            step.title,
            step.detail
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shop's setup: its invite and whether its bot opens tickets; a 20-minute promise.
    type Setup<'a> = (Option<&'a str>, bool);

    fn facts(invite: Option<&str>, tickets: bool) -> Setup<'_> {
        (invite, tickets)
    }

    fn keys((invite, tickets): Setup) -> Vec<&'static str> {
        steps(20, invite, tickets)
            .iter()
            .map(|s| s.key.as_str())
            .collect()
    }

    fn numbered((invite, tickets): Setup) -> String {
        super::numbered(20, invite, tickets, Language::English)
    }

    #[test]
    fn the_discord_step_comes_only_with_an_invite_and_carries_it() {
        let with = facts(Some("https://discord.gg/x"), true);
        assert_eq!(
            keys(with),
            ["discord", "wait", "join", "ready", "receive", "review"]
        );
        assert!(numbered(with).contains("1) Join our Discord server (https://discord.gg/x): "));
        for tickets in [true, false] {
            let without = facts(None, tickets);
            assert_eq!(
                keys(without),
                ["wait", "join", "ready", "receive", "review"]
            );
            assert!(!numbered(without).to_lowercase().contains("discord server"));
        }
    }

    #[test]
    fn the_ticket_is_named_only_where_the_bot_opens_one() {
        let invite = Some("https://discord.gg/x");
        assert!(numbered(facts(invite, true)).contains("ticket"));
        assert!(!numbered(facts(invite, false)).contains("ticket"));
        assert!(!numbered(facts(None, true)).contains("ticket"));
    }

    #[test]
    fn the_steps_are_numbered_in_order_with_the_promise() {
        let text = numbered(facts(None, false));
        assert!(
            text.starts_with("\n1) Wait for a member of staff: "),
            "{text}"
        );
        assert!(text.contains("under 20 minutes"), "{text}");
        assert!(
            text.contains("\n3) Press \u{201c}I'm in the game\u{201d}: "),
            "{text}"
        );
        assert!(text.contains("\n5) Leave a review: "), "{text}");
        assert!(text.ends_with(".\n"), "{text}");
    }
}
