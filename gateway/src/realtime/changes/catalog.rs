//! The change pipeline's cache of what it asks the core's catalog, on its own connection as the pool's login role:
//! a relation's primary key, whether it has row-level security, its column type names, which columns a role may
//! select, whether a role bypasses RLS, and — for DELETE under replica identity FULL — the SELECT policies that
//! apply to a role. Cached per relation version (a new Relation message refreshes it).

use super::pgoutput::Relation;
use crate::core::catalog::lookup;
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
pub struct CatalogCache {
    relations: HashMap<u32, RelationInfo>,
    columns: HashMap<(u32, String), Arc<Vec<String>>>,
    bypass: HashMap<String, bool>,
    predicates: HashMap<(u32, String), Arc<str>>,
}

impl CatalogCache {
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
        let Some(facts) = lookup::relation(client, relation.oid, &oids).await? else { return Ok(None) };
        let info = RelationInfo {
            relation: relation.clone(),
            row_security: facts.row_security,
            primary_key: facts.primary_key,
            type_names: facts.type_names,
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
        let cols = Arc::new(lookup::selectable_columns(client, oid, role).await?);
        self.columns.insert((oid, role.to_string()), cols.clone());
        Ok(cols)
    }

    pub async fn bypasses_rls(&mut self, client: &Client, role: &str) -> Result<bool, tokio_postgres::Error> {
        if let Some(b) = self.bypass.get(role) {
            return Ok(*b);
        }
        let b = lookup::bypasses_rls(client, role).await?;
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
        let p: Arc<str> = lookup::select_predicate(client, oid, role).await?.into();
        self.predicates.insert((oid, role.to_string()), p.clone());
        Ok(p)
    }
}
