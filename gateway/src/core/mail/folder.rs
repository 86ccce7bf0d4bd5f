//! The mail folder transport: one `.eml` file a message, written atomically; links are logged.

use super::{MailError, OutgoingMail};
use std::path::Path;

pub async fn write(dir: &Path, from: &str, mail: &OutgoingMail) -> Result<(), MailError> {
    // Messages carry sign-in links: readable by this OS user only.
    crate::core::private_fs::create_dir_all(dir).await.map_err(|e| MailError::Transient(e.to_string()))?;
    let id = uuid::Uuid::new_v4();
    let message_id = mail.message_id.clone().unwrap_or_else(|| format!("{id}@gateway"));
    let date = chrono::Utc::now().to_rfc2822();
    let extra: String = mail.headers.iter().map(|(name, value)| format!("{name}: {value}\r\n")).collect();
    let body = format!(
        "From: {from}\r\nTo: {}\r\nSubject: {}\r\nDate: {date}\r\nMessage-ID: <{message_id}>\r\n{extra}MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
        mail.to, mail.subject, mail.text
    );
    let tmp = dir.join(format!(".{id}.tmp"));
    let path = dir.join(format!("{}-{id}.eml", chrono::Utc::now().format("%Y%m%dT%H%M%S")));
    let write = async {
        use tokio::io::AsyncWriteExt;
        let mut file = crate::core::private_fs::create_new(&tmp).await?;
        file.write_all(body.as_bytes()).await?;
        file.flush().await
    };
    write.await.map_err(|e| MailError::Transient(e.to_string()))?;
    tokio::fs::rename(&tmp, &path).await.map_err(|e| MailError::Transient(e.to_string()))?;
    for link in mail.text.split_whitespace().filter(|w| w.starts_with("http://") || w.starts_with("https://")) {
        tracing::info!(to = %mail.to, subject = %mail.subject, %link, "mail written to {}", path.display());
    }
    Ok(())
}
