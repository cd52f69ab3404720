//! The stand-ins themselves: a payment page and a sign-in page of our own.

use orders::gateways::{
    DiscordId, DiscordIdentity, DiscordIdentityProvider, DiscordLinkError, HostedCheckout,
    HostedCheckoutRequest, LinkedDiscord, PaymentError, PaymentGateway, RefundReceipt,
    RefundRequest, SessionClosing,
};
use rand::RngCore;

/// The dev payment provider: its "hosted page" is `/dev/pay/{order_id}` on this server, given
/// as a same-origin path (not on `site.public_url`), so it opens on whatever host the shopper
/// used (`localhost`, `127.0.0.1`, a LAN address) with the session the browser has there.
#[derive(Debug, Clone, Default)]
pub struct DevPayments;

impl DevPayments {
    pub fn new() -> Self {
        DevPayments
    }
}

/// 16 random bytes as hex: an unguessable reference or state.
pub fn random_token() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

impl PaymentGateway for DevPayments {
    async fn create_checkout(
        &self,
        request: HostedCheckoutRequest,
    ) -> Result<HostedCheckout, PaymentError> {
        Ok(HostedCheckout {
            provider_reference: format!("dev_{}_{}", request.order_id, random_token()),
            redirect_url: format!("/dev/pay/{}", request.order_id),
        })
    }

    /// The dev page pays only pending orders: closing the order closes its page.
    async fn close_checkout(&self, _reference: String) -> Result<SessionClosing, PaymentError> {
        Ok(SessionClosing::Closed)
    }

    /// The dev page's money is pretend: the refund is made at once.
    async fn refund(&self, request: RefundRequest) -> Result<RefundReceipt, PaymentError> {
        Ok(RefundReceipt {
            refund_id: format!("dev_refund_{}_{}", request.order_id, random_token()),
            payment_id: request.payment_id,
        })
    }
}

/// The demo accounts the dev sign-in page offers: (Discord id, username).
pub const DEMO_IDENTITIES: [(&str, &str); 3] = [
    ("100000000000000001", "gardenfan"),
    ("100000000000000002", "seedcollector"),
    ("100000000000000003", "petkeeper"),
];

/// The prefix of the codes the dev sign-in page hands out: `dev-{discord_id}`.
const DEV_CODE_PREFIX: &str = "dev-";

/// The dev Discord sign-in: `/dev/discord/authorize` lists [`DEMO_IDENTITIES`]; picking one
/// returns to the callback with the code `dev-{discord_id}`.
#[derive(Debug, Clone, Default)]
pub struct DevDiscord;

impl DevDiscord {
    pub fn new() -> Self {
        DevDiscord
    }

    /// The code the dev sign-in page gives for a demo identity.
    pub fn code_for(discord_id: &str) -> String {
        format!("{DEV_CODE_PREFIX}{discord_id}")
    }
}

/// Percent-encodes everything but unreserved characters, for a query value.
pub fn encode_query_value(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

impl DiscordIdentityProvider for DevDiscord {
    fn authorize_url(&self, state: &str) -> String {
        format!("/dev/discord/authorize?state={}", encode_query_value(state))
    }

    /// The identity alone: the dev page gives no token for the shop's server.
    async fn exchange_code(&self, code: String) -> Result<LinkedDiscord, DiscordLinkError> {
        let wanted = code
            .strip_prefix(DEV_CODE_PREFIX)
            .ok_or(DiscordLinkError::InvalidCode)?;
        let (id, username) = DEMO_IDENTITIES
            .iter()
            .find(|(id, _)| *id == wanted)
            .ok_or(DiscordLinkError::InvalidCode)?;
        Ok(LinkedDiscord {
            identity: DiscordIdentity {
                discord_id: DiscordId::parse(id).map_err(|_| DiscordLinkError::MissingUserId)?,
                username: (*username).to_owned(),
                avatar_url: None,
            },
            guild_access: None,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[tokio::test]
    async fn a_demo_code_gives_its_identity_and_anything_else_is_refused() {
        let dev = DevDiscord::new();
        let linked = dev
            .exchange_code(DevDiscord::code_for("100000000000000002"))
            .await
            .unwrap();
        assert!(linked.guild_access.is_none());
        let identity = linked.identity;
        assert_eq!(identity.discord_id.as_str(), "100000000000000002");
        assert_eq!(identity.username, "seedcollector");
        for bad in ["dev-1", "100000000000000002", "", "dev-"] {
            assert!(matches!(
                dev.exchange_code(bad.to_owned()).await,
                Err(DiscordLinkError::InvalidCode)
            ));
        }
    }

    #[test]
    fn the_state_is_carried_to_the_dev_page_encoded() {
        assert_eq!(
            DevDiscord::new().authorize_url("a b&c"),
            "/dev/discord/authorize?state=a%20b%26c"
        );
    }
}

/// The bank's side, as the dev provider tells it: what Stripe's webhook would report about a
/// paid dev order, so the disputes page and the risk holds can be tried offline.
pub mod bank {
    use aftersale::PaymentEvent;
    use chrono::{DateTime, Duration, Utc};
    use disputes::DisputeFacts;
    use orders::{Order, OrderId, PaymentProvider, ProviderEvent};

    /// The dev payment id of a paid dev order (Stripe's `pi_...`), recorded when it is paid.
    pub fn payment_id(order: OrderId) -> String {
        format!("dev_pi_{order}")
    }

    fn event(id: String) -> ProviderEvent {
        ProviderEvent {
            provider: PaymentProvider::Dev,
            id,
        }
    }

    /// The card holder disputes `order` ("product not received"), the evidence due in 7 days.
    pub fn dispute_opened(order: &Order, now: DateTime<Utc>) -> PaymentEvent {
        let reason = "product_not_received".to_owned();
        PaymentEvent::DisputeOpened {
            event: event(format!("dev_evt_dispute_{}", order.id)),
            payment_id: Some(payment_id(order.id)),
            reason: Some(reason.clone()),
            dispute: Some(DisputeFacts {
                id: format!("dp_dev_{}", order.id),
                amount_minor: order.amounts.total.cents(),
                currency: "usd".to_owned(),
                reason: Some(reason),
                status: "needs_response".to_owned(),
                due_by: Some(now + Duration::days(7)),
                submitted: false,
            }),
        }
    }

    /// The card's issuer warns that `order`'s payment was made with a stolen card.
    pub fn fraud_warning(order: &Order) -> PaymentEvent {
        PaymentEvent::FraudWarning {
            event: event(format!("dev_evt_fraud_{}", order.id)),
            payment_id: Some(payment_id(order.id)),
            warning_id: format!("issfr_dev_{}", order.id),
            charge_id: None,
            fraud_type: Some("made_with_stolen_card".to_owned()),
        }
    }
}
