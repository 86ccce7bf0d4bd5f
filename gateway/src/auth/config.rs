//! The auth section of the configuration, read from Supabase Auth's own variable names (`GOTRUE_*`,
//! `API_EXTERNAL_URL`) so an existing env file carries over. Defaults follow GoTrue's.

use crate::auth::rate_limit::Rate;
use crate::core::config::{Config, Vars};
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

/// Everything the auth endpoints read from configuration.
#[derive(Debug, Clone)]
pub struct AuthConfig {
    pub site_url: String,
    /// Where e-mail links point: `API_EXTERNAL_URL` (never a request header).
    pub external_url: String,
    pub uri_allow_list: Vec<String>,
    pub jwt_exp: i64,
    pub jwt_aud: String,
    pub jwt_issuer: String,
    pub default_role: String,
    pub admin_roles: Vec<String>,
    pub autoconfirm: bool,
    pub disable_signup: bool,
    pub email_enabled: bool,
    pub anonymous_enabled: bool,
    pub secure_email_change: bool,
    /// `GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION`: a password change needs a mailed code.
    pub require_reauthentication: bool,
    pub password_min_length: usize,
    pub password_required_characters: Vec<String>,
    pub refresh_reuse_interval: Duration,
    pub smtp_max_frequency: Duration,
    pub otp_exp: Duration,
    pub otp_length: usize,
    pub verify_path: String,
    pub templates_dir: Option<PathBuf>,
    /// `GOTRUE_MAILER_SUBJECTS_*` as set (by variable name; `mail::MailKind` knows which kind reads which).
    pub mail_subjects: HashMap<String, String>,
    /// `GOTRUE_EXTERNAL_FLOW_STATE_EXPIRY_DURATION`: how long a PKCE flow waits for its code exchange.
    pub flow_state_expiry: Duration,
    pub rate_token: Rate,
    pub rate_verify: Rate,
    pub rate_otp: Rate,
    pub rate_anonymous: Rate,
    pub rate_email_sent: Rate,
    /// Auth mail one client may cause per hour, below the global budget so no client exhausts it.
    pub rate_email_sent_per_client: Rate,
    pub rate_account: Rate,
    /// Concurrent bcrypt operations (bounded so sign-ins never starve the data API).
    pub hash_concurrency: usize,
    pub bcrypt_cost: u32,
}

fn duration_secs(vars: &Vars, names: &[&str], default: u64) -> Duration {
    match vars.first(names) {
        Some(v) => parse_duration(&v).unwrap_or(Duration::from_secs(default)),
        None => Duration::from_secs(default),
    }
}

/// The set (non-blank) variables whose names start with `prefix`.
fn prefixed(vars: &Vars, prefix: &str) -> HashMap<String, String> {
    let set =
        |(k, v): (&String, &String)| (k.starts_with(prefix) && !v.trim().is_empty()).then(|| (k.clone(), v.clone()));
    vars.0.iter().filter_map(set).collect()
}

/// Parses `60`, `60s`, `5m`, `1h` (Go durations as GoTrue reads them, in their common forms).
pub fn parse_duration(text: &str) -> Option<Duration> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: f64 = num.parse().ok()?;
    let secs = match unit {
        "" | "s" => n,
        "ms" => n / 1000.0,
        "m" => n * 60.0,
        "h" => n * 3600.0,
        _ => return None,
    };
    // past what a Duration holds (a digit string long enough) is refused, not a panic
    Duration::try_from_secs_f64(secs).ok()
}

/// Go's `time.ParseDuration`: a sequence of decimal numbers with units `ns`, `us`/`µs`, `ms`, `s`, `m`, `h`
/// (`"24h"`, `"1h30m"`, `"1.5h"`); only `"0"` may omit the unit. Negative durations are refused (a ban ends).
pub fn parse_go_duration(text: &str) -> Option<Duration> {
    if text == "0" {
        return Some(Duration::ZERO);
    }
    let mut rest = text.strip_prefix('+').unwrap_or(text);
    if rest.is_empty() {
        return None;
    }
    let mut secs = 0f64;
    while !rest.is_empty() {
        let split = rest.find(|c: char| !c.is_ascii_digit() && c != '.')?;
        let n: f64 = rest[..split].parse().ok()?;
        let after = &rest[split..];
        let unit_len = after.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(after.len());
        let scale = match &after[..unit_len] {
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => return None,
        };
        secs += n * scale;
        rest = &after[unit_len..];
    }
    // past what a Duration holds (a digit string long enough) is refused, not a panic
    Duration::try_from_secs_f64(secs).ok()
}

impl AuthConfig {
    pub fn from_config(config: &Config) -> Self {
        let v = &config.vars;
        let external_url = config.external_url.trim_end_matches('/').to_string();
        // Unset, the site is the one this gateway serves (GoTrue's own default, localhost:3000, would hand e-mailed
        // tokens to whatever runs on that port).
        let site_url = v.first(&["GOTRUE_SITE_URL", "SITE_URL"]).unwrap_or_else(|| external_url.clone());
        let mut allow = v.list(&["GOTRUE_URI_ALLOW_LIST", "ADDITIONAL_REDIRECT_URLS"], &[]);
        allow.retain(|s| !s.is_empty());
        let per_5m = |names: &[&str], default: f64| Rate::per(v.num(names, default), Duration::from_secs(300));
        AuthConfig {
            site_url: site_url.trim_end_matches('/').to_string(),
            jwt_issuer: v.first(&["GOTRUE_JWT_ISSUER"]).unwrap_or_else(|| format!("{external_url}/auth/v1")),
            external_url,
            uri_allow_list: allow,
            jwt_exp: v.num(&["GOTRUE_JWT_EXP", "JWT_EXPIRY"], 3600i64).max(1),
            jwt_aud: v.first(&["GOTRUE_JWT_AUD"]).unwrap_or_else(|| "authenticated".into()),
            default_role: v.first(&["GOTRUE_JWT_DEFAULT_GROUP_NAME"]).unwrap_or_else(|| "authenticated".into()),
            admin_roles: v.list(&["GOTRUE_JWT_ADMIN_ROLES"], &["service_role", "supabase_admin"]),
            autoconfirm: v.bool(&["GOTRUE_MAILER_AUTOCONFIRM", "ENABLE_EMAIL_AUTOCONFIRM"], false),
            disable_signup: v.bool(&["GOTRUE_DISABLE_SIGNUP", "DISABLE_SIGNUP"], false),
            email_enabled: v.bool(&["GOTRUE_EXTERNAL_EMAIL_ENABLED", "ENABLE_EMAIL_SIGNUP"], true),
            anonymous_enabled: v.bool(&["GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED", "ENABLE_ANONYMOUS_USERS"], false),
            secure_email_change: v.bool(&["GOTRUE_MAILER_SECURE_EMAIL_CHANGE_ENABLED"], true),
            require_reauthentication: v.bool(&["GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION"], false),
            password_min_length: v.num(&["GOTRUE_PASSWORD_MIN_LENGTH"], 6usize).max(6),
            password_required_characters: v
                .first(&["GOTRUE_PASSWORD_REQUIRED_CHARACTERS"])
                .map(|s| s.split(':').filter(|p| !p.is_empty()).map(str::to_string).collect())
                .unwrap_or_default(),
            refresh_reuse_interval: duration_secs(v, &["GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL"], 10),
            smtp_max_frequency: duration_secs(v, &["GOTRUE_SMTP_MAX_FREQUENCY"], 60),
            otp_exp: duration_secs(v, &["GOTRUE_MAILER_OTP_EXP"], 86400),
            otp_length: v.num(&["GOTRUE_MAILER_OTP_LENGTH"], 6usize).clamp(6, 10),
            verify_path: v.first(&["GOTRUE_MAILER_URLPATHS_CONFIRMATION"]).unwrap_or_else(|| "/auth/v1/verify".into()),
            templates_dir: v.first(&["GATEWAY_MAIL_TEMPLATES_DIR"]).map(PathBuf::from),
            mail_subjects: prefixed(v, "GOTRUE_MAILER_SUBJECTS_"),
            flow_state_expiry: Duration::from_secs(
                v.num(&["GOTRUE_EXTERNAL_FLOW_STATE_EXPIRY_DURATION"], 300i64).max(0) as u64,
            ),
            rate_token: per_5m(&["GOTRUE_RATE_LIMIT_TOKEN_REFRESH"], 150.0),
            rate_verify: per_5m(&["GOTRUE_RATE_LIMIT_VERIFY"], 30.0),
            rate_otp: per_5m(&["GOTRUE_RATE_LIMIT_OTP"], 30.0),
            rate_anonymous: Rate::per(v.num(&["GOTRUE_RATE_LIMIT_ANONYMOUS_USERS"], 30.0), Duration::from_secs(3600)),
            rate_email_sent: Rate::per(v.num(&["GOTRUE_RATE_LIMIT_EMAIL_SENT"], 30.0), Duration::from_secs(3600)),
            rate_email_sent_per_client: Rate::per(
                v.num(
                    &["GATEWAY_RATE_LIMIT_EMAIL_SENT_PER_CLIENT"],
                    (v.num(&["GOTRUE_RATE_LIMIT_EMAIL_SENT"], 30.0f64) / 3.0).floor().max(1.0),
                ),
                Duration::from_secs(3600),
            ),
            rate_account: per_5m(&["GATEWAY_RATE_LIMIT_ACCOUNT"], 30.0),
            hash_concurrency: v
                .num(
                    &["GATEWAY_PASSWORD_HASH_CONCURRENCY"],
                    std::thread::available_parallelism().map_or(2, |n| n.get()),
                )
                .max(1),
            bcrypt_cost: 10,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_go_style_durations() {
        assert_eq!(parse_duration("10"), Some(Duration::from_secs(10)));
        assert_eq!(parse_duration("60s"), Some(Duration::from_secs(60)));
        assert_eq!(parse_duration("5m"), Some(Duration::from_secs(300)));
        assert_eq!(parse_duration("1h"), Some(Duration::from_secs(3600)));
        assert_eq!(parse_duration("soon"), None);
        assert_eq!(parse_duration(&"9".repeat(30)), None, "too long for a Duration: refused, not a panic");
        assert_eq!(parse_go_duration(&format!("{}h", "9".repeat(30))), None);
        assert_eq!(parse_go_duration("1h30m"), Some(Duration::from_secs(5400)));
        assert_eq!(parse_go_duration("1.5h"), Some(Duration::from_secs(5400)));
        assert_eq!(parse_go_duration("876000h"), Some(Duration::from_secs(876_000 * 3600)));
        assert_eq!(parse_go_duration("300ms"), Some(Duration::from_millis(300)));
        assert_eq!(parse_go_duration("0"), Some(Duration::ZERO));
        assert_eq!(parse_go_duration("10"), None, "Go needs a unit");
        assert_eq!(parse_go_duration("-1h"), None);
        assert_eq!(parse_go_duration("1d"), None);
    }

    fn config(vars: &[(&str, &str)]) -> AuthConfig {
        let mut all = vec![("DATABASE_URL", "postgres://x@localhost/db")];
        all.extend_from_slice(vars);
        let vars = all.into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        AuthConfig::from_config(&crate::core::config::Config::from_vars(crate::core::config::Vars(vars)).unwrap())
    }

    #[test]
    fn the_site_url_defaults_to_the_site_this_gateway_serves() {
        let unset = config(&[("API_EXTERNAL_URL", "https://jobs.firm.example/")]);
        assert_eq!(unset.site_url, "https://jobs.firm.example", "never GoTrue's http://localhost:3000");
        let set =
            config(&[("API_EXTERNAL_URL", "https://api.firm.example"), ("GOTRUE_SITE_URL", "https://firm.example/")]);
        assert_eq!(set.site_url, "https://firm.example");
    }
}
