//! The demo staff a new shop starts with, so `just run` opens an admin to sign in to: a
//! super_admin and an admin, each with a password drawn per database.

use accounts::{AccountPorts, Accounts, Email, Password, UserName};
use anyhow::Context;
use rand::RngCore;
use store::Store;

/// 16 random bytes from the OS, in hex: a demo staff member's password.
fn fresh_password() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

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
pub async fn demo_staff<P: AccountPorts>(
    store: &Store,
    accounts: &Accounts<P>,
) -> anyhow::Result<()> {
    if store.has_users().await? {
        tracing::info!("the database has accounts: no demo staff created");
        return Ok(());
    }
    for (email, name, role) in DEMO_STAFF {
        let login = store::DemoLogin {
            email: email.to_owned(),
            password: fresh_password(),
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
