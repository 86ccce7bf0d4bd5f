//! Parsing bucket ids and object names at the boundary: a name that could escape its bucket (`..`, absolute,
//! encoded separators, NUL and control characters, backslashes, empty segments) is refused before anything
//! touches the database or the backend.

use super::error::StorageError;

/// The longest object name accepted, in bytes (Storage's limit).
pub const MAX_NAME_BYTES: usize = 1024;

/// A checked bucket id: 1–100 characters of Storage's allowed set (`\w ! - . * ' ( ) space & $ @ = ; : + , ?`).
pub fn bucket_id(raw: &str) -> Result<&str, StorageError> {
    let ok = !raw.is_empty()
        && raw.chars().count() <= 100
        && raw.trim() == raw
        && raw.chars().all(|c| c.is_ascii_alphanumeric() || "_!-.*'() &$@=;:+,?".contains(c));
    if ok {
        Ok(raw)
    } else {
        Err(StorageError::InvalidBucketName)
    }
}

/// A checked object name (already percent-decoded): relative, `/`-separated, no empty, `.` or `..` segments.
pub fn object_name(raw: &str) -> Result<&str, StorageError> {
    let invalid = || StorageError::InvalidKey(raw.chars().filter(|c| !c.is_control()).take(200).collect());
    if raw.is_empty() || raw.len() > MAX_NAME_BYTES {
        return Err(invalid());
    }
    if raw.starts_with('/') || raw.contains('\\') || raw.chars().any(char::is_control) {
        return Err(invalid());
    }
    let lower = raw.to_ascii_lowercase();
    // A still-encoded separator or NUL means the name was double-encoded to slip past the checks above.
    if ["%2f", "%5c", "%00", "%2e%2e"].iter().any(|e| lower.contains(e)) {
        return Err(invalid());
    }
    if raw
        .split('/')
        .enumerate()
        .any(|(i, seg)| seg == "." || seg == ".." || (seg.is_empty() && i + 1 != raw.split('/').count()))
    {
        return Err(invalid());
    }
    Ok(raw)
}

/// `bucket/name` as used in signed-URL claims.
pub fn signed_path(bucket: &str, name: &str) -> String {
    format!("{bucket}/{name}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_names() {
        for n in [
            "a.txt",
            "folder/sub/file name (1).pdf",
            "public/sadcat-upload.png",
            "x/.emptyFolderPlaceholder",
            "café/ü.txt",
        ] {
            assert_eq!(object_name(n), Ok(n), "{n}");
        }
    }

    #[test]
    fn refuses_names_that_escape_the_bucket() {
        for n in [
            "",
            "../etc/passwd",
            "a/../../b",
            "./a",
            "a/./b",
            "/abs",
            "a\\b",
            "..\\x",
            "a\0b",
            "a%2F..%2Fb",
            "a%2fb",
            "%2e%2e/x",
            "a//b",
            "a\nb",
            "..",
        ] {
            assert!(object_name(n).is_err(), "{n:?} accepted");
        }
        assert!(object_name(&"a".repeat(MAX_NAME_BYTES + 1)).is_err());
    }

    #[test]
    fn a_trailing_slash_is_a_folder_name() {
        assert!(object_name("folder/").is_ok());
    }

    #[test]
    fn checks_bucket_ids() {
        assert!(bucket_id("cvs").is_ok());
        assert!(bucket_id("with-limit1700000000").is_ok());
        for b in ["", "a/b", "a\\b", " a", "x".repeat(101).as_str(), "a\0"] {
            assert!(bucket_id(b).is_err(), "{b:?}");
        }
    }
}
