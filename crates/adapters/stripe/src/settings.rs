use secrecy::SecretString;
use serde::Deserialize;

/// The `stripe` section of the configuration.
#[derive(Debug, Clone, Deserialize)]
pub struct StripeSettings {
    /// The secret API key (`sk_live_...` / `sk_test_...`). Empty means "use the dev payment
    /// page instead" (the app decides; this crate only needs a key when it is used).
    pub secret_key: SecretString,
    /// The endpoint's signing secret (`whsec_...`) for webhook signatures.
    pub webhook_secret: SecretString,
    /// Where Stripe's API lives; tests point it at a local fake.
    pub api_base: String,
    /// Where Stripe takes file uploads (dispute evidence): a host of its own, not `api_base`.
    /// Tests point it at a local fake.
    pub files_api_base: String,
    /// The payment method configuration (`pmc_...`) a drop's checkout session names: one
    /// without methods that confirm later, so a drop never waits for a voucher. Empty: a
    /// drop's session allows cards only.
    #[serde(default)]
    pub instant_payment_method_configuration: String,
}
