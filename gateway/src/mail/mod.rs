//! Sending e-mail: one `Mailer` used by auth mail and the outbox. SMTP when `GOTRUE_SMTP_HOST` is set; otherwise
//! each message is written as an `.eml` file to the mail folder and its links are logged.

mod folder;

use crate::config::Vars;
use std::path::PathBuf;

/// A message ready to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: Option<String>,
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
}

#[derive(Debug, Clone)]
pub struct Mailer {
    pub from: String,
    pub transport: Transport,
}

impl Mailer {
    /// From `GOTRUE_SMTP_*` / `GOTRUE_SMTP_ADMIN_EMAIL`, else the folder `GATEWAY_MAIL_DIR` (default `.data/mail`).
    pub fn from_vars(vars: &Vars) -> Self {
        let from = vars.first(&["GOTRUE_SMTP_ADMIN_EMAIL", "GOTRUE_SMTP_SENDER_EMAIL"]).unwrap_or_else(|| "noreply@localhost".into());
        let dir = vars.first(&["GATEWAY_MAIL_DIR"]).unwrap_or_else(|| ".data/mail".into());
        Mailer { from, transport: Transport::Folder(PathBuf::from(dir)) }
    }

    pub async fn send(&self, mail: &OutgoingMail) -> Result<(), MailError> {
        if !mail.to.contains('@') || mail.to.contains(['\r', '\n']) || mail.subject.contains(['\r', '\n']) {
            return Err(MailError::Invalid("bad recipient or subject".into()));
        }
        match &self.transport {
            Transport::Folder(dir) => folder::write(dir, &self.from, mail).await,
        }
    }
}
