use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "order_lines")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub order_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub position: i32,
    pub product_id: i64,
    pub name: String,
    pub unit_price_cents: i64,
    pub quantity: i32,
    /// The unit price in minor units of the order's currency.
    pub unit_price_paid: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
