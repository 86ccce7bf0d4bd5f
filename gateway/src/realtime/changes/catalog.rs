//! What the change pipeline asks the catalog, on its own connection as the pool's login role: a relation's
//! primary key, whether it has row-level security, its column type names, which columns a role may select,
//! whether a role bypasses RLS, and — for DELETE under replica identity FULL — the SELECT policies that apply
//! to a role, as PostgreSQL deparses them. Cached per relation version (a new Relation message refreshes it).

use super::pgoutput::Relation;
use std::collections::HashMap;
use std::sync::Arc;
use tokio_postgres::Client;

#[derive(Debug, Clone)]
pub struct RelationInfo {
    pub relation: Arc<Relation>,
    pub primary_key: Vec<String>,
    pub row_security: bool,
    /// `pg_type.typname` of each column, in column order.
    pub type_names: Vec<String>,
}

impl RelationInfo {
    /// `"schema"."table"`.
    pub fn qualified(&self) -> String {
        format!("{}.{}", quote_ident(&self.relation.schema), quote_ident(&self.relation.name))
    }
}

pub fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

#[derive(Default)]
pub struct Catalog {
    relations: HashMap<u32, RelationInfo>,
    columns: HashMap<(u32, String), Arc<Vec<String>>>,
    bypass: HashMap<String, bool>,
    predicates: HashMap<(u32, String), Arc<str>>,
}

const RELATION_SQL: &str = "select c.relrowsecurity, \
    coalesce((select array_agg(a.attname::text order by array_position(i.indkey::int2[], a.attnum)) \
      from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey) \
      where i.indrelid = c.oid and i.indisprimary), '{}'), \
    coalesce((select array_agg(t.typname::text order by o.n) from unnest($2::oid[]) with ordinality o(oid, n) \
      join pg_type t on t.oid = o.oid), '{}') \
    from pg_class c where c.oid = $1";

const COLUMNS_SQL: &str = "select coalesce(array_agg(attname::text order by attnum), '{}') from pg_attribute \
    where attrelid = $1 and attnum > 0 and not attisdropped and has_column_privilege($2::name, attrelid, attnum, 'SELECT')";

/// `(permissive quals OR'ed) AND restrictive quals`, for SELECT (or ALL) policies applying to the role.
const PREDICATE_SQL: &str = "with p as ( \
      select p.polpermissive, coalesce(pg_get_expr(p.polqual, p.polrelid), 'true') as qual from pg_policy p \
      where p.polrelid = $1 and p.polcmd in ('r', '*') \
        and (p.polroles = '{0}' or exists (select 1 from unnest(p.polroles) r where pg_has_role($2::name, r, 'USAGE')))) \
    select coalesce((select '(' || string_agg('(' || qual || ')', ' or ') || ')' from p where polpermissive), 'false') \
      || coalesce((select ' and ' || string_agg('(' || qual || ')', ' and ') from p where not polpermissive), '')";

impl Catalog {
    /// Forgets what depends on policies and grants (they may have changed).
    pub fn expire(&mut self) {
        self.columns.clear();
        self.bypass.clear();
        self.predicates.clear();
    }

    /// What the catalog says of the relation; `None` once it has been dropped.
    pub async fn relation(
        &mut self,
        client: &Client,
        relation: &Arc<Relation>,
    ) -> Result<Option<RelationInfo>, tokio_postgres::Error> {
        if let Some(info) = self.relations.get(&relation.oid).filter(|i| Arc::ptr_eq(&i.relation, relation)) {
            return Ok(Some(info.clone()));
        }
        let oids: Vec<u32> = relation.columns.iter().map(|c| c.type_oid).collect();
        let Some(row) = client.query_opt(RELATION_SQL, &[&relation.oid, &oids]).await? else { return Ok(None) };
        let info = RelationInfo {
            relation: relation.clone(),
            row_security: row.get(0),
            primary_key: row.get(1),
            type_names: row.get(2),
        };
        self.relations.insert(relation.oid, info.clone());
        self.columns.retain(|(oid, _), _| *oid != relation.oid);
        self.predicates.retain(|(oid, _), _| *oid != relation.oid);
        Ok(Some(info))
    }

    /// Columns the role may select.
    pub async fn selectable(
        &mut self,
        client: &Client,
        oid: u32,
        role: &str,
    ) -> Result<Arc<Vec<String>>, tokio_postgres::Error> {
        if let Some(c) = self.columns.get(&(oid, role.to_string())) {
            return Ok(c.clone());
        }
        let cols: Vec<String> = client.query_one(COLUMNS_SQL, &[&oid, &role]).await?.get(0);
        let cols = Arc::new(cols);
        self.columns.insert((oid, role.to_string()), cols.clone());
        Ok(cols)
    }

    pub async fn bypasses_rls(&mut self, client: &Client, role: &str) -> Result<bool, tokio_postgres::Error> {
        if let Some(b) = self.bypass.get(role) {
            return Ok(*b);
        }
        let row =
            client.query_opt("select rolbypassrls or rolsuper from pg_roles where rolname = $1", &[&role]).await?;
        let b = row.map(|r| r.get(0)).unwrap_or(false);
        self.bypass.insert(role.to_string(), b);
        Ok(b)
    }

    /// The SELECT policy predicate for the role, as SQL text over the table's columns.
    pub async fn predicate(
        &mut self,
        client: &Client,
        oid: u32,
        role: &str,
    ) -> Result<Arc<str>, tokio_postgres::Error> {
        if let Some(p) = self.predicates.get(&(oid, role.to_string())) {
            return Ok(p.clone());
        }
        let p: String = client.query_one(PREDICATE_SQL, &[&oid, &role]).await?.get(0);
        let p: Arc<str> = p.into();
        self.predicates.insert((oid, role.to_string()), p.clone());
        Ok(p)
    }
}
