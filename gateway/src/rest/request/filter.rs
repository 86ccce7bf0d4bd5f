//! Filters as parsed: the operators (simple, quantified with `any`/`all`, `in`, `is`, full-text) with their SQL
//! names, negation, and the logic trees that combine them. Names only, as in `types`.

use super::types::Field;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimpleOp {
    Eq,
    Neq,
    Gt,
    Gte,
    Lt,
    Lte,
    Like,
    Ilike,
    Match,
    Imatch,
    IsDistinct,
    Cs,
    Cd,
    Ov,
    Sl,
    Sr,
    Nxr,
    Nxl,
    Adj,
}

impl SimpleOp {
    pub fn from_name(s: &str) -> Option<Self> {
        use SimpleOp::*;
        Some(match s {
            "eq" => Eq,
            "neq" => Neq,
            "gt" => Gt,
            "gte" => Gte,
            "lt" => Lt,
            "lte" => Lte,
            "like" => Like,
            "ilike" => Ilike,
            "match" => Match,
            "imatch" => Imatch,
            "isdistinct" => IsDistinct,
            "cs" => Cs,
            "cd" => Cd,
            "ov" => Ov,
            "sl" => Sl,
            "sr" => Sr,
            "nxr" => Nxr,
            "nxl" => Nxl,
            "adj" => Adj,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        use SimpleOp::*;
        match self {
            Eq => "eq",
            Neq => "neq",
            Gt => "gt",
            Gte => "gte",
            Lt => "lt",
            Lte => "lte",
            Like => "like",
            Ilike => "ilike",
            Match => "match",
            Imatch => "imatch",
            IsDistinct => "isdistinct",
            Cs => "cs",
            Cd => "cd",
            Ov => "ov",
            Sl => "sl",
            Sr => "sr",
            Nxr => "nxr",
            Nxl => "nxl",
            Adj => "adj",
        }
    }

    /// The SQL operator.
    pub fn sql(self) -> &'static str {
        use SimpleOp::*;
        match self {
            Eq => "=",
            Neq => "<>",
            Gt => ">",
            Gte => ">=",
            Lt => "<",
            Lte => "<=",
            Like => "like",
            Ilike => "ilike",
            Match => "~",
            Imatch => "~*",
            IsDistinct => "IS DISTINCT FROM",
            Cs => "@>",
            Cd => "<@",
            Ov => "&&",
            Sl => "<<",
            Sr => ">>",
            Nxr => "&<",
            Nxl => "&>",
            Adj => "-|-",
        }
    }

    /// Whether `(any)`/`(all)` may follow the operator.
    pub fn quantifiable(self) -> bool {
        use SimpleOp::*;
        matches!(self, Eq | Gt | Gte | Lt | Lte | Like | Ilike | Match | Imatch)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantifier {
    Any,
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FtsOp {
    Fts,
    Plfts,
    Phfts,
    Wfts,
}

impl FtsOp {
    pub fn function(self) -> &'static str {
        match self {
            FtsOp::Fts => "to_tsquery",
            FtsOp::Plfts => "plainto_tsquery",
            FtsOp::Phfts => "phraseto_tsquery",
            FtsOp::Wfts => "websearch_to_tsquery",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IsValue {
    Null,
    NotNull,
    True,
    False,
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operation {
    Simple { op: SimpleOp, quantifier: Option<Quantifier>, value: String },
    In(Vec<String>),
    Is(IsValue),
    Fts { op: FtsOp, language: Option<String>, value: String },
}

/// `[not.]operation`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpExpr {
    pub negated: bool,
    pub operation: Operation,
}

/// `field=opexpr`, optionally inside embeds (`embed_path`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    pub field: Field,
    pub expr: OpExpr,
}

/// `or=(…)` / `and=(…)` trees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogicTree {
    Expr { negated: bool, or: bool, children: Vec<LogicTree> },
    Stmt(Filter),
}
