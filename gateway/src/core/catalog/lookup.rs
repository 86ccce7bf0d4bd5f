//! Single questions to the catalog, asked when they arise rather than at load: which schemas the reading role may
//! use, whether an extension is installed, the cluster's roles and time zones; of one relation by oid, its primary key, row security and column types (the change stream meets relations
//! as it decodes them); which columns a role may select, whether a role bypasses row security, and the SELECT
//! policies that apply to a role as PostgreSQL deparses them; and, run in a request's own transaction, what the
//! request's role may use in a schema (the OpenAPI document follows its privileges).

use tokio_postgres::GenericClient;

const SCHEMAS: &str = "
select n.nspname::text from pg_namespace n
where n.nspname = any($1) and not starts_with(n.nspname, 'pg_')
  and (pg_has_role(n.nspowner, 'USAGE') or has_schema_privilege(n.oid, 'CREATE, USAGE'))";

/// The schemas of `schemas` that exist and that the reading role owns or may use.
pub async fn usable_schemas<C: GenericClient>(client: &C, schemas: &[String]) -> anyhow::Result<Vec<String>> {
    Ok(client.query(SCHEMAS, &[&schemas]).await?.iter().map(|r| r.get(0)).collect())
}

/// Whether extension `name` is installed.
pub async fn has_extension<C: GenericClient>(client: &C, name: &str) -> anyhow::Result<bool> {
    Ok(client.query_one("select exists(select 1 from pg_extension where extname = $1)", &[&name]).await?.get(0))
}

/// Every role of the cluster.
pub async fn role_names<C: GenericClient>(client: &C) -> anyhow::Result<Vec<String>> {
    Ok(client.query("select rolname::text from pg_roles", &[]).await?.iter().map(|r| r.get(0)).collect())
}

/// `pg_timezone_names`.
pub async fn timezone_names<C: GenericClient>(client: &C) -> anyhow::Result<Vec<String>> {
    Ok(client.query("select name::text from pg_timezone_names", &[]).await?.iter().map(|r| r.get(0)).collect())
}

/// One relation as the change stream needs it.
#[derive(Debug, Clone)]
pub struct RelationFacts {
    pub row_security: bool,
    pub primary_key: Vec<String>,
    /// `pg_type.typname` of each of the given column types, in order.
    pub type_names: Vec<String>,
}

const RELATION: &str = "select c.relrowsecurity, \
    coalesce((select array_agg(a.attname::text order by array_position(i.indkey::int2[], a.attnum)) \
      from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey) \
      where i.indrelid = c.oid and i.indisprimary), '{}'), \
    coalesce((select array_agg(t.typname::text order by o.n) from unnest($2::oid[]) with ordinality o(oid, n) \
      join pg_type t on t.oid = o.oid), '{}') \
    from pg_class c where c.oid = $1";

/// What the catalog says of relation `oid` whose columns have `type_oids`; `None` once it has been dropped.
pub async fn relation<C: GenericClient>(
    client: &C,
    oid: u32,
    type_oids: &[u32],
) -> Result<Option<RelationFacts>, tokio_postgres::Error> {
    let row = client.query_opt(RELATION, &[&oid, &type_oids]).await?;
    Ok(row.map(|r| RelationFacts { row_security: r.get(0), primary_key: r.get(1), type_names: r.get(2) }))
}

const SELECTABLE: &str = "select coalesce(array_agg(attname::text order by attnum), '{}') from pg_attribute \
    where attrelid = $1 and attnum > 0 and not attisdropped and has_column_privilege($2::name, attrelid, attnum, 'SELECT')";

/// The columns of relation `oid` that `role` may select, in column order.
pub async fn selectable_columns<C: GenericClient>(
    client: &C,
    oid: u32,
    role: &str,
) -> Result<Vec<String>, tokio_postgres::Error> {
    Ok(client.query_one(SELECTABLE, &[&oid, &role]).await?.get(0))
}

/// Whether `role` bypasses row-level security (a superuser or `BYPASSRLS`); an unknown role does not.
pub async fn bypasses_rls<C: GenericClient>(client: &C, role: &str) -> Result<bool, tokio_postgres::Error> {
    let row = client.query_opt("select rolbypassrls or rolsuper from pg_roles where rolname = $1", &[&role]).await?;
    Ok(row.map(|r| r.get(0)).unwrap_or(false))
}

/// `(permissive quals OR'ed) AND restrictive quals`, for SELECT (or ALL) policies applying to the role.
const PREDICATE: &str = "with p as ( \
      select p.polpermissive, coalesce(pg_get_expr(p.polqual, p.polrelid), 'true') as qual from pg_policy p \
      where p.polrelid = $1 and p.polcmd in ('r', '*') \
        and (p.polroles = '{0}' or exists (select 1 from unnest(p.polroles) r where pg_has_role($2::name, r, 'USAGE')))) \
    select coalesce((select '(' || string_agg('(' || qual || ')', ' or ') || ')' from p where polpermissive), 'false') \
      || coalesce((select ' and ' || string_agg('(' || qual || ')', ' and ') from p where not polpermissive), '')";

/// The SELECT policy predicate of relation `oid` for `role`, as SQL text over the relation's columns.
pub async fn select_predicate<C: GenericClient>(
    client: &C,
    oid: u32,
    role: &str,
) -> Result<String, tokio_postgres::Error> {
    Ok(client.query_one(PREDICATE, &[&oid, &role]).await?.get(0))
}

/// Run as the request's role with `$1` = a schema: one JSON text, `{"description", "relations", "functions"}`, the
/// schema's comment and the oids of the relations and functions the role may use (PostgREST's
/// `schemaDescription`, `accessibleTables` and `accessibleFuncs`).
pub const ACCESS_SQL: &str = "
select json_build_object(
  'description', (select obj_description(n.oid, 'pg_namespace') from pg_namespace n where n.nspname = $1::text),
  'relations', coalesce((select json_agg(c.oid::int8) from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1::text and c.relkind in ('r', 'v', 'm', 'f', 'p')
        and (pg_has_role(c.relowner, 'USAGE')
             or has_table_privilege(c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
             or has_any_column_privilege(c.oid, 'SELECT, INSERT, UPDATE, REFERENCES'))), '[]'),
  'functions', coalesce((select json_agg(p.oid::int8) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = $1::text and p.prokind = 'f' and has_function_privilege(p.oid, 'execute')), '[]')
)::text";

/// What [`ACCESS_SQL`] answers.
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct Access {
    pub description: Option<String>,
    pub relations: Vec<i64>,
    pub functions: Vec<i64>,
}

impl Access {
    pub fn parse(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }
}
