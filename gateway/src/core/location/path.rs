//! Whether a path is one no browser reads as scheme-relative or as another host. Browsers drop tabs and newlines,
//! read `\` as `/` and fold unicode slash look-alikes, so `//evil`, `/\evil`, `/%2F%2Fevil`, `/%09/evil` and `/／evil`
//! are refused, in every percent-decoded form.

/// Characters some URL parsers or IDNA mappings turn into `/` or `\`.
const SLASH_LOOKALIKES: [char; 9] =
    ['\u{2044}', '\u{2215}', '\u{29F5}', '\u{29F8}', '\u{29F9}', '\u{FE68}', '\u{FF0F}', '\u{FF3C}', '\u{3033}'];

/// Whether `path` is a path on this origin that no browser can read as scheme-relative or as another host: it starts
/// with one `/`, and neither it nor its percent-decoded forms hold a second leading slash or backslash, or (before
/// any `?` or `#`) control characters, backslashes or slash look-alikes.
pub fn is_same_origin_path(path: &str) -> bool {
    if !path.starts_with('/') {
        return false;
    }
    let mut form = path.to_string();
    // Decode until stable (bounded): `%252F` is `%2F` to a second decoder.
    for _ in 0..4 {
        if !plain_path_is_safe(&form) {
            return false;
        }
        let decoded = percent_encoding::percent_decode_str(&form).decode_utf8_lossy().into_owned();
        if decoded == form {
            return true;
        }
        form = decoded;
    }
    false
}

fn plain_path_is_safe(path: &str) -> bool {
    let mut after_first = path.chars().skip(1);
    let second_is_slash = matches!(after_first.next(), Some('/' | '\\'));
    // Only the path decides the host a browser lands on: a `\` or a tab in the query or fragment (e.g. a key value
    // in the data API's `Location: /t?id=eq.%5C…`) cannot make the path scheme-relative.
    let path_part = path.split(['?', '#']).next().unwrap_or_default();
    // `/./`, `/../` segments fold away in a browser and can leave `//` behind (`/.//evil.com`).
    let dot_segment = path_part.split('/').any(|s| s == "." || s == "..");
    !second_is_slash
        && !dot_segment
        && !path_part.chars().any(|c| c.is_control() || c == '\\' || SLASH_LOOKALIKES.contains(&c))
}
