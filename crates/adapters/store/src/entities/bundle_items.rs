use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "bundle_items")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub bundle_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub product_id: i64,
    pub position: i32,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
