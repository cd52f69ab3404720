use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "products")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub name: String,
    pub description: String,
    pub price_cents: i64,
    pub category: String,
    pub image: Option<String>,
    pub stock: Option<i64>,
    pub weight: Option<f64>,
    pub mutation: Option<String>,
    pub savings_cents: Option<i64>,
    pub sort_order: Option<i32>,
    pub delete_after_out_of_stock: bool,
    pub dupe_warning: bool,
    pub archived: bool,
    pub release_at: Option<DateTimeUtc>,
    pub max_per_account: Option<i32>,
    pub release_announced_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
