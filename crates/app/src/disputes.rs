//! Disputes as the app wires them: Stripe's Disputes and Files APIs when Stripe is configured,
//! the dev stand-in otherwise (the dev payment page opens disputes offline), the PDF renderer,
//! and the proof pictures read from the media store.

use disputes::RecordMaterials;
use media::MediaStore;
use store::Store;
use stripe_adapter::StripeDisputes;

use crate::auth::AppClock;
use crate::dispute_gateway::ShopDisputeGateway;

/// The disputes service over the shop's store.
pub type DisputeService = disputes::Disputes<ShopDisputePorts>;

/// The ports of the app's disputes service.
pub struct ShopDisputePorts;

impl disputes::DisputePorts for ShopDisputePorts {
    type Repo = Store;
    type Gateway = ShopDisputeGateway;
    type Renderer = BlockingPdf;
    type Proofs = ShopRecordMaterials;
    type Clock = AppClock;
}

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
    Ok(DisputeService::new(
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
                )?
                .with_base_currency(&settings.currency.base),
            },
        },
        clock.clone(),
        settings.disputes.domain(),
        crate::refund_policy::for_disputes(&settings.site.public_url),
    ))
}
