//! A bundle's components stored with the order line that sold it (issue 32 item 1):
//! `order_line_parts` holds one row per component of a line (one unit of each per unit of the
//! line), as the bundle was when the order was placed. A drop's units count against its cap
//! through them, however the bundle changes later. Lines placed before this migration get their
//! bundle's components as they are now. `orders (status, user_id)` serves the cap per shop
//! account, as `(status, discord_id)` and `(status, buyer_token)` serve the others.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum OrderLineParts {
    Table,
    OrderId,
    Position,
    ProductId,
}

#[derive(DeriveIden)]
enum Orders {
    Table,
    Id,
    Status,
    UserId,
}

const USER_INDEX: &str = "idx_orders_status_user_id";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(OrderLineParts::Table)
                    .col(
                        ColumnDef::new(OrderLineParts::OrderId)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(OrderLineParts::Position)
                            .integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(OrderLineParts::ProductId)
                            .big_integer()
                            .not_null(),
                    )
                    .primary_key(
                        Index::create()
                            .col(OrderLineParts::OrderId)
                            .col(OrderLineParts::Position)
                            .col(OrderLineParts::ProductId),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(OrderLineParts::Table, OrderLineParts::OrderId)
                            .to(Orders::Table, Orders::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_order_line_parts_product_id")
                    .table(OrderLineParts::Table)
                    .col(OrderLineParts::ProductId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name(USER_INDEX)
                    .table(Orders::Table)
                    .col(Orders::Status)
                    .col(Orders::UserId)
                    .to_owned(),
            )
            .await?;
        manager
            .get_connection()
            .execute_unprepared(
                "INSERT INTO order_line_parts (order_id, position, product_id) \
                 SELECT l.order_id, l.position, b.product_id \
                 FROM order_lines l JOIN bundle_items b ON b.bundle_id = l.product_id",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name(USER_INDEX)
                    .table(Orders::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .drop_table(Table::drop().table(OrderLineParts::Table).to_owned())
            .await
    }
}
