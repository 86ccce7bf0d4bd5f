//! Finding the relationship an embed names: by target table/view name, foreign-key name or (to-one) foreign
//! key column, narrowed by a `!hint` (constraint, column or junction name). None → PGRST200; several → PGRST201.

use crate::rest::error::Error;
use crate::rest::schema_cache::{Cardinality, QualifiedName, Relationship, SchemaCache};
use serde_json::json;

/// The one relationship from `source` that embed `name` (narrowed by `hint`) names.
pub fn resolve_relationship(
    cache: &SchemaCache,
    source: &QualifiedName,
    name: &str,
    hint: Option<&str>,
) -> Result<Relationship, Error> {
    let self_reference = source.name == name;
    let mut found: Vec<&Relationship> =
        cache.relationships_from(source).iter().filter(|r| names(r, source, name, self_reference)).collect();
    // a computed relationship named like a detected one takes its place
    if found.iter().any(|r| matches!(r.cardinality, Cardinality::Computed { .. })) {
        found.retain(|r| matches!(r.cardinality, Cardinality::Computed { .. }));
    }
    if let Some(h) = hint {
        found.retain(|r| narrowed_by(r, source, h, self_reference));
    }
    match found.len() {
        1 => Ok(found[0].clone()),
        0 => Err(Error::NoRelationship {
            parent: source.name.clone(),
            child: name.to_string(),
            hint: hint.map(str::to_string),
            schema: source.schema.clone(),
        }),
        _ => {
            found.sort_by_cached_key(|r| postgrest_order(cache, r));
            Err(ambiguous(source, name, &found))
        }
    }
}

/// Whether embed `name` names `r`: its target, its constraint, or (to-one) its one key column.
fn names(r: &Relationship, source: &QualifiedName, name: &str, self_reference: bool) -> bool {
    match &r.cardinality {
        // embedding a table by its own name means its children
        _ if self_reference && r.target == *source => matches!(r.cardinality, Cardinality::O2M),
        Cardinality::Computed { .. } => r.constraint == name,
        Cardinality::M2M(_) => r.target.name == name,
        c => {
            r.target.name == name
                || (!r.via_view && r.constraint == name)
                || (!r.via_view
                    && matches!(c, Cardinality::M2O | Cardinality::O2O { source_holds_key: true })
                    && r.columns.len() == 1
                    && r.columns[0].0 == name)
        }
    }
}

/// Whether hint `h` keeps `r`: its junction or constraints, its constraint, or one of its key columns.
fn narrowed_by(r: &Relationship, source: &QualifiedName, h: &str, self_reference: bool) -> bool {
    match &r.cardinality {
        Cardinality::M2M(j) => j.table.name == h || j.source_constraint == h || j.target_constraint == h,
        Cardinality::Computed { .. } => false,
        // a self-reference is narrowed by its key column only
        _ if self_reference && r.target == *source => r.columns.iter().any(|(_, b)| b == h),
        _ => r.constraint == h || (r.columns.len() == 1 && (r.columns[0].0 == h || r.columns[0].1 == h)),
    }
}

/// PGRST201 with the candidates in PostgREST's order.
fn ambiguous(source: &QualifiedName, name: &str, found: &[&Relationship]) -> Error {
    Error::AmbiguousRelationship {
        parent: source.name.clone(),
        child: name.to_string(),
        details: json!(found.iter().map(|r| describe(r)).collect::<Vec<_>>()),
        hints: found
            .iter()
            .map(|r| match &r.cardinality {
                Cardinality::M2M(j) => format!("{name}!{}", j.table.name),
                _ => format!("{name}!{}", r.constraint),
            })
            .collect(),
    }
}

type Pairs = Vec<(String, String)>;

/// The order PostgREST lists candidates in: its schema cache keeps each table's relationships sorted by their
/// derived `Ord` (source, target, self-reference, then cardinality: one-to-many < many-to-one < one-to-one <
/// many-to-many, each by constraint or junction and columns, then whether each side is a view) — whatever order the
/// catalog returned the foreign keys in.
#[allow(clippy::type_complexity)]
fn postgrest_order(
    cache: &SchemaCache,
    r: &Relationship,
) -> ((String, String), (String, String), bool, (u8, Vec<String>, Pairs, Pairs, bool), bool, bool) {
    let qi = |q: &QualifiedName| (q.schema.clone(), q.name.clone());
    let is_view = |q: &QualifiedName| cache.tables.get(q).is_some_and(|t| t.is_view);
    let card = match &r.cardinality {
        Cardinality::O2M => (0, vec![r.constraint.clone()], r.columns.clone(), vec![], false),
        Cardinality::M2O => (1, vec![r.constraint.clone()], r.columns.clone(), vec![], false),
        Cardinality::O2O { source_holds_key } => {
            (2, vec![r.constraint.clone()], r.columns.clone(), vec![], !source_holds_key)
        }
        Cardinality::M2M(j) => (
            3,
            vec![
                j.table.schema.clone(),
                j.table.name.clone(),
                j.source_constraint.clone(),
                j.target_constraint.clone(),
            ],
            j.source_columns.clone(),
            j.target_columns.clone(),
            false,
        ),
        Cardinality::Computed { .. } => (4, vec![r.constraint.clone()], vec![], vec![], false),
    };
    (qi(&r.source), qi(&r.target), r.source == r.target, card, is_view(&r.source), is_view(&r.target))
}

fn describe(r: &Relationship) -> serde_json::Value {
    let cols = |cs: Vec<&String>| cs.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
    let (cardinality, relationship) = match &r.cardinality {
        Cardinality::M2M(j) => (
            "many-to-many",
            format!(
                "{} using {}({}) and {}({})",
                j.table.name,
                j.source_constraint,
                cols(j.source_columns.iter().map(|(_, c)| c).collect()),
                j.target_constraint,
                cols(j.target_columns.iter().map(|(_, c)| c).collect())
            ),
        ),
        Cardinality::Computed { function, .. } => ("computed", format!("{function}")),
        c => (
            match c {
                Cardinality::O2M => "one-to-many",
                Cardinality::M2O => "many-to-one",
                _ => "one-to-one",
            },
            format!(
                "{} using {}({}) and {}({})",
                r.constraint,
                r.source.name,
                cols(r.columns.iter().map(|(a, _)| a).collect()),
                r.target.name,
                cols(r.columns.iter().map(|(_, b)| b).collect())
            ),
        ),
    };
    json!({
        "cardinality": cardinality,
        "embedding": format!("{} with {}", r.source.name, r.target.name),
        "relationship": relationship,
    })
}
