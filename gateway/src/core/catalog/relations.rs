//! Tables, views, materialized views and foreign tables of the scope's schemas, with their columns: types as
//! PostgREST and postgres-meta name them, nullability, defaults, identity, comments, and privileges.

use super::Scope;
use std::collections::HashMap;
use tokio_postgres::GenericClient;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelationKind {
    Table,
    PartitionedTable,
    ForeignTable,
    View,
    MaterializedView,
}

impl RelationKind {
    pub fn is_view(self) -> bool {
        matches!(self, RelationKind::View | RelationKind::MaterializedView)
    }

    pub fn is_table(self) -> bool {
        matches!(self, RelationKind::Table | RelationKind::PartitionedTable)
    }
}

/// Which of INSERT, UPDATE and DELETE a relation accepts (`pg_relation_is_updatable`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Writes {
    pub insert: bool,
    pub update: bool,
    pub delete: bool,
}

impl Writes {
    fn from_mask(mask: i32) -> Self {
        Writes { insert: mask & 8 != 0, update: mask & 4 != 0, delete: mask & 16 != 0 }
    }
}

#[derive(Debug, Clone)]
pub struct Relation {
    pub oid: i64,
    pub schema: String,
    pub name: String,
    pub kind: RelationKind,
    pub is_partition: bool,
    /// `COMMENT ON TABLE`.
    pub description: Option<String>,
    /// What it accepts counting `INSTEAD OF` triggers and rules (PostgREST's view).
    pub writes: Writes,
    /// What it accepts without triggers (`information_schema`'s and postgres-meta's view).
    pub auto_writes: Writes,
    /// The reading role owns it or holds a privilege on it or on one of its columns.
    pub accessible: bool,
    /// The scope's API roles holding SELECT, INSERT, UPDATE or DELETE on it.
    pub visible_to: Vec<String>,
    /// A plain table (not partitioned, no view) whose INSERT of one row always yields that row or an error: no
    /// row-level BEFORE or INSTEAD OF insert trigger (one may return NULL and skip the row) and no INSERT rule.
    pub plain_insert: bool,
    pub columns: Vec<Column>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Identity {
    Always,
    ByDefault,
}

#[derive(Debug, Clone)]
pub struct Column {
    pub position: i32,
    pub name: String,
    /// `COMMENT ON COLUMN`.
    pub description: Option<String>,
    /// `format_type` with the modifier (`character varying(8)`, `public.status`).
    pub format: String,
    /// PostgREST's `data_type`: without the modifier for built-in types and domains over them.
    pub api_type: String,
    /// `pg_type.typname`, a domain's base type's for a domain (`int4`, `_text`).
    pub type_name: String,
    pub not_null: bool,
    /// The column's type is a `NOT NULL` domain.
    pub domain_not_null: bool,
    /// The default or generation expression (`pg_attrdef`).
    pub default: Option<String>,
    pub generated: bool,
    pub identity: Option<Identity>,
    /// `nextval('seq'::regclass)` for an identity column.
    pub identity_default: Option<String>,
    /// A domain type's own default.
    pub domain_default: Option<String>,
    pub max_length: Option<i32>,
    /// An enum's labels (or those of the enum a domain is over), in order.
    pub enum_labels: Vec<String>,
    /// Accepts writes through its relation without triggers.
    pub updatable: bool,
    /// The reading role owns the relation or holds a privilege on the column.
    pub accessible: bool,
}

impl Column {
    /// Neither the column nor its domain says `NOT NULL`.
    pub fn nullable(&self) -> bool {
        !(self.not_null || self.domain_not_null)
    }
}

const RELATIONS: &str = "
select c.oid::int8, n.nspname::text, c.relname::text, c.relkind::text, c.relispartition,
  obj_description(c.oid, 'pg_class'), pg_relation_is_updatable(c.oid, true), pg_relation_is_updatable(c.oid, false),
  pg_has_role(c.relowner, 'USAGE')
    or has_table_privilege(c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
    or has_any_column_privilege(c.oid, 'SELECT, INSERT, UPDATE, REFERENCES'),
  array(select r.rolname::text from pg_roles r where r.rolname = any($2)
        and has_table_privilege(r.oid, c.oid, 'select, insert, update, delete')),
  c.relkind = 'r'
    and not exists (select from pg_trigger t where t.tgrelid = c.oid and t.tgtype & 1 = 1 and t.tgtype & 4 = 4
                    and t.tgtype & (2 | 64) <> 0)
    and not exists (select from pg_rewrite w where w.ev_class = c.oid and w.ev_type = '3')
from pg_class c join pg_namespace n on n.oid = c.relnamespace
where c.relkind in ('r', 'v', 'm', 'f', 'p') and n.nspname = any($1)
order by c.oid";

const COLUMNS: &str = "
with recursive domains as (
  select t.oid, t.typbasetype as next, t.typnamespace as ns, t.oid as base from pg_type t where t.typtype = 'd'
  union all
  select d.oid, b.typbasetype, b.typnamespace, b.oid from domains d join pg_type b on b.oid = d.next
),
base_types as (select oid, ns, base from domains where next = 0)
select c.oid::int8, a.attnum::int4, a.attname::text, col_description(c.oid, a.attnum),
  format_type(a.atttypid, a.atttypmod),
  case when t.typtype = 'd' and bt.ns = 'pg_catalog'::regnamespace then format_type(bt.base, null)
       when t.typtype <> 'd' and t.typnamespace = 'pg_catalog'::regnamespace then format_type(a.atttypid, null)
       else format_type(a.atttypid, a.atttypmod) end,
  coalesce(dt.typname, t.typname)::text, a.attnotnull, t.typtype = 'd' and t.typnotnull,
  pg_get_expr(ad.adbin, ad.adrelid), a.attgenerated <> '', a.attidentity::text,
  case when a.attidentity in ('a', 'd') then format('nextval(%L::regclass)',
    pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname)) end,
  case when t.typtype = 'd' then pg_get_expr(t.typdefaultbin, 0) end,
  information_schema._pg_char_max_length(information_schema._pg_truetypid(a.*, t.*),
                                         information_schema._pg_truetypmod(a.*, t.*))::int4,
  coalesce((select array_agg(e.enumlabel::text order by e.enumsortorder) from pg_enum e
            where e.enumtypid = coalesce(bt.base, t.oid)), '{}'),
  c.relkind in ('r', 'p') or (c.relkind in ('v', 'f') and pg_column_is_updatable(c.oid, a.attnum, false)),
  pg_has_role(c.relowner, 'USAGE') or has_column_privilege(c.oid, a.attnum, 'SELECT, INSERT, UPDATE, REFERENCES')
from pg_attribute a
  join pg_class c on c.oid = a.attrelid
  join pg_namespace n on n.oid = c.relnamespace
  join pg_type t on t.oid = a.atttypid
  left join pg_type dt on t.typtype = 'd' and dt.oid = t.typbasetype
  left join base_types bt on bt.oid = t.oid
  left join pg_attrdef ad on ad.adrelid = a.attrelid and ad.adnum = a.attnum
where a.attnum > 0 and not a.attisdropped and c.relkind in ('r', 'v', 'm', 'f', 'p') and n.nspname = any($1)
order by c.oid, a.attnum";

/// The scope's relations in `oid` order, each with its columns in column order.
pub async fn load<C: GenericClient>(client: &C, scope: Scope<'_>) -> anyhow::Result<Vec<Relation>> {
    let mut relations: Vec<Relation> =
        client.query(RELATIONS, &[&scope.schemas, &scope.roles]).await?.iter().map(relation).collect();
    let index: HashMap<i64, usize> = relations.iter().enumerate().map(|(i, r)| (r.oid, i)).collect();
    for row in client.query(COLUMNS, &[&scope.schemas]).await? {
        if let Some(&i) = index.get(&row.get::<_, i64>(0)) {
            relations[i].columns.push(column(&row));
        }
    }
    Ok(relations)
}

fn relation(r: &tokio_postgres::Row) -> Relation {
    Relation {
        oid: r.get(0),
        schema: r.get(1),
        name: r.get(2),
        kind: match r.get::<_, &str>(3) {
            "p" => RelationKind::PartitionedTable,
            "f" => RelationKind::ForeignTable,
            "v" => RelationKind::View,
            "m" => RelationKind::MaterializedView,
            _ => RelationKind::Table,
        },
        is_partition: r.get(4),
        description: r.get(5),
        writes: Writes::from_mask(r.get(6)),
        auto_writes: Writes::from_mask(r.get(7)),
        accessible: r.get(8),
        visible_to: r.get(9),
        plain_insert: r.get(10),
        columns: vec![],
    }
}

fn column(r: &tokio_postgres::Row) -> Column {
    Column {
        position: r.get(1),
        name: r.get(2),
        description: r.get(3),
        format: r.get(4),
        api_type: r.get(5),
        type_name: r.get(6),
        not_null: r.get(7),
        domain_not_null: r.get(8),
        default: r.get(9),
        generated: r.get(10),
        identity: match r.get::<_, &str>(11) {
            "a" => Some(Identity::Always),
            "d" => Some(Identity::ByDefault),
            _ => None,
        },
        identity_default: r.get(12),
        domain_default: r.get(13),
        max_length: r.get(14),
        enum_labels: r.get(15),
        updatable: r.get(16),
        accessible: r.get(17),
    }
}
