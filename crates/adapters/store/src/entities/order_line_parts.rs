use sea_orm::entity::prelude::*;

/// One component of a bundle sold on an order line (one unit of it per unit of the line), as
/// the bundle was when the order was placed.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "order_line_parts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub order_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub position: i32,
    #[sea_orm(primary_key, auto_increment = false)]
    pub product_id: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
