use accounts::AccountMail;
use anyhow::Context;
use lettre::{
    message::{
        header::{ContentTransferEncoding, ContentType},
        Body, Mailbox, MultiPart, SinglePart,
    },
    Message,
};

/// Words the accounts' messages: the shop's name, a plain-text and an HTML part, and links
/// built from the site's public URL.
#[derive(Debug, Clone)]
pub struct Composer {
    shop_name: String,
    public_url: String,
    from: Mailbox,
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
        })
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
        match mail {
            AccountMail::SignupCode { .. } => format!("Your {} verification code", self.shop_name),
            AccountMail::PasswordReset { .. } => format!("Reset your {} password", self.shop_name),
            AccountMail::SignupAttempt { .. } => {
                format!(
                    "Someone tried to register at {} with your address",
                    self.shop_name
                )
            }
        }
    }

    pub fn message(&self, mail: &AccountMail) -> anyhow::Result<Message> {
        let shop = &self.shop_name;
        let (text, html) = match mail {
            AccountMail::SignupCode { name, code, .. } => {
                let code = code.expose();
                (
                    format!(
                        "Hi {name},\n\nYour {shop} verification code is {code}\n\n\
                         Enter it on the verification page to finish creating your account. \
                         It expires in 15 minutes.\n\n\
                         If you did not sign up at {shop}, you can ignore this e-mail.\n\n\
                         {shop}\n{url}\n",
                        url = self.public_url
                    ),
                    format!(
                        "<p>Hi {name},</p>\
                         <p>Your {shop} verification code is</p>\
                         <p style=\"font-size:28px;font-weight:bold;letter-spacing:4px\">{code}</p>\
                         <p>Enter it on the verification page to finish creating your account. \
                         It expires in 15 minutes.</p>\
                         <p>If you did not sign up at {shop}, you can ignore this e-mail.</p>\
                         <p><a href=\"{url}\">{shop}</a></p>",
                        name = escape(name.as_str()),
                        shop = escape(shop),
                        url = escape(&self.public_url),
                    ),
                )
            }
            AccountMail::PasswordReset { to, name, token } => {
                let link = self.reset_link(token.expose(), to.as_str());
                (
                    format!(
                        "Hi {name},\n\nSomeone asked to reset the password of your {shop} \
                         account. Open this link to choose a new one:\n\n{link}\n\n\
                         The link works once and expires in 60 minutes. If you did not ask, \
                         ignore this e-mail: your password stays as it is.\n\n{shop}\n"
                    ),
                    format!(
                        "<p>Hi {name},</p>\
                         <p>Someone asked to reset the password of your {shop} account.</p>\
                         <p><a href=\"{link}\">Choose a new password</a></p>\
                         <p>Or paste this link into your browser: {link}</p>\
                         <p>The link works once and expires in 60 minutes. If you did not ask, \
                         ignore this e-mail: your password stays as it is.</p>\
                         <p>{shop}</p>",
                        name = escape(name.as_str()),
                        shop = escape(shop),
                        link = escape(&link),
                    ),
                )
            }
            AccountMail::SignupAttempt { name, .. } => {
                let link = self.forgot_password_link();
                (
                    format!(
                        "Hi {name},\n\nSomeone asked to create a {shop} account with this \
                         e-mail address, but you already have one. No new account was made.\n\n\
                         If it was you and you forgot your password, choose a new one here:\n\n\
                         {link}\n\n\
                         If it was not you, ignore this e-mail: your account stays as it is.\n\n\
                         {shop}\n"
                    ),
                    format!(
                        "<p>Hi {name},</p>\
                         <p>Someone asked to create a {shop} account with this e-mail address, \
                         but you already have one. No new account was made.</p>\
                         <p>If it was you and you forgot your password, \
                         <a href=\"{link}\">choose a new one</a> ({link}).</p>\
                         <p>If it was not you, ignore this e-mail: your account stays as it is.</p>\
                         <p>{shop}</p>",
                        name = escape(name.as_str()),
                        shop = escape(shop),
                        link = escape(&link),
                    ),
                )
            }
        };
        self.build(mail.recipient().as_str(), self.subject(mail), text, html)
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
        };
        let eml = String::from_utf8(composer().message(&mail).unwrap().formatted()).unwrap();
        assert!(eml.contains("Subject: Someone tried to register at Garden Shop with your address"));
        assert!(eml.contains("Hi Ann,"));
        assert!(eml.contains("you already have one"));
        assert!(eml.contains("https://shop.example/forgot-password"));
        assert!(!eml.contains("verification code is"));
    }

    #[test]
    fn a_bad_from_address_is_a_configuration_error() {
        assert!(Composer::new("Shop", "http://x", "not an address").is_err());
    }
}
