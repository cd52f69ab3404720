//! The line between an order's buyer and the shop's staff on the order page, as the API reads
//! and sends it.

use delivery::{MessageSide, OrderMessage};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A message to write.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = OrderMessageRequest)]
pub struct OrderMessagePayload {
    /// 1 to 1,000 characters after trimming; shown as plain text.
    #[serde(default)]
    #[schema(
        required = true,
        min_length = 1,
        max_length = 1000,
        example = "I can't join the server"
    )]
    pub text: String,
}

/// Who wrote a message: the order's buyer or a member of staff.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MessageFrom {
    Buyer,
    Staff,
}

impl From<MessageSide> for MessageFrom {
    fn from(side: MessageSide) -> Self {
        match side {
            MessageSide::Buyer => MessageFrom::Buyer,
            MessageSide::Staff => MessageFrom::Staff,
        }
    }
}

/// One message of an order's thread.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OrderMessageResponse {
    pub id: i64,
    pub from: MessageFrom,
    /// The buyer's Roblox name, or the member of staff's name.
    #[schema(example = "Builderman")]
    pub author: String,
    /// As written (trimmed): plain text, never markup.
    pub text: String,
    #[schema(format = DateTime)]
    pub created_at: String,
}

impl From<&OrderMessage> for OrderMessageResponse {
    fn from(message: &OrderMessage) -> Self {
        OrderMessageResponse {
            id: message.id,
            from: message.from.into(),
            author: message.author.clone(),
            text: message.text.clone(),
            created_at: message.created_at.to_rfc3339(),
        }
    }
}
