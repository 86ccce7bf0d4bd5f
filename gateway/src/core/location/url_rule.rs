//! GoTrue's `IsRedirectURLValid` for absolute URLs: accepted when, after parsing, the URL has the site URL's scheme,
//! host and port (port free on loopback), or is a loopback IP literal, or matches an allow-list glob (`*` stays within
//! a `.`/`/` segment, `**` crosses) — and, for http(s), its path is one no browser reads as another host.

use super::path::is_same_origin_path;
use std::net::IpAddr;
use url::{Host, Url};

/// Whether the absolute URL `raw` may be redirected to under GoTrue's rule.
pub fn is_allowed_url(raw: &str, site_url: &str, allow_list: &[String]) -> bool {
    let Ok(url) = Url::parse(raw) else { return false };
    if raw.chars().any(|c| c.is_control() || c == '\\') || !url.username().is_empty() || url.password().is_some() {
        return false;
    }
    let web = matches!(url.scheme(), "http" | "https");
    // `<site>/%2F%2Fevil.com/` is on the site's origin, but a path a browser (or the site's own redirects) may read as
    // another host: refused after the same normalisation as every `Location` (crate::core::location).
    if web && !is_same_origin_path(url.path()) {
        return false;
    }
    if web {
        let raw_host = raw_authority_host(raw);
        // `http://2130706433/` is 127.0.0.1 to a URL parser and an attacker's trick to a human: refuse.
        if raw_host.is_empty() || raw_host.chars().all(|c| c.is_ascii_digit() || c == '.') && !is_dotted_quad(raw_host)
        {
            return false;
        }
        match url.host() {
            Some(Host::Ipv4(ip)) if IpAddr::V4(ip).is_loopback() => return true,
            Some(Host::Ipv6(ip)) if IpAddr::V6(ip).is_loopback() => return true,
            Some(Host::Ipv4(_)) | Some(Host::Ipv6(_)) => {}
            Some(Host::Domain(d)) if !valid_hostname(d) => return false,
            _ => {}
        }
        if let Ok(site) = Url::parse(site_url) {
            if same_origin(&url, &site) {
                return true;
            }
        }
    }
    let mut bare = url.clone();
    bare.set_fragment(None);
    allow_list.iter().any(|pattern| glob_match(pattern.trim(), bare.as_str()))
        && (web || !matches!(url.scheme(), "javascript" | "data" | "vbscript" | "file"))
}

fn is_dotted_quad(host: &str) -> bool {
    host.split('.').count() == 4 && host.parse::<std::net::Ipv4Addr>().is_ok()
}

/// The host as written in the URL text (without userinfo, port, path).
fn raw_authority_host(raw: &str) -> &str {
    let rest = raw.split_once("://").map_or("", |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit('@').next().unwrap_or("");
    if host_port.starts_with('[') {
        return host_port.split(']').next().map_or("", |h| h.trim_start_matches('['));
    }
    host_port.split(':').next().unwrap_or("")
}

fn valid_hostname(host: &str) -> bool {
    let bytes = host.as_bytes();
    !bytes.is_empty()
        && bytes[0].is_ascii_alphanumeric()
        && bytes[bytes.len() - 1].is_ascii_alphanumeric()
        && host.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
}

fn is_local(host: &str) -> bool {
    host == "localhost" || host.ends_with(".localhost") || host == "0.0.0.0" || host == "127.0.0.1" || host == "[::1]"
}

fn same_origin(url: &Url, site: &Url) -> bool {
    let (Some(a), Some(b)) = (url.host_str(), site.host_str()) else { return false };
    if url.scheme() != site.scheme() || !a.eq_ignore_ascii_case(b) {
        return false;
    }
    is_local(a) || url.port_or_known_default() == site.port_or_known_default()
}

/// gobwas/glob semantics with separators `.` and `/`: `*` matches any run of non-separators, `**` anything, `?` one
/// non-separator character; everything else literally.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    fn go(p: &[char], t: &[char]) -> bool {
        match p.first() {
            None => t.is_empty(),
            Some('*') if p.get(1) == Some(&'*') => (0..=t.len()).any(|i| go(&p[2..], &t[i..])),
            Some('*') => {
                let mut i = 0;
                loop {
                    if go(&p[1..], &t[i..]) {
                        return true;
                    }
                    if i >= t.len() || t[i] == '.' || t[i] == '/' {
                        return false;
                    }
                    i += 1;
                }
            }
            Some('?') => t.first().is_some_and(|c| *c != '.' && *c != '/') && go(&p[1..], &t[1..]),
            Some(c) => t.first() == Some(c) && go(&p[1..], &t[1..]),
        }
    }
    if pattern.is_empty() {
        return false;
    }
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    go(&p, &t)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SITE: &str = "https://site.com";

    fn allowed(raw: &str) -> bool {
        is_allowed_url(raw, SITE, &["https://*.preview.site.com/**".into(), "myapp://callback".into()])
    }

    #[test]
    fn accepts_the_site_its_paths_loopback_and_allow_listed_urls() {
        assert!(allowed("https://site.com/welcome?x=1"));
        assert!(allowed("http://127.0.0.1:3000/cb"));
        assert!(allowed("http://[::1]:1/"));
        assert!(allowed("https://pr-1.preview.site.com/a/b"));
        assert!(allowed("myapp://callback"));
        assert!(is_allowed_url("http://localhost:5173/x", "http://localhost:3000", &[]));
    }

    #[test]
    fn refuses_the_a7_attacks() {
        for bad in [
            "https://evil.com",
            "//evil.com",
            "https://site.com@evil.com",
            "https://site.com.evil.com",
            "javascript:alert(1)",
            "http://2130706433/",
            "http://site.com/",
            "https://site.com:8443/",
            "https://a.b.preview.site.com/",
            "https://evil.com#https://site.com",
            "https://evil.com/?https://pr.preview.site.com/",
            "https://site.com//evil.com/",
            "https://site.com/%2F%2Fevil.com/",
            "https://site.com/%5Cevil.com",
            "https://site.com/%09/evil.com/",
            "not a url",
        ] {
            assert!(!allowed(bad), "{bad} must fall back to the site URL");
        }
    }

    #[test]
    fn glob_star_stays_within_a_segment() {
        assert!(glob_match("https://*.site.com", "https://a.site.com"));
        assert!(!glob_match("https://*.site.com", "https://a.b.site.com"));
        assert!(glob_match("https://**.site.com", "https://a.b.site.com"));
        assert!(glob_match("http://localhost:3000/**", "http://localhost:3000/a/b?c=d"));
    }
}
