//! SVG sources: recognised by their prolog (or their stored type), and served as stored — imgproxy passes a vector
//! source through when the output format is not changed, so Supabase answers a transformed SVG with the SVG itself.
//! Nothing here rasterises or decodes the document; only its opening bytes are read to recognise it.

/// The content type a passed-through SVG is served with.
pub const CONTENT_TYPE: &str = "image/svg+xml";

/// How far into the source its root element is looked for (past an XML declaration, comments and a doctype).
const PROLOG_BYTES: usize = 32 * 1024;

/// Whether the source is an SVG document: its first element is `<svg` (or a prefixed `<x:svg`), or it was stored as
/// `image/svg+xml` and its bytes are not a raster format.
pub fn is_svg(stored_type: Option<&str>, source: &[u8]) -> bool {
    if root_is_svg(&source[..source.len().min(PROLOG_BYTES)]) {
        return true;
    }
    let stored = stored_type.map(|t| t.split(';').next().unwrap_or("").trim().to_ascii_lowercase());
    stored.as_deref() == Some(CONTENT_TYPE) && image::guess_format(source).is_err()
}

/// Skips a UTF-8 byte-order mark, whitespace, `<?…?>`, `<!--…-->` and `<!…>` (a doctype, brackets included), then
/// reads the first element's name.
fn root_is_svg(head: &[u8]) -> bool {
    let mut rest = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    loop {
        rest = trim_start(rest);
        rest = if rest.starts_with(b"<?") {
            match after(rest, b"?>") {
                Some(r) => r,
                None => return false,
            }
        } else if rest.starts_with(b"<!--") {
            match after(rest, b"-->") {
                Some(r) => r,
                None => return false,
            }
        } else if rest.starts_with(b"<!") {
            match after_declaration(rest) {
                Some(r) => r,
                None => return false,
            }
        } else if let Some(tag) = rest.strip_prefix(b"<") {
            return is_svg_name(tag);
        } else {
            return false;
        };
    }
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let skip = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &bytes[skip..]
}

/// The bytes after the first `end`.
fn after<'a>(bytes: &'a [u8], end: &[u8]) -> Option<&'a [u8]> {
    bytes.windows(end.len()).position(|w| w == end).map(|at| &bytes[at + end.len()..])
}

/// The bytes after a `<!…>` declaration whose internal subset (`[…]`) may hold `>`.
fn after_declaration(bytes: &[u8]) -> Option<&[u8]> {
    let mut depth = 0usize;
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            b'>' if depth == 0 => return Some(&bytes[i + 1..]),
            _ => {}
        }
    }
    None
}

/// `svg` or `prefix:svg`, ended by whitespace, `>` or `/`.
fn is_svg_name(tag: &[u8]) -> bool {
    let len = tag.iter().take_while(|b| !b.is_ascii_whitespace() && **b != b'>' && **b != b'/').count();
    let name = &tag[..len];
    let local = name.rsplit(|b| *b == b':').next().unwrap_or(name);
    local.eq_ignore_ascii_case(b"svg") && len < tag.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

    #[test]
    fn recognises_svg_roots_past_a_prolog() {
        assert!(is_svg(None, br#"<svg xmlns="http://www.w3.org/2000/svg" width="10"/>"#));
        assert!(is_svg(None, b"\xef\xbb\xbf  <?xml version=\"1.0\"?>\n<!-- made by hand -->\n<svg>"));
        let doctype = br#"<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd" [ <!ENTITY a "b>c"> ]><svg/>"#;
        assert!(is_svg(None, doctype));
        assert!(is_svg(None, b"<svg:svg xmlns:svg=\"http://www.w3.org/2000/svg\"></svg:svg>"));
    }

    #[test]
    fn other_documents_and_rasters_are_not_svg() {
        assert!(!is_svg(None, b"<html><svg/></html>"));
        assert!(!is_svg(None, b"<svgfoo/>"));
        assert!(!is_svg(None, b"%PDF-1.4"));
        assert!(!is_svg(None, b"<?xml version=\"1.0\"?>"), "no root at all");
        assert!(!is_svg(None, b"<!-- never closed <svg>"));
        assert!(!is_svg(None, PNG));
        assert!(!is_svg(Some("image/svg+xml"), PNG), "a raster stored under the SVG type is a raster");
    }

    #[test]
    fn the_stored_type_covers_a_root_past_the_prolog_window() {
        let mut late = b"<!--".to_vec();
        late.resize(PROLOG_BYTES + 10, b'x');
        late.extend_from_slice(b"--><svg/>");
        assert!(!is_svg(None, &late));
        assert!(is_svg(Some("image/svg+xml; charset=utf-8"), &late));
    }
}
