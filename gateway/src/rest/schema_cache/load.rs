//! Builds the schema cache from the core's catalog, at start and on every `reload schema` notification: tables and
//! views of the exposed schemas, relationships from foreign keys (views inherit them through the columns they
//! show), functions and computed relationships.

use super::relationships::{self, ForeignKey};
use super::*;
use crate::core::catalog::{self, lookup, Catalog, Scope};
use std::collections::HashMap;
use tokio_postgres::GenericClient;

/// Loads the whole cache for the exposed `schemas`; `roles` are the API roles (for visibility and settings).
pub async fn load<C: GenericClient>(client: &C, schemas: &[String], roles: &[String]) -> anyhow::Result<SchemaCache> {
    let catalog = catalog::load(client, Scope { schemas, roles }).await?;
    let mut cache = build(catalog, schemas);
    cache.has_postgis = lookup::has_extension(client, "postgis").await?;
    cache.roles = lookup::role_names(client).await?.into_iter().collect();
    cache.timezones = lookup::timezone_names(client).await?.into_iter().collect();
    Ok(cache)
}

/// The cache of the exposed `schemas` as the catalog describes them (no database).
pub fn build(catalog: Catalog, schemas: &[String]) -> SchemaCache {
    let tables = tables(&catalog);
    let fks = foreign_keys(&catalog, schemas);
    let mut relationships = relationships::build(&tables, &fks);
    let mut routines = routines(&catalog);
    add_computed_relationships(&mut relationships, &routines);
    keep_callable(&mut routines);
    SchemaCache {
        tables: tables.into_iter().collect(),
        relationships: relationships.into_iter().collect(),
        routines: routines.into_iter().collect(),
        catalog: std::sync::Arc::new(catalog),
        ..SchemaCache::default()
    }
}

/// Tables and views with their columns.
fn tables(catalog: &Catalog) -> HashMap<QualifiedName, Table> {
    let table = |r: &catalog::Relation| Table {
        name: QualifiedName::new(&r.schema, &r.name),
        is_view: r.kind.is_view(),
        columns: r.columns.iter().map(column).collect(),
        primary_key: catalog.primary_key(r.oid),
        visible_to: r.visible_to.clone(),
        plain_insert: r.plain_insert,
    };
    catalog.relations.iter().map(|r| (QualifiedName::new(&r.schema, &r.name), table(r))).collect()
}

/// A column's default is its expression, or an identity column's `nextval` (never a generation expression).
fn column(c: &catalog::Column) -> Column {
    Column {
        name: c.name.clone(),
        data_type: c.format.clone(),
        nullable: c.nullable(),
        default: c.default.clone().filter(|_| !c.generated).or_else(|| c.identity_default.clone()),
    }
}

/// Foreign keys (views' inherited ones included) whose both sides are in the exposed schemas.
fn foreign_keys(catalog: &Catalog, schemas: &[String]) -> Vec<ForeignKey> {
    let exposed = |schema: &str| schemas.iter().any(|s| s == schema);
    catalog
        .relationships()
        .into_iter()
        .filter(|fk| exposed(fk.from.schema) && exposed(fk.to.schema))
        .map(|fk| ForeignKey {
            name: fk.key.name.clone(),
            table: QualifiedName::new(fk.from.schema, fk.from.name),
            foreign_table: QualifiedName::new(fk.to.schema, fk.to.name),
            columns: fk.from.columns.into_iter().zip(fk.to.columns).collect(),
            one_to_one: fk.one_to_one,
            via_view: fk.from.view || fk.to.view,
        })
        .collect()
}

/// A function taking a table's row and returning rows of another is a computed relationship between them.
fn add_computed_relationships(
    relationships: &mut HashMap<QualifiedName, Vec<Relationship>>,
    routines: &HashMap<QualifiedName, Vec<Routine>>,
) {
    for r in routines.values().flatten() {
        if let (Some(source), ReturnShape::Composite { set, relation: Some(target) }) = (&r.row_param, &r.returns) {
            // `ROWS 1` on a set-returning function makes it to-one, as in PostgREST
            let set = *set && !r.rows_one;
            relationships.entry(source.clone()).or_default().push(Relationship {
                source: source.clone(),
                target: target.clone(),
                constraint: r.name.name.clone(),
                columns: vec![],
                cardinality: Cardinality::Computed { function: r.name.clone(), to_one: !set },
                via_view: false,
            });
        }
    }
}

/// Like PostgREST, functions with unnamed parameters are callable only when the one parameter takes the body.
fn keep_callable(routines: &mut HashMap<QualifiedName, Vec<Routine>>) {
    for list in routines.values_mut() {
        list.retain(|r| {
            r.params.iter().all(|p| !p.name.is_empty())
                || (r.params.len() == 1
                    && matches!(r.params[0].data_type.as_str(), "json" | "jsonb" | "text" | "xml" | "bytea"))
        });
    }
    routines.retain(|_, list| !list.is_empty());
}

/// Functions by name (overloads together), trigger functions and those returning `internal` left out.
fn routines(catalog: &Catalog) -> HashMap<QualifiedName, Vec<Routine>> {
    let mut routines: HashMap<QualifiedName, Vec<Routine>> = HashMap::new();
    for f in catalog.functions.iter().filter(|f| !f.is_trigger() && f.returns.format != "internal") {
        let routine = routine(f);
        routines.entry(routine.name.clone()).or_default().push(routine);
    }
    routines
}

fn routine(f: &catalog::Function) -> Routine {
    let ret = &f.returns;
    let returns = if ret.composite {
        ReturnShape::Composite { set: ret.set, relation: ret.table.as_ref().map(|(s, n)| QualifiedName::new(s, n)) }
    } else {
        ReturnShape::Scalar { set: ret.set, void: ret.format == "void" }
    };
    let params = f.inputs().into_iter().map(|(a, has_default)| RoutineParam {
        name: a.name.clone(),
        data_type: a.type_format.clone(),
        has_default,
        variadic: a.mode == catalog::ArgMode::Variadic,
    });
    Routine {
        name: QualifiedName::new(&f.schema, &f.name),
        row_param: f.row_param.as_ref().map(|(s, n)| QualifiedName::new(s, n)),
        rows_one: ret.set && f.rows == 1.0,
        params: params.collect(),
        returns,
        return_type: ret.format.clone(),
        volatility: f.volatility,
        visible_to: f.visible_to.clone(),
    }
}
