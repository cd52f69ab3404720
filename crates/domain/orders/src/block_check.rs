//! The check checkout makes before it reads or reserves anything: the buyer's identities (the
//! e-mail, the Discord account, the Roblox username and the client's address), each in the
//! form a blocklist entry is compared by, and the [`Blocklist`] port that answers whether any is
//! blocked. The list itself, and who keeps it, is the `blocklist` crate's.
//!
//! Values are stored normalised: e-mails trimmed and lowercased, Roblox usernames lowercased
//! (Roblox ignores case), Discord ids as their snowflake, addresses as parsed IPs (an
//! IPv4-mapped IPv6 address as the IPv4 one). Each entry is compared by its match form
//! ([`BlockKind::match_form`]), so one entry matches every spelling that reaches the same
//! inbox or network: an e-mail without its `+tag` (and, at Gmail, without dots), an IPv6
//! address as its /64 (one subscriber's network, as the rate limits count it).

use std::fmt;
use std::future::Future;
use std::net::IpAddr;

use chrono::{DateTime, Utc};

use crate::{Buyer, DiscordId, Email, RobloxUsername};

/// What a blocklist entry names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BlockKind {
    Email,
    DiscordId,
    RobloxUsername,
    Ip,
}

impl BlockKind {
    pub const ALL: [BlockKind; 4] = [
        BlockKind::Email,
        BlockKind::DiscordId,
        BlockKind::RobloxUsername,
        BlockKind::Ip,
    ];

    /// As stored and as sent in the API.
    pub fn as_str(&self) -> &'static str {
        match self {
            BlockKind::Email => "email",
            BlockKind::DiscordId => "discord_id",
            BlockKind::RobloxUsername => "roblox_username",
            BlockKind::Ip => "ip",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == text.trim())
    }

    /// As the admin page names it.
    pub fn label(&self) -> &'static str {
        match self {
            BlockKind::Email => "E-mail",
            BlockKind::DiscordId => "Discord id",
            BlockKind::RobloxUsername => "Roblox username",
            BlockKind::Ip => "IP address",
        }
    }

    /// What a normalised `value` of this kind is compared by: the canonical e-mail
    /// ([`canonical_email`]), an IPv6 address's /64 network, the value itself otherwise.
    pub fn match_form(&self, value: &str) -> String {
        match self {
            BlockKind::Email => canonical_email(value),
            BlockKind::Ip => value
                .parse::<IpAddr>()
                .map_or_else(|_| value.to_owned(), shared::network_key),
            BlockKind::DiscordId | BlockKind::RobloxUsername => value.to_owned(),
        }
    }

    /// The value normalised for this kind; the message says what is wrong otherwise.
    pub fn normalise(&self, raw: &str) -> Result<String, String> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err("Enter the value to block.".to_owned());
        }
        match self {
            BlockKind::Email => Email::parse(raw)
                .map(|email| email.as_str().to_owned())
                .map_err(|_| "Enter a valid e-mail address.".to_owned()),
            BlockKind::DiscordId => DiscordId::parse(raw)
                .map(|id| id.as_str().to_owned())
                .map_err(|_| "A Discord id is a number of up to 20 digits.".to_owned()),
            BlockKind::RobloxUsername => RobloxUsername::parse(raw)
                .map(|name| name.as_str().to_ascii_lowercase())
                .map_err(|e| format!("A Roblox username {e}.")),
            BlockKind::Ip => normalise_ip(raw)
                .ok_or_else(|| "Enter an IPv4 or IPv6 address, e.g. 203.0.113.7.".to_owned()),
        }
    }
}

impl fmt::Display for BlockKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The one inbox an address reaches, as the blocklist compares it: lower case, a quoted local
/// part unquoted (`"kid"@example.com` is kid@example.com), without a `+tag` in the local part,
/// and at Gmail (gmail.com, googlemail.com, which ignore dots) without dots, as `@gmail.com`.
pub fn canonical_email(email: &str) -> String {
    let email = email.trim().to_lowercase();
    let Some((local, domain)) = email.rsplit_once('@') else {
        return email;
    };
    let local = unquoted(local);
    let local = local.split('+').next().unwrap_or(&local);
    match domain {
        "gmail.com" | "googlemail.com" => format!("{}@gmail.com", local.replace('.', "")),
        _ => format!("{local}@{domain}"),
    }
}

/// A local part without its quotes: `"kid"` and `"k\id"` are `kid`, as a mail server
/// delivers them. Every quote goes (also of a part only partly quoted), so no placement of them
/// makes a blocked inbox another.
fn unquoted(local: &str) -> String {
    if !local.contains('"') {
        return local.to_owned();
    }
    let mut plain = String::with_capacity(local.len());
    let mut chars = local.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {}
            // a quoted pair: the character itself
            '\\' => plain.extend(chars.next()),
            other => plain.push(other),
        }
    }
    plain
}

/// An address as the blocklist stores it; `None` when it is not an IP address.
pub fn normalise_ip(raw: &str) -> Option<String> {
    let ip: IpAddr = raw.trim().parse().ok()?;
    let ip = match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    };
    Some(ip.to_string())
}

/// Who is placing an order, as the blocklist compares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuyerIdentities {
    /// `(kind, match form)`, one per identity known ([`BlockKind::match_form`]).
    pub values: Vec<(BlockKind, String)>,
}

impl BuyerIdentities {
    /// The e-mail, Discord account and Roblox username of a buyer, and the address they order
    /// from (when known and an IP).
    pub fn of(buyer: &Buyer, client_ip: Option<&str>) -> Self {
        let mut values = vec![
            (BlockKind::Email, canonical_email(buyer.email.as_str())),
            (
                BlockKind::RobloxUsername,
                buyer.roblox_username.as_str().to_ascii_lowercase(),
            ),
        ];
        if let Some(discord) = &buyer.discord {
            values.insert(
                1,
                (BlockKind::DiscordId, discord.discord_id.as_str().to_owned()),
            );
        }
        if let Some(ip) = client_ip.and_then(normalise_ip) {
            values.push((BlockKind::Ip, BlockKind::Ip.match_form(&ip)));
        }
        BuyerIdentities { values }
    }
}

/// The check checkout makes before anything else.
#[cfg_attr(test, mockall::automock)]
pub trait Blocklist: Send + Sync + 'static {
    /// Whether any of these identities matches an active entry that has not expired at `now`.
    /// Fails only when the store does.
    fn is_blocked(
        &self,
        identities: BuyerIdentities,
        now: DateTime<Utc>,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send;
}

/// No blocklist: nobody is blocked (checkout without one, e.g. in unit tests).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoBlocklist;

impl Blocklist for NoBlocklist {
    async fn is_blocked(
        &self,
        _identities: BuyerIdentities,
        _now: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn values_are_normalised_so_one_entry_matches_every_spelling() {
        let cases = [
            (BlockKind::Email, " Kid@Example.COM ", "kid@example.com"),
            (
                BlockKind::DiscordId,
                " 100000000000000001",
                "100000000000000001",
            ),
            (BlockKind::RobloxUsername, "Builder_Bob", "builder_bob"),
            (BlockKind::Ip, " 203.0.113.7 ", "203.0.113.7"),
            (BlockKind::Ip, "::ffff:203.0.113.7", "203.0.113.7"),
            (BlockKind::Ip, "2001:DB8:0:0::1", "2001:db8::1"),
        ];
        for (kind, raw, expected) in cases {
            assert_eq!(kind.normalise(raw).unwrap(), expected, "{kind} {raw:?}");
        }
    }

    #[test]
    fn malformed_values_are_refused_with_the_reason() {
        for (kind, raw) in [
            (BlockKind::Email, "not-an-email"),
            (BlockKind::DiscordId, "abc"),
            (BlockKind::RobloxUsername, "a b"),
            (BlockKind::Ip, "203.0.113.300"),
            (BlockKind::Ip, "example.com"),
            (BlockKind::Email, "   "),
        ] {
            assert!(kind.normalise(raw).is_err(), "{kind} {raw:?}");
        }
        assert_eq!(BlockKind::parse("telephone"), None);
        for kind in BlockKind::ALL {
            assert_eq!(BlockKind::parse(kind.as_str()), Some(kind));
        }
    }

    #[test]
    fn a_buyer_is_compared_by_every_identity_and_the_address() {
        let buyer = crate::Buyer {
            discord: Some(crate::DiscordIdentity {
                discord_id: DiscordId::parse("100000000000000001").unwrap(),
                username: "kid".into(),
                avatar_url: None,
            }),
            roblox_username: RobloxUsername::parse("Builder_Bob").unwrap(),
            email: Email::parse("K.i.d+shop@GoogleMail.com").unwrap(),
            user_id: None,
            language: shared::Language::English,
        };
        let identities = BuyerIdentities::of(&buyer, Some("::ffff:198.51.100.4"));
        assert_eq!(
            identities.values,
            [
                (BlockKind::Email, "kid@gmail.com".to_owned()),
                (BlockKind::DiscordId, "100000000000000001".to_owned()),
                (BlockKind::RobloxUsername, "builder_bob".to_owned()),
                (BlockKind::Ip, "198.51.100.4".to_owned()),
            ]
        );
        assert_eq!(BuyerIdentities::of(&buyer, Some("unknown")).values.len(), 3);
    }

    #[test]
    fn an_email_is_compared_by_the_one_inbox_it_reaches() {
        for (typed, canonical) in [
            ("kid@example.com", "kid@example.com"),
            ("Kid+shop@Example.com", "kid@example.com"),
            ("k.i.d@example.com", "k.i.d@example.com"),
            ("k.i.d+x+y@gmail.com", "kid@gmail.com"),
            ("K.I.D@googlemail.com", "kid@gmail.com"),
            // a quoted local part reaches the inbox of its unquoted form
            ("\"blocked\"@gmail.com", "blocked@gmail.com"),
            ("\"b.l.o.c.k.e.d+x\"@GMail.com", "blocked@gmail.com"),
            ("\"kid\"@example.com", "kid@example.com"),
            ("\"k\\id\"@example.com", "kid@example.com"),
            ("\"ki\"d@example.com", "kid@example.com"),
        ] {
            assert_eq!(canonical_email(typed), canonical, "{typed}");
        }
    }

    #[test]
    fn an_ipv6_entry_covers_its_slash_64_and_an_ipv4_one_its_address() {
        let ip = |raw: &str| BlockKind::Ip.match_form(&normalise_ip(raw).unwrap());
        assert_eq!(ip("2001:db8:1:2::7"), "2001:db8:1:2::/64");
        assert_eq!(ip("2001:db8:1:2:ffff:1:2:3"), ip("2001:0db8:0001:0002::1"));
        assert_ne!(ip("2001:db8:1:2::7"), ip("2001:db8:1:3::7"));
        assert_eq!(ip("::ffff:198.51.100.4"), "198.51.100.4");
        assert_ne!(ip("198.51.100.4"), ip("198.51.100.5"));
    }
}
