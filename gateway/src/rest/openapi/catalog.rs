//! What the OpenAPI document describes, read in the request's own transaction (so privileges are the caller's):
//! the schema's comment, its tables and views with columns, and its callable functions, each marked with whether
//! the current role may use it. One statement returns it all as JSON.

use serde::Deserialize;

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Catalog {
    /// `COMMENT ON SCHEMA`.
    pub description: Option<String>,
    pub tables: Vec<Table>,
    pub functions: Vec<Function>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Table {
    pub name: String,
    pub description: Option<String>,
    pub is_view: bool,
    pub insertable: bool,
    pub updatable: bool,
    pub deletable: bool,
    /// The current role owns it or holds any privilege on it or on one of its columns.
    pub accessible: bool,
    pub primary_key: Vec<String>,
    pub columns: Vec<Column>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Column {
    pub name: String,
    pub description: Option<String>,
    pub nullable: bool,
    /// PostgREST's `data_type`: `format_type` without modifiers for built-in types and domains over them.
    pub data_type: String,
    pub max_length: Option<i64>,
    pub default: Option<String>,
    /// Labels of an enum (or a domain over one), in their order.
    #[serde(default)]
    pub enum_labels: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Function {
    pub name: String,
    pub description: Option<String>,
    /// `i`, `s` or `v`.
    pub volatility: String,
    pub params: Vec<Param>,
    /// The current role may execute it.
    pub executable: bool,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Param {
    pub name: String,
    /// `regtype` text of the argument's type.
    #[serde(rename = "type")]
    pub type_name: String,
    pub required: bool,
    pub variadic: bool,
}

/// `$1` = the schema. Returns one row, one JSON text column.
pub const CATALOG_SQL: &str = "
WITH RECURSIVE domains AS (
  SELECT t.oid, t.typbasetype AS next, t.typnamespace AS ns, t.oid AS base FROM pg_type t WHERE t.typtype = 'd'
  UNION ALL
  SELECT d.oid, b.typbasetype, b.typnamespace, b.oid FROM domains d JOIN pg_type b ON b.oid = d.next
),
base_types AS (SELECT oid, ns, base FROM domains WHERE next = 0),
ns AS (SELECT oid FROM pg_namespace WHERE nspname = $1::text),
cols AS (
  SELECT a.attrelid, a.attnum, json_build_object(
    'name', a.attname,
    'description', col_description(a.attrelid, a.attnum),
    'nullable', NOT (a.attnotnull OR (t.typtype = 'd' AND t.typnotnull)),
    'data_type', CASE
      WHEN t.typtype = 'd' AND bt.ns = 'pg_catalog'::regnamespace THEN format_type(bt.base, NULL)
      WHEN t.typtype <> 'd' AND t.typnamespace = 'pg_catalog'::regnamespace THEN format_type(a.atttypid, NULL)
      ELSE format_type(a.atttypid, a.atttypmod) END,
    'max_length', information_schema._pg_char_max_length(information_schema._pg_truetypid(a.*, t.*),
                                                         information_schema._pg_truetypmod(a.*, t.*)),
    'default', CASE
      WHEN a.attidentity <> '' OR a.attgenerated <> '' THEN NULL
      WHEN ad.adbin IS NULL AND t.typtype = 'd' THEN pg_get_expr(t.typdefaultbin, 0)
      ELSE pg_get_expr(ad.adbin, ad.adrelid) END,
    'enum_labels', coalesce((SELECT json_agg(e.enumlabel ORDER BY e.enumsortorder) FROM pg_enum e
                             WHERE e.enumtypid = coalesce(bt.base, t.oid)), '[]')
  ) AS doc
  FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid AND c.relnamespace = (SELECT oid FROM ns)
    JOIN pg_type t ON t.oid = a.atttypid
    LEFT JOIN base_types bt ON bt.oid = t.oid
    LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
  WHERE a.attnum > 0 AND NOT a.attisdropped
),
tables AS (
  SELECT c.relname, json_build_object(
    'name', c.relname,
    'description', obj_description(c.oid, 'pg_class'),
    'is_view', c.relkind IN ('v', 'm'),
    'insertable', c.relkind IN ('r', 'p') OR (c.relkind IN ('v', 'f') AND (pg_relation_is_updatable(c.oid, true) & 8) = 8),
    'updatable', c.relkind IN ('r', 'p') OR (c.relkind IN ('v', 'f') AND (pg_relation_is_updatable(c.oid, true) & 4) = 4),
    'deletable', c.relkind IN ('r', 'p') OR (c.relkind IN ('v', 'f') AND (pg_relation_is_updatable(c.oid, true) & 16) = 16),
    'accessible', pg_has_role(c.relowner, 'USAGE')
      OR has_table_privilege(c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
      OR has_any_column_privilege(c.oid, 'SELECT, INSERT, UPDATE, REFERENCES'),
    'primary_key', coalesce((SELECT json_agg(a.attname ORDER BY a.attname) FROM pg_constraint k
                             JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = ANY (k.conkey)
                             WHERE k.conrelid = c.oid AND k.contype = 'p'), '[]'),
    'columns', coalesce((SELECT json_agg(cols.doc ORDER BY cols.attnum) FROM cols WHERE cols.attrelid = c.oid), '[]')
  ) AS doc
  FROM pg_class c
  WHERE c.relnamespace = (SELECT oid FROM ns) AND c.relkind IN ('r', 'v', 'm', 'f', 'p') AND NOT c.relispartition
),
args AS (
  SELECT p.oid, json_agg(json_build_object(
      'name', coalesce(p.proargnames[u.i], ''),
      'type', u.type::regtype::text,
      'required', u.n <= p.pronargs - p.pronargdefaults,
      'variadic', coalesce(p.proargmodes[u.i] = 'v', false)
    ) ORDER BY u.i) AS params,
    bool_and(coalesce(p.proargnames[u.i], '') <> '') AS all_named,
    count(*) AS n_args,
    (array_agg(u.type))[1] AS first_type
  FROM pg_proc p
    CROSS JOIN LATERAL (
      SELECT k.i, k.type, row_number() OVER (ORDER BY k.i) AS n
      FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) WITH ORDINALITY AS k(type, i)
      WHERE coalesce(p.proargmodes[k.i], 'i') IN ('i', 'b', 'v')
    ) u
  WHERE p.pronamespace = (SELECT oid FROM ns)
  GROUP BY p.oid
),
functions AS (
  SELECT p.proname, json_build_object(
    'name', p.proname,
    'description', obj_description(p.oid, 'pg_proc'),
    'volatility', p.provolatile,
    'params', coalesce(a.params, '[]'),
    'executable', has_function_privilege(p.oid, 'execute')
  ) AS doc
  FROM pg_proc p
    LEFT JOIN args a ON a.oid = p.oid
    LEFT JOIN base_types bt ON bt.oid = p.prorettype
  WHERE p.pronamespace = (SELECT oid FROM ns) AND p.prokind = 'f'
    AND coalesce(bt.base, p.prorettype) NOT IN ('trigger'::regtype, 'event_trigger'::regtype)
    AND (a.oid IS NULL OR a.all_named
         OR (a.n_args = 1 AND a.first_type IN ('bytea'::regtype, 'json'::regtype, 'jsonb'::regtype, 'text'::regtype, 'xml'::regtype)))
)
SELECT json_build_object(
  'description', (SELECT obj_description(oid, 'pg_namespace') FROM ns),
  'tables', coalesce((SELECT json_agg(doc ORDER BY relname) FROM tables), '[]'),
  'functions', coalesce((SELECT json_agg(doc ORDER BY proname) FROM functions), '[]')
)::text";

/// Parses the statement's JSON.
pub fn parse(text: &str) -> Result<Catalog, serde_json::Error> {
    serde_json::from_str(text)
}
