//! One rule for every `Location` the gateway emits: a same-origin path that no browser reads as another host, or an
//! absolute URL allowed by GoTrue's redirect rule for the configured site and allow-list, or on the gateway's own
//! origin. Auth's `redirect_to` is checked by the same rule, and a layer over the whole router refuses anything else.

mod path;
mod url_rule;

use axum::http::{header, HeaderValue, Response, StatusCode};
pub use path::is_same_origin_path;
use url::Url;
pub use url_rule::{glob_match, is_allowed_url};

/// Where a `Location` may point.
#[derive(Debug, Clone, Default)]
pub struct AllowedTargets {
    /// The gateway's own public URL (`API_EXTERNAL_URL`).
    pub external_url: String,
    /// The site URL (`GOTRUE_SITE_URL`).
    pub site_url: String,
    /// Auth's allow-list globs (`GOTRUE_URI_ALLOW_LIST`).
    pub allow_list: Vec<String>,
}

impl AllowedTargets {
    /// Whether `location` is a safe same-origin path or an allowed absolute URL.
    pub fn allows(&self, location: &str) -> bool {
        if location.starts_with('/') {
            return is_same_origin_path(location);
        }
        is_allowed_url(location, &self.site_url, &self.allow_list) || self.on_own_origin(location)
    }

    fn on_own_origin(&self, location: &str) -> bool {
        let (Ok(url), Ok(own)) = (Url::parse(location), Url::parse(&self.external_url)) else { return false };
        url.origin() == own.origin()
            && url.username().is_empty()
            && !location.chars().any(|c| c.is_control() || c == '\\')
            && is_same_origin_path(url.path())
    }
}

/// The last line of defence on every response: a `Location` that [`AllowedTargets::allows`] refuses is never sent;
/// the response becomes a 500 and the refusal is logged.
pub fn guard<B: Default>(targets: &AllowedTargets, response: Response<B>) -> Response<B> {
    let Some(value) = response.headers().get(header::LOCATION) else { return response };
    if value.to_str().is_ok_and(|l| targets.allows(l)) {
        return response;
    }
    tracing::warn!(location = ?value, "refused to send an unsafe Location header");
    let mut refused = Response::new(B::default());
    *refused.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    refused.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    refused
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Open-redirect payloads from the public lists (PayloadsAllTheThings, the OWASP cheat sheet), as paths.
    pub const PAYLOADS: &[&str] = &[
        "//evil.com",
        "///evil.com",
        "////evil.com",
        "/\\evil.com",
        "/\\/evil.com",
        "/%2F%2Fevil.com",
        "/%2f%2fevil.com",
        "/%252F%252Fevil.com",
        "/%5Cevil.com",
        "/%5cevil.com",
        "/%09/evil.com",
        "/\t/evil.com",
        "/%0a/evil.com",
        "/%0d/evil.com",
        "/%00/evil.com",
        "/\u{FF0F}evil.com",
        "/%EF%BC%8Fevil.com",
        "/\u{2215}evil.com",
        "/\u{2044}evil.com",
        "/%E2%81%84evil.com",
        "/\u{FF3C}evil.com",
        "/.//evil.com",
        "/.%2F%2Fevil.com",
        "/a/../..//evil.com",
    ];

    #[test]
    fn refuses_every_payload_as_a_path() {
        for p in PAYLOADS {
            assert!(!is_same_origin_path(p), "{p:?} must be refused");
        }
    }

    #[test]
    fn accepts_ordinary_paths() {
        for p in [
            "/",
            "/services",
            "/jobs/abc-1?x=1",
            "/career-hub/dashboard#a",
            "/a%20b",
            "/a/b/c",
            "/@evil.com",
            "/t?id=eq.%2F%5Cevil.com",
            "/t?id=eq.%2F%09%2Fevil.com",
            "/t?id=eq.\\x#\\y",
        ] {
            assert!(is_same_origin_path(p), "{p:?} must be accepted");
        }
        assert!(!is_same_origin_path("evil.com"));
        assert!(!is_same_origin_path(""));
    }

    #[test]
    fn absolute_urls_need_an_allowed_origin_and_a_safe_path() {
        let t = AllowedTargets {
            external_url: "http://127.0.0.1:54321".into(),
            site_url: "https://site.example".into(),
            allow_list: vec!["myapp://callback".into()],
        };
        assert!(t.allows("http://127.0.0.1:54321/career-hub/dashboard#access_token=x"));
        assert!(t.allows("/career-hub"));
        assert!(t.allows("myapp://callback"));
        assert!(t.allows("https://site.example/career-hub/dashboard#access_token=x"));
        assert!(t.allows("http://[::1]:5173/cb"));
        assert!(!t.allows("https://site.example/%2F%2Fevil.com/"));
        assert!(!t.allows("http://127.0.0.1:54321//evil.com/"));
        assert!(!t.allows("http://127.0.0.1:54321/%2F%2Fevil.com/"));
        assert!(!t.allows("https://evil.com/"));
        assert!(!t.allows("//evil.com"));
        assert!(!t.allows("http://127.0.0.1:54321@evil.com/"));
        for p in PAYLOADS {
            assert!(!t.allows(p), "{p:?}");
            assert!(!t.allows(&format!("http://127.0.0.1:54321{p}")), "{p:?} on the origin");
            assert!(!t.allows(&format!("https://site.example{p}")), "{p:?} on the site");
        }
    }

    #[test]
    fn guard_replaces_an_unsafe_redirect() {
        let t = AllowedTargets { external_url: "http://a.test".into(), ..Default::default() };
        let mut r = Response::new(String::new());
        *r.status_mut() = StatusCode::PERMANENT_REDIRECT;
        r.headers_mut().insert(header::LOCATION, HeaderValue::from_static("//evil.com"));
        assert_eq!(guard(&t, r).status(), StatusCode::INTERNAL_SERVER_ERROR);
        let mut ok = Response::new(String::new());
        ok.headers_mut().insert(header::LOCATION, HeaderValue::from_static("/services"));
        assert_eq!(guard(&t, ok).status(), StatusCode::OK);
    }
}
