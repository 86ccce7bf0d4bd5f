//! libpq's password sources for a connection string without a password, as `psql` and PostgREST (through libpq)
//! read them: `PGPASSWORD`, then the password file (`PGPASSFILE`, default `~/.pgpass`; lines
//! `host:port:database:user:password`, `*` matching anything, `\:` and `\\` escaped). Used for the owner connection
//! of `gateway migrate`, `keys`, `lint` and `demo` and for Realtime's replication connection (the owner's unless
//! set), so `GATEWAY_ADMIN_DB_URI=postgres://postgres@host/db` works with a password file as it does for `psql`.

use tokio_postgres::config::Host;
use tokio_postgres::Config;

/// Parses `db_uri` and fills in the password from libpq's sources when the string has none.
pub fn config(db_uri: &str) -> Result<Config, tokio_postgres::Error> {
    let mut config: Config = db_uri.parse()?;
    if config.get_password().is_some() {
        return Ok(config);
    }
    if let Some(password) = std::env::var("PGPASSWORD").ok().filter(|p| !p.is_empty()) {
        config.password(password);
        return Ok(config);
    }
    let file = std::env::var("PGPASSFILE").ok().or_else(|| std::env::var("HOME").ok().map(|h| format!("{h}/.pgpass")));
    if let Some(text) = file.and_then(|f| std::fs::read_to_string(f).ok()) {
        if let Some(password) = lookup(&text, &config) {
            config.password(password);
        }
    }
    Ok(config)
}

fn lookup(text: &str, config: &Config) -> Option<String> {
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(h)) => h.clone(),
        #[cfg(unix)]
        Some(Host::Unix(_)) | None => "localhost".to_string(),
        #[cfg(not(unix))]
        None => "localhost".to_string(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432).to_string();
    let user = config.get_user()?.to_string();
    let database = config.get_dbname().map(str::to_string).unwrap_or_else(|| user.clone());
    let wanted = [host.as_str(), port.as_str(), database.as_str(), user.as_str()];
    text.lines().filter(|l| !l.trim_start().starts_with('#')).find_map(|line| {
        let fields = split_fields(line);
        let [h, p, d, u, password] = fields.as_slice() else { return None };
        let matches =
            [h, p, d, u].iter().zip(wanted).all(|(field, want)| field.as_str() == "*" || field.as_str() == want);
        matches.then(|| password.clone())
    })
}

/// Splits a password-file line on unescaped `:`.
fn split_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => fields.last_mut().into_iter().for_each(|f| f.extend(chars.next())),
            ':' => fields.push(String::new()),
            c => fields.last_mut().into_iter().for_each(|f| f.push(c)),
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_matching_line_with_wildcards_and_escapes() {
        let text =
            "# comment\n*:5433:*:authenticator:a\\:b\n127.0.0.1:5433:app:postgres:secret\n*:*:*:postgres:other\n";
        let c: Config = "postgres://postgres@127.0.0.1:5433/app".parse().unwrap();
        assert_eq!(lookup(text, &c).as_deref(), Some("secret"));
        let c: Config = "postgres://postgres@127.0.0.1:5433/db2".parse().unwrap();
        assert_eq!(lookup(text, &c).as_deref(), Some("other"));
        let c: Config = "postgres://authenticator@localhost:5433/x".parse().unwrap();
        assert_eq!(lookup(text, &c).as_deref(), Some("a:b"));
        let c: Config = "postgres://nobody@localhost:5433/x".parse().unwrap();
        assert_eq!(lookup(text, &c), None);
    }
}
