//! HTTP `Range: bytes=…` for downloads (a single range, as Storage serves), and the response headers that
//! describe an object. Pure functions, unit-tested.

/// An inclusive byte range within an object of known length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteRange {
    pub start: u64,
    pub end: u64,
}

impl ByteRange {
    pub fn len(&self) -> u64 {
        self.end - self.start + 1
    }

    pub fn content_range(&self, total: u64) -> String {
        format!("bytes {}-{}/{total}", self.start, self.end)
    }
}

/// `Ok(None)`: serve the whole object (no header, or one we ignore such as several ranges);
/// `Err(())`: not satisfiable (416).
pub fn parse(header: Option<&str>, total: u64) -> Result<Option<ByteRange>, ()> {
    let Some(spec) = header.map(str::trim) else { return Ok(None) };
    let Some(spec) = spec.strip_prefix("bytes=") else { return Ok(None) };
    if spec.contains(',') {
        return Ok(None);
    }
    let (a, b) = spec.split_once('-').ok_or(())?;
    let (a, b) = (a.trim(), b.trim());
    let range = if a.is_empty() {
        let n: u64 = b.parse().map_err(|_| ())?;
        if n == 0 || total == 0 {
            return Err(());
        }
        ByteRange { start: total.saturating_sub(n), end: total - 1 }
    } else {
        let start: u64 = a.parse().map_err(|_| ())?;
        let end: u64 = if b.is_empty() {
            total.saturating_sub(1)
        } else {
            b.parse::<u64>().map_err(|_| ())?.min(total.saturating_sub(1))
        };
        if start >= total || end < start {
            return Err(());
        }
        ByteRange { start, end }
    };
    Ok(Some(range))
}

/// JavaScript's `encodeURIComponent`: everything but `A-Z a-z 0-9 - _ . ! ~ * ' ( )` is percent-encoded.
const URI_COMPONENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

/// `Content-Disposition` for `?download=`, byte for byte as Storage writes it: `attachment;` for an empty value,
/// else the name through `encodeURIComponent` in both `filename` and `filename*` (so no quote, `;` or line break
/// can reach the header).
pub fn attachment(download: &str) -> String {
    if download.is_empty() {
        return "attachment;".into();
    }
    let encoded = percent_encoding::utf8_percent_encode(download, URI_COMPONENT);
    format!("attachment; filename={encoded}; filename*=UTF-8''{encoded}")
}

/// An HTTP date (`Last-Modified`).
pub fn http_date(t: chrono::DateTime<chrono::Utc>) -> String {
    t.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_single_ranges() {
        assert_eq!(parse(None, 10), Ok(None));
        assert_eq!(parse(Some("bytes=0-3"), 10), Ok(Some(ByteRange { start: 0, end: 3 })));
        assert_eq!(parse(Some("bytes=5-"), 10), Ok(Some(ByteRange { start: 5, end: 9 })));
        assert_eq!(parse(Some("bytes=-4"), 10), Ok(Some(ByteRange { start: 6, end: 9 })));
        assert_eq!(parse(Some("bytes=8-100"), 10), Ok(Some(ByteRange { start: 8, end: 9 })));
        assert_eq!(parse(Some("bytes=0-1,3-4"), 10), Ok(None));
        assert_eq!(parse(Some("items=0-1"), 10), Ok(None));
    }

    #[test]
    fn refuses_unsatisfiable_ranges() {
        assert_eq!(parse(Some("bytes=10-"), 10), Err(()));
        assert_eq!(parse(Some("bytes=5-2"), 10), Err(()));
        assert_eq!(parse(Some("bytes=-0"), 10), Err(()));
        assert_eq!(parse(Some("bytes=x-2"), 10), Err(()));
        assert_eq!(ByteRange { start: 2, end: 5 }.content_range(10), "bytes 2-5/10");
    }

    #[test]
    fn attachment_is_storages_exact_form() {
        assert_eq!(attachment(""), "attachment;");
        assert_eq!(attachment("cv.pdf"), "attachment; filename=cv.pdf; filename*=UTF-8''cv.pdf");
        assert_eq!(
            attachment("my file (1)'s!~*.pdf"),
            "attachment; filename=my%20file%20(1)'s!~*.pdf; filename*=UTF-8''my%20file%20(1)'s!~*.pdf"
        );
        assert_eq!(
            attachment("café;\".pdf"),
            "attachment; filename=caf%C3%A9%3B%22.pdf; filename*=UTF-8''caf%C3%A9%3B%22.pdf"
        );
        let h = attachment("x\r\n.pdf");
        assert!(!h.contains('\r') && !h.contains('\n'));
    }
}
