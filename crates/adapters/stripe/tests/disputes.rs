//! Stripe's dispute calls against a local fake Stripe that answers like the real one: it
//! checks the secret key, refuses evidence fields Stripe does not have and evidence files that
//! are not file ids, takes uploads on a host of their own, and answers Stripe's own fixture
//! objects.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use disputes::{ChargeRisk, DisputeGateway, EvidenceFile, EvidenceText, StagedFiles};
use garden_stripe::{StripeDisputes, StripeSettings};
use orders::gateways::PaymentError;
use secrecy::SecretString;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const KEY: &str = "sk_test_123";
const DISPUTE_ID: &str = "dp_1Pgc71B7WZ01zgkWMevJiAUx";
const DISPUTE_FIXTURE: &str = include_str!("fixtures/dispute.json");
const CHARGE_FIXTURE: &str = include_str!("fixtures/charge.json");
const PAYMENT_INTENT_FIXTURE: &str = include_str!("fixtures/payment_intent.json");
const FILE_FIXTURE: &str = include_str!("fixtures/file.json");

/// Every field of the `evidence` hash of Stripe's "Update a dispute" call
/// (<https://docs.stripe.com/api/disputes/update#update_dispute-evidence>).
const STRIPE_EVIDENCE_FIELDS: [&str; 28] = [
    "access_activity_log",
    "billing_address",
    "cancellation_policy",
    "cancellation_policy_disclosure",
    "cancellation_rebuttal",
    "customer_communication",
    "customer_email_address",
    "customer_name",
    "customer_purchase_ip",
    "customer_signature",
    "duplicate_charge_documentation",
    "duplicate_charge_explanation",
    "duplicate_charge_id",
    "enhanced_evidence",
    "product_description",
    "receipt",
    "refund_policy",
    "refund_policy_disclosure",
    "refund_refusal_explanation",
    "service_date",
    "service_documentation",
    "shipping_address",
    "shipping_carrier",
    "shipping_date",
    "shipping_documentation",
    "shipping_tracking_number",
    "uncategorized_file",
    "uncategorized_text",
];

/// The evidence fields that take the id of an uploaded file (`file_...`).
const STRIPE_EVIDENCE_FILE_FIELDS: [&str; 9] = [
    "cancellation_policy",
    "customer_communication",
    "customer_signature",
    "duplicate_charge_documentation",
    "receipt",
    "refund_policy",
    "service_documentation",
    "shipping_documentation",
    "uncategorized_file",
];

/// The `purpose` values Stripe's Files API takes.
const STRIPE_FILE_PURPOSES: [&str; 12] = [
    "account_requirement",
    "additional_verification",
    "business_icon",
    "business_logo",
    "customer_signature",
    "dispute_evidence",
    "identity_document",
    "issuing_regulatory_reporting",
    "pci_document",
    "platform_terms_of_service",
    "tax_document_user_upload",
    "terminal_reader_splashscreen",
];

/// Stripe's error answer.
fn stripe_error(status: u16, message: &str, param: Option<&str>) -> ResponseTemplate {
    let mut error = serde_json::json!({
        "type": "invalid_request_error",
        "message": message,
        "request_log_url": "https://dashboard.stripe.com/test/logs/req_1",
    });
    if let Some(param) = param {
        error["param"] = param.into();
    }
    ResponseTemplate::new(status).set_body_json(serde_json::json!({ "error": error }))
}

fn form(body: &[u8]) -> HashMap<String, String> {
    form_urlencoded::parse(body).into_owned().collect()
}

/// One part of a `multipart/form-data` body.
#[derive(Debug)]
struct FormPart {
    name: String,
    filename: Option<String>,
    content_type: Option<String>,
    bytes: Vec<u8>,
}

/// The parts of a `multipart/form-data` request, or `None` when it is not one.
fn multipart(request: &Request) -> Option<Vec<FormPart>> {
    let content_type = request.headers.get("content-type")?.to_str().ok()?;
    let boundary = content_type
        .strip_prefix("multipart/form-data")?
        .split(';')
        .find_map(|param| param.trim().strip_prefix("boundary="))?
        .trim_matches('"');
    let delimiter = format!("--{boundary}").into_bytes();
    let body = &request.body;
    let mut starts = Vec::new();
    let mut at = 0;
    while let Some(found) = find(&body[at..], &delimiter) {
        starts.push(at + found);
        at += found + delimiter.len();
    }
    let mut parts = Vec::new();
    for pair in starts.windows(2) {
        let raw = &body[pair[0] + delimiter.len()..pair[1]];
        // "\r\n" headers "\r\n\r\n" content "\r\n"
        let raw = raw.strip_prefix(b"\r\n")?.strip_suffix(b"\r\n")?;
        let split = find(raw, b"\r\n\r\n")?;
        let headers = std::str::from_utf8(&raw[..split]).ok()?;
        let mut part = FormPart {
            name: String::new(),
            filename: None,
            content_type: None,
            bytes: raw[split + 4..].to_vec(),
        };
        for line in headers.split("\r\n") {
            let (header, value) = line.split_once(':')?;
            match header.trim().to_ascii_lowercase().as_str() {
                "content-disposition" => {
                    for param in value.split(';').skip(1) {
                        let (key, value) = param.trim().split_once('=')?;
                        let value = value.trim_matches('"').to_owned();
                        match key {
                            "name" => part.name = value,
                            "filename" => part.filename = Some(value),
                            _ => {}
                        }
                    }
                }
                "content-type" => part.content_type = Some(value.trim().to_owned()),
                _ => {}
            }
        }
        parts.push(part);
    }
    Some(parts)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// A fake of Stripe's API host (`/v1/disputes/...`, `/v1/payment_intents/...`) and of its
/// files host (`/v1/files`), each answering only what the real host answers.
struct FakeStripe {
    /// The latest charge of every payment intent, as the expanded object.
    latest_charge: Option<serde_json::Value>,
    uploads: AtomicUsize,
}

/// Stripe's fixture dispute as Stripe answers it in the API version async-stripe pins
/// (2026-09-30), whose card details name the card's network; the fixture predates that field.
fn dispute_answer(dispute_id: &str, status: &str) -> serde_json::Value {
    let mut dispute: serde_json::Value = serde_json::from_str(DISPUTE_FIXTURE).unwrap();
    dispute["id"] = dispute_id.into();
    dispute["status"] = status.into();
    dispute["payment_method_details"]["card"]["network"] = "visa".into();
    dispute
}

impl FakeStripe {
    fn disputes(&self, request: &Request, dispute_id: &str) -> ResponseTemplate {
        let sent = form(&request.body);
        let mut dispute = dispute_answer(dispute_id, "needs_response");
        for (key, value) in &sent {
            let param = key.as_str();
            if let Some(rest) = param.strip_prefix("evidence[") {
                let field = rest.split(']').next().unwrap_or_default();
                if !STRIPE_EVIDENCE_FIELDS.contains(&field) {
                    return stripe_error(
                        400,
                        &format!("Received unknown parameter: {param}"),
                        Some(param),
                    );
                }
                if STRIPE_EVIDENCE_FILE_FIELDS.contains(&field) && !value.starts_with("file_") {
                    return stripe_error(
                        400,
                        &format!("No such file upload: '{value}'"),
                        Some(param),
                    );
                }
                dispute["evidence"][field] = value.as_str().into();
            } else if param == "submit" {
                match value.as_str() {
                    "true" => {
                        dispute["status"] = "under_review".into();
                        dispute["evidence_details"]["submission_count"] = 1.into();
                    }
                    "false" => {}
                    other => {
                        return stripe_error(400, &format!("Invalid boolean: {other}"), Some(param))
                    }
                }
            } else if !(param.starts_with("metadata[") || param.starts_with("expand[")) {
                return stripe_error(
                    400,
                    &format!("Received unknown parameter: {param}"),
                    Some(param),
                );
            }
        }
        ResponseTemplate::new(200).set_body_json(dispute)
    }

    fn close(&self, dispute_id: &str) -> ResponseTemplate {
        ResponseTemplate::new(200).set_body_json(dispute_answer(dispute_id, "lost"))
    }

    fn payment_intent(&self, request: &Request, id: &str) -> ResponseTemplate {
        let expanded = request
            .url
            .query_pairs()
            .any(|(key, value)| key.starts_with("expand[") && value == "latest_charge");
        let mut intent: serde_json::Value = serde_json::from_str(PAYMENT_INTENT_FIXTURE).unwrap();
        intent["id"] = id.into();
        intent["latest_charge"] = match &self.latest_charge {
            Some(charge) if expanded => charge.clone(),
            Some(charge) => charge["id"].clone(),
            None => serde_json::Value::Null,
        };
        ResponseTemplate::new(200).set_body_json(intent)
    }

    fn upload(&self, request: &Request) -> ResponseTemplate {
        let Some(parts) = multipart(request) else {
            return stripe_error(400, "Files must be uploaded as multipart/form-data.", None);
        };
        let Some(purpose) = parts.iter().find(|part| part.name == "purpose") else {
            return stripe_error(400, "Missing required param: purpose.", Some("purpose"));
        };
        let purpose = String::from_utf8_lossy(&purpose.bytes).into_owned();
        if !STRIPE_FILE_PURPOSES.contains(&purpose.as_str()) {
            return stripe_error(
                400,
                &format!(
                    "Invalid purpose: must be one of {}",
                    STRIPE_FILE_PURPOSES.join(", ")
                ),
                Some("purpose"),
            );
        }
        let Some(file) = parts.iter().find(|part| part.name == "file") else {
            return stripe_error(400, "Missing required param: file.", Some("file"));
        };
        let number = self.uploads.fetch_add(1, Ordering::SeqCst) + 1;
        let mut answer: serde_json::Value = serde_json::from_str(FILE_FIXTURE).unwrap();
        answer["id"] = format!("file_test_{number}").into();
        answer["filename"] = file.filename.clone().unwrap_or_default().into();
        answer["purpose"] = purpose.into();
        answer["size"] = file.bytes.len().into();
        answer["type"] = "pdf".into();
        answer["links"]["data"] = serde_json::json!([]);
        ResponseTemplate::new(200).set_body_json(answer)
    }
}

impl Respond for FakeStripe {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let authorised = request
            .headers
            .get("authorization")
            .is_some_and(|value| value == format!("Bearer {KEY}").as_str());
        if !authorised {
            return stripe_error(401, "Invalid API Key provided: sk_test_***", None);
        }
        let segments: Vec<&str> = request
            .url
            .path()
            .trim_start_matches('/')
            .split('/')
            .collect();
        match (request.method.as_str(), segments.as_slice()) {
            ("POST", ["v1", "disputes", id]) => self.disputes(request, id),
            ("POST", ["v1", "disputes", id, "close"]) => self.close(id),
            ("GET", ["v1", "payment_intents", id]) => self.payment_intent(request, id),
            ("POST", ["v1", "files"]) => self.upload(request),
            _ => stripe_error(
                404,
                &format!(
                    "Unrecognized request URL ({} {}).",
                    request.method,
                    request.url.path()
                ),
                None,
            ),
        }
    }
}

/// The fake's API host and its files host.
struct Fake {
    api: MockServer,
    files: MockServer,
}

impl Fake {
    async fn start(latest_charge: Option<serde_json::Value>) -> Self {
        let api = MockServer::start().await;
        let files = MockServer::start().await;
        Mock::given(any())
            .respond_with(FakeStripe {
                latest_charge: latest_charge.clone(),
                uploads: AtomicUsize::new(0),
            })
            .mount(&api)
            .await;
        // the files host takes uploads only
        Mock::given(any())
            .respond_with(FakeFiles(FakeStripe {
                latest_charge: None,
                uploads: AtomicUsize::new(0),
            }))
            .mount(&files)
            .await;
        Self { api, files }
    }

    fn settings(&self) -> StripeSettings {
        StripeSettings {
            secret_key: SecretString::from(KEY),
            webhook_secret: SecretString::from("whsec_test"),
            api_base: self.api.uri(),
            files_api_base: self.files.uri(),
            instant_payment_method_configuration: String::new(),
        }
    }

    fn disputes(&self) -> StripeDisputes {
        StripeDisputes::new(&self.settings()).unwrap()
    }

    async fn api_requests(&self) -> Vec<Request> {
        self.api.received_requests().await.unwrap()
    }
}

/// Stripe's files host: `POST /v1/files`, nothing else.
struct FakeFiles(FakeStripe);

impl Respond for FakeFiles {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        if request.url.path() == "/v1/files" {
            self.0.respond(request)
        } else {
            stripe_error(404, "Unrecognized request URL.", None)
        }
    }
}

fn text() -> EvidenceText {
    EvidenceText {
        customer_name: "Robin Gardener (Roblox: robin_grows)".into(),
        customer_email_address: Some("robin+garden@example.com".into()),
        customer_purchase_ip: Some("2001:db8::17".into()),
        product_description: "2 × Golden Watering Can & 1 × Seed Pack = $40.48, delivered \
                              in game by hand"
            .into(),
        service_date: Some("2026-11-02".into()),
        access_activity_log: "2026-11-02 18:04:11 UTC checkout from 2001:db8::17\n\
                              2026-11-02 18:20:40 UTC \"I got my items\" from 2001:db8::17"
            .into(),
        refund_policy_disclosure: "Shown at checkout (version 2026-11-01): all sales final \
                                   once delivered."
            .into(),
        uncategorized_text: "Delivered by staff member Ash; proof pictures attached.".into(),
    }
}

fn staged_files() -> StagedFiles {
    StagedFiles {
        service_documentation: "file_service_1".into(),
        customer_communication: "file_mail_2".into(),
        refund_policy: "file_policy_3".into(),
    }
}

fn expected_text_fields() -> HashMap<String, String> {
    let text = text();
    HashMap::from([
        ("evidence[customer_name]".to_owned(), text.customer_name),
        (
            "evidence[customer_email_address]".to_owned(),
            text.customer_email_address.unwrap(),
        ),
        (
            "evidence[customer_purchase_ip]".to_owned(),
            text.customer_purchase_ip.unwrap(),
        ),
        (
            "evidence[product_description]".to_owned(),
            text.product_description,
        ),
        (
            "evidence[service_date]".to_owned(),
            text.service_date.unwrap(),
        ),
        (
            "evidence[access_activity_log]".to_owned(),
            text.access_activity_log,
        ),
        (
            "evidence[refund_policy_disclosure]".to_owned(),
            text.refund_policy_disclosure,
        ),
        (
            "evidence[uncategorized_text]".to_owned(),
            text.uncategorized_text,
        ),
    ])
}

#[tokio::test]
async fn staged_evidence_sends_stripes_text_fields_and_submit_false() {
    let fake = Fake::start(None).await;

    fake.disputes()
        .update_evidence(DISPUTE_ID.into(), text(), None, false)
        .await
        .unwrap();

    let requests = fake.api_requests().await;
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].method.as_str(), "POST");
    assert_eq!(requests[0].url.path(), format!("/v1/disputes/{DISPUTE_ID}"));
    let mut expected = expected_text_fields();
    expected.insert("submit".into(), "false".into());
    assert_eq!(form(&requests[0].body), expected);
    assert!(
        requests[0].headers.get("idempotency-key").is_none(),
        "staging can be repeated as it is"
    );
}

#[tokio::test]
async fn submitting_evidence_sends_submit_true_with_the_disputes_idempotency_key() {
    let fake = Fake::start(None).await;

    fake.disputes()
        .update_evidence(DISPUTE_ID.into(), text(), Some(staged_files()), true)
        .await
        .unwrap();

    let requests = fake.api_requests().await;
    assert_eq!(form(&requests[0].body)["submit"], "true");
    assert_eq!(
        requests[0].headers.get("idempotency-key").unwrap(),
        format!("dispute-{DISPUTE_ID}-submit").as_str()
    );
}

#[tokio::test]
async fn the_three_uploaded_files_go_into_their_evidence_fields() {
    let fake = Fake::start(None).await;

    fake.disputes()
        .update_evidence(DISPUTE_ID.into(), text(), Some(staged_files()), false)
        .await
        .unwrap();

    let mut expected = expected_text_fields();
    expected.extend([
        (
            "evidence[service_documentation]".to_owned(),
            "file_service_1".to_owned(),
        ),
        (
            "evidence[customer_communication]".to_owned(),
            "file_mail_2".to_owned(),
        ),
        (
            "evidence[refund_policy]".to_owned(),
            "file_policy_3".to_owned(),
        ),
        ("submit".to_owned(), "false".to_owned()),
    ]);
    assert_eq!(form(&fake.api_requests().await[0].body), expected);
}

#[tokio::test]
async fn evidence_without_an_email_address_ip_or_date_leaves_those_fields_out() {
    let fake = Fake::start(None).await;
    let text = EvidenceText {
        customer_email_address: None,
        customer_purchase_ip: None,
        service_date: None,
        ..text()
    };

    fake.disputes()
        .update_evidence(DISPUTE_ID.into(), text, None, false)
        .await
        .unwrap();

    let sent = form(&fake.api_requests().await[0].body);
    for left_out in [
        "evidence[customer_email_address]",
        "evidence[customer_purchase_ip]",
        "evidence[service_date]",
    ] {
        assert!(!sent.contains_key(left_out), "{left_out}: {sent:?}");
    }
    assert_eq!(sent.len(), 6, "{sent:?}");
}

/// The fake is only worth its checks if it refuses what Stripe refuses.
#[tokio::test]
async fn the_fake_refuses_evidence_fields_stripe_does_not_have_and_files_that_are_not_uploads() {
    let fake = Fake::start(None).await;
    let http = reqwest::Client::new();
    for (field, value) in [
        ("evidence[delivery_proof]", "file_1"),
        ("evidence[customer_ip]", "2001:db8::17"),
        (
            "evidence[service_documentation]",
            "https://shop.example/proof.pdf",
        ),
        ("submit", "yes"),
    ] {
        let answer = http
            .post(format!("{}/v1/disputes/{DISPUTE_ID}", fake.api.uri()))
            .bearer_auth(KEY)
            .form(&[(field, value)])
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 400, "{field}");
        let body: serde_json::Value = answer.json().await.unwrap();
        assert_eq!(body["error"]["param"], field);
    }
}

#[tokio::test]
async fn an_evidence_file_is_uploaded_to_the_files_host_as_a_dispute_evidence_pdf() {
    let fake = Fake::start(None).await;
    // every byte value, and what a careless multipart writer could cut at
    let mut pdf = b"%PDF-1.7\r\n%\xe2\xe3\xcf\xd3\r\n--\r\n\r\n".to_vec();
    pdf.extend((0..=255u8).cycle().take(70_000));
    pdf.extend_from_slice(b"\r\n%%EOF\r\n");

    let file_id = fake
        .disputes()
        .upload_file(
            DISPUTE_ID.into(),
            EvidenceFile::ServiceDocumentation,
            pdf.clone(),
        )
        .await
        .unwrap();

    assert_eq!(file_id, "file_test_1");
    assert!(
        fake.api_requests().await.is_empty(),
        "uploads go to the files host"
    );
    let requests = fake.files.received_requests().await.unwrap();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].method.as_str(), "POST");
    assert_eq!(requests[0].url.path(), "/v1/files");
    let parts = multipart(&requests[0]).expect("a multipart/form-data body");
    let purpose = parts.iter().find(|part| part.name == "purpose").unwrap();
    assert_eq!(purpose.bytes, b"dispute_evidence");
    let file = parts.iter().find(|part| part.name == "file").unwrap();
    assert_eq!(
        file.filename.as_deref(),
        Some(format!("service_documentation-{DISPUTE_ID}.pdf").as_str())
    );
    assert_eq!(file.content_type.as_deref(), Some("application/pdf"));
    assert!(file.bytes == pdf, "the PDF arrives byte for byte");
}

#[tokio::test]
async fn each_evidence_file_is_named_by_its_field() {
    let fake = Fake::start(None).await;
    let disputes = fake.disputes();
    let mut ids = Vec::new();
    for file in EvidenceFile::ALL {
        ids.push(
            disputes
                .upload_file(DISPUTE_ID.into(), file, b"%PDF-1.7 small".to_vec())
                .await
                .unwrap(),
        );
    }

    assert_eq!(ids, ["file_test_1", "file_test_2", "file_test_3"]);
    let names: Vec<String> = fake
        .files
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|request| {
            let parts = multipart(request).unwrap();
            let file = parts.into_iter().find(|part| part.name == "file").unwrap();
            file.filename.unwrap()
        })
        .collect();
    assert_eq!(
        names,
        [
            format!("service_documentation-{DISPUTE_ID}.pdf"),
            format!("customer_communication-{DISPUTE_ID}.pdf"),
            format!("refund_policy-{DISPUTE_ID}.pdf"),
        ]
    );
}

#[tokio::test]
async fn accepting_a_dispute_closes_it_at_stripe() {
    let fake = Fake::start(None).await;

    fake.disputes().accept(DISPUTE_ID.into()).await.unwrap();

    let requests = fake.api_requests().await;
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].method.as_str(), "POST");
    assert_eq!(
        requests[0].url.path(),
        format!("/v1/disputes/{DISPUTE_ID}/close")
    );
}

/// Stripe's fixture charge with the risk level Radar gave it.
fn charge(risk_level: &str) -> serde_json::Value {
    let mut charge: serde_json::Value = serde_json::from_str(CHARGE_FIXTURE).unwrap();
    charge["id"] = "ch_test_7".into();
    charge["amount"] = 4048.into();
    charge["outcome"]["risk_level"] = risk_level.into();
    charge["outcome"]["type"] = "authorized".into();
    charge
}

async fn risk(charge: Option<serde_json::Value>) -> ChargeRisk {
    let fake = Fake::start(charge).await;
    let risk = fake
        .disputes()
        .charge_risk("pi_test_5".into())
        .await
        .unwrap();
    let requests = fake.api_requests().await;
    assert_eq!(requests[0].method.as_str(), "GET");
    assert_eq!(requests[0].url.path(), "/v1/payment_intents/pi_test_5");
    risk
}

#[tokio::test]
async fn the_charge_risk_is_the_latest_charges_risk_level() {
    assert_eq!(
        risk(Some(charge("elevated"))).await,
        ChargeRisk {
            risk_level: Some("elevated".into()),
            charge_id: Some("ch_test_7".into()),
            refundable: true,
        }
    );
}

#[tokio::test]
async fn a_charge_refunded_in_part_can_still_be_refunded_but_not_a_refunded_or_disputed_one() {
    let mut partly = charge("normal");
    partly["amount_refunded"] = 1000.into();
    assert!(risk(Some(partly)).await.refundable);

    let mut whole = charge("normal");
    whole["amount_refunded"] = 4048.into();
    whole["refunded"] = true.into();
    assert!(!risk(Some(whole)).await.refundable);

    // refunded in full as Stripe counts the amount, even before `refunded` is set
    let mut all_of_it = charge("normal");
    all_of_it["amount_refunded"] = 4048.into();
    assert!(!risk(Some(all_of_it)).await.refundable);

    let mut disputed = charge("highest");
    disputed["disputed"] = true.into();
    assert!(!risk(Some(disputed)).await.refundable);
}

#[tokio::test]
async fn a_payment_without_a_charge_has_no_risk_and_nothing_to_refund() {
    assert_eq!(
        risk(None).await,
        ChargeRisk {
            risk_level: None,
            charge_id: None,
            refundable: false,
        }
    );
}

/// Every call of the gateway, each reduced to whether it failed and how.
async fn every_call(disputes: &StripeDisputes) -> Vec<(&'static str, Result<(), PaymentError>)> {
    vec![
        (
            "stage evidence",
            disputes
                .update_evidence(DISPUTE_ID.into(), text(), Some(staged_files()), false)
                .await,
        ),
        (
            "submit evidence",
            disputes
                .update_evidence(DISPUTE_ID.into(), text(), None, true)
                .await,
        ),
        ("accept", disputes.accept(DISPUTE_ID.into()).await),
        (
            "charge risk",
            disputes.charge_risk("pi_test_5".into()).await.map(drop),
        ),
        (
            "upload",
            disputes
                .upload_file(
                    DISPUTE_ID.into(),
                    EvidenceFile::RefundPolicy,
                    b"%PDF-1.7".to_vec(),
                )
                .await
                .map(drop),
        ),
    ]
}

/// Both hosts answering every request with `answer`.
async fn answering(answer: ResponseTemplate) -> Fake {
    let api = MockServer::start().await;
    let files = MockServer::start().await;
    for server in [&api, &files] {
        Mock::given(any())
            .respond_with(answer.clone())
            .mount(server)
            .await;
    }
    Fake { api, files }
}

#[tokio::test]
async fn a_request_stripe_refuses_is_a_rejection_with_stripes_message() {
    let fake = answering(stripe_error(
        400,
        "This dispute is already closed",
        Some("dispute"),
    ))
    .await;

    for (call, result) in every_call(&fake.disputes()).await {
        match result {
            Err(PaymentError::Rejected { status, message }) => {
                assert_eq!(status, 400, "{call}");
                assert_eq!(
                    message, "This dispute is already closed (param: dispute)",
                    "{call}"
                );
            }
            other => panic!("{call}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_wrong_key_is_a_rejection() {
    let fake = Fake::start(Some(charge("normal"))).await;
    let mut settings = fake.settings();
    settings.secret_key = SecretString::from("sk_test_someone_else");
    let disputes = StripeDisputes::new(&settings).unwrap();

    for (call, result) in every_call(&disputes).await {
        assert!(
            matches!(result, Err(PaymentError::Rejected { status: 401, .. })),
            "{call}: {result:?}"
        );
    }
}

#[tokio::test]
async fn a_rate_limit_a_timeout_or_a_failure_on_stripes_side_is_unavailable() {
    for status in [408, 429, 500, 503] {
        let fake = answering(
            ResponseTemplate::new(status).set_body_json(serde_json::json!({
                "error": { "type": "api_error", "message": "Try again later" }
            })),
        )
        .await;

        for (call, result) in every_call(&fake.disputes()).await {
            assert!(
                matches!(result, Err(PaymentError::Unavailable(_))),
                "{status} {call}: {result:?}"
            );
        }
    }
}

#[tokio::test]
async fn an_answer_that_is_not_stripes_is_unknown() {
    let fake = answering(ResponseTemplate::new(200).set_body_raw(
        "<html><body>Welcome to the captive portal</body></html>",
        "text/html",
    ))
    .await;

    for (call, result) in every_call(&fake.disputes()).await {
        assert!(
            matches!(result, Err(PaymentError::Unknown(_))),
            "{call}: {result:?}"
        );
    }
}

#[tokio::test]
async fn a_slow_stripe_is_unavailable_once_the_timeout_passes() {
    let slow = answering(
        ResponseTemplate::new(200)
            .set_body_json(serde_json::json!({ "id": "file_late" }))
            .set_delay(Duration::from_secs(10)),
    )
    .await;
    let disputes =
        StripeDisputes::with_timeout(&slow.settings(), Duration::from_millis(300)).unwrap();

    for (call, result) in every_call(&disputes).await {
        assert!(
            matches!(result, Err(PaymentError::Unavailable(_))),
            "{call}: {result:?}"
        );
    }
    let started = Instant::now();
    let result = disputes.accept(DISPUTE_ID.into()).await;
    assert!(matches!(result, Err(PaymentError::Unavailable(_))));
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "gave up after {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn an_unreachable_stripe_is_unavailable() {
    // A port nothing listens on: bind one, then free it.
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let settings = StripeSettings {
        secret_key: SecretString::from(KEY),
        webhook_secret: SecretString::from("whsec_test"),
        api_base: format!("http://{addr}"),
        files_api_base: format!("http://{addr}"),
        instant_payment_method_configuration: String::new(),
    };
    let disputes = StripeDisputes::new(&settings).unwrap();

    for (call, result) in every_call(&disputes).await {
        assert!(
            matches!(result, Err(PaymentError::Unavailable(_))),
            "{call}: {result:?}"
        );
    }
}

#[test]
fn an_empty_secret_key_is_refused_up_front() {
    let settings = StripeSettings {
        secret_key: SecretString::from(" "),
        webhook_secret: SecretString::from("whsec_test"),
        api_base: "http://127.0.0.1:1".into(),
        files_api_base: "http://127.0.0.1:1".into(),
        instant_payment_method_configuration: String::new(),
    };
    assert!(StripeDisputes::new(&settings).is_err());
}

/// `GET /v1/payment_intents/{id}` answering an intent whose `next_action` is `next_action`.
async fn deadline_of(next_action: serde_json::Value) -> Option<i64> {
    let server = MockServer::start().await;
    let mut intent: serde_json::Value = serde_json::from_str(PAYMENT_INTENT_FIXTURE).unwrap();
    intent["id"] = "pi_voucher".into();
    intent["status"] = "requires_action".into();
    intent["next_action"] = next_action;
    Mock::given(wiremock::matchers::method("GET"))
        .and(wiremock::matchers::path("/v1/payment_intents/pi_voucher"))
        .respond_with(ResponseTemplate::new(200).set_body_json(intent))
        .expect(1)
        .mount(&server)
        .await;
    let settings = StripeSettings {
        secret_key: SecretString::from(KEY),
        webhook_secret: SecretString::from("whsec_test"),
        api_base: server.uri(),
        files_api_base: server.uri(),
        instant_payment_method_configuration: String::new(),
    };
    StripeDisputes::new(&settings)
        .unwrap()
        .payment_deadline("pi_voucher".into())
        .await
        .unwrap()
        .map(|at| at.timestamp())
}

#[tokio::test]
async fn a_vouchers_deadline_is_read_from_its_payments_next_action() {
    let oxxo = serde_json::json!({
        "type": "oxxo_display_details",
        "oxxo_display_details": {
            "expires_after": 1_764_806_400,
            "hosted_voucher_url": "https://payments.stripe.com/oxxo/voucher/test",
            "number": "12345678901234657890123456789012",
        },
    });
    assert_eq!(deadline_of(oxxo).await, Some(1_764_806_400));
    let boleto = serde_json::json!({
        "type": "boleto_display_details",
        "boleto_display_details": {
            "expires_at": 1_764_900_000,
            "hosted_voucher_url": "https://payments.stripe.com/boleto/voucher/test",
            "number": "01010101010101010101010101010101010101010101010",
            "pdf": "https://payments.stripe.com/boleto/voucher/test/pdf",
        },
    });
    assert_eq!(deadline_of(boleto).await, Some(1_764_900_000));
    // a bank debit names no deadline; neither does a payment with nothing left to do
    let debit = serde_json::json!({"type": "verify_with_microdeposits", "verify_with_microdeposits": {
        "arrival_date": 1_764_806_400, "hosted_verification_url": "https://payments.stripe.com/x",
        "microdeposit_type": "amounts",
    }});
    assert_eq!(deadline_of(debit).await, None);
    assert_eq!(deadline_of(serde_json::Value::Null).await, None);
}
