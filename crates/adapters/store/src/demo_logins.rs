//! The demo staff logins of a development or test database (table `demo_logins`): written once,
//! when the demo staff are seeded into an empty database, and read at every start so the
//! server can print them. Production never seeds, so its table stays empty.

use anyhow::Context;
use sea_orm::{
    sea_query::{Alias, Query},
    ConnectionTrait, EntityTrait, PaginatorTrait,
};

use crate::entities::users;
use crate::records::DemoLogin;
use crate::Store;

fn table() -> Alias {
    Alias::new("demo_logins")
}

impl Store {
    /// Whether any account exists (demo or not).
    pub async fn has_users(&self) -> anyhow::Result<bool> {
        let count = users::Entity::find()
            .count(&self.db)
            .await
            .context("failed to count the users")?;
        Ok(count > 0)
    }

    /// Keeps a seeded demo login so later starts can print it.
    pub async fn record_demo_login(&self, login: &DemoLogin) -> anyhow::Result<()> {
        let insert = Query::insert()
            .into_table(table())
            .columns([Alias::new("email"), Alias::new("password")])
            .values_panic([login.email.clone().into(), login.password.clone().into()])
            .to_owned();
        self.db
            .execute(self.db.get_database_backend().build(&insert))
            .await
            .context("failed to keep a demo login")?;
        Ok(())
    }

    /// The demo logins seeded into this database, by address.
    pub async fn demo_logins(&self) -> anyhow::Result<Vec<DemoLogin>> {
        let select = Query::select()
            .from(table())
            .columns([Alias::new("email"), Alias::new("password")])
            .order_by(Alias::new("email"), sea_orm::Order::Asc)
            .to_owned();
        let rows = self
            .db
            .query_all(self.db.get_database_backend().build(&select))
            .await
            .context("failed to read the demo logins")?;
        rows.iter()
            .map(|row| {
                Ok(DemoLogin {
                    email: row.try_get("", "email")?,
                    password: row.try_get("", "password")?,
                })
            })
            .collect::<Result<_, sea_orm::DbErr>>()
            .context("a demo login row is unreadable")
    }
}
