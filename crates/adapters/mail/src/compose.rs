use accounts::AccountMail;
use anyhow::Context;
use l10n::Text;
use lettre::{
    message::{
        header::{ContentTransferEncoding, ContentType},
        Body, Mailbox, MultiPart, SinglePart,
    },
    Message,
};
use shared::Language;

/// The mail's words in one language: a message as it is (plain text), or with its arguments
/// escaped (HTML, where an argument may also be markup the code built).
#[derive(Clone, Copy)]
pub(crate) struct Words(pub(crate) Language);

impl Words {
    pub(crate) fn say(self, id: &'static str) -> String {
        Text::new(id).render(self.0)
    }

    pub(crate) fn text(self, id: &'static str, args: &[(&'static str, &str)]) -> String {
        args.iter()
            .fold(Text::new(id), |text, (name, value)| text.with(name, *value))
            .render(self.0)
    }

    /// The message with its arguments HTML-escaped.
    pub(crate) fn html(self, id: &'static str, args: &[(&'static str, &str)]) -> String {
        args.iter()
            .fold(Text::new(id), |text, (name, value)| {
                text.with(name, escape(value))
            })
            .render(self.0)
    }

    /// The message with `markup` as its arguments, as they are (built and escaped by the code).
    pub(crate) fn markup(self, id: &'static str, markup: &[(&'static str, &str)]) -> String {
        self.text(id, markup)
    }
}

/// Words the accounts' messages: the shop's name, a plain-text and an HTML part, and links
/// built from the site's public URL.
#[derive(Debug, Clone)]
pub struct Composer {
    shop_name: String,
    public_url: String,
    from: Mailbox,
    /// The currency of record (ISO 4217), which a receipt in another currency names once.
    base_currency: String,
}

impl Composer {
    /// `from` is a mailbox such as `Garden Shop <no-reply@gardenshop.gg>`.
    pub fn new(shop_name: &str, public_url: &str, from: &str) -> anyhow::Result<Self> {
        let from = from
            .parse::<Mailbox>()
            .with_context(|| format!("mail.from is not a valid mailbox: {from:?}"))?;
        Ok(Composer {
            shop_name: shop_name.to_owned(),
            public_url: public_url.trim_end_matches('/').to_owned(),
            from,
            base_currency: "USD".to_owned(),
        })
    }

    /// With the shop's base currency (`currency.base`; USD unless told).
    pub fn with_base_currency(mut self, code: &str) -> Self {
        self.base_currency = code.trim().to_ascii_uppercase();
        self
    }

    /// The link in a reset mail: `{public_url}/reset-password?token=…&email=…`.
    pub fn reset_link(&self, token: &str, email: &str) -> String {
        format!(
            "{}/reset-password?token={}&email={}",
            self.public_url,
            url_encode(token),
            url_encode(email)
        )
    }

    /// Where someone who forgot their password asks for a reset link.
    pub fn forgot_password_link(&self) -> String {
        format!("{}/forgot-password", self.public_url)
    }

    /// The subject line, which never holds a code or a token (it is logged).
    pub fn subject(&self, mail: &AccountMail) -> String {
        let id = match mail {
            AccountMail::SignupCode { .. } => "mail-subject-signup-code",
            AccountMail::PasswordReset { .. } => "mail-subject-password-reset",
            AccountMail::SignupAttempt { .. } => "mail-subject-signup-attempt",
        };
        Words(mail.language()).text(id, &[("shop", &self.shop_name)])
    }

    /// The account's mail, in the account's language (else the asking request's).
    pub fn message(&self, mail: &AccountMail) -> anyhow::Result<Message> {
        let (text, html) = match mail {
            AccountMail::SignupCode {
                name,
                code,
                language,
                ..
            } => self.code_mail(Words(*language), name.as_str(), code.expose()),
            AccountMail::PasswordReset {
                to,
                name,
                token,
                language,
            } => {
                let link = self.reset_link(token.expose(), to.as_str());
                self.reset_mail(Words(*language), name.as_str(), &link)
            }
            AccountMail::SignupAttempt { name, language, .. } => {
                self.attempt_mail(Words(*language), name.as_str())
            }
        };
        self.build(mail.recipient().as_str(), self.subject(mail), text, html)
    }

    fn code_mail(&self, words: Words, name: &str, code: &str) -> (String, String) {
        let shop = self.shop_name.as_str();
        let enter = words.say("mail-code-enter");
        (
            format!(
                "{hi}\n\n{code_is}\n\n{enter}\n\n{not_you}\n\n{shop}\n{url}\n",
                hi = words.text("mail-hi", &[("name", name)]),
                code_is = words.text("mail-code-is", &[("shop", shop), ("code", code)]),
                not_you = words.text("mail-code-not-you", &[("shop", shop)]),
                url = self.public_url
            ),
            format!(
                "<p>{hi}</p><p>{code_is}</p>\
                 <p style=\"font-size:28px;font-weight:bold;letter-spacing:4px\">{code}</p>\
                 <p>{enter}</p><p>{not_you}</p><p><a href=\"{url}\">{shop}</a></p>",
                hi = words.html("mail-hi", &[("name", name)]),
                code_is = words.html("mail-code-is-html", &[("shop", shop)]),
                not_you = words.html("mail-code-not-you", &[("shop", shop)]),
                shop = escape(shop),
                url = escape(&self.public_url),
            ),
        )
    }

    fn reset_mail(&self, words: Words, name: &str, link: &str) -> (String, String) {
        let shop = self.shop_name.as_str();
        let once = words.say("mail-reset-once");
        (
            format!(
                "{hi}\n\n{asked} {open}\n\n{link}\n\n{once}\n\n{shop}\n",
                hi = words.text("mail-hi", &[("name", name)]),
                asked = words.text("mail-reset-asked", &[("shop", shop)]),
                open = words.say("mail-reset-open"),
            ),
            format!(
                "<p>{hi}</p><p>{asked}</p><p><a href=\"{href}\">{choose}</a></p>\
                 <p>{paste}</p><p>{once}</p><p>{shop}</p>",
                hi = words.html("mail-hi", &[("name", name)]),
                asked = words.html("mail-reset-asked", &[("shop", shop)]),
                href = escape(link),
                choose = words.say("mail-reset-link"),
                paste = words.html("mail-paste-link", &[("link", link)]),
                shop = escape(shop),
            ),
        )
    }

    fn attempt_mail(&self, words: Words, name: &str) -> (String, String) {
        let shop = self.shop_name.as_str();
        let link = self.forgot_password_link();
        let not_you = words.say("mail-attempt-not-you");
        let choose = format!(
            "<a href=\"{}\">{}</a>",
            escape(&link),
            words.say("mail-attempt-choose")
        );
        (
            format!(
                "{hi}\n\n{attempt}\n\n{reset}\n\n{link}\n\n{not_you}\n\n{shop}\n",
                hi = words.text("mail-hi", &[("name", name)]),
                attempt = words.text("mail-attempt", &[("shop", shop)]),
                reset = words.say("mail-attempt-reset-text"),
            ),
            format!(
                "<p>{hi}</p><p>{attempt}</p><p>{reset}</p><p>{not_you}</p><p>{shop}</p>",
                hi = words.html("mail-hi", &[("name", name)]),
                attempt = words.html("mail-attempt", &[("shop", shop)]),
                reset = words.markup(
                    "mail-attempt-reset-html",
                    &[("choose", &choose), ("link", &escape(&link))]
                ),
                shop = escape(shop),
            ),
        )
    }

    /// A message with a plain-text and an HTML part (`html` is the body's inside).
    pub(crate) fn build(
        &self,
        to: &str,
        subject: String,
        text: String,
        html: String,
    ) -> anyhow::Result<Message> {
        let to = Mailbox::new(
            None,
            to.parse().context("the recipient is not a valid address")?,
        );
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(subject)
            .multipart(
                MultiPart::alternative()
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_PLAIN)
                            .body(readable(text)),
                    )
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_HTML)
                            .body(readable(format!(
                                "<!doctype html>\n<html><body style=\"font-family:sans-serif\">\n{}\n</body></html>\n",
                                html.replace("</p>", "</p>\n")
                            ))),
                    ),
            )
            .context("failed to build the message")
    }

    pub(crate) fn shop_name(&self) -> &str {
        &self.shop_name
    }

    pub(crate) fn base_currency(&self) -> &str {
        &self.base_currency
    }

    pub(crate) fn public_url(&self) -> &str {
        &self.public_url
    }
}

/// Bodies as they are written (7bit, or 8bit for non-ASCII names) rather than
/// quoted-printable, whose soft line breaks at 76 characters would cut the reset link apart
/// for anyone reading the raw message. RFC 5322 allows lines of 998 characters; longer ones
/// fall back to lettre's own choice.
fn readable(text: String) -> Body {
    let text = text.replace("\r\n", "\n").replace('\n', "\r\n");
    let fits = !text.contains('\0') && text.split("\r\n").all(|line| line.len() <= 998);
    if !fits {
        return Body::new(text);
    }
    let encoding = if text.is_ascii() {
        ContentTransferEncoding::SevenBit
    } else {
        ContentTransferEncoding::EightBit
    };
    Body::dangerous_pre_encoded(text.into_bytes(), encoding)
}

pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// Percent-encodes everything but unreserved characters (RFC 3986).
fn url_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use accounts::{Email, ResetToken, UserName, VerificationCode};
    use shared::Language;

    use super::*;

    fn composer() -> Composer {
        Composer::new(
            "Garden Shop",
            "https://shop.example/",
            "Garden Shop <no-reply@shop.example>",
        )
        .unwrap()
    }

    #[test]
    fn the_code_mail_names_the_shop_and_has_text_and_html_parts() {
        let mail = AccountMail::SignupCode {
            to: Email::parse("ann@example.com").unwrap(),
            name: UserName::parse("Ann <b>").unwrap(),
            code: VerificationCode::parse("012345").unwrap(),
            language: Language::English,
        };
        let eml = String::from_utf8(composer().message(&mail).unwrap().formatted()).unwrap();
        assert!(eml.contains("Subject: Your Garden Shop verification code"));
        assert!(eml.contains("multipart/alternative"));
        assert!(eml.contains("text/plain"));
        assert!(eml.contains("text/html"));
        assert!(eml.contains("012345"));
        assert!(eml.contains("Ann &lt;b&gt;"), "names are escaped in HTML");
        assert!(!composer().subject(&mail).contains("012345"));
    }

    #[test]
    fn the_reset_link_is_built_from_the_public_url() {
        let token = ResetToken::from_bytes([1; 32]);
        let mail = AccountMail::PasswordReset {
            to: Email::parse("ann+shop@example.com").unwrap(),
            name: UserName::parse("Ann").unwrap(),
            token: token.clone(),
            language: Language::English,
        };
        let link = format!(
            "https://shop.example/reset-password?token={}&email=ann%2Bshop%40example.com",
            token.expose()
        );
        assert_eq!(
            composer().reset_link(token.expose(), "ann+shop@example.com"),
            link
        );
        let eml = String::from_utf8(composer().message(&mail).unwrap().formatted()).unwrap();
        assert!(eml.contains(&link));
        assert!(eml.contains(&format!("href=\"{}\"", link.replace('&', "&amp;"))));
        assert!(
            !eml.contains("quoted-printable"),
            "links stay whole in the raw message"
        );
        assert!(!composer().subject(&mail).contains(token.expose()));
    }

    #[test]
    fn a_sign_up_attempt_on_a_registered_address_tells_its_owner_how_to_reset() {
        let mail = AccountMail::SignupAttempt {
            to: Email::parse("ann@example.com").unwrap(),
            name: UserName::parse("Ann").unwrap(),
            language: Language::English,
        };
        let eml = String::from_utf8(composer().message(&mail).unwrap().formatted()).unwrap();
        assert!(eml.contains("Subject: Someone tried to register at Garden Shop with your address"));
        assert!(eml.contains("Hi Ann,"));
        assert!(eml.contains("you already have one"));
        assert!(eml.contains("https://shop.example/forgot-password"));
        assert!(!eml.contains("verification code is"));
    }

    /// The English mails word for word as they were before they came from the message files.
    #[test]
    fn the_english_account_mails_keep_their_words() {
        let code = AccountMail::SignupCode {
            to: Email::parse("ann@example.com").unwrap(),
            name: UserName::parse("Ann").unwrap(),
            code: VerificationCode::parse("012345").unwrap(),
            language: Language::English,
        };
        let (text, html) = composer().code_mail(Words(Language::English), "Ann", "012345");
        assert_eq!(
            text,
            "Hi Ann,\n\nYour Garden Shop verification code is 012345\n\nEnter it on the \
             verification page to finish creating your account. It expires in 15 minutes.\n\n\
             If you did not sign up at Garden Shop, you can ignore this e-mail.\n\n\
             Garden Shop\nhttps://shop.example\n"
        );
        assert!(html.starts_with("<p>Hi Ann,</p><p>Your Garden Shop verification code is</p>"));
        assert_eq!(
            composer().subject(&code),
            "Your Garden Shop verification code"
        );
        let (text, _) = composer().reset_mail(Words(Language::English), "Ann", "https://x/r");
        assert_eq!(
            text,
            "Hi Ann,\n\nSomeone asked to reset the password of your Garden Shop account. Open \
             this link to choose a new one:\n\nhttps://x/r\n\nThe link works once and expires \
             in 60 minutes. If you did not ask, ignore this e-mail: your password stays as it \
             is.\n\nGarden Shop\n"
        );
    }

    #[test]
    fn every_account_mail_is_written_in_its_language() {
        let mails = |language| {
            [
                AccountMail::SignupCode {
                    to: Email::parse("ann@example.com").unwrap(),
                    name: UserName::parse("Ann").unwrap(),
                    code: VerificationCode::parse("012345").unwrap(),
                    language,
                },
                AccountMail::PasswordReset {
                    to: Email::parse("ann@example.com").unwrap(),
                    name: UserName::parse("Ann").unwrap(),
                    token: ResetToken::from_bytes([1; 32]),
                    language,
                },
                AccountMail::SignupAttempt {
                    to: Email::parse("ann@example.com").unwrap(),
                    name: UserName::parse("Ann").unwrap(),
                    language,
                },
            ]
        };
        let english: Vec<String> = mails(Language::English)
            .iter()
            .map(|mail| String::from_utf8(composer().message(mail).unwrap().formatted()).unwrap())
            .collect();
        for language in Language::ALL.into_iter().skip(1) {
            for (mail, english) in mails(language).iter().zip(&english) {
                let eml = String::from_utf8(composer().message(mail).unwrap().formatted()).unwrap();
                assert_ne!(
                    composer().subject(mail),
                    composer().subject(&mails(Language::English)[0])
                );
                for sentence in [
                    "Hi Ann,",
                    "If you did not",
                    "If it was not you",
                    "Someone asked",
                ] {
                    assert!(
                        !eml.contains(sentence),
                        "{language} keeps {sentence:?}:\n{eml}"
                    );
                }
                assert!(english.contains("Hi Ann,"));
            }
        }
        let reset = &mails(Language::BrazilianPortuguese)[1];
        assert_eq!(
            composer().subject(reset),
            "Redefina sua senha da Garden Shop"
        );
    }

    #[test]
    fn a_bad_from_address_is_a_configuration_error() {
        assert!(Composer::new("Shop", "http://x", "not an address").is_err());
    }
}
