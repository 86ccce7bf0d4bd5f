//! What `supabase gen types typescript` reads, taken from the core's catalog: the relations the reading role may
//! use (views always), the columns it may use, foreign keys of user schemas and the ones views inherit, functions
//! (trigger functions left out) and every type, as [`Catalog`].

use super::model::*;
use crate::core::catalog::{self as core_catalog, lookup, Scope};
use tokio_postgres::GenericClient;

/// Reads everything type generation needs for `schemas`.
pub async fn load<C: GenericClient>(client: &C, schemas: &[String]) -> anyhow::Result<Catalog> {
    let usable = lookup::usable_schemas(client, schemas).await?;
    let catalog = core_catalog::load(client, Scope { schemas, roles: &[] }).await?;
    let types = core_catalog::load_types(client).await?;
    Ok(from_catalog(&catalog, usable, types))
}

/// The type generator's model of `catalog` (no database).
pub fn from_catalog(catalog: &core_catalog::Catalog, schemas: Vec<String>, types: Vec<TypeInfo>) -> Catalog {
    let readable = catalog.relations.iter().filter(|r| !r.kind.is_table() || r.accessible);
    Catalog {
        schemas,
        relations: readable.map(relation).collect(),
        columns: catalog.relations.iter().flat_map(columns).collect(),
        relationships: catalog.relationships().iter().map(relationship).collect(),
        functions: catalog.functions.iter().filter(|f| !is_trigger(f)).map(function).collect(),
        types,
    }
}

fn relation(r: &core_catalog::Relation) -> Relation {
    use core_catalog::RelationKind as Kind;
    Relation {
        id: r.oid,
        schema: r.schema.clone(),
        name: r.name.clone(),
        kind: match r.kind {
            Kind::ForeignTable => RelationKind::ForeignTable,
            Kind::View => RelationKind::View,
            Kind::MaterializedView => RelationKind::MaterializedView,
            Kind::Table | Kind::PartitionedTable => RelationKind::Table,
        },
        updatable: r.kind == Kind::View && r.auto_writes.update && r.auto_writes.delete,
    }
}

fn columns(r: &core_catalog::Relation) -> impl Iterator<Item = Column> + '_ {
    r.columns.iter().filter(|c| c.accessible).map(|c| Column {
        relation_id: r.oid,
        name: c.name.clone(),
        type_name: c.type_name.clone(),
        nullable: c.nullable(),
        identity: c.identity,
        has_default: c.default.is_some(),
        updatable: c.updatable,
    })
}

fn relationship(fk: &core_catalog::ForeignKey) -> Relationship {
    Relationship {
        foreign_key_name: fk.key.name.clone(),
        schema: fk.from.schema.into(),
        relation: fk.from.name.into(),
        columns: fk.from.columns.clone(),
        referenced_schema: fk.to.schema.into(),
        referenced_relation: fk.to.name.into(),
        referenced_columns: fk.to.columns.clone(),
        one_to_one: fk.one_to_one,
    }
}

/// postgres-meta leaves out functions whose result is `trigger` or `event_trigger`.
fn is_trigger(f: &core_catalog::Function) -> bool {
    matches!(f.result.as_str(), "trigger" | "event_trigger")
}

fn function(f: &core_catalog::Function) -> Function {
    let (inputs, defaults) = (f.inputs.max(0) as usize, f.defaults.max(0) as usize);
    Function {
        schema: f.schema.clone(),
        name: f.name.clone(),
        args: f
            .args
            .iter()
            .enumerate()
            .map(|(i, a)| arg(a, i < inputs && i >= inputs.saturating_sub(defaults)))
            .collect(),
        argument_types: f.argument_list.clone(),
        return_type_id: f.returns.type_oid,
        return_type: f.result.clone(),
        return_relation_id: f.returns.type_relation,
        returns_set: f.returns.set,
        rows: (f.returns.set && f.rows != 0.0).then_some(f.rows),
    }
}

/// An argument as postgres-meta lists it: the default flags line up with the first `inputs` positions of all
/// arguments (so an OUT argument before a defaulted one shifts them, exactly as its query does).
fn arg(a: &core_catalog::Arg, has_default: bool) -> Arg {
    Arg { mode: a.mode, name: a.name.clone(), type_id: a.type_oid, has_default }
}
