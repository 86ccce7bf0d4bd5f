//! Visibility: which subscribers (by role and claims) may see a relation's changes, asked of PostgreSQL through
//! the session functions of `rls_query`, one statement per role in one pipelined flight.

use super::rls_query::{self, Check, Params, Question};
use super::{transient, Dispatcher, Image, Item};
use crate::realtime::changes::catalog::RelationInfo;
use crate::realtime::changes::registry::Subscription;
use crate::realtime::changes::slot::Kind;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use tokio_postgres::Statement;

impl Dispatcher {
    /// For each (role, claims) of the subscribers, which of the relation's changes it may see: one statement per
    /// role that judges every claims set of that role (`rls_query`), all roles' statements in one pipelined flight.
    pub(super) async fn visibility(
        &mut self,
        info: &RelationInfo,
        items: &[Item<'_>],
        indices: &[usize],
        passing: &[(usize, &Arc<Subscription>, Vec<u32>)],
        news: &[Option<Map<String, Value>>],
        olds: &[Option<Map<String, Value>>],
    ) -> Result<Visible, tokio_postgres::Error> {
        let mut visible = Visible::new();
        let mut asks: Vec<Ask> = vec![];
        let is_delete = |k: usize| items[indices[k]].change.kind == Kind::Delete;
        for (role, by_claims) in by_role(passing) {
            let open = !info.row_security || self.catalog.bypasses_rls(&self.client, role).await?;
            let questions = sort_questions(info, open, role, by_claims, is_delete, &mut visible);
            self.role_asks(info, role, questions, (news, olds), &mut asks).await?;
        }
        let params: Vec<[&(dyn tokio_postgres::types::ToSql + Sync); 6]> = asks
            .iter()
            .map(|(role, _, p)| [role as _, &p.claims as _, &p.first as _, &p.last as _, &p.wanted as _, &p.rows as _])
            .collect();
        let flight = asks.iter().zip(&params).map(|((_, statement, _), ps)| self.client.query(statement, &ps[..]));
        let answers = futures::future::join_all(flight).await;
        for ((role, _, p), answer) in asks.iter().zip(answers) {
            match answer {
                Ok(rows) => take_answers(role, p, &rows, &mut visible),
                Err(e) if transient(&e) => return Err(e),
                Err(e) => {
                    // the role itself cannot be judged (e.g. it no longer exists): nobody of that role sees these
                    tracing::warn!(error = %e, role = %role, "realtime: visibility check failed; changes not delivered");
                }
            }
        }
        Ok(visible)
    }

    /// The statements that put `role`'s questions (by primary key, and of its SELECT policies), with their
    /// parameters.
    async fn role_asks(
        &mut self,
        info: &RelationInfo,
        role: &str,
        (by_key, by_policy): (Question, Question),
        (news, olds): (&[Image], &[Image]),
        asks: &mut Vec<Ask>,
    ) -> Result<(), tokio_postgres::Error> {
        if !by_key.is_empty() {
            let statement = self.visibility_statement(info, Check::Key).await?;
            asks.push((role.to_string(), statement, by_key.params(news)));
        }
        if !by_policy.is_empty() {
            let predicate = self.catalog.predicate(&self.client, info.relation.oid, role).await?;
            let statement = self.visibility_statement(info, Check::Policy(&predicate)).await?;
            asks.push((role.to_string(), statement, by_policy.params(olds)));
        }
        Ok(())
    }

    /// The prepared call of the session function that answers `check` for this relation (created on first use).
    async fn visibility_statement(
        &mut self,
        info: &RelationInfo,
        check: Check<'_>,
    ) -> Result<Statement, tokio_postgres::Error> {
        let key = rls_query::function_key(info, check);
        if let Some(s) = self.functions.get(&key) {
            return Ok(s.clone());
        }
        let name = format!("realtime_visible_{}", self.functions.len() + 1);
        self.client.batch_execute(&rls_query::function_sql(&name, info, check)).await?;
        let call = format!("select claims_index, visible, error from pg_temp.{name}($1, $2, $3, $4, $5, $6)");
        let statement = self.client.prepare(&call).await?;
        self.functions.insert(key, statement.clone());
        Ok(statement)
    }
}

/// Which changes (group positions) each (role, claims) may see.
type Visible = HashMap<(String, String), Vec<usize>>;

/// A role, the statement that asks its questions, and their parameters.
type Ask = (String, Statement, Params);

/// Each role's claims sets, with the changes (group positions) that passed their filters.
fn by_role<'a>(
    passing: &'a [(usize, &'a Arc<Subscription>, Vec<u32>)],
) -> BTreeMap<&'a str, BTreeMap<&'a str, Vec<usize>>> {
    let mut roles: BTreeMap<&str, BTreeMap<&str, Vec<usize>>> = BTreeMap::new();
    for (k, sub, _) in passing {
        let ks = roles.entry(&sub.caller.role).or_default().entry(&sub.caller.claims_json).or_default();
        if !ks.contains(k) {
            ks.push(*k);
        }
    }
    roles
}

/// Sorts one role's changes: seen without asking (no RLS or a role that bypasses it, a DELETE shown by its key
/// columns only), or asked by primary key (INSERT, UPDATE) or of the SELECT policies on the old row (a DELETE with
/// REPLICA IDENTITY FULL).
fn sort_questions(
    info: &RelationInfo,
    open: bool,
    role: &str,
    by_claims: BTreeMap<&str, Vec<usize>>,
    is_delete: impl Fn(usize) -> bool,
    visible: &mut Visible,
) -> (Question, Question) {
    let full_identity = info.relation.replica_identity == b'f';
    let (mut by_key, mut by_policy) = (Question::default(), Question::default());
    for (claims, ks) in by_claims {
        let seen = visible.entry((role.to_string(), claims.to_string())).or_default();
        for k in ks {
            match (open, is_delete(k), full_identity) {
                (true, _, _) | (false, true, false) => seen.push(k),
                // tables with RLS and no primary key deliver nothing
                (false, false, _) if info.primary_key.is_empty() => {}
                (false, false, _) => by_key.ask(claims, k),
                (false, true, true) => by_policy.ask(claims, k),
            }
        }
    }
    (by_key, by_policy)
}

/// Adds what one role's statement answered to `visible`.
fn take_answers(role: &str, p: &Params, rows: &[tokio_postgres::Row], visible: &mut Visible) {
    for row in rows {
        let (index, positions, error): (i32, Option<Vec<i64>>, Option<String>) = (row.get(0), row.get(1), row.get(2));
        if let Some(error) = error {
            // a policy that raises hides the rows from this subscriber, as an error in Realtime's probe does
            tracing::warn!(%error, role = %role, "realtime: visibility check failed for a subscriber");
        }
        if let Some((claims, ks)) = p.answer(index, &positions.unwrap_or_default()) {
            visible.entry((role.to_string(), claims.to_string())).or_default().extend(ks);
        }
    }
}
