//! Resolved plans: every relation and relationship has been found in the schema cache, so SQL generation only
//! sees names that exist (column names in `select` are left for PostgreSQL to check, as PostgREST does).

use crate::rest::request::preferences::{Count, Resolution};
use crate::rest::request::types::*;
use crate::rest::schema_cache::{Column, QualifiedName, Relationship, Routine, Table};

/// One field of the output.
#[derive(Debug, Clone, PartialEq)]
pub enum OutField {
    /// `*`: every column of the relation.
    Star,
    Field {
        field: Field,
        output: String,
        cast: Option<String>,
        aggregate: Option<Aggregate>,
        aggregate_cast: Option<String>,
    },
    CountAll {
        output: String,
        cast: Option<String>,
    },
}

/// A condition of a node's WHERE clause.
#[derive(Debug, Clone, PartialEq)]
pub enum Cond {
    /// `field op value`; `column_type` is known for plain columns (fts wraps non-tsvector columns).
    Filter {
        filter: Filter,
        column_type: Option<String>,
    },
    Logic {
        negated: bool,
        or: bool,
        children: Vec<Cond>,
    },
    /// `rel=is.null` / `rel=not.is.null` on an embed: anti/semi join on the embed's lateral alias.
    EmbedNull {
        lateral_alias: String,
        to_one: bool,
        is_null: bool,
    },
}

/// A term of ORDER BY: a field of this node, or of a to-one embed (`rel(col)`).
#[derive(Debug, Clone, PartialEq)]
pub struct Order {
    /// The lateral alias of the to-one embed, for related orders.
    pub lateral_alias: Option<String>,
    pub field: Field,
    pub direction: Option<Direction>,
    pub nulls: Option<Nulls>,
}

/// A relation read with its fields, embeds, conditions, order and range.
#[derive(Debug, Clone)]
pub struct ReadNode {
    pub relation: QualifiedName,
    /// The SQL qualifier for this node's columns, already quoted (`"public"."users"`, `"messages_1"`).
    pub qual: String,
    pub fields: Vec<OutField>,
    pub embeds: Vec<EmbedNode>,
    pub conds: Vec<Cond>,
    pub order: Vec<Order>,
    pub range: Range,
}

impl ReadNode {
    /// The whole-row reference of this node's relation (`"users"` for `"public"."users"`), for computed relationships.
    pub fn row_ref(&self) -> String {
        match self.qual.rsplit_once("\".\"") {
            Some((_, last)) => format!("\"{last}"),
            None => self.qual.clone(),
        }
    }

    pub fn has_aggregates(&self) -> bool {
        self.fields.iter().any(|f| matches!(f, OutField::CountAll { .. } | OutField::Field { aggregate: Some(_), .. }))
    }
}

#[derive(Debug, Clone)]
pub struct EmbedNode {
    /// The key in the output (alias or relation name); unused for spreads.
    pub output: String,
    pub rel: Relationship,
    pub inner: bool,
    pub spread: bool,
    /// `rel()`: joined for filtering only, not output.
    pub hidden: bool,
    /// `<parent>_<name>_<depth>`: the lateral subquery's alias.
    pub lateral_alias: String,
    pub node: ReadNode,
}

#[derive(Debug, Clone)]
pub struct ReadPlan {
    pub root: ReadNode,
    pub count: Option<Count>,
    /// `count=estimated`: the exact count stops past this many rows (`db-max-rows`); above it the planner's
    /// estimate is used.
    pub count_cap: Option<i64>,
}

#[derive(Debug, Clone)]
pub enum MutateKind {
    /// Payload columns; `on_conflict` = (target columns, resolution) for upserts.
    Insert {
        columns: Vec<Column>,
        on_conflict: Option<(Vec<String>, Resolution)>,
        missing_default: bool,
    },
    Update {
        columns: Vec<Column>,
    },
    Delete,
}

#[derive(Debug, Clone)]
pub struct MutatePlan {
    pub table: Table,
    pub kind: MutateKind,
    /// Conditions on the target table (qualified with the table's full name).
    pub conds: Vec<Cond>,
    /// The representation read over the affected rows (qualifier = the bare table name).
    pub returning: ReadNode,
    pub representation: bool,
    pub count: Option<Count>,
}

/// How arguments reach the function.
#[derive(Debug, Clone)]
pub enum CallArgs {
    /// POST JSON object: these parameters are taken from the body's keys.
    JsonObject(Vec<crate::rest::schema_cache::RoutineParam>),
    /// The whole body is the single unnamed json/jsonb argument.
    SingleJson,
    /// The raw body (`text/plain`, `text/xml`, `application/octet-stream`) is the single unnamed text/xml/bytea
    /// argument.
    RawBody(RawBody),
    /// GET/HEAD: (parameter, text value) pairs; repeated for VARIADIC.
    Query(Vec<(crate::rest::schema_cache::RoutineParam, Vec<String>)>),
}

/// A request body a function takes as it is, by its `Content-Type` (PostgREST's `RawPay`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawBody {
    /// `text/plain` → a `text` parameter.
    Text,
    /// `text/xml` → an `xml` parameter.
    Xml,
    /// `application/octet-stream` → a `bytea` parameter.
    Bytes,
}

impl RawBody {
    /// The raw body kind a `Content-Type` names, if any.
    pub fn from_content_type(content_type: Option<&str>) -> Option<RawBody> {
        let essence = content_type?.split(';').next()?.trim().to_ascii_lowercase();
        match essence.as_str() {
            "text/plain" => Some(RawBody::Text),
            "text/xml" => Some(RawBody::Xml),
            "application/octet-stream" => Some(RawBody::Bytes),
            _ => None,
        }
    }

    /// The parameter type that takes this body.
    pub fn param_type(self) -> &'static str {
        match self {
            RawBody::Text => "text",
            RawBody::Xml => "xml",
            RawBody::Bytes => "bytea",
        }
    }
}

#[derive(Debug, Clone)]
pub struct CallPlan {
    pub routine: Routine,
    pub args: CallArgs,
    /// The read applied to the function's rows (qualifier `"<fn name>"`).
    pub read: ReadNode,
    pub read_only: bool,
    pub count: Option<Count>,
}
