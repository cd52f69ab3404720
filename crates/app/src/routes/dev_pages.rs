//! The local stand-ins' pages (DESIGN §5), on only when the real provider is not configured
//! (never in production): the payment page `/dev/pay/{order_id}` and the Discord sign-in page
//! `/dev/discord/authorize`. Server-rendered, no script (the CSP allows none inline); forms
//! post to this origin.

use actix_session::Session;
use actix_web::{http::header, web, HttpResponse};
use orders::{Order, OrderStatus, PaymentNotice, PaymentProvider};
use serde::Deserialize;

use super::orders::{cancel_order, visible_order};
use crate::checkout::confirm;
use crate::checkout::providers::ShopProviders;
use crate::{
    auth::MaybeUser,
    checkout::{
        dollars_text as money, encode_query_value, CardPayments, DevDiscord, DiscordLink,
        ShopCheckout, DEMO_IDENTITIES,
    },
    error::ApiError,
};

/// Escapes text for HTML content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

const STYLE: &str = r#"
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; background: #f5f8f4; color: #0f172a;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  display: flex; align-items: flex-start; justify-content: center; padding: 32px 16px; }
main { width: 100%; max-width: 440px; background: #fff; border: 1px solid #e2e8f0;
  border-radius: 16px; box-shadow: 0 10px 30px rgb(15 23 42 / 0.08); padding: 24px; }
.badge { display: inline-block; font-size: 12px; font-weight: 600; letter-spacing: .04em;
  text-transform: uppercase; color: #92400e; background: #fef3c7; border: 1px solid #fde68a;
  border-radius: 999px; padding: 2px 10px; }
h1 { font-size: 22px; margin: 12px 0 4px; }
p { margin: 0 0 16px; color: #475569; }
table { width: 100%; border-collapse: collapse; margin: 8px 0 16px; }
td { padding: 6px 0; border-bottom: 1px solid #f1f5f9; }
td.amount { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: 700; border-bottom: 0; padding-top: 10px; }
.actions { display: flex; gap: 12px; flex-wrap: wrap; }
.actions form { flex: 1 1 140px; margin: 0; }
button { width: 100%; font: inherit; font-weight: 600; border-radius: 10px; padding: 12px 16px;
  cursor: pointer; border: 1px solid transparent; }
button.primary { background: #15803d; color: #fff; }
button.primary:hover { background: #166534; }
button.secondary { background: #fff; color: #1e293b; border-color: #cbd5e1; }
button.secondary:hover { background: #f8fafc; }
button:focus-visible { outline: 3px solid #86efac; outline-offset: 2px; }
ul.identities { list-style: none; margin: 0; padding: 0; display: grid; gap: 10px; }
ul.identities form { margin: 0; }
ul.identities button { text-align: left; background: #f0fdf4; color: #14532d; border-color: #bbf7d0; }
ul.identities button:hover { background: #dcfce7; }
.note { font-size: 14px; color: #475569; margin-top: 16px; }
"#;

fn page(title: &str, body: &str) -> HttpResponse {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\">\
         <title>{} · Garden Shop</title><style>{STYLE}</style></head>\
         <body><main>{body}</main></body></html>",
        escape(title)
    );
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(html)
}

fn see_other(location: String) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .finish()
}

/// The dev order if the dev payment provider is on and this visitor may see it.
async fn dev_order(
    checkout: &ShopCheckout,
    card: &CardPayments,
    session: &Session,
    user: &MaybeUser,
    id: &str,
) -> Result<Order, ApiError> {
    if !card.is_dev() {
        return Err(ApiError::NotFound("Not found.".to_owned()));
    }
    let order = visible_order(checkout, session, user, id).await?;
    if order.payment.provider != PaymentProvider::Dev {
        return Err(ApiError::NotFound("Order not found.".to_owned()));
    }
    Ok(order)
}

/// `GET /dev/pay/{order_id}`: the order and two buttons, Pay and Cancel.
pub async fn pay_page(
    checkout: web::Data<ShopCheckout>,
    card: web::Data<CardPayments>,
    session: Session,
    user: MaybeUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let order = dev_order(&checkout, &card, &session, &user, &id).await?;
    let id = order.id;
    let mut rows = String::new();
    for line in &order.lines {
        rows.push_str(&format!(
            "<tr><td>{} × {}</td><td class=\"amount\">{}</td></tr>",
            line.quantity.get(),
            escape(&line.name),
            money(line.total())
        ));
    }
    if order.amounts.discount.cents() > 0 {
        rows.push_str(&format!(
            "<tr><td>Discount</td><td class=\"amount\">−{}</td></tr>",
            money(order.amounts.discount)
        ));
    }
    rows.push_str(&format!(
        "<tr><td>Processing fee</td><td class=\"amount\">{}</td></tr>\
         <tr class=\"total\"><td>Total</td><td class=\"amount\">{}</td></tr>",
        money(order.amounts.fee),
        money(order.amounts.total)
    ));
    let body = if order.status() == OrderStatus::Pending {
        format!(
            "<span class=\"badge\">Test payment</span><h1>Pay for order #{id}</h1>\
             <p>This is the shop's development payment page: no money moves.</p>\
             <table aria-label=\"Order summary\">{rows}</table>\
             <div class=\"actions\">\
             <form method=\"post\" action=\"/dev/pay/{id}/pay\"><button class=\"primary\" type=\"submit\">Pay</button></form>\
             <form method=\"post\" action=\"/dev/pay/{id}/cancel\"><button class=\"secondary\" type=\"submit\">Cancel</button></form>\
             </div><p class=\"note\">Paying here confirms the order exactly as Stripe's webhook would.</p>"
        )
    } else {
        format!(
            "<span class=\"badge\">Test payment</span><h1>Order #{id}</h1>\
             <p>This order is {} and can no longer be paid.</p>\
             <table aria-label=\"Order summary\">{rows}</table>",
            escape(&order.status().label().to_lowercase())
        )
    };
    Ok(page(&format!("Pay for order #{id}"), &body))
}

/// `POST /dev/pay/{order_id}/pay`: confirms through the webhook's own call, then /success.
pub async fn pay(
    checkout: web::Data<ShopCheckout>,
    card: web::Data<CardPayments>,
    session: Session,
    user: MaybeUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let order = dev_order(&checkout, &card, &session, &user, &id).await?;
    let notice = PaymentNotice {
        order_id: order.id,
        provider: PaymentProvider::Dev,
        reference: order.payment.reference.clone().unwrap_or_default(),
        event: None,
    };
    // paid now, before, or by this very notice: the same place
    confirm(&checkout, notice).await?;
    Ok(see_other(format!("/success?order_id={}", order.id)))
}

/// `POST /dev/pay/{order_id}/cancel`: cancels (stock released), then /cancel.
pub async fn cancel(
    checkout: web::Data<ShopCheckout>,
    card: web::Data<CardPayments>,
    providers: web::Data<ShopProviders>,
    session: Session,
    user: MaybeUser,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let order = dev_order(&checkout, &card, &session, &user, &id).await?;
    match cancel_order(&checkout, &providers, &order).await {
        // already cancelled (a second click): the same place
        Ok(_) | Err(ApiError::Conflict(_)) => {}
        Err(other) => return Err(other),
    }
    Ok(see_other(format!("/cancel?order_id={}", order.id)))
}

#[derive(Debug, Deserialize)]
pub struct AuthorizeQuery {
    #[serde(default)]
    pub state: String,
}

/// `GET /dev/discord/authorize?state=...`: pick a demo identity; back to /discord/callback.
pub async fn discord_page(
    discord: web::Data<DiscordLink>,
    query: web::Query<AuthorizeQuery>,
) -> Result<HttpResponse, ApiError> {
    if !discord.is_dev() {
        return Err(ApiError::NotFound("Not found.".to_owned()));
    }
    let oauth_state = escape(&query.state);
    let mut items = String::new();
    for (id, username) in DEMO_IDENTITIES {
        items.push_str(&format!(
            "<li><form method=\"get\" action=\"/discord/callback\">\
             <input type=\"hidden\" name=\"code\" value=\"{}\">\
             <input type=\"hidden\" name=\"state\" value=\"{oauth_state}\">\
             <button type=\"submit\">Continue as {}</button></form></li>",
            escape(&encode_query_value(&DevDiscord::code_for(id))),
            escape(username)
        ));
    }
    let body = format!(
        "<span class=\"badge\">Test sign-in</span><h1>Link a Discord account</h1>\
         <p>This is the shop's development sign-in page: pick a demo Discord account.</p>\
         <ul class=\"identities\" aria-label=\"Demo Discord accounts\">{items}</ul>\
         <p class=\"note\">With discord.client_id set, shoppers sign in with Discord itself.</p>"
    );
    Ok(page("Link Discord", &body))
}
