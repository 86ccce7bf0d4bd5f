//! What the OpenAPI document describes, as PostgREST builds it: the schema's tables and views with columns and its
//! callable functions from the catalog the schema cache holds, each marked with whether the request's role may use
//! it (and the schema's comment), which one statement in the request's own transaction answers.

use crate::core::catalog::{self as core_catalog, lookup::Access, RelationKind, Volatility};

#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// `COMMENT ON SCHEMA`.
    pub description: Option<String>,
    pub tables: Vec<Table>,
    pub functions: Vec<Function>,
}

#[derive(Debug, Clone, Default)]
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

#[derive(Debug, Clone, Default)]
pub struct Column {
    pub name: String,
    pub description: Option<String>,
    pub nullable: bool,
    /// PostgREST's `data_type`: `format_type` without modifiers for built-in types and domains over them.
    pub data_type: String,
    pub max_length: Option<i64>,
    pub default: Option<String>,
    /// Labels of an enum (or a domain over one), in their order.
    pub enum_labels: Vec<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Function {
    pub name: String,
    pub description: Option<String>,
    pub volatility: Volatility,
    pub params: Vec<Param>,
    /// The current role may execute it.
    pub executable: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Param {
    pub name: String,
    /// `regtype` text of the argument's type.
    pub type_name: String,
    pub required: bool,
    pub variadic: bool,
}

/// The document's view of `schema` in `catalog`, with what `access` says the request's role may use.
pub fn describe(catalog: &core_catalog::Catalog, schema: &str, access: Access) -> Catalog {
    let mut tables: Vec<Table> = catalog
        .relations
        .iter()
        .filter(|r| r.schema == schema && !r.is_partition)
        .map(|r| table(catalog, r, access.relations.contains(&r.oid)))
        .collect();
    tables.sort_by(|a, b| a.name.cmp(&b.name));
    let mut functions: Vec<Function> = catalog
        .functions
        .iter()
        .filter(|f| f.schema == schema && !f.is_trigger() && callable(f))
        .map(|f| function(f, access.functions.contains(&f.oid)))
        .collect();
    functions.sort_by(|a, b| a.name.cmp(&b.name));
    Catalog { description: access.description, tables, functions }
}

fn table(catalog: &core_catalog::Catalog, r: &core_catalog::Relation, accessible: bool) -> Table {
    let writable = |through_view: bool| {
        r.kind.is_table() || (matches!(r.kind, RelationKind::View | RelationKind::ForeignTable) && through_view)
    };
    let mut primary_key = catalog.primary_key(r.oid);
    primary_key.sort();
    Table {
        name: r.name.clone(),
        description: r.description.clone(),
        is_view: r.kind.is_view(),
        insertable: writable(r.writes.insert),
        updatable: writable(r.writes.update),
        deletable: writable(r.writes.delete),
        accessible,
        primary_key,
        columns: r.columns.iter().map(column).collect(),
    }
}

/// PostgREST documents no default for identity and generated columns; a domain's default stands in for none.
fn column(c: &core_catalog::Column) -> Column {
    let default =
        if c.identity.is_some() || c.generated { None } else { c.default.clone().or(c.domain_default.clone()) };
    Column {
        name: c.name.clone(),
        description: c.description.clone(),
        nullable: c.nullable(),
        data_type: c.api_type.clone(),
        max_length: c.max_length.map(i64::from),
        default,
        enum_labels: c.enum_labels.clone(),
    }
}

/// Callable through the API: every input argument named, or one unnamed that takes the whole body.
fn callable(f: &core_catalog::Function) -> bool {
    let inputs = f.inputs();
    inputs.iter().all(|(a, _)| !a.name.is_empty())
        || (inputs.len() == 1
            && matches!(inputs[0].0.type_format.as_str(), "bytea" | "json" | "jsonb" | "text" | "xml"))
}

fn function(f: &core_catalog::Function, executable: bool) -> Function {
    let params = f.inputs().into_iter().map(|(a, has_default)| Param {
        name: a.name.clone(),
        type_name: a.type_format.clone(),
        required: !has_default,
        variadic: a.mode == core_catalog::ArgMode::Variadic,
    });
    Function {
        name: f.name.clone(),
        description: f.description.clone(),
        volatility: f.volatility,
        params: params.collect(),
        executable,
    }
}
