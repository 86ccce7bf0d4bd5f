//! `Email`: a validated, lower-cased e-mail address (GoTrue's `validateEmail` rules and messages).

use crate::auth::error::AuthError;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    /// Lower-cases and validates: non-empty, at most 255 characters, `local@domain.tld` without spaces.
    pub fn parse(raw: &str) -> Result<Self, AuthError> {
        let email = raw.trim().to_lowercase();
        if email.is_empty() {
            return Err(AuthError::validation("An email address is required"));
        }
        if email.len() > 255 {
            return Err(AuthError::validation("An email address is too long"));
        }
        if !looks_valid(&email) {
            return Err(AuthError::validation("Unable to validate email address: invalid format"));
        }
        Ok(Email(email))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn looks_valid(email: &str) -> bool {
    let Some((local, domain)) = email.rsplit_once('@') else { return false };
    let label_ok = |l: &str| {
        !l.is_empty() && !l.starts_with('-') && !l.ends_with('-') && l.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    !local.is_empty()
        && local.len() <= 64
        && !local.contains(['@', ' ', '"', '(', ')', ',', ':', ';', '<', '>', '[', '\\', ']'])
        && !local.chars().any(char::is_control)
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && domain.contains('.')
        && domain.split('.').all(label_ok)
        && domain.rsplit('.').next().is_some_and(|tld| tld.len() >= 2 && !tld.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_cases_and_trims() {
        assert_eq!(Email::parse("  Ann@Example.COM ").unwrap().as_str(), "ann@example.com");
        assert_eq!(Email::parse("a.b+tag@sub.example.co.uk").unwrap().as_str(), "a.b+tag@sub.example.co.uk");
    }

    #[test]
    fn rejects_bad_addresses_with_gotrue_messages() {
        assert_eq!(Email::parse("").unwrap_err().message, "An email address is required");
        for bad in
            ["plainaddress", "a@b", "a@@b.com", "a b@c.com", "a@-b.com", "a@b.c", "a@1.2", ".a@b.com", "a\r\n@b.com"]
        {
            assert_eq!(
                Email::parse(bad).unwrap_err().message,
                "Unable to validate email address: invalid format",
                "{bad}"
            );
        }
        assert_eq!(
            Email::parse(&format!("{}@b.com", "a".repeat(300))).unwrap_err().message,
            "An email address is too long"
        );
    }
}
