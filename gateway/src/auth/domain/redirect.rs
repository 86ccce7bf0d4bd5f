//! `redirect_to` handling: the requested URL when the one redirect rule (crate::core::location) allows it, else the site URL.

use crate::core::location::is_allowed_url;

/// The redirect to use: `requested` when allowed, else `site_url`.
pub fn choose_redirect(requested: Option<&str>, site_url: &str, allow_list: &[String]) -> String {
    match requested.map(str::trim).filter(|r| !r.is_empty()) {
        Some(r) if is_allowed_url(r, site_url, allow_list) => r.to_string(),
        _ => site_url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SITE: &str = "https://site.com";

    #[test]
    fn falls_back_to_the_site_url() {
        assert_eq!(choose_redirect(Some("https://evil.com"), SITE, &[]), SITE);
        assert_eq!(choose_redirect(Some("https://site.com/%2F%2Fevil.com/"), SITE, &[]), SITE);
        assert_eq!(choose_redirect(Some("someone@example.com"), SITE, &[]), SITE);
        assert_eq!(choose_redirect(None, SITE, &[]), SITE);
        assert_eq!(choose_redirect(Some("https://site.com/career-hub"), SITE, &[]), "https://site.com/career-hub");
    }
}
