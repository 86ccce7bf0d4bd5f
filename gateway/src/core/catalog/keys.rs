//! Primary, unique and foreign keys of every schema, with their columns by number and name, in key order.

use super::Catalog;
use tokio_postgres::GenericClient;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    Primary,
    Unique,
    Foreign,
}

/// A constraint; for a foreign key also the referenced relation and columns (in the same order).
#[derive(Debug, Clone)]
pub struct Key {
    pub name: String,
    pub kind: KeyKind,
    /// The constraint's own schema (a foreign key's `connamespace`).
    pub schema: String,
    pub table: i64,
    pub table_schema: String,
    pub table_name: String,
    pub columns: Vec<i32>,
    pub column_names: Vec<String>,
    /// A partition's copy of its parent's foreign key (PostgREST and postgres-meta skip these).
    pub inherited: bool,
    pub referenced: Option<Referenced>,
}

#[derive(Debug, Clone)]
pub struct Referenced {
    pub table: i64,
    pub schema: String,
    pub name: String,
    pub columns: Vec<i32>,
    pub column_names: Vec<String>,
}

const KEYS: &str = "
select k.conname::text, k.contype::text, kn.nspname::text, k.conrelid::int8, n.nspname::text, c.relname::text,
  k.conkey::int4[],
  array(select a.attname::text from unnest(k.conkey) with ordinality u(num, i)
        join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.num order by u.i),
  k.conparentid <> 0,
  r.oid::int8, rn.nspname::text, r.relname::text, coalesce(k.confkey::int4[], '{}'),
  array(select a.attname::text from unnest(k.confkey) with ordinality u(num, i)
        join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.num order by u.i)
from pg_constraint k
  join pg_namespace kn on kn.oid = k.connamespace
  join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
  left join pg_class r on r.oid = k.confrelid and k.contype = 'f'
  left join pg_namespace rn on rn.oid = r.relnamespace
where k.contype in ('p', 'u', 'f')
order by k.oid";

pub async fn load<C: GenericClient>(client: &C) -> anyhow::Result<Vec<Key>> {
    Ok(client.query(KEYS, &[]).await?.iter().map(key).collect())
}

fn key(r: &tokio_postgres::Row) -> Key {
    let referenced = r.get::<_, Option<i64>>(9).map(|table| Referenced {
        table,
        schema: r.get(10),
        name: r.get(11),
        columns: r.get(12),
        column_names: r.get(13),
    });
    Key {
        name: r.get(0),
        kind: match r.get::<_, &str>(1) {
            "p" => KeyKind::Primary,
            "u" => KeyKind::Unique,
            _ => KeyKind::Foreign,
        },
        schema: r.get(2),
        table: r.get(3),
        table_schema: r.get(4),
        table_name: r.get(5),
        columns: r.get(6),
        column_names: r.get(7),
        inherited: r.get(8),
        referenced,
    }
}

impl Key {
    /// The key's columns by name, ordered by their position in the table.
    fn names_by_position(&self) -> Vec<&str> {
        let mut cols: Vec<(i32, &str)> =
            self.columns.iter().copied().zip(self.column_names.iter().map(String::as_str)).collect();
        cols.sort_by_key(|(n, _)| *n);
        cols.into_iter().map(|(_, name)| name).collect()
    }
}

impl Catalog {
    /// Foreign keys of tables, partitions' copies left out.
    pub fn foreign_keys(&self) -> impl Iterator<Item = (&Key, &Referenced)> {
        self.keys.iter().filter(|k| !k.inherited).filter_map(|k| Some((k, k.referenced.as_ref()?)))
    }

    /// A table's primary key columns, in key order (empty without one).
    pub fn primary_key(&self, table: i64) -> Vec<String> {
        let pk = self.keys.iter().find(|k| k.table == table && k.kind == KeyKind::Primary);
        pk.map(|k| k.column_names.clone()).unwrap_or_default()
    }

    /// Whether a foreign key is one-to-one: its columns, in key order, are those of a primary or unique
    /// constraint of its table in column order (PostgREST's and postgres-meta's rule alike).
    pub fn is_one_to_one(&self, fk: &Key) -> bool {
        self.keys.iter().any(|k| {
            k.table == fk.table
                && matches!(k.kind, KeyKind::Primary | KeyKind::Unique)
                && k.names_by_position().iter().copied().eq(fk.column_names.iter().map(String::as_str))
        })
    }
}
