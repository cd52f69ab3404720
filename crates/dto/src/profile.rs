//! The profile's answers: the shopper with their orders, their data's export, and the
//! erasure's confirmation (docs/product.md, "Your data").

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::account::UserResponse;
use super::order::ProfileOrder;
use crate::cents_in_dollars;

/// `GET /api/profile`'s answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileResponse {
    pub user: ProfileUser,
}

/// The user with their orders, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileUser {
    #[serde(flatten)]
    pub user: UserResponse,
    /// The language the account's mail is written in (BCP 47: `en`, `es`, `pt-BR`, `fr`,
    /// `de`), set at registration from the request's and changed with `PATCH /api/profile`;
    /// null for an account that never chose one (its mail: the request's language).
    #[schema(example = "pt-BR")]
    pub language: Option<String>,
    pub orders: Vec<ProfileOrder>,
}

/// `PATCH /api/profile`: the settings to change (only those sent).
#[derive(Debug, serde::Deserialize, ToSchema)]
pub struct UpdateProfile {
    /// One of the languages `GET /api/site` offers (BCP 47).
    #[schema(example = "pt-BR")]
    pub language: Option<String>,
}

/// `PATCH /api/profile`'s answer: the settings as they are now.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileSettings {
    #[schema(example = "pt-BR")]
    pub language: Option<String>,
}

/// Everything the shop keeps about a shopper (`GET /api/profile/export`).
#[derive(Debug, Serialize, ToSchema)]
pub struct DataExport {
    /// When the export was made (RFC 3339).
    pub exported_at: DateTime<Utc>,
    pub profile: ExportedProfile,
    /// Their orders, newest first, with every detail they gave with each.
    pub orders: Vec<ExportedOrder>,
    /// Their help chats, oldest first.
    pub chats: Vec<ExportedChat>,
}

/// The account itself.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedProfile {
    #[serde(flatten)]
    pub user: UserResponse,
    /// When the account was created.
    pub created_at: DateTime<Utc>,
}

/// One order of the shopper, with what they gave to place it and what the shop recorded.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedOrder {
    pub id: i64,
    /// `pending`, `paid`, `delivered`, `expired`, `cancelled`, `refunded` or `disputed`.
    #[schema(example = "delivered")]
    pub status: String,
    pub created_at: DateTime<Utc>,
    #[schema(required = true)]
    pub paid_at: Option<DateTime<Utc>>,
    #[schema(required = true)]
    pub delivered_at: Option<DateTime<Utc>>,
    pub items: Vec<ExportedItem>,
    /// In dollars, as are `discount`, `fee` and `total`.
    pub subtotal: f64,
    pub discount: f64,
    pub fee: f64,
    pub total: f64,
    #[schema(required = true)]
    pub promo_code: Option<String>,
    /// `card`, …
    pub payment_method: String,
    /// The e-mail address the receipt and the order's mail went to.
    pub email: String,
    /// The Discord account linked for the delivery.
    pub discord_id: String,
    pub discord_username: String,
    #[schema(required = true)]
    pub discord_avatar: Option<String>,
    pub roblox_username: String,
    /// The client address the order was placed from.
    #[schema(required = true)]
    pub client_ip: Option<String>,
    /// The client address "I'm in the game" was pressed from.
    #[schema(required = true)]
    pub buyer_ready_ip: Option<String>,
    /// The client address "I got my items" was pressed from.
    #[schema(required = true)]
    pub received_ip: Option<String>,
    /// The Discord thread of its delivery, if one was opened.
    #[schema(required = true)]
    pub ticket_thread_id: Option<String>,
    /// The problem reported with its delivery, if any.
    #[schema(required = true)]
    pub ticket_problem: Option<String>,
    /// The review left on it, if any.
    #[schema(required = true)]
    pub review: Option<ExportedReview>,
    /// Its disputes with the bank, and what of the order went to Stripe as evidence.
    pub disputes: Vec<ExportedDispute>,
    /// The messages between the buyer and staff on the order's page, oldest first.
    pub messages: Vec<ExportedOrderMessage>,
}

/// One message on an exported order's page.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedOrderMessage {
    /// `buyer` or `staff`.
    #[schema(example = "buyer")]
    pub from: String,
    /// The buyer's Roblox name, or the member of staff's name.
    pub author: String,
    pub text: String,
    pub created_at: DateTime<Utc>,
}

/// A dispute of an exported order.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedDispute {
    #[schema(example = "du_1Q2w3E4r5T6y")]
    pub dispute_id: String,
    /// `none`, `staged` or `submitted`.
    #[schema(example = "staged")]
    pub evidence: String,
    /// The evidence fields sent to Stripe (Stripe's names; empty until staged).
    #[schema(example = json!(["customer_name", "customer_email_address", "service_documentation"]))]
    pub sent_to_stripe: Vec<String>,
}

/// One line of an exported order.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedItem {
    pub product_id: i64,
    pub name: String,
    /// In dollars.
    pub unit_price: f64,
    pub quantity: i32,
}

/// A review the shopper left.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedReview {
    /// 1 to 5 stars.
    pub rating: i16,
    pub text: String,
    /// The name shown with it.
    pub name: String,
    pub created_at: DateTime<Utc>,
}

/// One help chat of the shopper, with its messages oldest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedChat {
    /// The chat's UUID.
    #[schema(format = "uuid")]
    pub id: String,
    /// `ai`, `pending`, `connected` or `closed`.
    #[schema(example = "closed")]
    pub status: String,
    pub created_at: DateTime<Utc>,
    pub messages: Vec<ExportedMessage>,
}

/// One message of a help chat.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedMessage {
    /// Who wrote it: `user`, `guest`, `bot`, `admin`, `super_admin` or `system`.
    #[schema(example = "user")]
    pub sender: String,
    pub message: String,
    pub created_at: DateTime<Utc>,
}

/// Cents fit an f64 exactly, and JSON has no decimal type.
impl From<accounts::OrderRecord> for ExportedOrder {
    fn from(order: accounts::OrderRecord) -> Self {
        ExportedOrder {
            id: order.id,
            status: order.status,
            created_at: order.created_at,
            paid_at: order.paid_at,
            delivered_at: order.delivered_at,
            items: order
                .lines
                .into_iter()
                .map(|line| ExportedItem {
                    product_id: line.product_id,
                    name: line.name,
                    unit_price: cents_in_dollars(line.unit_price_cents),
                    quantity: line.quantity,
                })
                .collect(),
            subtotal: cents_in_dollars(order.subtotal_cents),
            discount: cents_in_dollars(order.discount_cents),
            fee: cents_in_dollars(order.fee_cents),
            total: cents_in_dollars(order.total_cents),
            promo_code: order.promo_code,
            payment_method: order.payment_method,
            email: order.email,
            discord_id: order.discord_id,
            discord_username: order.discord_username,
            discord_avatar: order.discord_avatar,
            roblox_username: order.roblox_username,
            client_ip: order.client_ip,
            buyer_ready_ip: order.buyer_ready_ip,
            received_ip: order.received_ip,
            ticket_thread_id: order.ticket_thread_id,
            ticket_problem: order.ticket_problem,
            review: order.review.map(|review| ExportedReview {
                rating: review.rating,
                text: review.text,
                name: review.name,
                created_at: review.created_at,
            }),
            disputes: order
                .disputes
                .into_iter()
                .map(|dispute| ExportedDispute {
                    dispute_id: dispute.dispute_id,
                    evidence: dispute.evidence,
                    sent_to_stripe: dispute.sent_to_provider,
                })
                .collect(),
            messages: order
                .messages
                .into_iter()
                .map(|message| ExportedOrderMessage {
                    from: message.from,
                    author: message.author,
                    text: message.text,
                    created_at: message.created_at,
                })
                .collect(),
        }
    }
}

impl From<accounts::ChatRecord> for ExportedChat {
    fn from(chat: accounts::ChatRecord) -> Self {
        ExportedChat {
            id: chat.id,
            status: chat.status,
            created_at: chat.created_at,
            messages: chat
                .messages
                .into_iter()
                .map(|message| ExportedMessage {
                    sender: message.sender,
                    message: message.text,
                    created_at: message.created_at,
                })
                .collect(),
        }
    }
}

impl DataExport {
    /// The export of `user`'s data as the download shows it.
    pub fn of(user: UserResponse, export: accounts::DataExport) -> Self {
        DataExport {
            exported_at: export.exported_at,
            profile: ExportedProfile {
                user,
                created_at: export.data.account_created_at,
            },
            orders: export
                .data
                .orders
                .into_iter()
                .map(ExportedOrder::from)
                .collect(),
            chats: export
                .data
                .chats
                .into_iter()
                .map(ExportedChat::from)
                .collect(),
        }
    }
}

/// The account's password, to confirm the erasure.
#[derive(Debug, serde::Deserialize, ToSchema)]
pub struct DeleteAccount {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub password: String,
}
