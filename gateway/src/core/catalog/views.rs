//! Views and materialized views of every user schema with their stored query's target list: what
//! [`super::ViewColumns`] follows to the table column each view column shows.

use super::node_tree::{target_entries, TargetEntry};
use std::collections::HashMap;
use tokio_postgres::GenericClient;

/// A view or materialized view with its target list and column names.
#[derive(Debug, Clone)]
pub struct View {
    pub oid: i64,
    pub schema: String,
    pub name: String,
    pub entries: Vec<TargetEntry>,
    /// attnum → name
    pub columns: HashMap<i32, String>,
}

const VIEWS: &str = "
select c.oid::int8, n.nspname::text, c.relname::text, r.ev_action::text,
  array(select a.attnum::int4 from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped order by a.attnum),
  array(select a.attname::text from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped order by a.attnum)
from pg_class c join pg_namespace n on n.oid = c.relnamespace
  join pg_rewrite r on r.ev_class = c.oid and r.rulename = '_RETURN'
where c.relkind in ('v', 'm') and n.nspname <> all($1)
order by c.oid";

pub async fn load<C: GenericClient>(client: &C) -> anyhow::Result<Vec<View>> {
    let system: Vec<String> = super::SYSTEM_SCHEMAS.iter().map(|s| s.to_string()).collect();
    let rows = client.query(VIEWS, &[&system]).await?;
    Ok(rows
        .iter()
        .map(|r| {
            let numbers: Vec<i32> = r.get(4);
            let names: Vec<String> = r.get(5);
            View {
                oid: r.get(0),
                schema: r.get(1),
                name: r.get(2),
                entries: target_entries(r.get(3)),
                columns: numbers.into_iter().zip(names).collect(),
            }
        })
        .collect())
}
