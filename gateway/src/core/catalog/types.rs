//! Every type of the database with its enum labels, composite attributes and row relation (the type generator
//! names column, argument and return types across schemas with it).

use tokio_postgres::GenericClient;

#[derive(Debug, Clone)]
pub struct TypeInfo {
    pub id: i64,
    pub name: String,
    pub schema: String,
    /// `format_type` (schema-qualified when not on the search path).
    pub format: String,
    pub enum_labels: Vec<String>,
    /// Composite types: (attribute, type id) in attribute order.
    pub attributes: Vec<(String, i64)>,
    /// The relation (table, view, composite) this is the row type of.
    pub relation_id: Option<i64>,
}

const TYPES: &str = "
select t.oid::int8, t.typname::text, n.nspname::text, format_type(t.oid, null),
  coalesce((select array_agg(e.enumlabel::text order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid), '{}'),
  coalesce((select array_agg(a.attname::text order by a.attnum) from pg_attribute a join pg_class c on c.oid = a.attrelid
            where c.oid = t.typrelid and c.relkind = 'c' and not a.attisdropped), '{}'),
  coalesce((select array_agg(a.atttypid::int8 order by a.attnum) from pg_attribute a join pg_class c on c.oid = a.attrelid
            where c.oid = t.typrelid and c.relkind = 'c' and not a.attisdropped), '{}'),
  nullif(t.typrelid, 0)::int8
from pg_type t left join pg_namespace n on n.oid = t.typnamespace
where t.typrelid = 0 or (select c.relkind in ('c', 'r', 'v', 'm', 'p') from pg_class c where c.oid = t.typrelid)
order by t.oid";

pub async fn load<C: GenericClient>(client: &C) -> anyhow::Result<Vec<TypeInfo>> {
    let rows = client.query(TYPES, &[]).await?;
    Ok(rows
        .iter()
        .map(|r| {
            let names: Vec<String> = r.get(5);
            let ids: Vec<i64> = r.get(6);
            TypeInfo {
                id: r.get(0),
                name: r.get(1),
                schema: r.get::<_, Option<String>>(2).unwrap_or_default(),
                format: r.get(3),
                enum_labels: r.get(4),
                attributes: names.into_iter().zip(ids).collect(),
                relation_id: r.get(7),
            }
        })
        .collect())
}
