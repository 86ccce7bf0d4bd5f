//! From committed transactions to frames: for each change, the subscriptions whose bindings cover it; values typed
//! by PostgreSQL (`jsonb_populate_record` → `to_jsonb`, once per relation and batch); filters; then visibility,
//! asked of PostgreSQL once per batch and per distinct (role, claims) — never re-implemented here: INSERT and
//! UPDATE keep a subscriber only if the row, looked up by primary key under its role and claims, is visible to
//! it now; DELETE on a table with RLS and REPLICA IDENTITY FULL keeps it only if the old row passes the role's
//! SELECT policies (evaluated by PostgreSQL on the old image); other DELETEs follow Realtime (key columns only).
//! Columns a role may not select are never sent. Frames go out in commit order.

use super::catalog::{Catalog, RelationInfo};
use super::pgoutput::{Cell, PG_EPOCH_UNIX_MICROS};
use super::registry::Subscription;
use super::slot::{Kind, RowChange, Transaction};
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
}

const SET_CONTEXT: &str = "select set_config('role', $1, false), set_config('request.jwt.claims', $2, false), \
    set_config('request.jwt.claim.sub', $3, false), set_config('request.jwt.claim.role', $1, false)";

impl Dispatcher {
    pub async fn connect(db_uri: &str) -> Result<Dispatcher, tokio_postgres::Error> {
        let (client, connection) = tokio_postgres::connect(db_uri, tokio_postgres::NoTls).await?;
        tokio::spawn(connection);
        client.batch_execute("set statement_timeout = '10s'; set application_name = 'gateway realtime'").await?;
        Ok(Dispatcher { client, catalog: Catalog::default(), statements: HashMap::new() })
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
        let mut outputs: Vec<Vec<Delivery>> = vec![vec![]; items.len()];
        let mut by_relation: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for (i, item) in items.iter().enumerate() {
            by_relation.entry(item.change.relation.oid).or_default().push(i);
        }
        for indices in by_relation.values() {
            self.relation_group(&items, indices, &mut outputs).await?;
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

    async fn relation_group(
        &mut self,
        items: &[Item<'_>],
        indices: &[usize],
        outputs: &mut [Vec<Delivery>],
    ) -> Result<(), tokio_postgres::Error> {
        let info = self.catalog.relation(&self.client, &items[indices[0]].change.relation).await?;
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

    /// For each (role, claims) group, which of the group's changes it may see. Every group's question goes out in
    /// one pipelined flight (its context, then its statement, guarded by the claims it expects).
    async fn visibility(
        &mut self,
        info: &RelationInfo,
        items: &[Item<'_>],
        indices: &[usize],
        passing: &[(usize, &Arc<Subscription>, Vec<u32>)],
        news: &[Option<Map<String, Value>>],
        olds: &[Option<Map<String, Value>>],
    ) -> Result<HashMap<(String, String), Vec<usize>>, tokio_postgres::Error> {
        let mut groups: HashMap<(String, String), (Option<String>, Vec<usize>)> = HashMap::new();
        for (k, sub, _) in passing {
            let g = groups
                .entry((sub.caller.role.clone(), sub.caller.claims_json.clone()))
                .or_insert_with(|| (sub.caller.sub().map(str::to_string), vec![]));
            if !g.1.contains(k) {
                g.1.push(*k);
            }
        }
        let mut visible = HashMap::new();
        let mut asks: Vec<Ask> = vec![];
        let full_identity = info.relation.replica_identity == b'f';
        for ((role, claims), (sub, ks)) in groups {
            let open = !info.row_security || self.catalog.bypasses_rls(&self.client, &role).await?;
            let (mut seen, mut by_pk, mut by_policy) = (vec![], vec![], vec![]);
            for k in ks {
                let delete = items[indices[k]].change.kind == Kind::Delete;
                match (open, delete, full_identity) {
                    (true, _, _) | (false, true, false) => seen.push(k),
                    (false, false, _) => by_pk.push(k),
                    (false, true, true) => by_policy.push(k),
                }
            }
            let key = (role.clone(), claims.clone());
            if !by_pk.is_empty() && !info.primary_key.is_empty() {
                let stmt = self.statement(&lookup_sql(info)).await?;
                asks.push(Ask::new(&key, sub.as_deref(), stmt, by_pk, news));
            }
            if !by_policy.is_empty() {
                let predicate = self.catalog.predicate(&self.client, info.relation.oid, &role).await?;
                let stmt = self.statement(&policy_sql(info, &predicate)).await?;
                asks.push(Ask::new(&key, sub.as_deref(), stmt, by_policy, olds));
            }
            visible.insert(key, seen);
        }
        let set = self.statement(SET_CONTEXT).await?;
        let params: Vec<[&(dyn tokio_postgres::types::ToSql + Sync); 3]> =
            asks.iter().map(|a| [&a.role as _, &a.claims as _, &a.sub as _]).collect();
        let ask_params: Vec<[&(dyn tokio_postgres::types::ToSql + Sync); 2]> =
            asks.iter().map(|a| [&a.rows as _, &a.claims as _]).collect();
        let flight = asks.iter().enumerate().flat_map(|(i, a)| {
            [self.client.query(&set, &params[i][..]), self.client.query(&a.statement, &ask_params[i][..])]
        });
        let mut answers = futures::future::join_all(flight).await.into_iter();
        for a in &asks {
            let (Some(set_result), Some(kept)) = (answers.next(), answers.next()) else { break };
            set_result?;
            let kept: Vec<usize> = match kept {
                Ok(rows) => rows.iter().filter_map(|r| a.ks.get((r.get::<_, i64>(0) - 1) as usize).copied()).collect(),
                Err(e) => {
                    // a policy that raises hides the row from this subscriber, as an error in Realtime's probe does
                    tracing::warn!(error = %e, role = %a.role, "realtime: visibility check failed; change not delivered");
                    vec![]
                }
            };
            if let Some(seen) = visible.get_mut(&(a.role.clone(), a.claims.clone())) {
                seen.extend(kept);
            }
        }
        Ok(visible)
    }
}

/// One group's visibility question: its context, the statement, and the images it asks about.
struct Ask {
    role: String,
    claims: String,
    sub: String,
    statement: Statement,
    ks: Vec<usize>,
    rows: Vec<Value>,
}

impl Ask {
    fn new(
        key: &(String, String),
        sub: Option<&str>,
        statement: Statement,
        ks: Vec<usize>,
        images: &[Option<Map<String, Value>>],
    ) -> Ask {
        let rows = ks.iter().map(|k| images[*k].clone().map(Value::Object).unwrap_or(Value::Null)).collect();
        Ask { role: key.0.clone(), claims: key.1.clone(), sub: sub.unwrap_or("").to_string(), statement, ks, rows }
    }
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

fn lookup_sql(info: &RelationInfo) -> String {
    let t = info.qualified();
    let on = info
        .primary_key
        .iter()
        .map(|c| {
            let c = super::catalog::quote_ident(c);
            format!("t.{c} = p.{c}")
        })
        .collect::<Vec<_>>()
        .join(" and ");
    format!(
        "select u.i from unnest($1::jsonb[]) with ordinality u(r, i) cross join lateral jsonb_populate_record(null::{t}, u.r) p \
         where current_setting('request.jwt.claims', true) = $2 and exists (select 1 from {t} t where {on})"
    )
}

fn policy_sql(info: &RelationInfo, predicate: &str) -> String {
    let t = info.qualified();
    let alias = super::catalog::quote_ident(&info.relation.name);
    format!(
        "select u.i from unnest($1::jsonb[]) with ordinality u(r, i) cross join lateral jsonb_populate_record(null::{t}, u.r) as {alias} \
         where current_setting('request.jwt.claims', true) = $2 and ({predicate})"
    )
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

    #[test]
    fn visibility_statements_bind_images_and_guard_the_claims() {
        let i = info(b'f', true);
        let sql = lookup_sql(&i);
        assert!(sql.contains(r#"exists (select 1 from "public"."todos" t where t."id" = p."id")"#));
        assert!(sql.contains("current_setting('request.jwt.claims', true) = $2"));
        let sql = policy_sql(&i, "((user_id = auth.uid()))");
        assert!(sql.contains(r#"as "todos" where"#) && sql.ends_with("and (((user_id = auth.uid())))"));
    }
}
