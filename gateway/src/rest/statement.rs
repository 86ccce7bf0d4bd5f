//! From a plan to its statement: the SQL of a read, a write or a call and how its result becomes a response, and
//! pg-safeupdate's guard on writes without a filter.

use super::error::Error;
use super::plan::{self, MutateKind, Plan};
use super::request::preferences::Return;
use super::request::ApiRequest;
use super::response::Kind;
use super::schema_cache::SchemaCache;
use super::sql;

/// A plan's statement and how its result becomes a response.
pub(super) struct Built {
    pub stmt: crate::rest::fragment::Statement,
    pub read_only: bool,
    pub form: Form,
}

/// How the statement's rows become the response.
#[derive(Debug, Clone, Copy)]
pub(super) struct Form {
    pub kind: Kind,
    /// The first row's position (`Content-Range`).
    pub offset: i64,
    /// Whether the rows are returned (`return=representation`, reads, calls).
    pub representation: bool,
}

/// The statement of a plan.
pub(super) fn build_statement(plan: &Plan, cache: &SchemaCache, req: &ApiRequest) -> Built {
    let body = String::from_utf8_lossy(&req.body);
    match plan {
        Plan::Read(p) => Built {
            stmt: sql::read_statement(cache, p, &req.media),
            read_only: true,
            form: Form { kind: Kind::Read, offset: p.root.range.offset, representation: true },
        },
        Plan::Mutate(p) => {
            let kind = match p.kind {
                MutateKind::Insert { .. } => Kind::Insert { merge: plan::mutate::is_merge(p) },
                MutateKind::Update { .. } => Kind::Update,
                MutateKind::Delete => Kind::Delete,
            };
            let headers_only = req.prefs.return_ == Some(Return::HeadersOnly);
            let stmt = sql::mutate::mutate_statement(cache, p, &req.media, &body, headers_only);
            Built { stmt, read_only: false, form: Form { kind, offset: 0, representation: p.representation } }
        }
        Plan::Call(p) => {
            let void = matches!(p.routine.returns, super::schema_cache::ReturnShape::Scalar { void: true, .. });
            Built {
                stmt: sql::call::call_statement(cache, p, &req.media, &sql::call::body_text(p, &req.body)),
                read_only: p.read_only,
                form: Form { kind: Kind::Call { void }, offset: p.read.range.offset, representation: true },
            }
        }
    }
}

/// pg-safeupdate's guard, which Supabase loads for its API role: an `UPDATE` or `DELETE` without a filter is refused
/// (21000 → 400) before it reaches the database.
pub(super) fn refuse_unfiltered(plan: &Plan) -> Result<(), Error> {
    let Plan::Mutate(p) = plan else { return Ok(()) };
    let statement = match &p.kind {
        MutateKind::Update { columns } if !columns.is_empty() => "UPDATE",
        MutateKind::Delete => "DELETE",
        _ => return Ok(()),
    };
    if !p.conds.is_empty() {
        return Ok(());
    }
    Err(Error::Db {
        code: "21000".into(),
        message: format!("{statement} requires a WHERE clause"),
        details: None,
        hint: None,
        authenticated: false,
    })
}
