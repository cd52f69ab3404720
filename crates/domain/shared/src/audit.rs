//! The staff audit log: who did what to which thing, the values before and after, when and
//! from which address.
//!
//! An audited write takes the [`Actor`] explicitly, from the handler through the domain service
//! into the repository port's write method, and the store appends the entry in the same
//! transaction as the change (reading the "before" values inside it). A refused write appends
//! nothing. Nothing updates or deletes an entry; [`AuditLog`] only reads.

use std::fmt;
use std::future::Future;

use chrono::{DateTime, Utc};

use crate::UserId;

/// Who did a staff action and from where: a signed-in staff member (with the client address
/// the request came from) or the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    /// The staff member's user id; `None` for the command line.
    pub user_id: Option<UserId>,
    /// Their name at the time (kept when the account changes or goes).
    pub name: String,
    /// The client's address (through trusted proxies); `None` for the command line.
    pub ip: Option<String>,
}

impl Actor {
    /// The name the command line acts under.
    pub const COMMAND_LINE: &'static str = "command line";

    /// A signed-in staff member acting from this address.
    pub fn staff(user_id: UserId, name: impl Into<String>, ip: impl fmt::Display) -> Actor {
        Actor {
            user_id: Some(user_id),
            name: name.into(),
            ip: Some(ip.to_string()),
        }
    }

    /// `garden-shop` run by the operator: no user, no address.
    pub fn command_line() -> Actor {
        Actor {
            user_id: None,
            name: Actor::COMMAND_LINE.to_owned(),
            ip: None,
        }
    }
}

macro_rules! audit_kinds {
    ($($(#[$doc:meta])* $variant:ident => $name:literal,)+) => {
        /// What kind of staff action an entry records; stored as its dotted name.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum AuditKind {
            $($(#[$doc])* $variant,)+
        }

        impl AuditKind {
            /// Every kind, in the order the filter lists them.
            pub const ALL: &'static [AuditKind] = &[$(AuditKind::$variant,)+];

            /// The dotted name stored and sent, e.g. `stock.set`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(AuditKind::$variant => $name,)+
                }
            }

            /// The kind with this dotted name.
            pub fn parse(name: &str) -> Option<AuditKind> {
                match name {
                    $($name => Some(AuditKind::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

audit_kinds! {
    /// A product added to the catalog.
    ProductCreate => "product.create",
    /// A product's fields replaced from the form.
    ProductUpdate => "product.update",
    /// A product deleted, or archived because orders name it.
    ProductDelete => "product.delete",
    /// Products given new positions.
    ProductReorder => "product.reorder",
    /// A product's stock set to a count.
    StockSet => "stock.set",
    /// A product's stock changed by a number of units (plus or minus).
    StockChange => "stock.change",
    /// A promo code created.
    PromoCreate => "promo.create",
    /// A promo code's discount, expiry, use limit or active flag changed.
    PromoUpdate => "promo.update",
    /// A promo code no order used, deleted.
    PromoDelete => "promo.delete",
    /// A paid order taken by a staff member.
    OrderClaim => "order.claim",
    /// A claimed order given back to the queue.
    OrderRelease => "order.release",
    /// An order marked delivered.
    OrderDeliver => "order.deliver",
    /// A member of staff's private server link set, changed or removed (the entry says
    /// whether one is set, never the link).
    PrivateServerSet => "staff.private_server",
    /// A refund asked of the payment provider.
    OrderRefund => "order.refund",
    /// A paid order on a risk hold put back in the delivery queue.
    OrderHoldRelease => "order.hold_release",
    /// A message to an order's buyer on the order page (the entry names the message by its
    /// id, never its text).
    OrderMessage => "order.message",
    /// A dispute's evidence submitted to the bank by a member of staff.
    DisputeSubmit => "dispute.submit",
    /// A dispute accepted: the money stays with the buyer.
    DisputeAccept => "dispute.accept",
    /// A proof of delivery added.
    ProofCreate => "proof.create",
    /// A proof of delivery deleted.
    ProofDelete => "proof.delete",
    /// A help chat deleted.
    ChatDelete => "chat.delete",
    /// An identity added to the blocklist.
    BlocklistAdd => "blocklist.add",
    /// An identity taken off the blocklist.
    BlocklistRemove => "blocklist.remove",
    /// A flagged blocklist entry confirmed: it blocks from now on.
    BlocklistConfirm => "blocklist.confirm",
    /// A review hidden from /reviews.
    ReviewHide => "review.hide",
    /// An account created from the command line.
    UserCreate => "user.create",
    /// An account's role changed from the command line.
    UserRole => "user.role",
    /// An account's name changed from the command line.
    UserName => "user.name",
    /// An account's password changed from the command line (the entry never holds it).
    UserPassword => "user.password",
}

impl fmt::Display for AuditKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One entry as read back. `before` and `after` are JSON text (`None` where there is none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    pub id: i64,
    pub at: DateTime<Utc>,
    pub actor_id: Option<i64>,
    pub actor_name: String,
    /// The dotted kind as stored (see [`AuditKind`]).
    pub kind: String,
    /// What was acted on, e.g. `product:12`.
    pub target: String,
    pub before: Option<String>,
    pub after: Option<String>,
    pub ip: Option<String>,
}

/// Whose entries to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActorFilter {
    /// The staff member with this user id.
    Staff(i64),
    /// The command line (entries without a user).
    CommandLine,
}

/// Which entries to read: all filters optional, newest first, `limit` at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditQuery {
    pub actor: Option<ActorFilter>,
    pub kind: Option<AuditKind>,
    /// At or after this time.
    pub since: Option<DateTime<Utc>>,
    /// Strictly before this time.
    pub before: Option<DateTime<Utc>>,
    /// Only entries older than this entry id (the previous page's cursor).
    pub older_than: Option<i64>,
    pub limit: u64,
}

/// Someone who has entries in the log, under the name of their latest entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditActor {
    /// `None` for the command line.
    pub id: Option<i64>,
    pub name: String,
}

/// Reads the audit log. There is no write here: entries are appended by the audited writes
/// themselves, inside their transactions.
pub trait AuditLog: Send + Sync + 'static {
    /// The entries that match, newest first, at most `query.limit`.
    fn audit_entries(
        &self,
        query: &AuditQuery,
    ) -> impl Future<Output = anyhow::Result<Vec<AuditEntry>>> + Send;

    /// Everyone with entries (for the filter), by name.
    fn audit_actors(&self) -> impl Future<Output = anyhow::Result<Vec<AuditActor>>> + Send;
}

/// A page of the log: its entries (newest first), where the next page starts, and everyone
/// with entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditPage {
    pub entries: Vec<AuditEntry>,
    /// The id to read on from (`AuditQuery::older_than`); `None` on the last page.
    pub next_cursor: Option<i64>,
    pub actors: Vec<AuditActor>,
}

/// The super_admin's reading of the log, a page at a time.
#[derive(Debug, Clone)]
pub struct AuditTrail<R> {
    log: R,
}

impl<R: AuditLog> AuditTrail<R> {
    pub fn new(log: R) -> Self {
        AuditTrail { log }
    }

    /// The entries `query` selects, at most `query.limit`, and the cursor of the next page
    /// when there are more.
    pub async fn page(&self, query: AuditQuery) -> anyhow::Result<AuditPage> {
        let limit = usize::try_from(query.limit).unwrap_or(usize::MAX);
        // one more than asked: whether a next page exists
        let mut entries = self
            .log
            .audit_entries(&AuditQuery {
                limit: query.limit.saturating_add(1),
                ..query
            })
            .await?;
        let more = entries.len() > limit;
        entries.truncate(limit);
        let next_cursor = if more {
            entries.last().map(|entry| entry.id)
        } else {
            None
        };
        Ok(AuditPage {
            entries,
            next_cursor,
            actors: self.log.audit_actors().await?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log of entries 1..=n, newest (highest id) first.
    struct Log(i64);

    impl AuditLog for Log {
        async fn audit_entries(&self, query: &AuditQuery) -> anyhow::Result<Vec<AuditEntry>> {
            let below = query.older_than.unwrap_or(i64::MAX);
            Ok((1..=self.0)
                .rev()
                .filter(|id| *id < below)
                .take(usize::try_from(query.limit).unwrap_or(usize::MAX))
                .map(|id| AuditEntry {
                    id,
                    at: DateTime::<Utc>::default(),
                    actor_id: None,
                    actor_name: Actor::COMMAND_LINE.to_owned(),
                    kind: AuditKind::UserPassword.as_str().to_owned(),
                    target: format!("user:{id}"),
                    before: None,
                    after: None,
                    ip: None,
                })
                .collect())
        }

        async fn audit_actors(&self) -> anyhow::Result<Vec<AuditActor>> {
            Ok(vec![AuditActor {
                id: None,
                name: Actor::COMMAND_LINE.to_owned(),
            }])
        }
    }

    fn query(older_than: Option<i64>, limit: u64) -> AuditQuery {
        AuditQuery {
            actor: None,
            kind: None,
            since: None,
            before: None,
            older_than,
            limit,
        }
    }

    #[tokio::test]
    async fn pages_follow_the_cursor_to_the_last_one() {
        let trail = AuditTrail::new(Log(5));
        let first = trail.page(query(None, 2)).await.unwrap();
        let ids: Vec<i64> = first.entries.iter().map(|e| e.id).collect();
        assert_eq!((ids, first.next_cursor), (vec![5, 4], Some(4)));
        let second = trail.page(query(Some(4), 2)).await.unwrap();
        assert_eq!(second.next_cursor, Some(2));
        let last = trail.page(query(Some(2), 2)).await.unwrap();
        let ids: Vec<i64> = last.entries.iter().map(|e| e.id).collect();
        assert_eq!((ids, last.next_cursor), (vec![1], None));
        // exactly a page left: no next page
        let exact = AuditTrail::new(Log(2)).page(query(None, 2)).await.unwrap();
        assert_eq!((exact.entries.len(), exact.next_cursor), (2, None));
        assert_eq!(exact.actors.len(), 1);
    }

    #[test]
    fn every_kind_reads_back_from_its_dotted_name() {
        for kind in AuditKind::ALL {
            assert_eq!(AuditKind::parse(kind.as_str()), Some(*kind));
            assert!(kind.as_str().contains('.'), "{kind}");
        }
        assert_eq!(AuditKind::parse("stock.set"), Some(AuditKind::StockSet));
        assert_eq!(AuditKind::parse("Stock.Set"), None);
        assert_eq!(AuditKind::parse(""), None);
    }

    #[test]
    fn the_command_line_has_no_user_and_no_address() {
        let cli = Actor::command_line();
        assert_eq!((cli.user_id, cli.ip.as_deref()), (None, None));
        assert_eq!(cli.name, "command line");
        let staff = Actor::staff(
            UserId::new(7),
            "Ada",
            std::net::Ipv4Addr::new(203, 0, 113, 7),
        );
        assert_eq!(staff.ip.as_deref(), Some("203.0.113.7"));
    }
}
