//! The one script from payment to delivery: the steps the buyer takes after paying, written
//! once here and rendered by every page and mail that tells them (the success and order pages,
//! the receipt and delivered mails, the FAQ and How it works), each order's marking the steps
//! it is past.

/// What the handoff needs from the shop's settings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HandoffSettings {
    /// The promise while fewer than 10 orders were delivered in the last 7 days.
    pub delivery_minutes: u32,
    /// The shop's Discord server invite.
    pub discord_invite: Option<String>,
    /// The Discord server of the tickets (their links).
    pub guild_id: Option<String>,
    /// The minutes a buyer has to join the private server after a claim (`join_by`).
    pub no_show_minutes: u32,
    /// A Discord bot opens each order's ticket (the script's words say so).
    pub tickets: bool,
}

/// A step of the script: its key is the contract, the words may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScriptKey {
    /// Join the shop's Discord server (only where an invite is set).
    Discord,
    /// Wait for a member of staff to take the order.
    Wait,
    /// Join their private server in the game.
    Join,
    /// Press "I'm in the game".
    Ready,
    /// Accept the trade: the items arrive.
    Receive,
    /// Tell other players how it went.
    Review,
}

impl ScriptKey {
    pub fn as_str(self) -> &'static str {
        match self {
            ScriptKey::Discord => "discord",
            ScriptKey::Wait => "wait",
            ScriptKey::Join => "join",
            ScriptKey::Ready => "ready",
            ScriptKey::Receive => "receive",
            ScriptKey::Review => "review",
        }
    }
}

/// One step as the buyer reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptStep {
    pub key: ScriptKey,
    /// What to do, short: "Join our Discord server".
    pub title: String,
    /// One sentence on how and why.
    pub detail: String,
    /// Where the step is done, when it is a place outside the shop (the Discord invite).
    pub link: Option<String>,
    /// The order is past this step (always false in the generic script).
    pub done: bool,
}

/// Where an order stands, as far as its steps go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ScriptProgress {
    /// The buyer is known to be on the Discord server: their ticket opened with them in it.
    pub in_discord: bool,
    /// A member of staff holds the order now.
    pub claimed: bool,
    /// The buyer said "I'm in the game" under the current claim.
    pub ready: bool,
    /// The items were handed over.
    pub delivered: bool,
    /// The buyer left a review.
    pub reviewed: bool,
}

impl ScriptProgress {
    fn done(&self, key: ScriptKey) -> bool {
        let claimed = self.claimed || self.delivered;
        let ready = self.ready || self.delivered;
        match key {
            ScriptKey::Discord => self.in_discord || claimed,
            ScriptKey::Wait => claimed,
            ScriptKey::Join | ScriptKey::Ready => ready,
            ScriptKey::Receive => self.delivered,
            ScriptKey::Review => self.reviewed,
        }
    }
}

/// The steps after payment for this shop (its invite, whether a bot opens tickets, its
/// promise), none done: what the FAQ and How it works show, and an order's script before it
/// is marked.
pub fn delivery_script(handoff: &HandoffSettings, estimate_minutes: u32) -> Vec<ScriptStep> {
    let step = |key, title: &str, detail: String, link: Option<String>| ScriptStep {
        key,
        title: title.to_owned(),
        detail,
        link,
        done: false,
    };
    let mut steps = Vec::with_capacity(6);
    if let Some(invite) = &handoff.discord_invite {
        let detail = if handoff.tickets {
            "Use the Discord account you linked at checkout: your order's ticket opens there, \
             and staff can reach you in it."
        } else {
            "Use the Discord account you linked at checkout, so staff can reach you there."
        };
        steps.push(step(
            ScriptKey::Discord,
            "Join our Discord server",
            detail.to_owned(),
            Some(invite.clone()),
        ));
    }
    steps.push(step(
        ScriptKey::Wait,
        "Wait for a member of staff",
        format!(
            "Staff take orders in the order they were paid; your order page shows your place in \
             line. Delivery usually takes under {estimate_minutes} minutes."
        ),
        None,
    ));
    steps.push(step(
        ScriptKey::Join,
        "Join their private server",
        "When they take your order, your order page shows the link to their private server in \
         Grow a Garden: join it with your Roblox account."
            .to_owned(),
        None,
    ));
    steps.push(step(
        ScriptKey::Ready,
        "Press \u{201c}I'm in the game\u{201d}",
        "On your order page, once you are in their server, so they know you are there.".to_owned(),
        None,
    ));
    steps.push(step(
        ScriptKey::Receive,
        "Receive your items",
        "Accept their trade in the game. We e-mail you once it is delivered.".to_owned(),
        None,
    ));
    steps.push(step(
        ScriptKey::Review,
        "Leave a review",
        "Tell other players how it went, on your order page.".to_owned(),
        None,
    ));
    steps
}

/// The script of one order: the shop's steps, each marked done when the order is past it.
pub fn order_script(
    handoff: &HandoffSettings,
    estimate_minutes: u32,
    progress: ScriptProgress,
) -> Vec<ScriptStep> {
    delivery_script(handoff, estimate_minutes)
        .into_iter()
        .map(|step| ScriptStep {
            done: progress.done(step.key),
            ..step
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handoff(invite: Option<&str>, tickets: bool) -> HandoffSettings {
        HandoffSettings {
            delivery_minutes: 10,
            discord_invite: invite.map(str::to_owned),
            guild_id: None,
            no_show_minutes: 15,
            tickets,
        }
    }

    fn keys(steps: &[ScriptStep]) -> Vec<&'static str> {
        steps.iter().map(|s| s.key.as_str()).collect()
    }

    fn done(steps: &[ScriptStep]) -> Vec<&'static str> {
        steps
            .iter()
            .filter(|s| s.done)
            .map(|s| s.key.as_str())
            .collect()
    }

    #[test]
    fn the_discord_step_comes_with_the_invite_and_only_then() {
        let with = delivery_script(&handoff(Some("https://discord.gg/garden"), false), 10);
        assert_eq!(
            keys(&with),
            ["discord", "wait", "join", "ready", "receive", "review"]
        );
        assert_eq!(with[0].link.as_deref(), Some("https://discord.gg/garden"));
        assert!(!with[0].detail.contains("ticket"), "{}", with[0].detail);
        let without = delivery_script(&handoff(None, true), 10);
        assert_eq!(
            keys(&without),
            ["wait", "join", "ready", "receive", "review"]
        );
        assert!(without.iter().all(|s| !s.detail.contains("Discord")));
        let bot = delivery_script(&handoff(Some("https://discord.gg/garden"), true), 10);
        assert!(bot[0].detail.contains("ticket"), "{}", bot[0].detail);
    }

    #[test]
    fn the_promise_is_in_the_waiting_step() {
        let steps = delivery_script(&handoff(None, false), 25);
        assert!(
            steps[0].detail.contains("under 25 minutes"),
            "{}",
            steps[0].detail
        );
        assert!(steps.iter().all(|s| !s.done));
    }

    #[test]
    fn an_order_is_marked_past_the_steps_it_took() {
        let h = handoff(Some("https://discord.gg/garden"), true);
        let marked = |progress| done(&order_script(&h, 10, progress));
        assert!(marked(ScriptProgress::default()).is_empty());
        let in_ticket = ScriptProgress {
            in_discord: true,
            ..ScriptProgress::default()
        };
        assert_eq!(marked(in_ticket), ["discord"]);
        let claimed = ScriptProgress {
            claimed: true,
            ..ScriptProgress::default()
        };
        assert_eq!(marked(claimed), ["discord", "wait"]);
        let ready = ScriptProgress {
            ready: true,
            ..claimed
        };
        assert_eq!(marked(ready), ["discord", "wait", "join", "ready"]);
        let delivered = ScriptProgress {
            delivered: true,
            ..ScriptProgress::default()
        };
        assert_eq!(
            marked(delivered),
            ["discord", "wait", "join", "ready", "receive"]
        );
        let reviewed = ScriptProgress {
            reviewed: true,
            ..delivered
        };
        assert_eq!(marked(reviewed).len(), 6);
    }
}
