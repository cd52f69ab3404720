use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "promo_redemptions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub promo_code_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub discord_id: String,
    pub order_id: i64,
    pub redeemed_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
