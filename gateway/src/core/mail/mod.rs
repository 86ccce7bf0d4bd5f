//! Sending e-mail: one `Mailer` used by auth mail and the outbox. SMTP when `GOTRUE_SMTP_HOST` is set; otherwise
//! each message is written as an `.eml` file to the mail folder and its links are logged.

mod folder;
pub mod smtp;

use crate::core::config::Vars;
use std::path::PathBuf;

/// A message ready to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: Option<String>,
    /// The `Message-ID` to send (without angle brackets): the outbox gives one per row, so a retried message is
    /// the same message to the receiver; `None` lets the transport make one.
    pub message_id: Option<String>,
    /// Extra header fields (e.g. `List-Unsubscribe`), as the outbox row names them.
    pub headers: Vec<(String, String)>,
}

/// Header fields the transports write themselves, never taken from a message's extra headers.
const OWN_HEADERS: &[&str] = &[
    "from",
    "to",
    "cc",
    "bcc",
    "subject",
    "date",
    "message-id",
    "mime-version",
    "sender",
    "reply-to",
    "return-path",
    "received",
    "dkim-signature",
    "content-transfer-encoding",
];

/// Whether an extra header may be sent: a token name the transports do not write themselves, a one-line value.
pub fn extra_header_ok(name: &str, value: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    !name.is_empty()
        && name.len() <= 76
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && !OWN_HEADERS.contains(&lower.as_str())
        && !lower.starts_with("content-")
        && !value.contains(['\r', '\n'])
        && value.len() <= 998
}

/// Why a message was not sent. Transient errors are retried by the outbox.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("invalid message: {0}")]
    Invalid(String),
    #[error("transient delivery failure: {0}")]
    Transient(String),
    #[error("permanent delivery failure: {0}")]
    Permanent(String),
}

/// The sender address and transport.
#[derive(Debug, Clone)]
pub enum Transport {
    /// Write `.eml` files into this folder.
    Folder(PathBuf),
    /// Deliver over SMTP.
    Smtp(smtp::SmtpConfig),
}

#[derive(Debug, Clone)]
pub struct Mailer {
    pub from: String,
    pub transport: Transport,
}

impl Mailer {
    /// From `GOTRUE_SMTP_*` / `GOTRUE_SMTP_ADMIN_EMAIL` / `GOTRUE_SMTP_SENDER_NAME`, else the folder
    /// `GATEWAY_MAIL_DIR` (default `.data/mail`).
    pub fn from_vars(vars: &Vars) -> Self {
        let address = vars
            .first(&["GOTRUE_SMTP_ADMIN_EMAIL", "GOTRUE_SMTP_SENDER_EMAIL"])
            .unwrap_or_else(|| "noreply@localhost".into());
        let from = match vars.first(&["GOTRUE_SMTP_SENDER_NAME"]) {
            Some(name) if !name.contains(['"', '<', '>', '\r', '\n']) => format!("\"{name}\" <{address}>"),
            _ => address,
        };
        let transport = match vars.first(&["GOTRUE_SMTP_HOST"]) {
            Some(host) => Transport::Smtp(smtp::SmtpConfig {
                host,
                port: vars.num(&["GOTRUE_SMTP_PORT"], 587u16),
                user: vars.first(&["GOTRUE_SMTP_USER"]),
                pass: vars.first(&["GOTRUE_SMTP_PASS"]),
            }),
            None => Transport::Folder(PathBuf::from(
                vars.first(&["GATEWAY_MAIL_DIR"]).unwrap_or_else(|| ".data/mail".into()),
            )),
        };
        Mailer { from, transport }
    }

    /// The domain of the sender address, for Message-IDs (`localhost` when it has none).
    pub fn sender_domain(&self) -> &str {
        let address = self.from.rsplit('<').next().unwrap_or(&self.from).trim_end_matches('>');
        address.rsplit_once('@').map(|(_, d)| d).filter(|d| !d.is_empty()).unwrap_or("localhost")
    }

    pub async fn send(&self, mail: &OutgoingMail) -> Result<(), MailError> {
        if !mail.to.contains('@') || mail.to.contains(['\r', '\n']) || mail.subject.contains(['\r', '\n']) {
            return Err(MailError::Invalid("bad recipient or subject".into()));
        }
        if let Some((name, _)) = mail.headers.iter().find(|(n, v)| !extra_header_ok(n, v)) {
            return Err(MailError::Invalid(format!("header {name} may not be sent")));
        }
        match &self.transport {
            Transport::Folder(dir) => folder::write(dir, &self.from, mail).await,
            Transport::Smtp(settings) => smtp::send(settings, &self.from, mail).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_headers_are_token_names_the_transport_does_not_write() {
        assert!(extra_header_ok("List-Unsubscribe", "<https://x.example/u?t=1>"));
        assert!(extra_header_ok("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"));
        for (name, value) in [("From", "a@b"), ("content-type", "text/html"), ("Bad Name", "x"), ("X", "a\r\nBcc: c@d")]
        {
            assert!(!extra_header_ok(name, value), "{name}");
        }
    }

    #[test]
    fn sender_domain_comes_from_the_address() {
        let mailer = |from: &str| Mailer { from: from.into(), transport: Transport::Folder(PathBuf::new()) };
        assert_eq!(mailer("\"Firm\" <noreply@firm.example>").sender_domain(), "firm.example");
        assert_eq!(mailer("noreply@firm.example").sender_domain(), "firm.example");
        assert_eq!(mailer("noreply").sender_domain(), "localhost");
    }
}
