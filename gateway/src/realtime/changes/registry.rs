//! Subscriptions: each channel's postgres_changes bindings resolved against the publication (which tables they
//! cover) and typed by PostgreSQL as the subscriber's role (filter columns must exist and be selectable; filter
//! values are cast to the column's type) — with Realtime's error texts when they cannot be.

use super::filter::{self, TypedCondition};
use super::slot::Kind;
use super::Target;
use crate::realtime::admission::binding_id;
use crate::realtime::credentials::Credentials;
use serde_json::Value;
use std::sync::Arc;

/// One table a binding covers, with its filter typed for that table.
#[derive(Debug, Clone)]
pub struct TableBinding {
    pub schema: String,
    pub table: String,
    pub conditions: Vec<TypedCondition>,
}

#[derive(Debug, Clone)]
pub struct Binding {
    pub id: u32,
    /// `None` for `*`.
    pub event: Option<Kind>,
    pub tables: Vec<TableBinding>,
}

impl Binding {
    pub fn covers(&self, schema: &str, table: &str, kind: Kind) -> Option<&TableBinding> {
        if self.event.is_some_and(|e| e != kind) {
            return None;
        }
        self.tables.iter().find(|t| t.schema == schema && t.table == table)
    }
}

/// A channel's subscription.
#[derive(Debug)]
pub struct Subscription {
    pub id: u64,
    pub target: Target,
    pub caller: Credentials,
    pub bindings: Vec<Binding>,
    /// Changes that committed at or before this WAL position are not delivered (they predate the subscription).
    pub since_lsn: u64,
}

/// What a binding element asks for, before resolution.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub id: u32,
    pub event: Option<Kind>,
    pub schema: Option<String>,
    pub table: Option<String>,
    pub filter: Option<String>,
    pub has_filter_key: bool,
}

impl Request {
    pub fn parse(element: &Value) -> Request {
        let text = |k: &str| element.get(k).and_then(Value::as_str).map(str::to_string);
        let event = match text("event").map(|e| e.to_ascii_uppercase()).as_deref() {
            Some("INSERT") => Some(Kind::Insert),
            Some("UPDATE") => Some(Kind::Update),
            Some("DELETE") => Some(Kind::Delete),
            _ => None,
        };
        Request {
            id: binding_id(element),
            event,
            schema: text("schema"),
            table: text("table"),
            filter: text("filter"),
            has_filter_key: element.get("filter").is_some(),
        }
    }

    /// Realtime's description of the parameters, used in its error texts.
    pub fn describe(&self) -> String {
        let event = self.event.map(Kind::as_str).unwrap_or("*");
        let or_nil = |v: &Option<String>| v.clone().unwrap_or_else(|| "nil".into());
        let filters = self.filter.as_deref().map(|f| format!("[{f}]")).unwrap_or_else(|| "[]".into());
        format!(
            "[event: {event}, schema: {}, table: {}, filters: {filters}, select: nil]",
            or_nil(&self.schema),
            or_nil(&self.table)
        )
    }

    /// Checks that need no database; returns the parsed filter.
    pub fn check(&self) -> Result<Vec<filter::Condition>, String> {
        if self.schema.is_none() && self.table.is_none() {
            return Err(format!(
                "No subscription params provided. Please provide at least a `schema` or `table` to subscribe to: {}",
                self.describe()
            ));
        }
        if self.has_filter_key && self.filter.is_none() {
            return Err(format!(
                "No subscription params provided. Please provide at least a `schema` or `table` to subscribe to: {}",
                self.describe()
            ));
        }
        filter::parse(self.filter.as_deref().unwrap_or("")).map_err(|e| format!("Error parsing `filter` params: {e}"))
    }
}

const SET_ROLE: &str = "select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), \
    set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true)";

const TABLES_SQL: &str = "select schemaname::text, tablename::text from pg_publication_tables \
    where pubname = $1 and schemaname like $2 and tablename like $3 order by 1, 2";

const COLUMN_SQL: &str =
    "select exists (select 1 from pg_attribute where attrelid = ($1::text)::regclass and attname = $2 \
    and attnum > 0 and not attisdropped and has_column_privilege(attrelid, attnum, 'SELECT'))";

/// Resolves every request of a channel as the caller; an error is the `system` message text.
pub async fn resolve(
    pool: &deadpool_postgres::Pool,
    publication: &str,
    caller: &Credentials,
    requests: &[Request],
) -> Result<Vec<Binding>, String> {
    let mut client =
        pool.get().await.map_err(|e| format!("Realtime was unable to connect to the project database: {e}"))?;
    let tx = client.transaction().await.map_err(|e| e.to_string())?;
    tx.execute(SET_ROLE, &[&caller.role, &caller.claims_json, &caller.sub().unwrap_or("")])
        .await
        .map_err(|e| e.to_string())?;
    let mut bindings = Vec::with_capacity(requests.len());
    for request in requests {
        let conditions = request.check()?;
        let like = |v: &Option<String>, default: &str| match v.as_deref() {
            None => default.to_string(),
            Some("*") => "%".into(),
            Some(s) => s.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"),
        };
        let tables = tx
            .query(TABLES_SQL, &[&publication, &like(&request.schema, "public"), &like(&request.table, "%")])
            .await
            .map_err(|e| e.to_string())?;
        if tables.is_empty() {
            return Err(format!(
                "Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: {}",
                request.describe()
            ));
        }
        let mut resolved = Vec::with_capacity(tables.len());
        for row in tables {
            let (schema, table): (String, String) = (row.get(0), row.get(1));
            let typed = type_conditions(&tx, &schema, &table, &conditions).await.map_err(|e| {
                format!(
                    "Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: {}. Exception: {e}",
                    request.describe()
                )
            })?;
            resolved.push(TableBinding { schema, table, conditions: typed });
        }
        bindings.push(Binding { id: request.id, event: request.event, tables: resolved });
    }
    let _ = tx.rollback().await;
    Ok(bindings)
}

/// Casts each condition's values to its column's type, as the subscriber (PostgreSQL's text input and `to_jsonb`).
async fn type_conditions(
    tx: &deadpool_postgres::Transaction<'_>,
    schema: &str,
    table: &str,
    conditions: &[filter::Condition],
) -> Result<Vec<TypedCondition>, String> {
    let qualified = format!("{}.{}", super::catalog::quote_ident(schema), super::catalog::quote_ident(table));
    let mut typed = Vec::with_capacity(conditions.len());
    for c in conditions {
        let exists: bool = tx.query_one(COLUMN_SQL, &[&qualified, &c.column]).await.map_err(|e| db_text(&e))?.get(0);
        if !exists {
            return Err(format!("invalid column for filter {}", c.column));
        }
        let images: Vec<Value> = c.values.iter().map(|v| serde_json::json!({ c.column.as_str(): v })).collect();
        let sql = format!(
            "select to_jsonb(jsonb_populate_record(null::{qualified}, x)) -> $2 from unnest($1::jsonb[]) with ordinality u(x, i) order by i"
        );
        tx.execute("savepoint typing", &[]).await.map_err(|e| db_text(&e))?;
        let rows = match tx.query(&sql, &[&images, &c.column]).await {
            Ok(rows) => rows,
            Err(e) => {
                let _ = tx.execute("rollback to savepoint typing", &[]).await;
                return Err(db_text(&e));
            }
        };
        let values = rows.iter().map(|r| r.get::<_, Option<Value>>(0).unwrap_or(Value::Null)).collect();
        typed.push(TypedCondition { column: c.column.clone(), op: c.op, negate: c.negate, values });
    }
    Ok(typed)
}

fn db_text(e: &tokio_postgres::Error) -> String {
    e.as_db_error().map(|d| d.message().to_string()).unwrap_or_else(|| e.to_string())
}

/// Subscriptions by id, shared with the dispatcher as a snapshot.
#[derive(Default)]
pub struct Registry {
    subs: Vec<Arc<Subscription>>,
}

impl Registry {
    pub fn insert(&mut self, sub: Subscription) {
        self.remove(sub.id);
        self.subs.push(Arc::new(sub));
    }

    pub fn remove(&mut self, id: u64) -> bool {
        let before = self.subs.len();
        self.subs.retain(|s| s.id != id);
        before != self.subs.len()
    }

    pub fn snapshot(&self) -> Vec<Arc<Subscription>> {
        self.subs.clone()
    }

    pub fn is_empty(&self) -> bool {
        self.subs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn requests_read_the_binding_as_realtime_does() {
        let r = Request::parse(&json!({"event":"insert","table":"todos","filter":"id=eq.1"}));
        assert_eq!((r.event, r.schema.as_deref(), r.table.as_deref()), (Some(Kind::Insert), None, Some("todos")));
        assert_eq!(r.describe(), "[event: INSERT, schema: nil, table: todos, filters: [id=eq.1], select: nil]");
        assert_eq!(r.check().unwrap().len(), 1);
        assert_eq!(Request::parse(&json!({"event":"whatever","schema":"public"})).event, None);
        assert!(Request::parse(&json!({"event":"*"}))
            .check()
            .unwrap_err()
            .starts_with("No subscription params provided."));
        assert!(Request::parse(&json!({"event":"*","table":"t","filter":null})).check().is_err());
        assert!(Request::parse(&json!({"event":"*","table":"t","filter":"x=foo.1"}))
            .check()
            .unwrap_err()
            .starts_with("Error parsing `filter` params: "));
    }
}
