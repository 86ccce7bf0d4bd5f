//! What type generation knows about the database: relations, columns, foreign keys, functions and types, as plain
//! data taken from the core's catalog by [`super::catalog`] (or built by hand in tests).

pub use crate::core::catalog::{ArgMode, Identity, TypeInfo};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelationKind {
    Table,
    ForeignTable,
    View,
    MaterializedView,
}

#[derive(Debug, Clone)]
pub struct Relation {
    pub id: i64,
    pub schema: String,
    pub name: String,
    pub kind: RelationKind,
    /// Views only: accepts UPDATE and DELETE (`information_schema.views` rule).
    pub updatable: bool,
}

#[derive(Debug, Clone)]
pub struct Column {
    pub relation_id: i64,
    pub name: String,
    /// The type's name (`int4`, `_text`, an enum's name); a domain's base type name.
    pub type_name: String,
    pub nullable: bool,
    pub identity: Option<Identity>,
    /// A column default or generation expression exists.
    pub has_default: bool,
    pub updatable: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Relationship {
    pub foreign_key_name: String,
    pub schema: String,
    pub relation: String,
    pub columns: Vec<String>,
    pub referenced_schema: String,
    pub referenced_relation: String,
    pub referenced_columns: Vec<String>,
    pub one_to_one: bool,
}

#[derive(Debug, Clone)]
pub struct Arg {
    pub mode: ArgMode,
    pub name: String,
    pub type_id: i64,
    pub has_default: bool,
}

impl Arg {
    pub fn is_input(&self) -> bool {
        matches!(self.mode, ArgMode::In | ArgMode::InOut | ArgMode::Variadic)
    }
}

#[derive(Debug, Clone)]
pub struct Function {
    pub schema: String,
    pub name: String,
    /// Every argument, OUT and TABLE ones included.
    pub args: Vec<Arg>,
    /// `pg_get_function_arguments`.
    pub argument_types: String,
    pub return_type_id: i64,
    /// `pg_get_function_result`.
    pub return_type: String,
    /// The relation whose row type is returned.
    pub return_relation_id: Option<i64>,
    pub returns_set: bool,
    /// Estimated rows of a set-returning function.
    pub rows: Option<f32>,
}

/// Everything read for one run, for the schemas asked for.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// The schemas asked for that exist and may be used.
    pub schemas: Vec<String>,
    pub relations: Vec<Relation>,
    pub columns: Vec<Column>,
    /// Foreign keys of every user schema, then the ones views inherit.
    pub relationships: Vec<Relationship>,
    pub functions: Vec<Function>,
    /// Every type of the database (lookups are by name across schemas).
    pub types: Vec<TypeInfo>,
}
