//! The demo catalog and staff a new shop starts with, so `just run` opens a full storefront and
//! an admin to sign in to. The catalog and its drawn pictures are the `demo` crate's; the staff
//! passwords are drawn per database.

use anyhow::Context;
use store::Store;

pub use demo::demo_catalog;

/// The demo staff: address, name and role. Their passwords are drawn when they are seeded.
const DEMO_STAFF: [(&str, &str, accounts::Role); 2] = [
    (
        "superadmin@gardenshop.local",
        "Demo Super Admin",
        accounts::Role::SuperAdmin,
    ),
    (
        "admin@gardenshop.local",
        "Demo Admin",
        accounts::Role::Admin,
    ),
];

/// Creates the demo super_admin and admin, each with a password drawn now, and keeps the
/// logins (table `demo_logins`) so every later start can print them. Only into a database
/// without any account: a shop with people of its own never gets staff it did not create.
/// Never called in production.
pub async fn demo_staff(
    store: &Store,
    accounts: &crate::auth::AccountsService,
) -> anyhow::Result<()> {
    use accounts::{Email, Password, UserName};
    if store.has_users().await? {
        tracing::info!("the database has accounts: no demo staff created");
        return Ok(());
    }
    for (email, name, role) in DEMO_STAFF {
        let login = store::DemoLogin {
            email: email.to_owned(),
            password: crate::checkout::random_token(),
        };
        store.record_demo_login(&login).await?;
        let user = accounts
            .upsert_user(
                Email::parse(email).map_err(|e| anyhow::anyhow!("{email}: {e}"))?,
                UserName::parse(name).map_err(|e| anyhow::anyhow!("{name}: {e}"))?,
                role,
                Password::parse(&login.password).map_err(|e| anyhow::anyhow!("{e}"))?,
                None, // the demo seed, not a staff action
            )
            .await
            .with_context(|| format!("failed to create the demo {role}"))?;
        // a link of the form Roblox gives, so the demo staff can claim orders at once
        let link = format!(
            "https://www.roblox.com/share?code=demo{}&type=Server",
            user.id.get()
        );
        store
            .seed_private_server_url(user.id.get(), &link)
            .await
            .with_context(|| format!("failed to give the demo {role} a private server link"))?;
    }
    Ok(())
}

/// Prints the demo staff logins of this database on stdout (not in the log), for `just run`.
/// Never called in production.
pub async fn print_demo_logins(store: &Store) -> anyhow::Result<()> {
    let logins = store.demo_logins().await?;
    for (email, _, role) in DEMO_STAFF {
        if let Some(login) = logins.iter().find(|login| login.email == email) {
            println!("Demo {role} login: {email} / {}", login.password);
        }
    }
    Ok(())
}
