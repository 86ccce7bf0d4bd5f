//! Auth e-mails: confirmation, invitation, recovery, magic link and e-mail change, rendered from templates (embedded defaults from
//! `gateway/templates/`, overridable per file in `GATEWAY_MAIL_TEMPLATES_DIR`) with GoTrue's variables
//! (`{{ .ConfirmationURL }}`, `{{ .Token }}`, `{{ .TokenHash }}`, `{{ .SiteURL }}`, `{{ .Email }}`, `{{ .NewEmail }}`,
//! `{{ .RedirectTo }}`). Links are built only from configured URLs, never from request headers.

use crate::auth::config::AuthConfig;
use crate::auth::error::{AuthError, AuthResult};
use crate::core::mail::{Mailer, OutgoingMail};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// Query values: everything but RFC 3986's unreserved characters is escaped.
const QUERY_VALUE: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// Which message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    Confirmation,
    Recovery,
    EmailChange,
    MagicLink,
    Invite,
    Reauthentication,
}

impl MailKind {
    fn name(self) -> &'static str {
        match self {
            MailKind::Confirmation => "confirmation",
            MailKind::Recovery => "recovery",
            MailKind::EmailChange => "email_change",
            MailKind::MagicLink => "magic_link",
            MailKind::Invite => "invite",
            MailKind::Reauthentication => "reauthentication",
        }
    }

    fn defaults(self) -> (&'static str, &'static str, &'static str, &'static str) {
        match self {
            MailKind::Confirmation => (
                "Confirm your email address",
                include_str!("../../templates/confirmation.txt"),
                include_str!("../../templates/confirmation.html"),
                "GOTRUE_MAILER_SUBJECTS_CONFIRMATION",
            ),
            MailKind::Recovery => (
                "Reset your password",
                include_str!("../../templates/recovery.txt"),
                include_str!("../../templates/recovery.html"),
                "GOTRUE_MAILER_SUBJECTS_RECOVERY",
            ),
            MailKind::EmailChange => (
                "Confirm your new email address",
                include_str!("../../templates/email_change.txt"),
                include_str!("../../templates/email_change.html"),
                "GOTRUE_MAILER_SUBJECTS_EMAIL_CHANGE",
            ),
            MailKind::MagicLink => (
                "Your sign-in link",
                include_str!("../../templates/magic_link.txt"),
                include_str!("../../templates/magic_link.html"),
                "GOTRUE_MAILER_SUBJECTS_MAGIC_LINK",
            ),
            MailKind::Invite => (
                "You have been invited",
                include_str!("../../templates/invite.txt"),
                include_str!("../../templates/invite.html"),
                "GOTRUE_MAILER_SUBJECTS_INVITE",
            ),
            MailKind::Reauthentication => (
                "{{ .Token }} is your verification code",
                include_str!("../../templates/reauthentication.txt"),
                include_str!("../../templates/reauthentication.html"),
                "GOTRUE_MAILER_SUBJECTS_REAUTHENTICATION",
            ),
        }
    }

    /// The `type` of the verify link.
    pub fn link_type(self) -> &'static str {
        match self {
            MailKind::Confirmation => "signup",
            MailKind::Recovery => "recovery",
            MailKind::EmailChange => "email_change",
            MailKind::MagicLink => "magiclink",
            MailKind::Invite => "invite",
            MailKind::Reauthentication => "reauthentication",
        }
    }
}

/// What a message needs.
pub struct MailContext<'a> {
    pub to: &'a str,
    pub email: &'a str,
    pub new_email: &'a str,
    pub otp: &'a str,
    pub token_hash: &'a str,
    pub redirect_to: &'a str,
}

/// The verify link: `API_EXTERNAL_URL` + verify path + `token`, `type`, `redirect_to`.
pub fn verify_link(cfg: &AuthConfig, kind: MailKind, token_hash: &str, redirect_to: &str) -> String {
    let enc = |s: &str| utf8_percent_encode(s, QUERY_VALUE).to_string();
    format!(
        "{}{}?token={}&type={}&redirect_to={}",
        cfg.external_url,
        cfg.verify_path,
        enc(token_hash),
        kind.link_type(),
        enc(redirect_to)
    )
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

/// Replaces `{{ .Name }}` (spaces optional) with its value.
pub fn render(template: &str, vars: &[(&str, String)]) -> String {
    let mut out = template.to_string();
    for (name, value) in vars {
        for pattern in [format!("{{{{ .{name} }}}}"), format!("{{{{.{name}}}}}")] {
            out = out.replace(&pattern, value);
        }
    }
    out
}

async fn template(cfg: &AuthConfig, kind: MailKind, ext: &str, default: &str) -> String {
    if let Some(dir) = &cfg.templates_dir {
        if let Ok(text) = tokio::fs::read_to_string(dir.join(format!("{}.{ext}", kind.name()))).await {
            return text;
        }
    }
    default.to_string()
}

/// Renders one message.
pub async fn compose(cfg: &AuthConfig, kind: MailKind, ctx: &MailContext<'_>) -> OutgoingMail {
    let (subject, text_default, html_default, subject_var) = kind.defaults();
    let link = verify_link(cfg, kind, ctx.token_hash, ctx.redirect_to);
    let vars = vec![
        ("ConfirmationURL", link),
        ("Token", ctx.otp.to_string()),
        ("TokenHash", ctx.token_hash.to_string()),
        ("SiteURL", cfg.site_url.clone()),
        ("RedirectTo", ctx.redirect_to.to_string()),
        ("Email", ctx.email.to_string()),
        ("NewEmail", ctx.new_email.to_string()),
        ("SendingTo", ctx.to.to_string()),
    ];
    let html_vars: Vec<(&str, String)> = vars.iter().map(|(k, v)| (*k, escape_html(v))).collect();
    let text = render(&template(cfg, kind, "txt", text_default).await, &vars);
    let html = render(&template(cfg, kind, "html", html_default).await, &html_vars);
    let subject = render(cfg.mail_subjects.get(subject_var).map_or(subject, String::as_str), &vars);
    OutgoingMail { to: ctx.to.to_string(), subject, text, html: Some(html), message_id: None }
}

/// Sends one rendered message.
pub async fn deliver(mailer: &Mailer, kind: MailKind, mail: &OutgoingMail) -> AuthResult<()> {
    mailer.send(mail).await.map_err(|e| AuthError::failed(format!("Error sending {} email", kind.link_type()), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_go_template_variables_with_or_without_spaces() {
        let out = render("a {{ .Token }} b {{.Email}} c {{ .Other }}", &[("Token", "1".into()), ("Email", "e".into())]);
        assert_eq!(out, "a 1 b e c {{ .Other }}");
    }

    #[test]
    fn links_use_the_configured_external_url_and_encode_parameters() {
        let config = crate::core::config::Config::from_vars(crate::core::config::Vars(
            [("DATABASE_URL", "postgres://x@localhost/db"), ("API_EXTERNAL_URL", "https://api.example.com/")]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        ))
        .unwrap();
        let cfg = AuthConfig::from_config(&config);
        let link = verify_link(&cfg, MailKind::Recovery, "abc", "https://site.com/a?b=c&d");
        assert_eq!(
            link,
            "https://api.example.com/auth/v1/verify?token=abc&type=recovery&redirect_to=https%3A%2F%2Fsite.com%2Fa%3Fb%3Dc%26d"
        );
        assert_eq!(escape_html("<a href=\"x\">"), "&lt;a href=&quot;x&quot;&gt;");
    }
}
