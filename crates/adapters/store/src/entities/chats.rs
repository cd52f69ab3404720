use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "chats")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub session_id: String,
    pub user_id: Option<i64>,
    pub user_name: Option<String>,
    pub accepted_by: Option<i64>,
    pub status: String,
    pub staff_read_through: Option<i64>,
    pub user_read_through: Option<i64>,
    pub version: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    /// When staff were told about the chat's live-agent request (claimed once).
    pub staff_notified_at: Option<DateTimeUtc>,
    /// The language the chat was started in (BCP 47), which its notices are written in.
    pub language: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
