use sea_orm::entity::prelude::*;

/// The staff audit log; rows are only ever inserted (triggers refuse UPDATE and DELETE).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "audit_log")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub at: DateTimeUtc,
    pub actor_id: Option<i64>,
    pub actor_name: String,
    pub kind: String,
    pub target: String,
    pub before: Option<String>,
    pub after: Option<String>,
    pub ip: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
