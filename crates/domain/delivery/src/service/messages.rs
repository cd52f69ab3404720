//! The line between an order's buyer and the shop's staff on the order page: who may write
//! when (the buyer while the order is paid and for a few days after its delivery; any member
//! of staff in the same window), how many messages a minute each side of an order may write
//! (counted atomically in the shared store, so every instance agrees), and what is kept and
//! told (the store keeps the message with its outbox step and, for staff, an audit entry by
//! id; server push and the Discord ticket hear of it from there).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use orders::{OrderId, OrderStatus};
use shared::{admit, Actor, Clock, RateLimiter, Rule};

use crate::error::{MessageError, MessagesClosed};
use crate::models::{
    message_limit_key, MessageSettings, MessageSide, MessageText, NewOrderMessage, OrderMessage,
    MESSAGES_BUCKET,
};
use crate::ports::{DeliveryNotices, MessageRepository};

/// Who writes: the order's buyer, or a member of staff acting as `Actor`.
#[derive(Debug, Clone, Copy)]
pub enum MessageAuthor<'a> {
    Buyer,
    Staff(&'a Actor),
}

impl MessageAuthor<'_> {
    fn side(&self) -> MessageSide {
        match self {
            MessageAuthor::Buyer => MessageSide::Buyer,
            MessageAuthor::Staff(_) => MessageSide::Staff,
        }
    }
}

/// The line's rules over the store, the shared rate limit counters and a clock.
#[derive(Clone)]
pub struct OrderMessages<R, L, C> {
    repository: R,
    limiter: L,
    clock: C,
    settings: MessageSettings,
    notices: Arc<dyn DeliveryNotices>,
}

impl<R, L, C> OrderMessages<R, L, C>
where
    R: MessageRepository,
    L: RateLimiter,
    C: Clock,
{
    pub fn new(repository: R, limiter: L, clock: C, settings: MessageSettings) -> Self {
        OrderMessages {
            repository,
            limiter,
            clock,
            settings,
            notices: Arc::new(shared::Unheard),
        }
    }

    /// The same service telling `notices` of each message it keeps.
    pub fn with_notices(mut self, notices: Arc<dyn DeliveryNotices>) -> Self {
        self.notices = notices;
        self
    }

    pub fn settings(&self) -> MessageSettings {
        self.settings
    }

    /// The order's messages, oldest first (`MessageError::NotFound` for no such order). Who
    /// may read them is the caller's rule (the order's viewers, or staff).
    #[tracing::instrument(skip(self))]
    pub async fn thread(&self, order: OrderId) -> Result<Vec<OrderMessage>, MessageError> {
        self.repository.message_window(order).await?;
        Ok(self.repository.order_messages(order).await?)
    }

    /// Keeps `text` from `author` on the order: 422 for an empty or too long text, 409 when the
    /// order is not open for messages, 429 past the side's limit this minute (a refused message
    /// still counts, so a flood stays refused until the minute ends).
    #[tracing::instrument(skip(self, text, author), fields(side = %author.side()))]
    pub async fn post(
        &self,
        order: OrderId,
        author: MessageAuthor<'_>,
        text: &str,
    ) -> Result<OrderMessage, MessageError> {
        let text = MessageText::parse(text)?;
        let side = author.side();
        let now = self.clock.now();
        let (status, delivered_at) = self.repository.message_window(order).await?;
        if !self.settings.open(status, delivered_at, now) {
            return Err(self.closed(status));
        }
        let rule = Rule::per_minute(self.settings.per_minute);
        let key = message_limit_key(order, side);
        match admit(&self.limiter, MESSAGES_BUCKET, &key, rule, now).await {
            Ok(Ok(())) => {}
            Ok(Err(refused)) => {
                tracing::info!(order = %order, side = %side, "message limit reached");
                return Err(MessageError::TooMany {
                    retry_after: refused.retry_after,
                });
            }
            Err(error) => return Err(MessageError::Unknown(error.into())),
        }
        let (staff, actor) = match author {
            MessageAuthor::Buyer => (None, None),
            MessageAuthor::Staff(actor) => (actor.user_id, Some(actor.clone())),
        };
        let message = NewOrderMessage {
            order_id: order,
            from: side,
            staff,
            text,
            at: now,
        };
        let since: DateTime<Utc> = self.settings.delivered_since(now);
        match self.repository.add_message(&message, since, actor).await? {
            Some(kept) => {
                self.notices.message_posted(&kept).await;
                Ok(kept)
            }
            // the order moved on between the read and the write (refunded, disputed)
            None => {
                let (status, _) = self.repository.message_window(order).await?;
                Err(self.closed(status))
            }
        }
    }

    /// The 409 for an order in `status` that takes no message.
    fn closed(&self, status: OrderStatus) -> MessageError {
        MessageError::Closed(match status {
            OrderStatus::Pending => MessagesClosed::NotPaid,
            OrderStatus::Delivered => MessagesClosed::AfterDelivery {
                days: self.settings.days_after_delivery,
            },
            _ => MessagesClosed::Closed,
        })
    }
}

#[cfg(test)]
#[path = "messages_tests.rs"]
mod tests;
