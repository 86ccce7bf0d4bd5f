//! The schema cache: tables and views with their columns and keys, relationships between them, functions, and
//! role settings, built from the core's catalog into plain maps. Planners read it; only `load` queries the database.

pub mod load;
mod relationships;

use rustc_hash::FxHashMap as HashMap;

/// `schema.name`
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct QualifiedName {
    pub schema: String,
    pub name: String,
}

impl QualifiedName {
    pub fn new(schema: &str, name: &str) -> Self {
        QualifiedName { schema: schema.into(), name: name.into() }
    }
}

impl std::fmt::Display for QualifiedName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.schema, self.name)
    }
}

#[derive(Debug, Clone)]
pub struct Column {
    pub name: String,
    /// `format_type` of the column's type (e.g. `integer`, `text[]`, `public.status`).
    pub data_type: String,
    pub nullable: bool,
    /// The default expression, as `pg_get_expr` renders it.
    pub default: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Table {
    pub name: QualifiedName,
    pub is_view: bool,
    pub columns: Vec<Column>,
    pub primary_key: Vec<String>,
    /// API roles holding any table privilege (for hints that never reveal invisible objects).
    pub visible_to: Vec<String>,
    /// An INSERT of one row yields exactly that row or an error (see `catalog::Relation::plain_insert`).
    pub plain_insert: bool,
}

impl Table {
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cardinality {
    /// The foreign table holds the key: many rows per source row.
    O2M,
    /// The source holds the key: one row per source row.
    M2O,
    /// One-to-one (the key columns are unique); `source_holds_key` tells the direction.
    O2O { source_holds_key: bool },
    /// Through a junction table.
    M2M(Junction),
    /// A function `f(source) returns [setof] target` (PostgREST's computed relationship).
    Computed { function: QualifiedName, to_one: bool },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Junction {
    pub table: QualifiedName,
    pub source_constraint: String,
    /// (source column, junction column)
    pub source_columns: Vec<(String, String)>,
    pub target_constraint: String,
    /// (target column, junction column)
    pub target_columns: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
pub struct Relationship {
    pub source: QualifiedName,
    pub target: QualifiedName,
    pub constraint: String,
    /// (source column, target column) pairs for direct relationships.
    pub columns: Vec<(String, String)>,
    pub cardinality: Cardinality,
    /// Copied onto a view from its base table's key (names and columns match only the real key).
    pub via_view: bool,
}

impl Relationship {
    pub fn is_to_one(&self) -> bool {
        matches!(
            self.cardinality,
            Cardinality::M2O | Cardinality::O2O { .. } | Cardinality::Computed { to_one: true, .. }
        )
    }
}

#[derive(Debug, Clone)]
pub struct RoutineParam {
    pub name: String,
    pub data_type: String,
    pub has_default: bool,
    pub variadic: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReturnShape {
    /// A scalar (or `void`), possibly a set.
    Scalar { set: bool, void: bool },
    /// A composite type: a table's row type (`Some`) or a record/anonymous `TABLE(...)`.
    Composite { set: bool, relation: Option<QualifiedName> },
}

pub use crate::core::catalog::Volatility;

#[derive(Debug, Clone)]
pub struct Routine {
    pub name: QualifiedName,
    /// The relation whose row type is the only parameter (computed fields and relationships).
    pub row_param: Option<QualifiedName>,
    /// A set-returning function declared `ROWS 1` (embedded as to-one).
    pub rows_one: bool,
    pub params: Vec<RoutineParam>,
    pub returns: ReturnShape,
    pub return_type: String,
    pub volatility: Volatility,
    pub visible_to: Vec<String>,
}

impl Routine {
    pub fn returns_set(&self) -> bool {
        matches!(self.returns, ReturnShape::Scalar { set: true, .. } | ReturnShape::Composite { set: true, .. })
    }
}

/// Everything the planners know about the database.
#[derive(Debug, Clone, Default)]
pub struct SchemaCache {
    pub tables: HashMap<QualifiedName, Table>,
    /// Relationships keyed by their source table.
    pub relationships: HashMap<QualifiedName, Vec<Relationship>>,
    pub routines: HashMap<QualifiedName, Vec<Routine>>,
    pub has_postgis: bool,
    /// Every role of the cluster (a token naming an unknown role gets PostgreSQL's 22023 text).
    pub roles: std::collections::HashSet<String>,
    /// `pg_timezone_names`, for `Prefer: timezone=…`.
    pub timezones: std::collections::HashSet<String>,
    /// The catalog of the exposed schemas the cache was built from (the OpenAPI document describes it).
    pub catalog: std::sync::Arc<crate::core::catalog::Catalog>,
}

impl SchemaCache {
    pub fn table(&self, schema: &str, name: &str) -> Option<&Table> {
        self.tables.get(&QualifiedName::new(schema, name))
    }

    pub fn relationships_from(&self, source: &QualifiedName) -> &[Relationship] {
        self.relationships.get(source).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// Levenshtein distance, for "Perhaps you meant" hints bounded to small typos.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(super::edit_distance("users", "user"), 1);
        assert_eq!(super::edit_distance("kitten", "sitting"), 3);
    }
}
