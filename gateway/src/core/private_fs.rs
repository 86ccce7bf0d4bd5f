//! Files only the gateway's own OS user may read (S7): stored objects and mail are created 0600 in folders created
//! 0700, whatever the process umask; the roots are tightened at start in case an older version made them wider.

use std::io;
use std::path::Path;

/// `create_dir_all` with 0700 for every folder it creates.
pub async fn create_dir_all(path: &Path) -> io::Result<()> {
    let mut builder = tokio::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    builder.mode(0o700);
    builder.create(path).await
}

/// Creates (a new) file for writing with mode 0600.
pub async fn create_new(path: &Path) -> io::Result<tokio::fs::File> {
    let mut options = tokio::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    options.mode(0o600);
    options.open(path).await
}

/// Makes an existing folder 0700 (a root created by an older version, or by hand); a folder this user may not change
/// (e.g. a mounted volume) is left as it is, with a warning.
pub async fn restrict_dir(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Err(e) = tokio::fs::set_permissions(path, std::fs::Permissions::from_mode(0o700)).await {
            tracing::warn!(path = %path.display(), error = %e, "could not make the folder private (0700)");
        }
    }
    let _ = path;
}
