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
    #[serde(default = "default_api_base")]
    pub api_base: String,
}

pub fn default_api_base() -> String {
    "https://api.stripe.com".to_owned()
}
