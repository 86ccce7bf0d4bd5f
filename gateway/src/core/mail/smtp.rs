//! The SMTP transport (lettre): implicit TLS on port 465, STARTTLS required elsewhere, optional AUTH; plain SMTP
//! without TLS only for loopback hosts (local test servers).

use super::{MailError, OutgoingMail};
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use std::time::Duration;

/// SMTP configuration from `GOTRUE_SMTP_HOST`, `_PORT`, `_USER`, `_PASS`.
#[derive(Debug, Clone)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub user: Option<String>,
    pub pass: Option<String>,
}

impl SmtpConfig {
    fn is_loopback(&self) -> bool {
        self.host == "localhost" || self.host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
    }

    fn transport(&self) -> Result<AsyncSmtpTransport<Tokio1Executor>, MailError> {
        let builder = if self.is_loopback() {
            AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&self.host)
        } else if self.port == 465 {
            AsyncSmtpTransport::<Tokio1Executor>::relay(&self.host).map_err(|e| MailError::Permanent(e.to_string()))?
        } else {
            AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&self.host)
                .map_err(|e| MailError::Permanent(e.to_string()))?
        };
        let mut builder = builder.port(self.port).timeout(Some(Duration::from_secs(20)));
        if let (Some(user), Some(pass)) = (&self.user, &self.pass) {
            builder = builder.credentials(Credentials::new(user.clone(), pass.clone()));
        }
        Ok(builder.build())
    }
}

/// Builds the MIME message (plain text, plus an HTML alternative when given).
pub fn build(from: &str, mail: &OutgoingMail) -> Result<Message, MailError> {
    let from: Mailbox = from.parse().map_err(|e| MailError::Invalid(format!("sender: {e}")))?;
    let to: Mailbox = mail.to.parse().map_err(|e| MailError::Invalid(format!("recipient: {e}")))?;
    let mut builder = Message::builder()
        .from(from)
        .to(to)
        .subject(mail.subject.clone())
        .message_id(mail.message_id.as_ref().map(|id| format!("<{id}>")));
    for (name, value) in &mail.headers {
        let name = HeaderName::new_from_ascii(name.clone()).map_err(|e| MailError::Invalid(format!("header: {e}")))?;
        builder = builder.raw_header(HeaderValue::new(name, value.clone()));
    }
    let text = SinglePart::builder().header(ContentType::TEXT_PLAIN).body(mail.text.clone());
    let message = match &mail.html {
        Some(html) => builder.multipart(
            MultiPart::alternative()
                .singlepart(text)
                .singlepart(SinglePart::builder().header(ContentType::TEXT_HTML).body(html.clone())),
        ),
        None => builder.singlepart(text),
    };
    message.map_err(|e| MailError::Invalid(e.to_string()))
}

pub async fn send(config: &SmtpConfig, from: &str, mail: &OutgoingMail) -> Result<(), MailError> {
    let message = build(from, mail)?;
    let transport = config.transport()?;
    match transport.send(message).await {
        Ok(_) => Ok(()),
        Err(e) if e.is_permanent() => Err(MailError::Permanent(e.to_string())),
        Err(e) => Err(MailError::Transient(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_text_and_html_alternatives() {
        let mail = OutgoingMail {
            to: "a@example.com".into(),
            subject: "Hi".into(),
            text: "plain".into(),
            html: Some("<p>rich</p>".into()),
            message_id: Some("outbox.7.1@example.com".into()),
            headers: vec![
                ("List-Unsubscribe".into(), "<https://x.example/u?t=1>".into()),
                ("List-Unsubscribe-Post".into(), "List-Unsubscribe=One-Click".into()),
            ],
        };
        let raw = String::from_utf8(build("Firm <noreply@example.com>", &mail).unwrap().formatted()).unwrap();
        assert!(raw.contains("multipart/alternative"));
        assert!(raw.contains("List-Unsubscribe: <https://x.example/u?t=1>\r\n"), "{raw}");
        assert!(raw.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"), "{raw}");
        assert!(raw.contains("Subject: Hi"));
        assert!(raw.contains("Message-ID: <outbox.7.1@example.com>"), "{raw}");
        assert!(build("noreply@example.com", &OutgoingMail { to: "not an address".into(), ..mail }).is_err());
    }

    #[test]
    fn only_loopback_hosts_may_skip_tls() {
        let s = |host: &str| SmtpConfig { host: host.into(), port: 25, user: None, pass: None };
        assert!(s("127.0.0.1").is_loopback());
        assert!(s("localhost").is_loopback());
        assert!(!s("smtp.example.com").is_loopback());
    }
}
