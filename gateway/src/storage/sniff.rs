//! Content checks for uploads: the type is sniffed from the first bytes (`infer`), and a bucket's
//! `allowed_mime_types` must admit both the declared type and the sniffed one. A declared type whose magic
//! bytes `infer` knows (PDF, Word, images, …) must also be what the bytes are, so a renamed executable or a text
//! file called `cv.pdf` is refused.

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

/// Checks an upload against the bucket's `allowed_mime_types` (no list: anything goes).
pub fn check(declared: &str, head: &[u8], allowed: Option<&[String]>) -> Result<(), StorageError> {
    let Some(allowed) = allowed.filter(|a| !a.is_empty()) else {
        return Ok(());
    };
    let declared = essence(declared);
    if !matches_any(&declared, allowed) {
        return Err(StorageError::InvalidMimeType(declared));
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
        assert!(check("application/pdf", PDF, Some(&cv_types())).is_ok());
    }

    #[test]
    fn refuses_an_executable_declared_as_pdf() {
        let mut elf = ELF.to_vec();
        elf.resize(128, 0);
        assert_eq!(sniff(&elf), Some("application/x-executable"));
        assert_eq!(
            check("application/pdf", &elf, Some(&cv_types())),
            Err(StorageError::InvalidMimeType("application/x-executable".into()))
        );
        assert!(check("application/pdf", ELF, Some(&cv_types())).is_err());
        assert!(check("application/pdf", PE, Some(&cv_types())).is_err());
    }

    #[test]
    fn refuses_text_pretending_to_be_pdf_and_undeclared_types() {
        assert!(check("application/pdf", b"hello, I am a CV", Some(&cv_types())).is_err());
        assert_eq!(
            check("text/html", b"<html>", Some(&cv_types())),
            Err(StorageError::InvalidMimeType("text/html".into()))
        );
    }

    #[test]
    fn wildcards_parameters_and_no_list() {
        assert!(matches_any("image/png", &["image/*".into()]));
        assert!(matches_any("Text/Plain; charset=UTF-8", &["text/plain".into()]));
        assert!(!matches_any("text/plain", &["image/*".into()]));
        assert!(check("text/plain;charset=UTF-8", ELF, None).is_ok());
        assert!(check("text/plain", b"plain words", Some(&["text/plain".into()])).is_ok());
    }
}
