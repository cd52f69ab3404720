//! The blocklist: e-mail addresses, Discord accounts, Roblox usernames and client addresses the
//! shop does not sell to. Checkout asks the [`Blocklist`] port first, before it reads or
//! reserves anything; a chargeback blocks the buyer's identities (see `aftersale`); the
//! super_admin adds and removes entries ([`BlocklistAdmin`]).
//!
//! Values are stored normalised: e-mails trimmed and lowercased, Roblox usernames lowercased
//! (Roblox ignores case), Discord ids as their snowflake, addresses as parsed IPs (an
//! IPv4-mapped IPv6 address as the IPv4 one). Each entry is compared by its match form
//! ([`BlockKind::match_form`]), so one entry matches every spelling that reaches the same
//! inbox or network: an e-mail without its `+tag` (and, at Gmail, without dots), an IPv6
//! address as its /64 (one subscriber's network, as the rate limits count it).
//!
//! Only what the shop verified blocks on its own: a chargeback blocks the Discord account
//! (proven by OAuth) and, for 30 days, the address the order came from. The e-mail and Roblox
//! username the buyer typed could be anyone's, so they become *flagged* entries that block
//! nothing until a super_admin confirms them ([`BlockStatus`]).

use std::fmt;
use std::future::Future;
use std::net::IpAddr;

use chrono::{DateTime, Utc};
use shared::Actor;

use crate::{Clock, DiscordId, Email, RobloxUsername, StaffMember};

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
            BlockKind::Ip => match value.parse::<IpAddr>() {
                Ok(IpAddr::V6(v6)) => {
                    let [a, b, c, d, ..] = v6.segments();
                    format!("{a:x}:{b:x}:{c:x}:{d:x}::/64")
                }
                _ => value.to_owned(),
            },
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

/// The one inbox an address reaches, as the blocklist compares it: lower case, without a
/// `+tag` in the local part, and at Gmail (gmail.com, googlemail.com, which ignore dots)
/// without dots, as `@gmail.com`.
pub fn canonical_email(email: &str) -> String {
    let email = email.trim().to_lowercase();
    let Some((local, domain)) = email.rsplit_once('@') else {
        return email;
    };
    let local = local.split('+').next().unwrap_or(local);
    match domain {
        "gmail.com" | "googlemail.com" => format!("{}@gmail.com", local.replace('.', "")),
        _ => format!("{local}@{domain}"),
    }
}

/// Whether an entry blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockStatus {
    /// It blocks checkout (until `expires_at`, when it has one).
    Active,
    /// Recorded for staff to look at (what a buyer typed at a chargeback); blocks nothing
    /// until confirmed.
    Flagged,
}

impl BlockStatus {
    pub fn as_str(&self) -> &'static str {
        match self {
            BlockStatus::Active => "active",
            BlockStatus::Flagged => "flagged",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "active" => Some(BlockStatus::Active),
            "flagged" => Some(BlockStatus::Flagged),
            _ => None,
        }
    }
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

/// An entry about to be added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBlock {
    pub kind: BlockKind,
    /// Normalised (see [`BlockKind::normalise`]).
    pub value: String,
    pub reason: String,
    /// The member of staff who added it; `None` when the shop did (a chargeback).
    pub added_by: Option<i64>,
    pub created_at: DateTime<Utc>,
    pub status: BlockStatus,
    /// When it stops blocking; `None`: never.
    pub expires_at: Option<DateTime<Utc>>,
}

/// An entry of the blocklist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockEntry {
    pub id: i64,
    pub kind: BlockKind,
    pub value: String,
    pub reason: String,
    /// `None` when the shop added it itself, or the account is gone.
    pub added_by: Option<StaffMember>,
    pub created_at: DateTime<Utc>,
    pub status: BlockStatus,
    /// When it stops blocking; `None`: never.
    pub expires_at: Option<DateTime<Utc>>,
}

impl BlockEntry {
    /// The canonical form an e-mail entry is compared by; `None` for other kinds.
    pub fn canonical(&self) -> Option<String> {
        (self.kind == BlockKind::Email).then(|| canonical_email(&self.value))
    }
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
    pub fn of(buyer: &crate::Buyer, client_ip: Option<&str>) -> Self {
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

/// Where the entries are kept.
#[cfg_attr(test, mockall::automock)]
pub trait BlocklistRepository: Send + Sync + 'static {
    /// The newest `limit` entries, newest first, and how many there are in all.
    fn entries(
        &self,
        limit: u64,
    ) -> impl Future<Output = anyhow::Result<(Vec<BlockEntry>, u64)>> + Send;

    /// Adds the entry, and the audit log's entry for it by `actor` in the same transaction;
    /// `Ok(None)` when its kind and value are on the list already (nothing changed).
    fn add(
        &self,
        entry: NewBlock,
        actor: &Actor,
    ) -> impl Future<Output = anyhow::Result<Option<BlockEntry>>> + Send;

    /// Removes the entry, and records it in the audit log by `actor` in the same transaction;
    /// `false` when there was none with this id (nothing written).
    fn remove(&self, id: i64, actor: &Actor) -> impl Future<Output = anyhow::Result<bool>> + Send;

    /// Makes a flagged entry active, and records it in the audit log by `actor` in the same
    /// transaction; answers the entry as it is now (active already: unchanged, nothing
    /// written), `None` when there is none with this id.
    fn confirm(
        &self,
        id: i64,
        actor: &Actor,
    ) -> impl Future<Output = anyhow::Result<Option<BlockEntry>>> + Send;
}

/// The blocklist's limits (`blocklist.*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlocklistLimits {
    /// The longest reason, in characters.
    pub max_reason_chars: usize,
    /// How many entries the list answers at most (newest first).
    pub list_limit: u64,
}

impl Default for BlocklistLimits {
    fn default() -> Self {
        BlocklistLimits {
            max_reason_chars: 200,
            list_limit: 1000,
        }
    }
}

/// Why a blocklist change did not happen.
#[derive(Debug, thiserror::Error)]
pub enum BlocklistError {
    /// 422: a field is missing or malformed.
    #[error("{message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    /// 409: the same kind and value are blocked already.
    #[error("This {} is on the blocklist already.", .0.label().to_lowercase())]
    Duplicate(BlockKind),
    /// 404.
    #[error("Blocklist entry not found.")]
    NotFound(i64),
    #[error(transparent)]
    Unknown(#[from] anyhow::Error),
}

/// The super_admin's view of the blocklist.
#[derive(Debug, Clone)]
pub struct BlocklistAdmin<R, C> {
    repository: R,
    clock: C,
    limits: BlocklistLimits,
}

impl<R: BlocklistRepository, C: Clock> BlocklistAdmin<R, C> {
    pub fn new(repository: R, clock: C, limits: BlocklistLimits) -> Self {
        BlocklistAdmin {
            repository,
            clock,
            limits,
        }
    }

    /// The newest entries (at most `list_limit`) and the count of all.
    pub async fn list(&self) -> Result<(Vec<BlockEntry>, u64), BlocklistError> {
        Ok(self.repository.entries(self.limits.list_limit).await?)
    }

    /// Adds `value` of `kind` (both as typed) with `reason`, by the staff member `actor`.
    #[tracing::instrument(skip_all, fields(kind = kind))]
    pub async fn add(
        &self,
        kind: &str,
        value: &str,
        reason: &str,
        actor: &Actor,
    ) -> Result<BlockEntry, BlocklistError> {
        let kind = BlockKind::parse(kind).ok_or_else(|| BlocklistError::Invalid {
            field: "kind",
            message: "The kind must be email, discord_id, roblox_username or ip.".to_owned(),
        })?;
        let value = kind
            .normalise(value)
            .map_err(|message| BlocklistError::Invalid {
                field: "value",
                message,
            })?;
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(BlocklistError::Invalid {
                field: "reason",
                message: "Say why this is blocked.".to_owned(),
            });
        }
        if reason.chars().count() > self.limits.max_reason_chars {
            return Err(BlocklistError::Invalid {
                field: "reason",
                message: format!(
                    "The reason can be at most {} characters.",
                    self.limits.max_reason_chars
                ),
            });
        }
        let added = self
            .repository
            .add(
                NewBlock {
                    kind,
                    value,
                    reason: reason.to_owned(),
                    added_by: actor.user_id,
                    created_at: self.clock.now(),
                    status: BlockStatus::Active,
                    expires_at: None,
                },
                actor,
            )
            .await?
            .ok_or(BlocklistError::Duplicate(kind))?;
        tracing::info!(entry = added.id, %kind, "blocklist entry added");
        Ok(added)
    }

    /// Confirms a flagged entry: it blocks from now on.
    #[tracing::instrument(skip(self, actor))]
    pub async fn confirm(&self, id: i64, actor: &Actor) -> Result<BlockEntry, BlocklistError> {
        let entry = self
            .repository
            .confirm(id, actor)
            .await?
            .ok_or(BlocklistError::NotFound(id))?;
        tracing::info!(entry = id, "blocklist entry confirmed");
        Ok(entry)
    }

    #[tracing::instrument(skip(self, actor))]
    pub async fn remove(&self, id: i64, actor: &Actor) -> Result<(), BlocklistError> {
        if self.repository.remove(id, actor).await? {
            tracing::info!(entry = id, "blocklist entry removed");
            Ok(())
        } else {
            Err(BlocklistError::NotFound(id))
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use chrono::TimeZone;
    use promo::FixedClock;

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

    fn staff(id: i64) -> Actor {
        Actor::staff(id, "Ada", "203.0.113.7")
    }

    fn admin(repo: MockBlocklistRepository) -> BlocklistAdmin<MockBlocklistRepository, FixedClock> {
        BlocklistAdmin::new(
            repo,
            FixedClock(Utc.with_ymd_and_hms(2026, 11, 24, 12, 0, 0).unwrap()),
            BlocklistLimits {
                max_reason_chars: 10,
                list_limit: 5,
            },
        )
    }

    #[tokio::test]
    async fn adding_checks_every_field_before_the_store_is_asked() {
        let admin = admin(MockBlocklistRepository::new());
        for (kind, value, reason, field) in [
            ("phone", "1", "why", "kind"),
            ("email", "nope", "why", "value"),
            ("email", "a@b.co", "  ", "reason"),
            ("email", "a@b.co", "far too long a reason", "reason"),
        ] {
            match admin.add(kind, value, reason, &staff(1)).await.unwrap_err() {
                BlocklistError::Invalid { field: got, .. } => assert_eq!(got, field),
                other => panic!("{other:?}"),
            }
        }
    }

    #[tokio::test]
    async fn a_value_blocked_already_is_a_conflict() {
        let mut repo = MockBlocklistRepository::new();
        repo.expect_add()
            .withf(|entry, actor| {
                entry.value == "kid@example.com"
                    && entry.added_by == Some(4)
                    && actor.user_id == Some(4)
            })
            .returning(|_, _| Box::pin(async { Ok(None) }));
        let error = admin(repo)
            .add("email", "KID@example.com", "fraud", &staff(4))
            .await
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "This e-mail is on the blocklist already."
        );
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
