//! Content-type checks for uploads against a bucket's `allowed_mime_types`. Storage's rule (the default): the declared
//! type must be allowed, and the bytes are stored as given. With content sniffing (a bucket's `sniff_content`, or
//! `GATEWAY_STORAGE_SNIFF_CONTENT`) the type sniffed from the first bytes (`infer`) must be allowed too, and a declared
//! type whose magic bytes `infer` knows (PDF, Word, images, …) must be what the bytes are, so a renamed executable or
//! a text file called `cv.pdf` is refused.

use super::error::StorageError;

/// How many leading bytes are kept for sniffing.
pub const SNIFF_BYTES: usize = 8192;

/// The type the content's magic bytes say, if `infer` recognises them.
pub fn sniff(head: &[u8]) -> Option<&'static str> {
    infer::get(head).map(|t| t.mime_type())
}

/// The media type without parameters, lower-cased (`Text/Plain; charset=x` → `text/plain`).
pub fn essence(mime: &str) -> String {
    mime.split(';').next().unwrap_or("").trim().to_ascii_lowercase()
}

/// Whether `mime` matches one of the patterns (`image/png`, `image/*`, `*/*`), as Storage matches them.
pub fn matches_any(mime: &str, allowed: &[String]) -> bool {
    let mime = essence(mime);
    allowed.iter().any(|pattern| {
        let pattern = essence(pattern);
        match pattern.strip_suffix("/*") {
            Some("*") => true,
            Some(kind) => mime.split('/').next() == Some(kind),
            None => pattern == mime,
        }
    })
}

/// Containers whose sniffed type is less specific than the declared one (a DOCX is a ZIP, a DOC an OLE file).
fn container_of(declared: &str) -> Option<&'static str> {
    match declared {
        d if d.starts_with("application/vnd.openxmlformats-officedocument.") => Some("application/zip"),
        "application/msword" | "application/vnd.ms-excel" | "application/vnd.ms-powerpoint" => {
            Some("application/x-ole-storage")
        }
        _ => None,
    }
}

/// How an upload's type is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Storage's: the declared type only.
    Declared,
    /// The declared type and the bytes' own.
    Sniffed,
}

impl Rule {
    /// `Sniffed` when the bucket or the deployment turned content sniffing on.
    pub fn of(sniffing: bool) -> Rule {
        if sniffing {
            Rule::Sniffed
        } else {
            Rule::Declared
        }
    }
}

/// Checks an upload against the bucket's `allowed_mime_types` under `rule` (no list: anything goes).
pub fn check(declared: &str, head: &[u8], allowed: Option<&[String]>, rule: Rule) -> Result<(), StorageError> {
    let Some(allowed) = allowed.filter(|a| !a.is_empty()) else {
        return Ok(());
    };
    let declared = essence(declared);
    if !matches_any(&declared, allowed) {
        return Err(StorageError::InvalidMimeType(declared));
    }
    if rule == Rule::Declared {
        return Ok(());
    }
    match sniff(head) {
        Some(actual) if actual == declared || container_of(&declared) == Some(actual) => Ok(()),
        Some(actual) if matches_any(actual, allowed) && !infer::is_mime_supported(&declared) => Ok(()),
        Some(actual) => Err(StorageError::InvalidMimeType(actual.to_string())),
        // Unrecognised bytes cannot claim a type whose signature is known.
        None if infer::is_mime_supported(&declared) => Err(StorageError::InvalidMimeType(declared)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PDF: &[u8] = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n";
    const ELF: &[u8] = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0\x3e\0\x01\0\0\0";
    const PE: &[u8] = b"MZ\x90\0\x03\0\0\0\x04\0\0\0\xff\xff\0\0";

    fn cv_types() -> Vec<String> {
        [
            "application/pdf",
            "application/msword",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        ]
        .map(String::from)
        .to_vec()
    }

    #[test]
    fn accepts_a_real_pdf_declared_as_pdf() {
        assert_eq!(sniff(PDF), Some("application/pdf"));
        assert!(check("application/pdf", PDF, Some(&cv_types()), Rule::Sniffed).is_ok());
    }

    #[test]
    fn refuses_an_executable_declared_as_pdf() {
        let mut elf = ELF.to_vec();
        elf.resize(128, 0);
        assert_eq!(sniff(&elf), Some("application/x-executable"));
        assert_eq!(
            check("application/pdf", &elf, Some(&cv_types()), Rule::Sniffed),
            Err(StorageError::InvalidMimeType("application/x-executable".into()))
        );
        assert!(check("application/pdf", ELF, Some(&cv_types()), Rule::Sniffed).is_err());
        assert!(check("application/pdf", PE, Some(&cv_types()), Rule::Sniffed).is_err());
    }

    #[test]
    fn refuses_text_pretending_to_be_pdf_and_undeclared_types() {
        assert!(check("application/pdf", b"hello, I am a CV", Some(&cv_types()), Rule::Sniffed).is_err());
        assert_eq!(
            check("text/html", b"<html>", Some(&cv_types()), Rule::Sniffed),
            Err(StorageError::InvalidMimeType("text/html".into()))
        );
    }

    #[test]
    fn wildcards_parameters_and_no_list() {
        assert!(matches_any("image/png", &["image/*".into()]));
        assert!(matches_any("Text/Plain; charset=UTF-8", &["text/plain".into()]));
        assert!(!matches_any("text/plain", &["image/*".into()]));
        assert!(check("text/plain;charset=UTF-8", ELF, None, Rule::Sniffed).is_ok());
        assert!(check("text/plain", b"plain words", Some(&["text/plain".into()]), Rule::Sniffed).is_ok());
    }

    #[test]
    fn storages_rule_judges_the_declared_type_and_keeps_the_bytes() {
        // storage-js's case: JPEG bytes declared image/png, to a bucket that allows image/png
        let jpeg: &[u8] = b"\xff\xd8\xff\xe0\0\x10JFIF\0\x01\x01\0\0\x01\0\x01\0\0";
        let png_only = ["image/png".to_string()];
        assert!(check("image/png", jpeg, Some(&png_only), Rule::Declared).is_ok());
        assert_eq!(
            check("image/png", jpeg, Some(&png_only), Rule::Sniffed),
            Err(StorageError::InvalidMimeType("image/jpeg".into()))
        );
        assert!(check("application/pdf", ELF, Some(&cv_types()), Rule::Declared).is_ok(), "bytes are not read");
        assert_eq!(
            check("image/jpeg", jpeg, Some(&png_only), Rule::Declared),
            Err(StorageError::InvalidMimeType("image/jpeg".into())),
            "the declared type must still be allowed"
        );
        assert_eq!(Rule::of(true), Rule::Sniffed);
        assert_eq!(Rule::of(false), Rule::Declared);
    }
}
