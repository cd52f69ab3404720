use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "orders")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub status: String,
    pub user_id: Option<i64>,
    /// NULL once the buyer deleted their account.
    pub discord_id: Option<String>,
    pub discord_username: String,
    pub discord_avatar: Option<String>,
    pub roblox_username: String,
    pub email: String,
    pub subtotal_cents: i64,
    pub discount_cents: i64,
    pub fee_cents: i64,
    pub total_cents: i64,
    pub promo_code_id: Option<i64>,
    pub promo_code: Option<String>,
    pub discount_percent: Option<i32>,
    pub payment_method: String,
    pub provider: String,
    pub provider_reference: Option<String>,
    pub created_at: DateTimeUtc,
    pub paid_at: Option<DateTimeUtc>,
    pub delivered_at: Option<DateTimeUtc>,
    pub closed_at: Option<DateTimeUtc>,
    pub claimed_by: Option<i64>,
    pub buyer_token: Option<String>,
    pub client_ip: Option<String>,
    /// `client_ip`'s key for the unpaid-orders cap per address (an IPv6 client's /64).
    pub client_net: Option<String>,
    pub review_reason: Option<String>,
    pub payment_id: Option<String>,
    pub refund_id: Option<String>,
    pub disputed_at: Option<DateTimeUtc>,
    pub disputed_from: Option<String>,
    pub dispute_outcome: Option<String>,
    pub dispute_closed_at: Option<DateTimeUtc>,
    pub pay_by: Option<DateTimeUtc>,
    pub refund_policy_version: Option<String>,
    /// A paid order's risk hold (`fraud_warning`, `risk_level`), kept after a refund.
    pub hold_reason: Option<String>,
    pub held_at: Option<DateTimeUtc>,
    /// The currency the buyer paid in, its rate against the base currency (a decimal string),
    /// its decimals and the amount paid (the grand total in its minor units).
    pub currency: String,
    pub rate: String,
    pub minor_units: i32,
    pub amount_paid: i64,
    /// The language it was placed in (a code of `shared::Language`).
    pub language: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
