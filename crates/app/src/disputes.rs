//! Disputes as the app wires them: Stripe's Disputes and Files APIs when Stripe is configured,
//! the dev stand-in otherwise (the dev payment page opens disputes offline), the PDF renderer,
//! and the proof pictures read from the media store.

use disputes::{
    ChargeRisk, DisputeGateway, EvidenceFile, EvidenceText, RecordMaterials, StagedFiles,
};
use media::MediaStore;
use orders::gateways::PaymentError;
use store::Store;
use stripe_adapter::StripeDisputes;

use crate::auth::AppClock;

/// The disputes service over the shop's store.
pub type DisputeService =
    disputes::Disputes<Store, ShopDisputeGateway, BlockingPdf, ShopRecordMaterials, AppClock>;

/// The PDF renderer on tokio's blocking threads (an order with many pictures takes seconds).
pub struct BlockingPdf(std::sync::Arc<evidence::PdfEvidence>);

impl disputes::EvidenceRenderer for BlockingPdf {
    async fn render(
        &self,
        record: disputes::DeliveryRecord,
    ) -> Result<disputes::EvidenceFiles, disputes::EvidenceError> {
        let pdf = std::sync::Arc::clone(&self.0);
        tokio::task::spawn_blocking(move || pdf.render(&record))
            .await
            .map_err(|error| disputes::EvidenceError(error.to_string()))?
    }
}

/// Wakes the disputes loop when a dispute asks for its evidence (the loop's timer is the
/// fallback).
#[derive(Default)]
pub struct DisputesWaker(pub tokio::sync::Notify);

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
}

/// The proof pictures as the media store keeps them (`/media/proofs/...`), and the buyer's
/// mails worded again as the mail loop sent them.
pub struct ShopRecordMaterials {
    media: MediaStore,
    tracking: std::sync::Arc<crate::services::TrackingService>,
    composer: mail::Composer,
}

impl RecordMaterials for ShopRecordMaterials {
    async fn picture(&self, path: String) -> Option<Vec<u8>> {
        let tail = path.strip_prefix("/media/").unwrap_or(&path);
        let file = self.media.resolve(tail)?;
        tokio::fs::read(file).await.ok()
    }

    async fn mail_text(&self, order: orders::OrderId, kind: String) -> Option<(String, String)> {
        let kind = orders::MailKind::parse(&kind)?;
        let mut mail = self
            .tracking
            .buyer_mail(order, kind)
            .await
            .inspect_err(|error| tracing::warn!(%order, %error, "a mail could not be worded again"))
            .ok()?;
        // the bank gets the page's address, never the key that opens it
        if let Some(at) = mail.order_link.find("?key=") {
            mail.order_link.truncate(at);
        }
        Some(self.composer.buyer_text(&mail))
    }
}

/// The disputes service from the settings: Stripe's APIs when its secret key is set.
pub fn build(
    settings: &crate::settings::Settings,
    store: Store,
    media: &MediaStore,
    clock: &AppClock,
    tracking: std::sync::Arc<crate::services::TrackingService>,
) -> anyhow::Result<DisputeService> {
    use anyhow::Context as _;
    use secrecy::ExposeSecret as _;
    let gateway = if settings.stripe.secret_key.expose_secret().trim().is_empty() {
        ShopDisputeGateway::Dev
    } else {
        ShopDisputeGateway::Stripe(Box::new(
            StripeDisputes::new(&settings.stripe)
                .context("the Stripe settings (stripe.*) are not usable for disputes")?,
        ))
    };
    Ok(disputes::Disputes::new(
        disputes::DisputeParts {
            repo: store,
            gateway,
            renderer: BlockingPdf(std::sync::Arc::new(
                evidence::PdfEvidence::new().context("the evidence's PDF fonts are unusable")?,
            )),
            proofs: ShopRecordMaterials {
                media: media.clone(),
                tracking,
                composer: mail::Composer::new(
                    &settings.site.name,
                    &settings.site.public_url,
                    &settings.mail.from,
                )?,
            },
        },
        clock.clone(),
        settings.disputes.domain(),
        crate::refund_policy::for_disputes(&settings.site.public_url),
    ))
}
