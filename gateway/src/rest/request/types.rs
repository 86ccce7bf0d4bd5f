//! The parsed intent of a request: select trees, filters (`filter`), logic trees, order terms. Names only;
//! nothing here has been checked against the schema.

pub use super::filter::*;

/// One step of a JSON path: `->key` or `->>key` (`Idx` for integer keys such as `->0` or `->-1`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum JsonOp {
    Arrow(JsonKey),
    DoubleArrow(JsonKey),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum JsonKey {
    Key(String),
    Idx(i64),
}

/// A column with an optional JSON path (`data->a->>b`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Field {
    pub name: String,
    pub json_path: Vec<JsonOp>,
}

impl Field {
    pub fn plain(name: &str) -> Self {
        Field { name: name.to_string(), json_path: vec![] }
    }

    /// The output key PostgREST gives a selected field: the last JSON key, else the column name.
    pub fn output_name(&self) -> String {
        match self.json_path.last() {
            Some(JsonOp::Arrow(k)) | Some(JsonOp::DoubleArrow(k)) => match k {
                JsonKey::Key(k) => k.clone(),
                JsonKey::Idx(i) => i.to_string(),
            },
            None => self.name.clone(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregate {
    Sum,
    Avg,
    Min,
    Max,
    Count,
}

impl Aggregate {
    pub fn sql_name(self) -> &'static str {
        match self {
            Aggregate::Sum => "sum",
            Aggregate::Avg => "avg",
            Aggregate::Min => "min",
            Aggregate::Max => "max",
            Aggregate::Count => "count",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinType {
    Inner,
    Left,
}

/// One item of `select=`.
#[derive(Debug, Clone, PartialEq)]
pub enum SelectItem {
    /// `*`
    Star,
    /// `[alias:]field[::cast][.agg()][::cast]`
    Field {
        field: Field,
        alias: Option<String>,
        cast: Option<String>,
        aggregate: Option<Aggregate>,
        aggregate_cast: Option<String>,
    },
    /// `[alias:]count()[::cast]`
    CountAll { alias: Option<String>, cast: Option<String> },
    /// `[alias:]rel[!hint][!inner|!left](…)` or `...rel(…)`
    Embed(Embed),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Embed {
    pub name: String,
    pub alias: Option<String>,
    pub hint: Option<String>,
    pub join: Option<JoinType>,
    pub spread: bool,
    pub select: Vec<SelectItem>,
}

impl Embed {
    /// The key the embed appears under in the output (and the name filters may use).
    pub fn output_name(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Asc,
    Desc,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nulls {
    First,
    Last,
}

/// One term of `order=`: `field[.asc|.desc][.nullsfirst|.nullslast]` or `rel(field)…` for a to-one embed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderTerm {
    pub relation: Option<String>,
    pub field: Field,
    pub direction: Option<Direction>,
    pub nulls: Option<Nulls>,
}

/// A path of embed names (`a.b` in `a.b.col=eq.1`); empty for the root.
pub type EmbedPath = Vec<String>;

/// `offset`/`limit` of one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Range {
    pub offset: i64,
    pub limit: Option<i64>,
}
