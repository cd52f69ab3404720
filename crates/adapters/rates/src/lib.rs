//! The day's reference rates from the European Central Bank: its daily XML
//! (`eurofxref-daily.xml`: one `Cube time="YYYY-MM-DD"` holding a `Cube currency rate` per
//! currency, rates against the euro), fetched from `currency.rates_url`, or read from a file
//! when the address is `file:PATH` (the development sample, which the shop marks as a sample).

use std::collections::BTreeMap;
use std::time::Duration;

use cart_pricing::{CurrencyCode, Decimal, ReferenceRates};
use chrono::NaiveDate;

/// How long one fetch may take.
const TIMEOUT: Duration = Duration::from_secs(20);
/// The most of an answer read (the real file is under 2 KiB).
const MAX_BYTES: usize = 256 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum RatesError {
    #[error("the rates could not be fetched: {0}")]
    Fetch(String),
    #[error("the rates source answered HTTP {0}")]
    Status(u16),
    #[error("the rates file could not be read: {0}")]
    File(String),
    #[error("the rates are not the ECB's daily XML: {0}")]
    Format(String),
}

/// Where the rates come from.
#[derive(Debug, Clone)]
pub struct RatesSource {
    url: String,
    client: reqwest::Client,
}

impl RatesSource {
    pub fn new(url: &str) -> Self {
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .build()
            .unwrap_or_default();
        RatesSource {
            url: url.trim().to_owned(),
            client,
        }
    }

    /// A `file:` source: the development sample, exempt from the age limit.
    pub fn is_sample(&self) -> bool {
        self.url.starts_with("file:")
    }

    /// The day's rates.
    pub async fn fetch(&self) -> Result<ReferenceRates, RatesError> {
        let text = match self.url.strip_prefix("file:") {
            Some(path) => std::fs::read_to_string(path)
                .map_err(|error| RatesError::File(format!("{path}: {error}")))?,
            None => self.download().await?,
        };
        parse(&text, self.is_sample())
    }

    async fn download(&self) -> Result<String, RatesError> {
        let answer = self
            .client
            .get(&self.url)
            .send()
            .await
            .map_err(|error| RatesError::Fetch(error.without_url().to_string()))?;
        if !answer.status().is_success() {
            return Err(RatesError::Status(answer.status().as_u16()));
        }
        let bytes = answer
            .bytes()
            .await
            .map_err(|error| RatesError::Fetch(error.without_url().to_string()))?;
        if bytes.len() > MAX_BYTES {
            return Err(RatesError::Format(format!("{} bytes", bytes.len())));
        }
        String::from_utf8(bytes.to_vec()).map_err(|_| RatesError::Format("not UTF-8".into()))
    }
}

/// The rates of an ECB daily XML document.
pub fn parse(xml: &str, sample: bool) -> Result<ReferenceRates, RatesError> {
    let document =
        roxmltree::Document::parse(xml).map_err(|error| RatesError::Format(error.to_string()))?;
    let day = document
        .descendants()
        .find(|node| node.has_tag_name("Cube") && node.has_attribute("time"))
        .ok_or_else(|| RatesError::Format("no Cube with a time".into()))?;
    let as_of: NaiveDate = day
        .attribute("time")
        .unwrap_or_default()
        .parse()
        .map_err(|_| RatesError::Format("the time is not a date".into()))?;
    let mut per_euro = BTreeMap::new();
    for cube in day.children().filter(|node| node.has_tag_name("Cube")) {
        let (Some(currency), Some(rate)) = (cube.attribute("currency"), cube.attribute("rate"))
        else {
            continue;
        };
        let code: CurrencyCode = currency
            .parse()
            .map_err(|_| RatesError::Format(format!("currency {currency:?}")))?;
        let rate: Decimal = rate
            .trim()
            .parse()
            .ok()
            .filter(|rate: &Decimal| *rate > Decimal::ZERO)
            .ok_or_else(|| RatesError::Format(format!("rate of {currency}")))?;
        per_euro.insert(code, rate);
    }
    if per_euro.is_empty() {
        return Err(RatesError::Format("no rates".into()));
    }
    Ok(ReferenceRates {
        as_of,
        sample,
        per_euro,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    pub(crate) const DAILY: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
	<gesmes:subject>Reference rates</gesmes:subject>
	<gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
	<Cube>
		<Cube time='2026-11-27'>
			<Cube currency='USD' rate='1.0567'/>
			<Cube currency='JPY' rate='158.91'/>
			<Cube currency='BRL' rate='5.6443'/>
		</Cube>
	</Cube>
</gesmes:Envelope>"#;

    #[test]
    fn the_daily_file_gives_its_date_and_rates() {
        let rates = parse(DAILY, false).unwrap();
        assert_eq!(rates.as_of.to_string(), "2026-11-27");
        assert_eq!(rates.per_euro.len(), 3);
        assert_eq!(
            rates.per_euro[&"BRL".parse().unwrap()],
            "5.6443".parse::<Decimal>().unwrap()
        );
        assert!(!rates.sample);
    }

    #[test]
    fn anything_else_is_refused() {
        for bad in [
            "",
            "<html>maintenance</html>",
            "<Cube><Cube time='yesterday'><Cube currency='USD' rate='1'/></Cube></Cube>",
            "<Cube><Cube time='2026-11-27'></Cube></Cube>",
            "<Cube><Cube time='2026-11-27'><Cube currency='usd' rate='1'/></Cube></Cube>",
            "<Cube><Cube time='2026-11-27'><Cube currency='USD' rate='-1'/></Cube></Cube>",
        ] {
            assert!(
                matches!(parse(bad, false), Err(RatesError::Format(_))),
                "{bad}"
            );
        }
    }

    #[tokio::test]
    async fn a_fetch_reads_the_answer_and_a_failed_one_says_why() {
        use wiremock::matchers::method;
        use wiremock::{Mock, MockServer, ResponseTemplate};
        let server = MockServer::start().await;
        Mock::given(method("GET"))
            .respond_with(ResponseTemplate::new(200).set_body_string(DAILY))
            .up_to_n_times(1)
            .mount(&server)
            .await;
        Mock::given(method("GET"))
            .respond_with(ResponseTemplate::new(503))
            .mount(&server)
            .await;
        let source = RatesSource::new(&server.uri());
        assert_eq!(source.fetch().await.unwrap().per_euro.len(), 3);
        assert!(matches!(source.fetch().await, Err(RatesError::Status(503))));
    }

    #[tokio::test]
    async fn a_file_source_is_the_sample() {
        let path = std::env::temp_dir().join(format!("rates-{}.xml", std::process::id()));
        std::fs::write(&path, DAILY).unwrap();
        let source = RatesSource::new(&format!("file:{}", path.display()));
        assert!(source.is_sample());
        assert!(source.fetch().await.unwrap().sample);
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(source.fetch().await, Err(RatesError::File(_))));
    }
}
