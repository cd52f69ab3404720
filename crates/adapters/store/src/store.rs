use sea_orm::DatabaseConnection;

use crate::connection::Backend;

/// The repositories, sharing one connection pool. Cloning is cheap.
#[derive(Debug, Clone)]
pub struct Store {
    pub(crate) db: DatabaseConnection,
}

impl Store {
    pub fn new(db: DatabaseConnection) -> Self {
        Store { db }
    }

    pub fn connection(&self) -> &DatabaseConnection {
        &self.db
    }

    pub fn backend(&self) -> Backend {
        Backend::of(&self.db)
    }
}
