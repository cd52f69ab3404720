//! The Discord ticket's facts on both databases: what the ticket shows of an order and its
//! staff, the thread id (stored only where none is: `UPDATE … WHERE ticket_thread_id IS NULL`,
//! so a second attempt never replaces the first thread) and the ticket's problem.

use anyhow::Context;
use orders::tickets::{StoredPost, TicketItem, TicketOrder, TicketRepository, TicketStaff};
use orders::{DiscordId, OrderError, OrderId, OrderStep};
use shared::UserId;

use crate::sql::{fetch_all, fetch_one};
use crate::Store;

impl TicketRepository for Store {
    async fn ticket_message(
        &self,
        order: OrderId,
        message: i64,
    ) -> Result<Option<orders::tickets::TicketMessage>, OrderError> {
        self.ticket_message_of(order, message).await
    }

    #[tracing::instrument(skip(self))]
    async fn ticket_order(&self, id: OrderId) -> Result<TicketOrder, OrderError> {
        let picture = crate::proofs::first_picture("o.proof_id");
        let row = fetch_one(
            &self.db,
            &format!(
                "SELECT o.discord_id, o.discord_username, o.roblox_username, o.claimed_by, \
                     o.ticket_thread_id, o.ticket_problem, {picture} AS proof_picture \
                     FROM orders o WHERE o.id = ?"
            ),
            vec![id.get().into()],
        )
        .await
        .with_context(|| format!("failed to read the ticket of order {id}"))?
        .ok_or(OrderError::NotFound(id))?;
        let lines = fetch_all(
            &self.db,
            "SELECT name, quantity FROM order_lines WHERE order_id = ? ORDER BY position",
            vec![id.get().into()],
        )
        .await
        .with_context(|| format!("failed to read the lines of order {id}"))?;
        let items = lines
            .iter()
            .map(|line| {
                let quantity: i32 = line.try_get("", "quantity")?;
                Ok(TicketItem {
                    name: line.try_get("", "name")?,
                    quantity: u32::try_from(quantity).unwrap_or(0),
                })
            })
            .collect::<Result<Vec<_>, sea_orm::DbErr>>()
            .context("bad order line")?;
        // NULL once the buyer deleted their account
        let discord_id: Option<String> = row.try_get("", "discord_id").context("bad discord_id")?;
        let thread: Option<String> = row
            .try_get("", "ticket_thread_id")
            .context("bad ticket_thread_id")?;
        let thread = thread
            .map(|thread| {
                DiscordId::parse(&thread)
                    .with_context(|| format!("order {id} has a bad ticket thread {thread:?}"))
            })
            .transpose()?;
        Ok(TicketOrder {
            id,
            buyer: discord_id.and_then(|id| DiscordId::parse(&id).ok()),
            discord_username: row
                .try_get("", "discord_username")
                .context("bad discord_username")?,
            roblox_username: row
                .try_get("", "roblox_username")
                .context("bad roblox_username")?,
            items,
            claimed_by: row
                .try_get::<Option<i64>>("", "claimed_by")
                .context("bad claimed_by")?
                .map(UserId::new),
            proof_picture: row
                .try_get("", "proof_picture")
                .context("bad proof_picture")?,
            thread,
            problem: row
                .try_get("", "ticket_problem")
                .context("bad ticket_problem")?,
        })
    }

    #[tracing::instrument(skip(self))]
    async fn ticket_staff(&self, user_id: UserId) -> Result<Option<TicketStaff>, OrderError> {
        let stored = crate::accounts::staff_member(&self.db, user_id.get()).await?;
        Ok(stored.map(|(name, link)| TicketStaff {
            name,
            private_server_url: crate::delivery::kept_link(link),
        }))
    }

    #[tracing::instrument(skip(self))]
    async fn store_post(&self, post: StoredPost) -> Result<(), OrderError> {
        self.execute(
            "INSERT INTO ticket_posts \
             (order_id, event_id, step, message_id, staff_id, shows_link, created_at) \
             VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING",
            vec![
                post.order.get().into(),
                post.event.into(),
                post.step.as_str().into(),
                post.message.as_str().into(),
                post.staff.map(|s| s.get()).into(),
                post.shows_link.into(),
                self.now().into(),
            ],
            "keep a ticket post's id",
        )
        .await?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn linked_posts(&self, id: OrderId) -> Result<Vec<StoredPost>, OrderError> {
        let rows = fetch_all(
            &self.db,
            "SELECT event_id, step, message_id, staff_id FROM ticket_posts \
                 WHERE order_id = ? AND shows_link = ? ORDER BY event_id",
            vec![id.get().into(), true.into()],
        )
        .await
        .with_context(|| format!("failed to read the linked posts of order {id}"))?;
        let mut posts = Vec::with_capacity(rows.len());
        for row in rows {
            let step: String = row.try_get("", "step").context("bad step")?;
            let message: String = row.try_get("", "message_id").context("bad message_id")?;
            posts.push(StoredPost {
                order: id,
                event: row.try_get("", "event_id").context("bad event_id")?,
                step: OrderStep::parse(&step)
                    .with_context(|| format!("a ticket post has an unknown step {step:?}"))?,
                message: DiscordId::parse(&message)
                    .with_context(|| format!("a ticket post has a bad id {message:?}"))?,
                staff: row
                    .try_get::<Option<i64>>("", "staff_id")
                    .context("bad staff_id")?
                    .map(UserId::new),
                shows_link: true,
            });
        }
        Ok(posts)
    }

    #[tracing::instrument(skip(self))]
    async fn link_removed(&self, message: &DiscordId) -> Result<(), OrderError> {
        self.execute(
            "UPDATE ticket_posts SET shows_link = ?, edited_at = ? WHERE message_id = ?",
            vec![false.into(), self.now().into(), message.as_str().into()],
            "record a claim post's link removed",
        )
        .await?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn store_thread(&self, id: OrderId, thread: &DiscordId) -> Result<bool, OrderError> {
        let stored = self
            .execute(
                "UPDATE orders SET ticket_thread_id = ? WHERE id = ? AND ticket_thread_id IS NULL",
                vec![thread.as_str().into(), id.get().into()],
                "store the ticket's thread",
            )
            .await?;
        Ok(stored == 1)
    }

    #[tracing::instrument(skip(self))]
    async fn set_ticket_problem(
        &self,
        id: OrderId,
        problem: Option<String>,
    ) -> Result<(), OrderError> {
        let problem = problem.map(|p| p.chars().take(300).collect::<String>());
        self.execute(
            "UPDATE orders SET ticket_problem = ? WHERE id = ?",
            vec![problem.into(), id.get().into()],
            "record the ticket's problem",
        )
        .await?;
        Ok(())
    }
}
