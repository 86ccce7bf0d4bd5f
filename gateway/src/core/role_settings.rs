//! The API roles' own settings (`ALTER ROLE … [IN DATABASE …] SET`, e.g. `statement_timeout`), which `SET ROLE`
//! does not apply by itself: read from the catalog at start (a failure stops the start) and again on every
//! schema reload, and applied by each request's preamble.

use crate::core::config::Config;
use rustc_hash::FxHashMap;
use tokio_postgres::GenericClient;

/// Each role's settings in the order PostgreSQL applies them (database-specific ones override global ones).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct RoleSettings(FxHashMap<String, Vec<(String, String)>>);

const ROLE_SETTINGS: &str = "
select r.rolname::text, s.setting
from pg_db_role_setting d
  join pg_roles r on r.oid = d.setrole
  cross join lateral unnest(d.setconfig) as s(setting)
where d.setdatabase in (0, (select oid from pg_database where datname = current_database()))
  and (r.rolname = any($1) or r.rolname = current_user)
order by d.setdatabase";

impl RoleSettings {
    /// Reads the settings of `roles` (and of the connecting role).
    pub async fn load<C: GenericClient>(client: &C, roles: &[String]) -> anyhow::Result<Self> {
        let rows = client.query(ROLE_SETTINGS, &[&roles]).await?;
        let mut settings = RoleSettings::default();
        for row in rows {
            let (role, setting): (String, String) = (row.get(0), row.get(1));
            if let Some((key, value)) = setting.split_once('=') {
                settings.set(&role, key, value);
            }
        }
        Ok(settings)
    }

    /// Settings from (role, key, value) triples, later ones overriding earlier ones.
    pub fn from_pairs<'a>(triples: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>) -> Self {
        let mut settings = RoleSettings::default();
        for (role, key, value) in triples {
            settings.set(role, key, value);
        }
        settings
    }

    fn set(&mut self, role: &str, key: &str, value: &str) {
        let list = self.0.entry(role.to_string()).or_default();
        list.retain(|(k, _)| k != key);
        list.push((key.to_string(), value.to_string()));
    }

    /// The settings of `role` (none when it has none).
    pub fn of(&self, role: &str) -> &[(String, String)] {
        self.0.get(role).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// The roles requests switch to: every allowed role and the anonymous one.
pub fn api_roles(config: &Config) -> Vec<String> {
    let mut roles = config.allowed_roles.clone();
    if let Some(anon) = config.anon_role.as_ref().filter(|a| !roles.contains(a)) {
        roles.push(anon.clone());
    }
    roles
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_settings_override_earlier_ones() {
        let s = RoleSettings::from_pairs([("anon", "statement_timeout", "3s"), ("anon", "statement_timeout", "6s")]);
        assert_eq!(s.of("anon"), [("statement_timeout".to_string(), "6s".to_string())]);
        assert!(s.of("nobody").is_empty());
    }
}
