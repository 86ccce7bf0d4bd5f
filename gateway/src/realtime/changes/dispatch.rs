//! From committed transactions to frames: for each change, the subscriptions whose bindings cover it; values typed
//! by PostgreSQL (`jsonb_populate_record` → `to_jsonb`, once per relation and batch); filters; then visibility,
//! asked of PostgreSQL once per batch, relation and role — every claims set of the role judged inside that one
//! statement (see `visibility`), never re-implemented here: INSERT and UPDATE keep a subscriber only if the row,
//! looked up by primary key under its role and claims, is visible to it now; DELETE on a table with RLS and
//! REPLICA IDENTITY FULL keeps it only if the old row passes the role's SELECT policies (evaluated by PostgreSQL on
//! the old image); other DELETEs follow Realtime (key columns only). Columns a role may not select are never sent.
//! Frames go out in commit order, only once the whole batch has been judged (a failed batch sends nothing, so it
//! can be tried again).

use super::catalog::{Catalog, RelationInfo};
use super::pgoutput::{Cell, PG_EPOCH_UNIX_MICROS};
use super::registry::Subscription;
use super::slot::{Kind, RowChange, Transaction};
use super::visibility::{self, Check, Params, Question};
use crate::realtime::outbound::Frame;
use crate::realtime::protocol::{encode_text, Envelope};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use tokio_postgres::{Client, Statement};

/// A subscription a change may reach, with its bindings covering the change (filters not yet applied).
type Candidate<'a> = (&'a Arc<Subscription>, Vec<(u32, &'a super::registry::TableBinding)>);

/// A frame's worth: the subscription, its binding ids that matched, and the event's `data`.
type Delivery = (Arc<Subscription>, Vec<u32>, Arc<str>);

/// A change and the subscriptions it may reach.
struct Item<'a> {
    commit_micros: i64,
    change: &'a RowChange,
    candidates: Vec<Candidate<'a>>,
}

pub struct Dispatcher {
    client: Client,
    catalog: Catalog,
    statements: HashMap<String, Statement>,
    /// Visibility functions created on this connection, by `visibility::function_key`.
    functions: HashMap<String, Statement>,
}

/// Whether every transaction (32-bit xids) is visible to a snapshot taken now: each xid is widened to the xid8 just
/// below the snapshot's xmax; one at or past xmax (modulo 2^32) has not completed.
const COMMITS_VISIBLE: &str = "select coalesce(bool_and(case when d = 0 or d >= 2147483648 then false \
      when m.xmax - d < 3 then true else pg_visible_in_snapshot((m.xmax - d)::text::xid8, m.s) end), true) \
    from (select s, pg_snapshot_xmax(s)::text::bigint as xmax from pg_current_snapshot() s) m \
    cross join unnest($1::bigint[]) as x(xid) \
    cross join lateral (select (m.xmax % 4294967296 - x.xid + 4294967296) % 4294967296 as d) w";

impl Dispatcher {
    pub async fn connect(db_uri: &str) -> Result<Dispatcher, tokio_postgres::Error> {
        let (client, connection) = tokio_postgres::connect(db_uri, tokio_postgres::NoTls).await?;
        tokio::spawn(connection);
        client.batch_execute("set statement_timeout = '10s'; set application_name = 'gateway realtime'").await?;
        Ok(Dispatcher { client, catalog: Catalog::default(), statements: HashMap::new(), functions: HashMap::new() })
    }

    pub fn is_closed(&self) -> bool {
        self.client.is_closed()
    }

    /// Policies and grants may have changed: forget what was learnt about them.
    pub fn expire_catalog(&mut self) {
        self.catalog.expire();
    }

    async fn statement(&mut self, sql: &str) -> Result<Statement, tokio_postgres::Error> {
        if let Some(s) = self.statements.get(sql) {
            return Ok(s.clone());
        }
        let s = self.client.prepare(sql).await?;
        if self.statements.len() > 500 {
            self.statements.clear();
        }
        self.statements.insert(sql.to_string(), s.clone());
        Ok(s)
    }

    /// Delivers a batch of transactions to the subscriptions, in order.
    pub async fn deliver(
        &mut self,
        batch: &[Transaction],
        subs: &[Arc<Subscription>],
    ) -> Result<usize, tokio_postgres::Error> {
        let items = candidates(batch, subs);
        if items.is_empty() {
            return Ok(0);
        }
        self.await_commits(batch).await?;
        let mut outputs: Vec<Vec<Delivery>> = vec![vec![]; items.len()];
        let mut by_relation: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for (i, item) in items.iter().enumerate() {
            by_relation.entry(item.change.relation.oid).or_default().push(i);
        }
        for indices in by_relation.values() {
            if let Err(e) = self.relation_group(&items, indices, &mut outputs).await {
                if transient(&e) || self.client.is_closed() {
                    return Err(e);
                }
                // the same question would fail again (the table changed under us): nobody is shown these changes
                let table = &items[indices[0]].change.relation.name;
                tracing::error!(error = %e, %table, "realtime: changes cannot be checked and are not delivered");
            }
        }
        let mut sent = 0;
        for out in outputs {
            for (sub, ids, data) in out {
                let ids = ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
                let payload = format!(r#"{{"ids":[{ids}],"data":{data}}}"#);
                let t = &sub.target;
                sub.target.socket.send(Frame::Text(
                    encode_text(t.vsn, Envelope::push(&t.topic, "postgres_changes"), &payload).into(),
                ));
                sent += 1;
            }
        }
        Ok(sent)
    }

    /// Waits until the batch's transactions are visible to new snapshots. The walsender may send a commit before the
    /// committing backend has left the proc array (the commit record is flushed first), and a row looked up in that
    /// window would look invisible to everyone: its change would be lost. Seen on a busy machine in the benchmark
    /// (single-change batches dispatched within a millisecond of their commit).
    async fn await_commits(&mut self, batch: &[Transaction]) -> Result<(), tokio_postgres::Error> {
        let xids: Vec<i64> = batch.iter().filter(|t| !t.changes.is_empty()).map(|t| i64::from(t.xid)).collect();
        let statement = self.statement(COMMITS_VISIBLE).await?;
        let mut pause = std::time::Duration::from_millis(1);
        let give_up = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
        let mut waits = 0u32;
        while !self.client.query_one(&statement, &[&xids]).await?.get::<_, bool>(0) {
            if tokio::time::Instant::now() > give_up {
                tracing::warn!(?xids, "realtime: transactions still not visible after 10 s; checking them anyway");
                break;
            }
            waits += 1;
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(std::time::Duration::from_millis(50));
        }
        if waits > 0 {
            tracing::debug!(waits, "realtime: waited for committed transactions to become visible");
        }
        Ok(())
    }

    async fn relation_group(
        &mut self,
        items: &[Item<'_>],
        indices: &[usize],
        outputs: &mut [Vec<Delivery>],
    ) -> Result<(), tokio_postgres::Error> {
        let relation = &items[indices[0]].change.relation;
        let Some(info) = self.catalog.relation(&self.client, relation).await? else {
            tracing::warn!(table = %relation.name, "realtime: changes to a table dropped since are not delivered");
            return Ok(());
        };
        let (news, olds) = self.render(&info, items, indices).await?;
        // filters, then the (role, claims) groups that need a visibility answer
        let mut passing: Vec<(usize, &Arc<Subscription>, Vec<u32>)> = vec![];
        for (k, &i) in indices.iter().enumerate() {
            let item = &items[i];
            let record = if item.change.kind == Kind::Delete { &olds[k] } else { &news[k] };
            for (sub, bindings) in &item.candidates {
                let ids: Vec<u32> = bindings
                    .iter()
                    .filter(|(_, t)| record.as_ref().is_some_and(|r| t.conditions.iter().all(|c| c.matches(r))))
                    .map(|(id, _)| *id)
                    .collect();
                if !ids.is_empty() {
                    passing.push((k, sub, ids));
                }
            }
        }
        let visible = self.visibility(&info, items, indices, &passing, &news, &olds).await?;
        let mut data_cache: HashMap<(usize, String), Option<Arc<str>>> = HashMap::new();
        for (k, sub, ids) in passing {
            if !visible.get(&(sub.caller.role.clone(), sub.caller.claims_json.clone())).is_some_and(|v| v.contains(&k))
            {
                continue;
            }
            let role = sub.caller.role.clone();
            let data = match data_cache.get(&(k, role.clone())) {
                Some(d) => d.clone(),
                None => {
                    let columns = self.catalog.selectable(&self.client, info.relation.oid, &role).await?;
                    let d =
                        data(&info, &items[indices[k]], news[k].as_ref(), olds[k].as_ref(), &columns).map(Arc::from);
                    data_cache.insert((k, role), d.clone());
                    d
                }
            };
            if let Some(data) = data {
                outputs[indices[k]].push((sub.clone(), ids, data));
            }
        }
        Ok(())
    }

    /// Typed new and old images, as PostgreSQL renders the table's row type (`to_jsonb`).
    async fn render(
        &mut self,
        info: &RelationInfo,
        items: &[Item<'_>],
        indices: &[usize],
    ) -> Result<(Vec<Option<Map<String, Value>>>, Vec<Option<Map<String, Value>>>), tokio_postgres::Error> {
        let columns = &info.relation.columns;
        let mut images: Vec<Value> = vec![];
        let mut slots: Vec<(Option<usize>, Option<usize>)> = vec![];
        for &i in indices {
            let change = items[i].change;
            let old = change.old.as_ref().map(|old| image(columns, old, None));
            let new = (change.kind != Kind::Delete).then(|| image(columns, &change.new, change.old.as_deref()));
            let mut slot = (None, None);
            if let Some(n) = new {
                slot.0 = Some(images.len());
                images.push(n);
            }
            if let Some(o) = old {
                slot.1 = Some(images.len());
                images.push(o);
            }
            slots.push(slot);
        }
        let role = items[indices[0]].candidates.first().map(|(s, _)| s.caller.role.clone()).unwrap_or_default();
        let sql = format!(
            "select to_jsonb(jsonb_populate_record(null::{}, x)) from unnest($1::jsonb[]) with ordinality u(x, i) order by i",
            info.qualified()
        );
        let set = self.statement("select set_config('role', $1, false)").await?;
        self.client.execute(&set, &[&role]).await?;
        let stmt = self.statement(&sql).await?;
        let rendered: Vec<Option<Map<String, Value>>> = self
            .client
            .query(&stmt, &[&images])
            .await?
            .iter()
            .map(|r| match r.get::<_, Value>(0) {
                Value::Object(m) => Some(m),
                _ => None,
            })
            .collect();
        let pick = |slot: Option<usize>| slot.and_then(|s| rendered.get(s).cloned().flatten());
        Ok((slots.iter().map(|s| pick(s.0)).collect(), slots.iter().map(|s| pick(s.1)).collect()))
    }

    /// For each (role, claims) of the subscribers, which of the relation's changes it may see: one statement per
    /// role that judges every claims set of that role (`visibility`), all roles' statements in one pipelined flight.
    async fn visibility(
        &mut self,
        info: &RelationInfo,
        items: &[Item<'_>],
        indices: &[usize],
        passing: &[(usize, &Arc<Subscription>, Vec<u32>)],
        news: &[Option<Map<String, Value>>],
        olds: &[Option<Map<String, Value>>],
    ) -> Result<HashMap<(String, String), Vec<usize>>, tokio_postgres::Error> {
        let mut roles: BTreeMap<&str, BTreeMap<&str, Vec<usize>>> = BTreeMap::new();
        for (k, sub, _) in passing {
            let ks = roles.entry(&sub.caller.role).or_default().entry(&sub.caller.claims_json).or_default();
            if !ks.contains(k) {
                ks.push(*k);
            }
        }
        let mut visible: HashMap<(String, String), Vec<usize>> = HashMap::new();
        let mut asks: Vec<(String, Statement, Params)> = vec![];
        let full_identity = info.relation.replica_identity == b'f';
        for (role, by_claims) in roles {
            let open = !info.row_security || self.catalog.bypasses_rls(&self.client, role).await?;
            let (mut by_key, mut by_policy) = (Question::default(), Question::default());
            for (claims, ks) in by_claims {
                let seen = visible.entry((role.to_string(), claims.to_string())).or_default();
                for k in ks {
                    let delete = items[indices[k]].change.kind == Kind::Delete;
                    match (open, delete, full_identity) {
                        (true, _, _) | (false, true, false) => seen.push(k),
                        // tables with RLS and no primary key deliver nothing
                        (false, false, _) if info.primary_key.is_empty() => {}
                        (false, false, _) => by_key.ask(claims, k),
                        (false, true, true) => by_policy.ask(claims, k),
                    }
                }
            }
            if !by_key.is_empty() {
                let statement = self.visibility_statement(info, Check::Key).await?;
                asks.push((role.to_string(), statement, by_key.params(news)));
            }
            if !by_policy.is_empty() {
                let predicate = self.catalog.predicate(&self.client, info.relation.oid, role).await?;
                let statement = self.visibility_statement(info, Check::Policy(&predicate)).await?;
                asks.push((role.to_string(), statement, by_policy.params(olds)));
            }
        }
        let params: Vec<[&(dyn tokio_postgres::types::ToSql + Sync); 6]> = asks
            .iter()
            .map(|(role, _, p)| [role as _, &p.claims as _, &p.first as _, &p.last as _, &p.wanted as _, &p.rows as _])
            .collect();
        let flight = asks.iter().zip(&params).map(|((_, statement, _), ps)| self.client.query(statement, &ps[..]));
        let answers = futures::future::join_all(flight).await;
        for ((role, _, p), answer) in asks.iter().zip(answers) {
            let rows = match answer {
                Ok(rows) => rows,
                Err(e) if transient(&e) => return Err(e),
                Err(e) => {
                    // the role itself cannot be judged (e.g. it no longer exists): nobody of that role sees these
                    tracing::warn!(error = %e, role = %role, "realtime: visibility check failed; changes not delivered");
                    continue;
                }
            };
            for row in rows {
                let (index, positions, error): (i32, Option<Vec<i64>>, Option<String>) =
                    (row.get(0), row.get(1), row.get(2));
                if let Some(error) = error {
                    // a policy that raises hides the rows from this subscriber, as an error in Realtime's probe does
                    tracing::warn!(%error, role = %role, "realtime: visibility check failed for a subscriber");
                }
                if let Some((claims, ks)) = p.answer(index, &positions.unwrap_or_default()) {
                    visible.entry((role.clone(), claims.to_string())).or_default().extend(ks);
                }
            }
        }
        Ok(visible)
    }

    /// The prepared call of the session function that answers `check` for this relation (created on first use).
    async fn visibility_statement(
        &mut self,
        info: &RelationInfo,
        check: Check<'_>,
    ) -> Result<Statement, tokio_postgres::Error> {
        let key = visibility::function_key(info, check);
        if let Some(s) = self.functions.get(&key) {
            return Ok(s.clone());
        }
        let name = format!("realtime_visible_{}", self.functions.len() + 1);
        self.client.batch_execute(&visibility::function_sql(&name, info, check)).await?;
        let call = format!("select claims_index, visible, error from pg_temp.{name}($1, $2, $3, $4, $5, $6)");
        let statement = self.client.prepare(&call).await?;
        self.functions.insert(key, statement.clone());
        Ok(statement)
    }
}

/// Whether an error may pass if the batch is tried again (the connection, a timeout, resources) — as opposed to
/// one the same question will always meet (a dropped table or role).
pub fn transient(e: &tokio_postgres::Error) -> bool {
    let Some(db) = e.as_db_error() else { return true };
    let code = db.code().code();
    matches!(&code[..2], "08" | "40" | "53" | "57" | "58" | "XX") || code == "55P03"
}

/// `{column: text}` of a tuple; unchanged TOASTed values are taken from the old tuple when it has them.
fn image(columns: &[super::pgoutput::Column], cells: &[Cell], old: Option<&[Cell]>) -> Value {
    let mut m = Map::new();
    for (i, (col, cell)) in columns.iter().zip(cells).enumerate() {
        let value = match cell {
            Cell::Text(t) => Value::String(t.clone()),
            Cell::Null => Value::Null,
            Cell::Unchanged => match old.and_then(|o| o.get(i)) {
                Some(Cell::Text(t)) => Value::String(t.clone()),
                _ => continue,
            },
        };
        m.insert(col.name.clone(), value);
    }
    Value::Object(m)
}

/// The changes of the batch that some subscription covers, in commit order.
fn candidates<'a>(batch: &'a [Transaction], subs: &'a [Arc<Subscription>]) -> Vec<Item<'a>> {
    let mut items = vec![];
    for txn in batch {
        for change in &txn.changes {
            let rel = &change.relation;
            let candidates: Vec<_> = subs
                .iter()
                .filter(|s| txn.end_lsn > s.since_lsn)
                .filter_map(|s| {
                    let b: Vec<_> = s
                        .bindings
                        .iter()
                        .filter_map(|b| b.covers(&rel.schema, &rel.name, change.kind).map(|t| (b.id, t)))
                        .collect();
                    (!b.is_empty()).then_some((s, b))
                })
                .collect();
            if !candidates.is_empty() {
                items.push(Item { commit_micros: txn.commit_micros, change, candidates });
            }
        }
    }
    items
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn commit_timestamp(micros_since_2000: i64) -> String {
    chrono::DateTime::from_timestamp_micros(micros_since_2000 + PG_EPOCH_UNIX_MICROS)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
        .unwrap_or_default()
}

/// The event's `data` for one role: Realtime's keys, only the role's selectable columns.
fn data(
    info: &RelationInfo,
    item: &Item<'_>,
    new: Option<&Map<String, Value>>,
    old: Option<&Map<String, Value>>,
    selectable: &[String],
) -> Option<String> {
    if selectable.is_empty() {
        return None;
    }
    let rel = &info.relation;
    let kind = item.change.kind;
    let keep = |name: &str| selectable.iter().any(|c| c == name);
    let columns: Vec<Value> = rel
        .columns
        .iter()
        .zip(&info.type_names)
        .filter(|(c, _)| keep(&c.name))
        .map(|(c, t)| serde_json::json!({ "name": c.name, "type": t }))
        .collect();
    let project = |m: &Map<String, Value>, only: &dyn Fn(&str) -> bool| -> Value {
        Value::Object(m.iter().filter(|(k, _)| keep(k) && only(k)).map(|(k, v)| (k.clone(), v.clone())).collect())
    };
    let is_key = |name: &str| {
        if info.row_security && !info.primary_key.is_empty() {
            info.primary_key.iter().any(|k| k == name)
        } else {
            rel.columns.iter().any(|c| c.key && c.name == name)
        }
    };
    let mut d = Map::new();
    d.insert("schema".into(), Value::String(rel.schema.clone()));
    d.insert("table".into(), Value::String(rel.name.clone()));
    d.insert("commit_timestamp".into(), Value::String(commit_timestamp(item.commit_micros)));
    d.insert("type".into(), Value::String(kind.as_str().into()));
    d.insert("columns".into(), Value::Array(columns));
    if kind != Kind::Delete {
        d.insert("record".into(), project(new?, &|_| true));
    }
    let full_old = rel.replica_identity == b'f' && !(kind == Kind::Update && info.row_security);
    match (kind, old) {
        (Kind::Insert, _) => {}
        (_, Some(o)) if full_old => {
            d.insert("old_record".into(), project(o, &|_| true));
        }
        (_, Some(o)) => {
            d.insert("old_record".into(), project(o, &is_key));
        }
        (_, None) => {
            d.insert("old_record".into(), project(new?, &is_key));
        }
    }
    d.insert("errors".into(), Value::Null);
    Some(Value::Object(d).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::realtime::changes::pgoutput::{Column, Relation};

    #[test]
    fn commit_timestamps_are_utc_milliseconds() {
        assert_eq!(commit_timestamp(0), "2000-01-01T00:00:00.000Z");
        assert_eq!(commit_timestamp(1_234_567), "2000-01-01T00:00:01.234Z");
    }

    #[test]
    fn images_take_unchanged_toast_values_from_the_old_row() {
        let cols = vec![
            Column { name: "id".into(), type_oid: 20, key: true },
            Column { name: "body".into(), type_oid: 25, key: false },
            Column { name: "n".into(), type_oid: 23, key: false },
        ];
        let new = [Cell::Text("1".into()), Cell::Unchanged, Cell::Null];
        assert_eq!(image(&cols, &new, None), serde_json::json!({"id": "1", "n": null}));
        let old = [Cell::Text("1".into()), Cell::Text("long".into()), Cell::Null];
        assert_eq!(image(&cols, &new, Some(&old)), serde_json::json!({"id": "1", "body": "long", "n": null}));
    }

    fn info(identity: u8, rls: bool) -> RelationInfo {
        let relation = Arc::new(Relation {
            oid: 1,
            schema: "public".into(),
            name: "todos".into(),
            replica_identity: identity,
            columns: vec![
                Column { name: "id".into(), type_oid: 20, key: true },
                Column { name: "secret".into(), type_oid: 25, key: identity == b'f' },
                Column { name: "title".into(), type_oid: 25, key: identity == b'f' },
            ],
        });
        RelationInfo {
            relation,
            primary_key: vec!["id".into()],
            row_security: rls,
            type_names: vec!["int8".into(), "text".into(), "text".into()],
        }
    }

    fn change(info: &RelationInfo, kind: Kind) -> RowChange {
        RowChange { relation: info.relation.clone(), kind, new: vec![], old: None }
    }

    #[test]
    fn data_has_realtimes_keys_and_only_selectable_columns() {
        let i = info(b'd', true);
        let c = change(&i, Kind::Insert);
        let item = Item { commit_micros: 0, change: &c, candidates: vec![] };
        let rec = serde_json::json!({"id": 1, "secret": "s", "title": "t"});
        let sel = vec!["id".to_string(), "title".to_string()];
        let d: Value = serde_json::from_str(&data(&i, &item, rec.as_object(), None, &sel).unwrap()).unwrap();
        assert_eq!(d["record"], serde_json::json!({"id": 1, "title": "t"}));
        assert_eq!(
            d["columns"],
            serde_json::json!([{"name": "id", "type": "int8"}, {"name": "title", "type": "text"}])
        );
        assert_eq!(d["errors"], Value::Null);
        assert!(d.get("old_record").is_none());
        assert!(data(&i, &item, rec.as_object(), None, &[]).is_none(), "no selectable column: nothing to send");

        let u = change(&i, Kind::Update);
        let item = Item { commit_micros: 0, change: &u, candidates: vec![] };
        let d: Value = serde_json::from_str(&data(&i, &item, rec.as_object(), None, &sel).unwrap()).unwrap();
        assert_eq!(d["old_record"], serde_json::json!({"id": 1}), "UPDATE without an old image: the key");
    }

    #[test]
    fn delete_old_record_follows_the_replica_identity() {
        let old = serde_json::json!({"id": 1, "secret": "s", "title": "t"});
        let sel = vec!["id".to_string(), "title".to_string()];
        for (identity, expected) in
            [(b'd', serde_json::json!({"id": 1})), (b'f', serde_json::json!({"id": 1, "title": "t"}))]
        {
            let i = info(identity, true);
            let c = change(&i, Kind::Delete);
            let item = Item { commit_micros: 0, change: &c, candidates: vec![] };
            let d: Value = serde_json::from_str(&data(&i, &item, None, old.as_object(), &sel).unwrap()).unwrap();
            assert_eq!(d["old_record"], expected);
            assert!(d.get("record").is_none());
        }
    }
}
