use actix_web::{http::header, web, HttpResponse};

use crate::services::TrackingService;
use dto::site::{RefundPolicy, RefundPolicySection, Site, SiteCurrency};
use orders::gateways::PaymentGateway as _;
use paypal::PayPalCheckout;

use crate::{settings::SiteSettings, snapshot::ProductSnapshot};

/// What the browser needs to know about this shop's configuration.
#[utoipa::path(
    get,
    path = "/api/site",
    tag = "storefront",
    responses((status = 200, description = "The shop's public settings.", body = Site,
        headers(("Cache-Control" = String, description = "`public, max-age=300`")))),
)]
pub async fn site(
    site: web::Data<SiteSettings>,
    paypal: web::Data<Option<PayPalCheckout>>,
    tracking: web::Data<TrackingService>,
    disputes: web::Data<crate::disputes::DisputeService>,
    currencies: web::Data<crate::currencies::Currencies>,
) -> HttpResponse {
    let delivery_minutes = tracking.estimate_minutes().await;
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .json(Site {
            name: &site.name,
            reviews_url: &site.reviews_url,
            paypal_enabled: paypal.is_some(),
            discord_invite_url: tracking.handoff().discord_invite.as_deref(),
            delivery_minutes,
            evidence_retention_days: disputes.evidence_retention_days(),
            delivery_steps: delivery::delivery_script(tracking.handoff(), delivery_minutes)
                .iter()
                .map(Into::into)
                .collect(),
            languages: shared::Language::ALL.map(shared::Language::code).to_vec(),
            currencies: offered_currencies(&currencies, paypal.get_ref().as_ref()),
        })
}

/// The currencies offered now, each with the methods that can pay in it (PayPal where it is on
/// and takes the currency): `GET /api/site`'s, and the page's bootstrap (`spa`).
pub(crate) fn offered_currencies(
    currencies: &crate::currencies::Currencies,
    paypal: Option<&PayPalCheckout>,
) -> Vec<SiteCurrency> {
    currencies
        .offered()
        .iter()
        .map(|offered| {
            let pays = paypal.is_some_and(|paypal| paypal.pays_in(&offered.conversion.code));
            SiteCurrency::with_methods(offered, pays)
        })
        .collect()
}

/// The refund policy, from its one source: the storefront's page shows it, the checkout links
/// it and orders record its version.
#[utoipa::path(
    get,
    path = "/api/refund-policy",
    tag = "storefront",
    responses((status = 200, description = "The refund policy and its version.", body = RefundPolicy,
        headers(("Cache-Control" = String, description = "`public, max-age=300`")))),
)]
pub async fn refund_policy() -> HttpResponse {
    use crate::refund_policy::{INTRO, SECTIONS, VERSION};
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .json(RefundPolicy {
            version: VERSION,
            intro: INTRO,
            sections: SECTIONS
                .iter()
                .map(|&(heading, text)| RefundPolicySection { heading, text })
                .collect(),
        })
}

/// The storefront's pages that stand on their own (besides one page per product).
pub const STATIC_PAGES: [&str; 8] = [
    "/",
    "/about",
    "/how-it-works",
    "/faq",
    "/proofs",
    "/terms",
    "/refund-policy",
    "/privacy-policy",
];

/// Paths crawlers have no business in: the admin, the account pages, checkout's steps and the
/// API (which answers JSON, never pages).
const DISALLOWED: [&str; 12] = [
    "/api/",
    "/admin/",
    "/checkout",
    "/success",
    "/cancel",
    "/profile",
    "/login",
    "/register",
    "/verify-email",
    "/forgot-password",
    "/reset-password",
    "/discord/",
];

/// `robots.txt`: the storefront is open to crawlers, the private paths are not, and the
/// sitemap is named by its absolute address.
pub async fn robots(site: web::Data<SiteSettings>) -> HttpResponse {
    let mut body = String::from("User-agent: *\nAllow: /\n");
    for path in DISALLOWED {
        body.push_str("Disallow: ");
        body.push_str(path);
        body.push('\n');
    }
    body.push_str("\nSitemap: ");
    body.push_str(base_url(&site));
    body.push_str("/sitemap.xml\n");
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .content_type("text/plain; charset=utf-8")
        .body(body)
}

/// `sitemap.xml`: the static pages and every product the storefront lists, as absolute URLs on
/// `site.public_url`, from the product snapshot (no database work).
pub async fn sitemap(
    site: web::Data<SiteSettings>,
    products: web::Data<ProductSnapshot>,
) -> HttpResponse {
    let base = xml_escape(base_url(&site));
    let list = products.current();
    let mut body = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    let mut url = |path: &str| {
        body.push_str("  <url><loc>");
        body.push_str(&base);
        body.push_str(path);
        body.push_str("</loc></url>\n");
    };
    for page in STATIC_PAGES {
        url(page);
    }
    for product in list.products.iter() {
        url(&format!("/product/{}", product.id.get()));
    }
    body.push_str("</urlset>\n");
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .content_type("application/xml; charset=utf-8")
        .body(body)
}

/// The shop's public address without a trailing slash.
fn base_url(site: &SiteSettings) -> &str {
    site.public_url.trim_end_matches('/')
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}
