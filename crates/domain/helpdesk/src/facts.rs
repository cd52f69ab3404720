//! The shop's facts that the knowledge's answers state, given by the app at answer time, and
//! the small template language the answers are written in.
//!
//! * `{minutes}`: the delivery promise, "usually under N minutes".
//! * `{invite}`: the Discord invite link (only inside an `{if invite}` block).
//! * `{steps}`: the delivery script, numbered (see [`crate::script`]).
//! * `{orders}`: the asker's open orders with their pages' links (only inside an `{if orders}`
//!   block).
//! * `{if COND…}…{else}…{end}`: the text between shows only when every condition holds (the
//!   `{else}` part otherwise). Conditions: `invite`, `no-invite`, `tickets`, `no-tickets`,
//!   `orders`, `no-orders`. Blocks do not nest.

use chat::AskerOrder;
use shared::Language;

use crate::script;
use crate::texts::{fill, texts};

/// What the shop is like right now, as the answers state it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShopFacts {
    /// The shop's promise, "usually under N minutes" (measured by the app).
    pub delivery_minutes: u32,
    /// The Discord server's invite (`site.discord_invite_url`); without it the answers send
    /// buyers to the help chat and their order page instead.
    pub discord_invite: Option<String>,
    /// Whether the shop opens a private Discord ticket for each paid order itself.
    pub discord_tickets: bool,
}

impl ShopFacts {
    /// The facts the knowledge is indexed with: every Discord sentence in, no numbers.
    pub(crate) fn for_indexing() -> Self {
        ShopFacts {
            delivery_minutes: 0,
            discord_invite: Some(String::new()),
            discord_tickets: true,
        }
    }
}

/// What an answer is written with: the shop's facts and who asks.
struct Rendering<'a> {
    facts: &'a ShopFacts,
    orders: &'a [AskerOrder],
    /// The language the script and the orders are written in.
    language: Language,
    /// Whether `{steps}` is written out (not for the search index: the script's words would
    /// make every answer that tells it look like an answer to everything the script mentions).
    steps: bool,
}

impl Rendering<'_> {
    fn holds(&self, condition: &str) -> Option<bool> {
        let facts = self.facts;
        Some(match condition {
            "invite" => facts.discord_invite.is_some(),
            "no-invite" => facts.discord_invite.is_none(),
            "tickets" => facts.discord_tickets,
            "no-tickets" => !facts.discord_tickets,
            "orders" => !self.orders.is_empty(),
            "no-orders" => self.orders.is_empty(),
            _ => return None,
        })
    }

    /// "order #12 (Paid): https://…/orders/12", several joined with "; ".
    fn orders(&self) -> String {
        let template = &texts(self.language).sentences.order;
        self.orders
            .iter()
            .map(|order| {
                fill(
                    template,
                    &[
                        ("number", &order.number.to_string()),
                        ("status", &order.status),
                        ("link", &order.link),
                    ],
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// Writes `template` out with `facts` for an asker with these open `orders`, the script and
/// the orders in `language`. Anything that is not a known placeholder or block stays as written
/// (the knowledge's tests make sure none is left).
pub fn render_for(
    template: &str,
    facts: &ShopFacts,
    orders: &[AskerOrder],
    language: Language,
) -> String {
    write(
        template,
        &Rendering {
            facts,
            orders,
            language,
            steps: true,
        },
    )
}

/// The words of `template` the search index keeps: every Discord sentence in, no numbers, no
/// script and no orders.
pub fn render_for_index(template: &str) -> String {
    write(
        template,
        &Rendering {
            facts: &ShopFacts::for_indexing(),
            orders: &[],
            language: Language::English,
            steps: false,
        },
    )
}

fn write(template: &str, rendering: &Rendering<'_>) -> String {
    let facts = rendering.facts;
    let mut out = String::with_capacity(template.len() + 40);
    // inside a block: whether its current part shows
    let mut block: Option<(bool, bool)> = None; // (condition held, in the else part)
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let (before, after) = rest.split_at(open);
        let showing = block.is_none_or(|(held, otherwise)| held != otherwise);
        if showing {
            out.push_str(before);
        }
        let Some(close) = after.find('}') else {
            rest = after;
            break;
        };
        let directive = &after[1..close];
        rest = &after[close + 1..];
        match (directive, block) {
            ("minutes", _) if showing => out.push_str(&facts.delivery_minutes.to_string()),
            ("invite", _) if showing => {
                out.push_str(facts.discord_invite.as_deref().unwrap_or_default())
            }
            ("steps", _) if showing => {
                if rendering.steps {
                    out.push_str(&script::numbered(
                        facts.delivery_minutes,
                        facts.discord_invite.as_deref(),
                        facts.discord_tickets,
                        rendering.language,
                    ));
                }
            }
            ("orders", _) if showing => out.push_str(&rendering.orders()),
            ("minutes" | "invite" | "steps" | "orders", _) => {}
            ("else", Some((held, false))) => block = Some((held, true)),
            ("end", Some(_)) => block = None,
            (_, None) if directive.starts_with("if ") => {
                let held = directive[3..]
                    .split_whitespace()
                    .map(|condition| rendering.holds(condition))
                    .try_fold(true, |all, holds| holds.map(|h| all && h));
                match held {
                    Some(held) => block = Some((held, false)),
                    None => out.push_str(&after[..=close]),
                }
            }
            _ => {
                if showing {
                    out.push_str(&after[..=close]);
                }
            }
        }
    }
    if block.is_none_or(|(held, otherwise)| held != otherwise) {
        out.push_str(rest);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For an asker with no known orders.
    fn render(template: &str, facts: &ShopFacts) -> String {
        render_for(template, facts, &[], Language::English)
    }

    fn facts(minutes: u32, invite: Option<&str>, tickets: bool) -> ShopFacts {
        ShopFacts {
            delivery_minutes: minutes,
            discord_invite: invite.map(str::to_owned),
            discord_tickets: tickets,
        }
    }

    #[test]
    fn placeholders_take_the_facts() {
        let text = "Under {minutes} minutes.{if invite} Join us: {invite}.{end}";
        assert_eq!(
            render(text, &facts(15, Some("https://discord.gg/x"), false)),
            "Under 15 minutes. Join us: https://discord.gg/x."
        );
        assert_eq!(render(text, &facts(20, None, false)), "Under 20 minutes.");
    }

    #[test]
    fn blocks_choose_their_part_and_every_condition_must_hold() {
        let text = "A{if invite tickets} both{else} not both{end}{if no-invite} help chat{end}.";
        assert_eq!(render(text, &facts(1, Some("i"), true)), "A both.");
        assert_eq!(render(text, &facts(1, Some("i"), false)), "A not both.");
        assert_eq!(render(text, &facts(1, None, true)), "A not both help chat.");
    }

    #[test]
    fn the_script_and_the_askers_orders_are_written_in_and_kept_out_of_the_index() {
        let text = "{steps}{if orders} Yours: {orders}.{else} See your receipt.{end}";
        let shop = facts(20, None, false);
        let order = |number: i64| AskerOrder {
            number,
            status: "Paid".to_owned(),
            link: format!("https://x/orders/{number}"),
        };
        let steps = script::numbered(
            shop.delivery_minutes,
            shop.discord_invite.as_deref(),
            shop.discord_tickets,
            Language::English,
        );
        assert_eq!(
            render_for(text, &shop, &[order(3), order(2)], Language::English),
            format!(
                "{steps} Yours: order #3 (Paid): https://x/orders/3; order #2 (Paid): \
                 https://x/orders/2."
            )
        );
        assert_eq!(render(text, &shop), format!("{steps} See your receipt."));
        assert_eq!(render_for_index(text), " See your receipt.");
    }

    #[test]
    fn unknown_directives_stay_as_written() {
        assert_eq!(
            render("{if moon}x{end} {days}", &facts(1, None, true)),
            "{if moon}x{end} {days}"
        );
        assert_eq!(render("open {", &facts(1, None, true)), "open {");
    }
}
