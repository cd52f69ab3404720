//! Where a dispute's evidence goes and where a payment's risk (and a delayed method's deadline)
//! is read: Stripe's Disputes and
//! Files APIs when Stripe is configured, the dev stand-in otherwise. The disputes service
//! (`disputes.rs`) and the after-sale service (`services.rs`) both take it.

use disputes::{ChargeRisk, DisputeGateway, EvidenceFile, EvidenceText, StagedFiles};
use orders::gateways::PaymentError;
use stripe_adapter::StripeDisputes;

/// Where a dispute's evidence goes: Stripe, or (without Stripe keys) nowhere but the shop's
/// own records, so the whole path can be tried offline.
pub enum ShopDisputeGateway {
    Stripe(Box<StripeDisputes>),
    Dev,
}

impl DisputeGateway for ShopDisputeGateway {
    async fn upload_file(
        &self,
        label: String,
        file: EvidenceFile,
        pdf: Vec<u8>,
    ) -> Result<String, PaymentError> {
        match self {
            ShopDisputeGateway::Stripe(stripe) => stripe.upload_file(label, file, pdf).await,
            ShopDisputeGateway::Dev => Ok(format!("file_dev_{}_{label}", file.field())),
        }
    }

    async fn update_evidence(
        &self,
        dispute_id: String,
        text: EvidenceText,
        files: Option<StagedFiles>,
        submit: bool,
    ) -> Result<(), PaymentError> {
        match self {
            ShopDisputeGateway::Stripe(stripe) => {
                stripe
                    .update_evidence(dispute_id, text, files, submit)
                    .await
            }
            ShopDisputeGateway::Dev => Ok(()),
        }
    }

    async fn accept(&self, dispute_id: String) -> Result<(), PaymentError> {
        match self {
            ShopDisputeGateway::Stripe(stripe) => stripe.accept(dispute_id).await,
            ShopDisputeGateway::Dev => Ok(()),
        }
    }

    async fn charge_risk(&self, payment_id: String) -> Result<ChargeRisk, PaymentError> {
        match self {
            ShopDisputeGateway::Stripe(stripe) => stripe.charge_risk(payment_id).await,
            ShopDisputeGateway::Dev => Ok(ChargeRisk {
                risk_level: Some("normal".to_owned()),
                charge_id: None,
                refundable: true,
            }),
        }
    }
}

/// What Stripe says of a payment's risk, read while its webhook waits: a client of its own
/// whose calls end at `payments.risk_read_timeout_ms`; without Stripe keys the dev stand-in,
/// which rates every payment `normal`.
pub struct ShopRisk(ShopDisputeGateway);

impl ShopRisk {
    pub fn build(settings: &crate::settings::Settings) -> anyhow::Result<Self> {
        use anyhow::Context as _;
        use secrecy::ExposeSecret as _;
        if settings.stripe.secret_key.expose_secret().trim().is_empty() {
            return Ok(ShopRisk(ShopDisputeGateway::Dev));
        }
        let stripe =
            StripeDisputes::with_timeout(&settings.stripe, settings.payments.risk_read_timeout())
                .context("the Stripe settings (stripe.*) are not usable for risk reads")?;
        Ok(ShopRisk(ShopDisputeGateway::Stripe(Box::new(stripe))))
    }
}

impl aftersale::PaymentRisk for ShopRisk {
    async fn risk_level(
        &self,
        provider: orders::PaymentProvider,
        payment_id: String,
    ) -> Result<Option<String>, PaymentError> {
        if provider != orders::PaymentProvider::Stripe {
            return Ok(None);
        }
        Ok(self.0.charge_risk(payment_id).await?.risk_level)
    }

    async fn payment_deadline(
        &self,
        provider: orders::PaymentProvider,
        payment_id: String,
    ) -> Result<Option<chrono::DateTime<chrono::Utc>>, PaymentError> {
        match &self.0 {
            ShopDisputeGateway::Stripe(stripe) if provider == orders::PaymentProvider::Stripe => {
                stripe.payment_deadline(payment_id).await
            }
            // the dev page and PayPal have no methods that confirm later
            _ => Ok(None),
        }
    }
}
