//! From committed transactions to frames: for each change, the subscriptions whose bindings cover it; values typed
//! by PostgreSQL (`jsonb_populate_record` → `to_jsonb`, once per relation and batch); filters; then visibility,
//! asked of PostgreSQL once per batch, relation and role — every claims set of the role judged inside that one
//! statement (see `rls_query`), never re-implemented here: INSERT and UPDATE keep a subscriber only if the row,
//! looked up by primary key under its role and claims, is visible to it now; DELETE on a table with RLS and
//! REPLICA IDENTITY FULL keeps it only if the old row passes the role's SELECT policies (evaluated by PostgreSQL on
//! the old image); other DELETEs follow Realtime (key columns only). Columns a role may not select are never sent.
//! Frames go out in commit order, only once the whole batch has been judged (a failed batch sends nothing, so it
//! can be tried again).

mod judge;
mod render;
mod rls_query;

use super::catalog::{CatalogCache, RelationInfo};
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

/// A row as PostgreSQL renders it (`to_jsonb`).
type Record = Map<String, Value>;

/// A change's new or old row, if it has one.
type Image = Option<Record>;

/// A change and the subscriptions it may reach.
struct Item<'a> {
    commit_micros: i64,
    change: &'a RowChange,
    candidates: Vec<Candidate<'a>>,
}

pub struct Dispatcher {
    client: Client,
    catalog: CatalogCache,
    statements: HashMap<String, Statement>,
    /// Visibility functions created on this connection, by `rls_query::function_key`.
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
        Ok(Dispatcher {
            client,
            catalog: CatalogCache::default(),
            statements: HashMap::new(),
            functions: HashMap::new(),
        })
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
        let passing = passing_filters(items, indices, &news, &olds);
        let visible = self.visibility(&info, items, indices, &passing, &news, &olds).await?;
        let mut data_cache: HashMap<(usize, String), Option<Arc<str>>> = HashMap::new();
        for (k, sub, ids) in passing {
            if !visible.get(&(sub.caller.role.clone(), sub.caller.claims_json.clone())).is_some_and(|v| v.contains(&k))
            {
                continue;
            }
            let images = (news[k].as_ref(), olds[k].as_ref());
            let data = self.data_for(&info, &items[indices[k]], images, (k, &sub.caller.role), &mut data_cache).await?;
            if let Some(data) = data {
                outputs[indices[k]].push((sub.clone(), ids, data));
            }
        }
        Ok(())
    }

    /// The event's `data` of change `k` of the group as `role` sees it (cached: rendered once per change and role).
    async fn data_for(
        &mut self,
        info: &RelationInfo,
        item: &Item<'_>,
        (new, old): (Option<&Record>, Option<&Record>),
        (k, role): (usize, &str),
        cache: &mut HashMap<(usize, String), Option<Arc<str>>>,
    ) -> Result<Option<Arc<str>>, tokio_postgres::Error> {
        if let Some(d) = cache.get(&(k, role.to_string())) {
            return Ok(d.clone());
        }
        let columns = self.catalog.selectable(&self.client, info.relation.oid, role).await?;
        let d = render::data(info, item, new, old, &columns).map(Arc::from);
        cache.insert((k, role.to_string()), d.clone());
        Ok(d)
    }
}

/// Whether an error may pass if the batch is tried again (the connection, a timeout, resources) — as opposed to
/// one the same question will always meet (a dropped table or role).
pub fn transient(e: &tokio_postgres::Error) -> bool {
    let Some(db) = e.as_db_error() else { return true };
    let code = db.code().code();
    matches!(&code[..2], "08" | "40" | "53" | "57" | "58" | "XX") || code == "55P03"
}

/// The group's (change, subscription, binding ids) whose bindings' filters pass on the record (the old one for a
/// DELETE): the ones whose visibility is asked.
fn passing_filters<'a>(
    items: &[Item<'a>],
    indices: &[usize],
    news: &[Option<Map<String, Value>>],
    olds: &[Option<Map<String, Value>>],
) -> Vec<(usize, &'a Arc<Subscription>, Vec<u32>)> {
    let mut passing = vec![];
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
                passing.push((k, *sub, ids));
            }
        }
    }
    passing
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
