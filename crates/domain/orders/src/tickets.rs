//! The order's Discord ticket: a private thread per paid order in the shop's ticket channel,
//! with the buyer in it and one post per step of the order, archived and locked when the order
//! ends.
//!
//! [`Tickets`] is the outbox's `"ticket"` channel ([`TICKET_CHANNEL`]): the worker hands it one
//! job per event, and it talks to Discord through the [`TicketDesk`] port. The thread id is
//! stored with the order where none is stored yet, so a retried job never makes a second
//! thread; only the paid step opens one. Each job posts its step once (the job row is once per
//! event, and each post carries the event as its nonce, which Discord uses to drop a resend
//! within a few minutes). When the thread cannot be made or the buyer cannot be added, the
//! order goes on: `ticket_problem` says why in a sentence, and the job is retried where that
//! can help. A retried paid job first looks for the order's thread among the channel's active
//! threads (an earlier attempt may have made it without its answer arriving) and adopts it.
//! Every post's id is kept ([`StoredPost`]): when the order is released, delivered or refunded,
//! the claim posts are edited so they no longer show the staff member's private server link.
//! An erased account's order gets one `erased` job carrying its thread, which deletes it.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::anyhow;
use shared::{escape_markdown, DiscordId, UserId};

use crate::{Channel, JobFailed, JobHandler, OrderError, OrderId, OrderStep, OutboxJob};

/// The steps the ticket posts.
pub fn ticket_wants(step: OrderStep) -> bool {
    matches!(
        step,
        OrderStep::Paid
            | OrderStep::Claimed
            | OrderStep::Released
            | OrderStep::Ready
            | OrderStep::Delivered
            | OrderStep::Refunded
            | OrderStep::Held
            | OrderStep::Disputed
            | OrderStep::RiskHeld
            | OrderStep::HoldReleased
            | OrderStep::Message
    )
}

/// The outbox channel of the ticket.
pub const TICKET_CHANNEL: Channel = Channel {
    name: "ticket",
    wants: ticket_wants,
};

/// Why Discord did not do what the ticket asked.
#[derive(Debug, thiserror::Error)]
pub enum DeskError {
    /// 403: the bot lacks a permission in the channel or the thread.
    #[error("the bot lacks a permission: {0}")]
    MissingPermission(String),
    /// The user is not a member of the shop's Discord server.
    #[error("the user is not in the Discord server")]
    UnknownMember,
    /// 404: the channel or thread does not exist (any more).
    #[error("not found on Discord: {0}")]
    NotFound(String),
    /// 5xx, a timeout or no connection.
    #[error("Discord is unavailable: {0}")]
    Unavailable(String),
    /// 429: wait as long as Discord says, then the same call may pass.
    #[error("Discord rate limited the bot")]
    RateLimited(#[source] crate::RateLimited),
    #[error(transparent)]
    Other(anyhow::Error),
}

impl DeskError {
    /// Whether the same call later can succeed.
    pub fn retry_helps(&self) -> bool {
        matches!(
            self,
            DeskError::Unavailable(_) | DeskError::Other(_) | DeskError::RateLimited(_)
        )
    }

    /// The `reason` label of `shop_discord_failures_total`.
    pub fn reason(&self) -> &'static str {
        match self {
            DeskError::MissingPermission(_) => "missing_permission",
            DeskError::UnknownMember => "unknown_member",
            DeskError::NotFound(_) => "not_found",
            DeskError::Unavailable(_) => "unavailable",
            DeskError::RateLimited(_) => "rate_limited",
            DeskError::Other(_) => "other",
        }
    }
}

/// A message for the ticket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketPost {
    pub text: String,
    /// The only users the post may ping; any other mention in the text stays silent.
    pub users: Vec<DiscordId>,
    /// The only roles the post may ping.
    pub roles: Vec<DiscordId>,
    /// Names the post (at most 25 characters): Discord shows a resend with the same nonce
    /// within a few minutes only once.
    pub nonce: String,
}

/// The shop's ticket channel on Discord.
#[cfg_attr(test, mockall::automock)]
pub trait TicketDesk: Send + Sync + 'static {
    /// Opens a private thread named `name` (the buyer cannot invite others); answers its id.
    fn open_thread(&self, name: &str) -> impl Future<Output = Result<DiscordId, DeskError>> + Send;

    /// The open thread named `name` in the ticket channel, if there is one (an earlier attempt
    /// may have made it without its answer reaching the shop).
    fn find_thread(
        &self,
        name: &str,
    ) -> impl Future<Output = Result<Option<DiscordId>, DeskError>> + Send;

    /// Adds the user to the thread; `DeskError::UnknownMember` when they are not in the server.
    fn add_member(
        &self,
        thread: &DiscordId,
        user: &DiscordId,
    ) -> impl Future<Output = Result<(), DeskError>> + Send;

    /// Posts to the thread, letting through only the post's mentions; answers the message's id.
    fn post(
        &self,
        thread: &DiscordId,
        post: &TicketPost,
    ) -> impl Future<Output = Result<DiscordId, DeskError>> + Send;

    /// Replaces the text of a message the shop posted (mentioning no one).
    fn edit_post(
        &self,
        thread: &DiscordId,
        message: &DiscordId,
        text: &str,
    ) -> impl Future<Output = Result<(), DeskError>> + Send;

    /// Deletes the thread and everything in it.
    fn delete_thread(
        &self,
        thread: &DiscordId,
    ) -> impl Future<Output = Result<(), DeskError>> + Send;

    /// Archives and locks the thread.
    fn close_thread(
        &self,
        thread: &DiscordId,
    ) -> impl Future<Output = Result<(), DeskError>> + Send;
}

/// One line of the order, as the ticket lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketItem {
    pub name: String,
    pub quantity: u32,
}

/// What the ticket needs of an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketOrder {
    pub id: OrderId,
    /// The buyer's Discord account (`None` when the stored id is not one).
    pub buyer: Option<DiscordId>,
    pub discord_username: String,
    pub roblox_username: String,
    pub items: Vec<TicketItem>,
    /// The member of staff holding the order now.
    pub claimed_by: Option<UserId>,
    /// The public path (or URL) of the first picture of the order's proof of delivery.
    pub proof_picture: Option<String>,
    pub thread: Option<DiscordId>,
    /// The sentence the staff queue shows when the ticket is missing or the buyer is not in it.
    pub problem: Option<String>,
}

/// A message the shop posted in a ticket, as it is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPost {
    pub order: OrderId,
    /// The event it tells of (one post per event).
    pub event: i64,
    pub step: OrderStep,
    pub message: DiscordId,
    /// The member of staff a claim post names.
    pub staff: Option<UserId>,
    /// It shows the staff member's private server link (a claim post): edited away when the
    /// order is released or ends.
    pub shows_link: bool,
}

/// A message on the order's page, as the ticket mirrors it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketMessage {
    /// Written by staff (else by the buyer).
    pub from_staff: bool,
    /// The buyer's Roblox name, or the member of staff's name.
    pub author: String,
    pub text: String,
}

/// A member of staff, as the claim post names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketStaff {
    pub name: String,
    pub private_server_url: Option<String>,
}

/// Where the ticket reads and keeps its facts.
#[cfg_attr(test, mockall::automock)]
pub trait TicketRepository: Send + Sync + 'static {
    /// `OrderError::NotFound` when there is no such order.
    fn ticket_order(
        &self,
        id: OrderId,
    ) -> impl Future<Output = Result<TicketOrder, OrderError>> + Send;

    /// `None` when there is no such user.
    fn ticket_staff(
        &self,
        user_id: UserId,
    ) -> impl Future<Output = Result<Option<TicketStaff>, OrderError>> + Send;

    /// The order's message `message` (`None`: gone, with the buyer's data).
    fn ticket_message(
        &self,
        order: OrderId,
        message: i64,
    ) -> impl Future<Output = Result<Option<TicketMessage>, OrderError>> + Send;

    /// Stores the thread where the order has none yet; `false` when it already had one (or
    /// there is no such order), which is then kept.
    fn store_thread(
        &self,
        id: OrderId,
        thread: &DiscordId,
    ) -> impl Future<Output = Result<bool, OrderError>> + Send;

    /// Keeps a post's id (once per event: a second call for the same event changes nothing).
    fn store_post(&self, post: StoredPost) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// The order's posts that still show a private server link, oldest first.
    fn linked_posts(
        &self,
        id: OrderId,
    ) -> impl Future<Output = Result<Vec<StoredPost>, OrderError>> + Send;

    /// The post no longer shows its link.
    fn link_removed(
        &self,
        message: &DiscordId,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;

    /// Sets the order's ticket problem, or clears it with `None`.
    fn set_ticket_problem(
        &self,
        id: OrderId,
        problem: Option<String>,
    ) -> impl Future<Output = Result<(), OrderError>> + Send;
}

/// Why an order's ticket is missing or the buyer is not in it, as the staff queue says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TicketProblem {
    NotOpenedNoPermission,
    NotOpenedNoChannel,
    NotOpenedUnavailable,
    BuyerNotInServer,
    BuyerNotAddedNoPermission,
    BuyerNotAddedUnavailable,
    ThreadGone,
}

impl TicketProblem {
    pub const ALL: [TicketProblem; 7] = [
        TicketProblem::NotOpenedNoPermission,
        TicketProblem::NotOpenedNoChannel,
        TicketProblem::NotOpenedUnavailable,
        TicketProblem::BuyerNotInServer,
        TicketProblem::BuyerNotAddedNoPermission,
        TicketProblem::BuyerNotAddedUnavailable,
        TicketProblem::ThreadGone,
    ];

    pub fn sentence(&self) -> &'static str {
        match self {
            TicketProblem::NotOpenedNoPermission => {
                "Ticket not opened: the bot lacks permission in the ticket channel."
            }
            TicketProblem::NotOpenedNoChannel => {
                "Ticket not opened: the ticket channel does not exist."
            }
            TicketProblem::NotOpenedUnavailable => {
                "Ticket not opened: Discord is unavailable; trying again."
            }
            TicketProblem::BuyerNotInServer => {
                "Buyer not added to the ticket: they are not in the Discord server."
            }
            TicketProblem::BuyerNotAddedNoPermission => {
                "Buyer not added to the ticket: the bot lacks permission in the ticket channel."
            }
            TicketProblem::BuyerNotAddedUnavailable => {
                "Buyer not added to the ticket: Discord is unavailable; trying again."
            }
            TicketProblem::ThreadGone => "Ticket lost: its Discord thread no longer exists.",
        }
    }

    pub fn parse(sentence: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.sentence() == sentence)
    }

    fn opening(error: &DeskError) -> Self {
        match error {
            DeskError::MissingPermission(_) => TicketProblem::NotOpenedNoPermission,
            DeskError::NotFound(_) => TicketProblem::NotOpenedNoChannel,
            DeskError::UnknownMember
            | DeskError::Unavailable(_)
            | DeskError::RateLimited(_)
            | DeskError::Other(_) => TicketProblem::NotOpenedUnavailable,
        }
    }

    fn adding(error: &DeskError) -> Self {
        match error {
            DeskError::UnknownMember => TicketProblem::BuyerNotInServer,
            DeskError::MissingPermission(_) => TicketProblem::BuyerNotAddedNoPermission,
            DeskError::NotFound(_) => TicketProblem::ThreadGone,
            DeskError::Unavailable(_) | DeskError::RateLimited(_) | DeskError::Other(_) => {
                TicketProblem::BuyerNotAddedUnavailable
            }
        }
    }

    /// Whether the thread may still be opened by a later attempt of the paid job.
    fn may_still_open(&self) -> bool {
        matches!(self, TicketProblem::NotOpenedUnavailable)
    }
}

/// What the ticket needs from the shop's settings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TicketSettings {
    /// `site.public_url`: the staff queue, pictures and review links.
    pub public_url: String,
    /// `discord.staff_role_id`: mentioned once, when the ticket opens.
    pub staff_role: Option<DiscordId>,
}

/// Why the buyer could not be added to their ticket again.
#[derive(Debug, thiserror::Error)]
pub enum RejoinError {
    #[error("Order not found.")]
    NotFound(OrderId),
    /// 409: the order has no ticket (Discord is off, or it could not be opened).
    #[error("This order has no Discord ticket.")]
    NoTicket,
    /// 409: the buyer has not joined the shop's server (yet).
    #[error("You are not in the shop's Discord server yet: join it, then try again.")]
    NotInServer,
    /// 503: Discord refused or did not answer; staff see why on the order.
    #[error("Discord could not add you right now; try again in a minute.")]
    Unavailable,
    #[error(transparent)]
    Unknown(anyhow::Error),
}

/// Failed Discord calls since start, by reason (`shop_discord_failures_total{reason}`).
#[derive(Debug, Default)]
struct FailureCounts([AtomicU64; 6]);

const REASONS: [&str; 6] = [
    "missing_permission",
    "unknown_member",
    "not_found",
    "unavailable",
    "rate_limited",
    "other",
];

/// The ticket's rules over its ports: the `"ticket"` channel's [`JobHandler`], and the
/// buyer's "add me to my ticket" ([`Tickets::rejoin`]).
#[derive(Debug, Clone)]
pub struct Tickets<R, D> {
    repository: R,
    desk: D,
    settings: TicketSettings,
    failures: Arc<FailureCounts>,
}

fn failed(error: DeskError, what: &str) -> JobFailed {
    let retry = error.retry_helps();
    let invalid = matches!(error, DeskError::MissingPermission(_));
    let error = anyhow::Error::new(error).context(what.to_owned());
    let mut failed = if retry {
        JobFailed::retry(error)
    } else {
        JobFailed::give_up(error)
    };
    failed.invalid |= invalid;
    failed
}

impl<R: TicketRepository, D: TicketDesk> Tickets<R, D> {
    pub fn new(repository: R, desk: D, settings: TicketSettings) -> Self {
        let settings = TicketSettings {
            public_url: settings.public_url.trim_end_matches('/').to_owned(),
            ..settings
        };
        Tickets {
            repository,
            desk,
            settings,
            failures: Arc::default(),
        }
    }

    /// Failed Discord calls so far, per reason, counted by every clone.
    pub fn failures(&self) -> Vec<(&'static str, u64)> {
        REASONS
            .iter()
            .zip(&self.failures.0)
            .map(|(reason, count)| (*reason, count.load(Ordering::Relaxed)))
            .collect()
    }

    fn counted<T>(&self, result: Result<T, DeskError>) -> Result<T, DeskError> {
        if let Err(error) = &result {
            if let Some(i) = REASONS.iter().position(|r| *r == error.reason()) {
                self.failures.0[i].fetch_add(1, Ordering::Relaxed);
            }
        }
        result
    }

    /// Adds the buyer to their order's ticket again (after they joined the server), and clears
    /// the ticket's problem when that works. Who may ask is the caller's rule (the order's
    /// viewers).
    #[tracing::instrument(skip(self))]
    pub async fn rejoin(&self, id: OrderId) -> Result<(), RejoinError> {
        let order = self
            .repository
            .ticket_order(id)
            .await
            .map_err(|e| match e {
                OrderError::NotFound(id) => RejoinError::NotFound(id),
                OrderError::Unknown(e) => RejoinError::Unknown(e),
            })?;
        let Some(thread) = &order.thread else {
            return Err(RejoinError::NoTicket);
        };
        let Some(buyer) = &order.buyer else {
            return Err(RejoinError::NotInServer);
        };
        match self.counted(self.desk.add_member(thread, buyer).await) {
            Ok(()) => {
                if order.problem.is_some() {
                    self.repository
                        .set_ticket_problem(id, None)
                        .await
                        .map_err(|e| RejoinError::Unknown(e.into()))?;
                }
                Ok(())
            }
            Err(error) => {
                let problem = TicketProblem::adding(&error);
                tracing::warn!(order = %id, reason = error.reason(), error = %error, "the buyer was not added to their ticket");
                self.repository
                    .set_ticket_problem(id, Some(problem.sentence().to_owned()))
                    .await
                    .map_err(|e| RejoinError::Unknown(e.into()))?;
                Err(match error {
                    DeskError::UnknownMember => RejoinError::NotInServer,
                    _ => RejoinError::Unavailable,
                })
            }
        }
    }

    /// Records why, and answers the job's failure (retried where that can help).
    async fn trouble(&self, id: OrderId, problem: TicketProblem, error: DeskError) -> JobFailed {
        if let Err(e) = self
            .repository
            .set_ticket_problem(id, Some(problem.sentence().to_owned()))
            .await
        {
            tracing::error!(order = %id, error = %e, "the ticket's problem was not recorded");
        }
        failed(error, problem.sentence())
    }

    /// The paid step: open the thread if the order has none, add the buyer, post the order.
    /// A later attempt first looks for the thread an earlier one may have made (Discord made it
    /// but its answer timed out or could not be read) and adopts it.
    async fn open(&self, order: &TicketOrder, job: &OutboxJob) -> Result<(), JobFailed> {
        let event = job.event.id;
        let thread = match &order.thread {
            Some(thread) => thread.clone(),
            None => {
                let name = format!("order-{}", order.id);
                let earlier = if job.attempts > 0 {
                    self.counted(self.desk.find_thread(&name).await)
                        .map_err(|e| failed(e, "failed to look for the ticket's thread"))?
                } else {
                    None
                };
                let made = match earlier {
                    Some(found) => Ok(found),
                    None => self.desk.open_thread(&name).await,
                };
                match self.counted(made) {
                    Ok(made) => self.keep(order.id, made).await?,
                    Err(error) => {
                        return Err(self
                            .trouble(order.id, TicketProblem::opening(&error), error)
                            .await)
                    }
                }
            }
        };
        let joined = match &order.buyer {
            Some(buyer) => self.counted(self.desk.add_member(&thread, buyer).await),
            None => Err(DeskError::UnknownMember),
        };
        let joined = match joined {
            // Discord is down: the post would fail too; the next attempt does both.
            Err(error) if error.retry_helps() => {
                return Err(self
                    .trouble(order.id, TicketProblem::adding(&error), error)
                    .await)
            }
            joined => joined,
        };
        let post = self.paid_post(order, event);
        let message = self
            .counted(self.desk.post(&thread, &post).await)
            .map_err(|e| failed(e, "failed to post the order in its ticket"))?;
        self.keep_post(StoredPost {
            order: order.id,
            event,
            step: OrderStep::Paid,
            message,
            staff: None,
            shows_link: false,
        })
        .await?;
        match joined {
            Ok(()) => {
                if order.problem.is_some() {
                    self.repository
                        .set_ticket_problem(order.id, None)
                        .await
                        .map_err(|e| JobFailed::retry(e.into()))?;
                }
                Ok(())
            }
            Err(error) => Err(self
                .trouble(order.id, TicketProblem::adding(&error), error)
                .await),
        }
    }

    /// Stores a thread just made; when another attempt stored one first, that one is kept and
    /// this one closed.
    async fn keep(&self, id: OrderId, made: DiscordId) -> Result<DiscordId, JobFailed> {
        let stored = self.repository.store_thread(id, &made).await.map_err(|e| {
            JobFailed::retry(anyhow::Error::new(e).context("failed to store the ticket's thread"))
        })?;
        if stored {
            return Ok(made);
        }
        let order = self.read(id).await?;
        if let Err(error) = self.counted(self.desk.close_thread(&made).await) {
            tracing::warn!(order = %id, thread = %made, error = %error, "a second ticket thread was left open");
        }
        order
            .thread
            .ok_or_else(|| JobFailed::give_up(anyhow!("order {id} is gone")))
    }

    /// The order, for a job: gone is for good, anything else may pass.
    async fn read(&self, id: OrderId) -> Result<TicketOrder, JobFailed> {
        self.repository.ticket_order(id).await.map_err(|e| match e {
            OrderError::NotFound(id) => JobFailed::give_up(anyhow!("order {id} is gone")),
            OrderError::Unknown(e) => JobFailed::retry(e),
        })
    }

    fn buyer_mention(order: &TicketOrder) -> (String, Vec<DiscordId>) {
        match &order.buyer {
            Some(buyer) => (format!("<@{buyer}>"), vec![buyer.clone()]),
            None => (escape_markdown(&order.discord_username), vec![]),
        }
    }

    fn paid_post(&self, order: &TicketOrder, event: i64) -> TicketPost {
        let (buyer, users) = Self::buyer_mention(order);
        let mut text = String::new();
        if let Some(role) = &self.settings.staff_role {
            text.push_str(&format!("<@&{role}> "));
        }
        text.push_str(&format!(
            "New order #{} for {buyer} ({})\n",
            order.id,
            escape_markdown(&order.discord_username)
        ));
        for item in &order.items {
            text.push_str(&format!(
                "• {} × {}\n",
                item.quantity,
                escape_markdown(&item.name)
            ));
        }
        text.push_str(&format!(
            "Roblox name: {}\nStaff queue: {}/admin/orders",
            escape_markdown(&order.roblox_username),
            self.settings.public_url
        ));
        TicketPost {
            text,
            users,
            roles: self.settings.staff_role.iter().cloned().collect(),
            nonce: format!("e{event}"),
        }
    }

    fn absolute(&self, link: &str) -> String {
        if link.starts_with("https://") || link.starts_with("http://") {
            link.to_owned()
        } else {
            format!("{}{link}", self.settings.public_url)
        }
    }

    /// Keeps a post's id, so it can be edited later.
    async fn keep_post(&self, post: StoredPost) -> Result<(), JobFailed> {
        self.repository.store_post(post).await.map_err(|e| {
            JobFailed::retry(anyhow::Error::new(e).context("failed to keep the post's id"))
        })
    }

    /// The claim post's words, with the staff member's private server link or without it.
    fn claim_text(buyer: &str, staff: Option<&TicketStaff>, with_link: bool) -> String {
        match staff {
            Some(TicketStaff {
                name,
                private_server_url: Some(url),
            }) if with_link => format!(
                "{buyer} Claimed by {} — private server: {url}",
                escape_markdown(name)
            ),
            Some(TicketStaff { name, .. }) => {
                format!("{buyer} Claimed by {}", escape_markdown(name))
            }
            None => format!("{buyer} Claimed by a member of staff"),
        }
    }

    async fn staff(&self, staff: Option<UserId>) -> Result<Option<TicketStaff>, JobFailed> {
        match staff {
            Some(staff) => self
                .repository
                .ticket_staff(staff)
                .await
                .map_err(|e| JobFailed::retry(e.into())),
            None => Ok(None),
        }
    }

    /// The post of a later step; `None` for a step the ticket does not post.
    async fn step_post(
        &self,
        order: &TicketOrder,
        step: OrderStep,
        staff_id: Option<UserId>,
    ) -> Result<Option<StepPost>, JobFailed> {
        let text = match step {
            OrderStep::Claimed => {
                let staff_id = staff_id.or(order.claimed_by);
                let staff = self.staff(staff_id).await?;
                let (buyer, users) = Self::buyer_mention(order);
                let shows_link = staff
                    .as_ref()
                    .is_some_and(|staff| staff.private_server_url.is_some());
                return Ok(Some(StepPost {
                    text: Self::claim_text(&buyer, staff.as_ref(), true),
                    users,
                    staff: staff_id,
                    shows_link,
                }));
            }
            OrderStep::Ready => "The buyer is in the game.".to_owned(),
            OrderStep::Delivered => {
                let review = format!("{}/orders/{}", self.settings.public_url, order.id);
                match &order.proof_picture {
                    Some(picture) => format!(
                        "Delivered. Proof: {}\nLeave a review: {review}",
                        self.absolute(picture)
                    ),
                    None => format!("Delivered.\nLeave a review: {review}"),
                }
            }
            OrderStep::Refunded => "Refunded. This ticket is closed.".to_owned(),
            OrderStep::Held => "On hold: staff are checking the payment.".to_owned(),
            // the buyer reads this thread: the hold's reason is never said
            OrderStep::RiskHeld => {
                "On hold: we're checking this payment before delivery.".to_owned()
            }
            OrderStep::HoldReleased => "Checked: back in the delivery queue.".to_owned(),
            OrderStep::Disputed => {
                "The payment is disputed with the bank; staff will follow up here.".to_owned()
            }
            _ => return Ok(None),
        };
        Ok(Some(StepPost {
            text,
            users: vec![],
            staff: None,
            shows_link: false,
        }))
    }

    /// The post of a message on the order's page (the event's note names it): who wrote it and
    /// what, every typed character escaped (a `@everyone` stays text; the post lets no mention
    /// through either). `None` when the message is gone (erased with the buyer's data).
    async fn message_post(
        &self,
        order: &TicketOrder,
        event: &crate::OrderEvent,
    ) -> Result<Option<StepPost>, JobFailed> {
        let Some(id) = event
            .note
            .as_deref()
            .and_then(|note| note.parse::<i64>().ok())
        else {
            tracing::warn!(order = %order.id, event = event.id, "a message step names no message");
            return Ok(None);
        };
        let message = self
            .repository
            .ticket_message(order.id, id)
            .await
            .map_err(|e| JobFailed::retry(e.into()))?;
        Ok(message.map(|message| {
            let who = if message.from_staff {
                format!("{} (staff)", escape_markdown(&message.author))
            } else {
                format!("The buyer, {},", escape_markdown(&message.author))
            };
            StepPost {
                text: format!(
                    "{who} wrote on the order page: {}",
                    escape_markdown(&message.text)
                ),
                users: vec![],
                staff: None,
                shows_link: false,
            }
        }))
    }

    /// Edits the order's claim posts so they no longer show a private server link (the order
    /// was released, or it ended).
    async fn remove_links(&self, order: &TicketOrder, thread: &DiscordId) -> Result<(), JobFailed> {
        let posts = self
            .repository
            .linked_posts(order.id)
            .await
            .map_err(|e| JobFailed::retry(e.into()))?;
        for post in posts {
            let staff = self.staff(post.staff).await?;
            let (buyer, _) = Self::buyer_mention(order);
            let text = Self::claim_text(&buyer, staff.as_ref(), false);
            match self.counted(self.desk.edit_post(thread, &post.message, &text).await) {
                // a post someone deleted shows no link either
                Ok(()) | Err(DeskError::NotFound(_)) => {}
                Err(error) => return Err(failed(error, "failed to remove the claim's link")),
            }
            self.repository
                .link_removed(&post.message)
                .await
                .map_err(|e| JobFailed::retry(e.into()))?;
        }
        Ok(())
    }

    /// A later step: post it in the thread, take the private server link off the claim posts
    /// when the order is released or ends, and close the thread when the order ends.
    async fn follow(&self, order: &TicketOrder, job: &OutboxJob) -> Result<(), JobFailed> {
        let Some(thread) = &order.thread else {
            let opening = order
                .problem
                .as_deref()
                .and_then(TicketProblem::parse)
                .is_none_or(|problem| problem.may_still_open());
            return if opening {
                Err(JobFailed::retry(anyhow!("the ticket is not open yet")))
            } else {
                // no thread will come: nothing to post to
                Ok(())
            };
        };
        let step = job.event.step;
        let step_post = match step {
            OrderStep::Message => self.message_post(order, &job.event).await?,
            _ => self.step_post(order, step, job.event.staff_id).await?,
        };
        if let Some(step_post) = step_post {
            let post = TicketPost {
                text: step_post.text,
                users: step_post.users,
                roles: vec![],
                nonce: format!("e{}", job.event.id),
            };
            let message = self
                .counted(self.desk.post(thread, &post).await)
                .map_err(|e| failed(e, "failed to post in the ticket"))?;
            self.keep_post(StoredPost {
                order: order.id,
                event: job.event.id,
                step,
                message,
                staff: step_post.staff,
                shows_link: step_post.shows_link,
            })
            .await?;
        }
        if matches!(
            step,
            OrderStep::Released | OrderStep::Delivered | OrderStep::Refunded
        ) {
            self.remove_links(order, thread).await?;
        }
        if matches!(step, OrderStep::Delivered | OrderStep::Refunded) {
            self.counted(self.desk.close_thread(thread).await)
                .map_err(|e| failed(e, "failed to archive and lock the ticket"))?;
        }
        Ok(())
    }

    /// The erased order's ticket: its thread is deleted (gone already is as good).
    async fn erase(&self, job: &OutboxJob) -> Result<(), JobFailed> {
        let Some(thread) = &job.thread else {
            return Ok(());
        };
        match self.counted(self.desk.delete_thread(thread).await) {
            Ok(()) | Err(DeskError::NotFound(_)) => Ok(()),
            Err(error) => Err(failed(error, "failed to delete the erased order's ticket")),
        }
    }
}

/// What a later step posts.
struct StepPost {
    text: String,
    users: Vec<DiscordId>,
    staff: Option<UserId>,
    shows_link: bool,
}

impl<R: TicketRepository, D: TicketDesk> JobHandler for Tickets<R, D> {
    async fn handle(&self, job: &OutboxJob) -> Result<(), JobFailed> {
        if job.event.step == OrderStep::Erased {
            return self.erase(job).await;
        }
        let order = self.read(job.event.order_id).await?;
        match job.event.step {
            OrderStep::Paid => self.open(&order, job).await,
            _ => self.follow(&order, job).await,
        }
    }
}

#[cfg(test)]
#[path = "tickets_tests.rs"]
mod tests;
