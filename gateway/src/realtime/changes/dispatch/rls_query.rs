//! Which subscribers may see which changed rows, asked of PostgreSQL in one statement per role (per relation and
//! batch of changes), however many users share that role. The statement calls a plpgsql function the dispatcher
//! creates on its own connection (`pg_temp`, gone with the connection): it switches to the role, then for each
//! distinct claims set of that role's subscribers sets `request.jwt.claims` (and the legacy `.sub`/`.role`) and
//! checks the rows those subscribers may receive — by primary key against the live table, or (DELETE under
//! `REPLICA IDENTITY FULL`) the role's SELECT policies over the old image.
//!
//! Why one executor run per claims set and not a single query over (claims × row) pairs with `set_config` per
//! pair: policies written the recommended way, `owner = (select auth.uid())`, read the claims in an InitPlan,
//! which PostgreSQL evaluates once per query run — a per-pair query would judge every pair by whichever claims
//! happened to be set first (tried: it shows nothing at all). Each loop iteration is its own run, with a plan
//! prepared once per session. A claims set whose check raises (a policy failing on its claims) sees nothing; the
//! other claims sets of the role are unaffected (each iteration runs in its own subtransaction).

use crate::realtime::changes::catalog::{quote_ident, RelationInfo};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// How a row is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check<'a> {
    /// The row, looked up by primary key now, is visible under RLS (INSERT, UPDATE).
    Key,
    /// The old image passes this SELECT policy predicate (DELETE under `REPLICA IDENTITY FULL`).
    Policy(&'a str),
}

/// One role's question about one relation: each distinct claims set with the changes (by index `k` within the
/// relation's group) its subscribers may be shown.
#[derive(Debug, Default)]
pub struct Question {
    claims: Vec<String>,
    wanted: Vec<Vec<usize>>,
}

/// The statement's parameters, in the function's order (after the role).
#[derive(Debug)]
pub struct Params {
    pub claims: Vec<String>,
    /// 1-based inclusive ranges of `wanted` per claims set.
    pub first: Vec<i32>,
    pub last: Vec<i32>,
    /// 1-based positions in `rows`.
    pub wanted: Vec<i64>,
    pub rows: Vec<Value>,
    /// `k` of each position of `rows`.
    ks: Vec<usize>,
}

impl Question {
    pub fn ask(&mut self, claims: &str, k: usize) {
        let at = match self.claims.iter().position(|c| c == claims) {
            Some(at) => at,
            None => {
                self.claims.push(claims.to_string());
                self.wanted.push(vec![]);
                self.claims.len() - 1
            }
        };
        if !self.wanted[at].contains(&k) {
            self.wanted[at].push(k);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.claims.is_empty()
    }

    /// The parameters, each image sent once however many claims sets ask about it.
    pub fn params(&self, images: &[Option<Map<String, Value>>]) -> Params {
        let mut position: HashMap<usize, i64> = HashMap::new();
        let mut p = Params {
            claims: self.claims.clone(),
            first: vec![],
            last: vec![],
            wanted: vec![],
            rows: vec![],
            ks: vec![],
        };
        for ks in &self.wanted {
            p.first.push(p.wanted.len() as i32 + 1);
            for &k in ks {
                let at = *position.entry(k).or_insert_with(|| {
                    p.rows.push(images.get(k).cloned().flatten().map(Value::Object).unwrap_or(Value::Null));
                    p.ks.push(k);
                    p.rows.len() as i64
                });
                p.wanted.push(at);
            }
            p.last.push(p.wanted.len() as i32);
        }
        p
    }
}

impl Params {
    /// One answer row (claims set by 1-based index, visible row positions) as (claims, the `k`s it may see).
    pub fn answer(&self, claims_index: i32, positions: &[i64]) -> Option<(&str, Vec<usize>)> {
        let claims = self.claims.get(usize::try_from(claims_index).ok()?.checked_sub(1)?)?;
        let ks = positions.iter().filter_map(|p| self.ks.get(usize::try_from(*p).ok()?.checked_sub(1)?).copied());
        Some((claims.as_str(), ks.collect()))
    }
}

/// What identifies a function's body: the table, its key, and the check.
pub fn function_key(info: &RelationInfo, check: Check<'_>) -> String {
    match check {
        Check::Key => format!("{}|key|{:?}", info.qualified(), info.primary_key),
        Check::Policy(predicate) => format!("{}|policy|{predicate}", info.qualified()),
    }
}

/// `create function pg_temp.<name>(role, claims, first, last, wanted, rows)` returning one row per claims set:
/// `(claims_index, visible positions, error)`. Column names win over the function's own variables
/// (`#variable_conflict use_column`, and every variable is qualified), so a policy predicate over any column
/// names means what it says.
pub fn function_sql(name: &str, info: &RelationInfo, check: Check<'_>) -> String {
    let t = info.qualified();
    let (alias, condition) = match check {
        Check::Key => {
            let on = info
                .primary_key
                .iter()
                .map(|c| {
                    let c = quote_ident(c);
                    format!("t.{c} = p.{c}")
                })
                .collect::<Vec<_>>()
                .join(" and ");
            ("p".to_string(), format!("exists (select 1 from {t} t where {on})"))
        }
        Check::Policy(predicate) => (quote_ident(&info.relation.name), format!("({predicate})")),
    };
    let mut tag = "realtime_visible".to_string();
    while condition.contains(&format!("${tag}$")) {
        tag.push('_');
    }
    format!(
        "create function pg_temp.{name}(p_role text, p_claims text[], p_first int[], p_last int[], p_wanted bigint[], \
           p_rows jsonb[]) \
         returns table (claims_index int, visible bigint[], error text) language plpgsql volatile as ${tag}$ \
         #variable_conflict use_column \
         begin \
           perform set_config('role', {name}.p_role, true), set_config('request.jwt.claim.role', {name}.p_role, true); \
           <<realtime_visibility>> for k in 1 .. coalesce(array_length({name}.p_claims, 1), 0) loop \
             claims_index := realtime_visibility.k; visible := '{{}}'; error := null; \
             begin \
               perform set_config('request.jwt.claims', {name}.p_claims[realtime_visibility.k], true), \
                 set_config('request.jwt.claim.sub', \
                   coalesce({name}.p_claims[realtime_visibility.k]::jsonb ->> 'sub', ''), true); \
               select coalesce(array_agg(realtime_position), '{{}}') into visible \
                 from unnest({name}.p_wanted[{name}.p_first[realtime_visibility.k]:{name}.p_last[realtime_visibility.k]]) \
                   as w(realtime_position) \
                 join unnest({name}.p_rows) with ordinality as u(realtime_image, realtime_position) using (realtime_position) \
                 cross join lateral jsonb_populate_record(null::{t}, u.realtime_image) as {alias} \
                 where {condition}; \
             exception when others then \
               error := sqlerrm; \
             end; \
             return next; \
           end loop; \
         end ${tag}$"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::realtime::changes::pgoutput::{Column, Relation};
    use serde_json::json;
    use std::sync::Arc;

    fn info() -> RelationInfo {
        RelationInfo {
            relation: Arc::new(Relation {
                oid: 1,
                schema: "public".into(),
                name: "todos".into(),
                replica_identity: b'f',
                columns: vec![Column { name: "id".into(), type_oid: 20, key: true }],
            }),
            primary_key: vec!["id".into()],
            row_security: true,
            type_names: vec!["int8".into()],
        }
    }

    #[test]
    fn each_image_is_sent_once_and_answers_map_back_to_changes() {
        let images: Vec<Option<Map<String, Value>>> = (0..3).map(|i| json!({ "id": i }).as_object().cloned()).collect();
        let mut q = Question::default();
        q.ask(r#"{"sub":"a"}"#, 2);
        q.ask(r#"{"sub":"b"}"#, 0);
        q.ask(r#"{"sub":"a"}"#, 0);
        q.ask(r#"{"sub":"a"}"#, 2);
        let p = q.params(&images);
        assert_eq!(p.claims, vec![r#"{"sub":"a"}"#, r#"{"sub":"b"}"#]);
        assert_eq!(p.rows, vec![json!({"id": 2}), json!({"id": 0})], "row 0 and 2 once each");
        assert_eq!((p.first.clone(), p.last.clone(), p.wanted.clone()), (vec![1, 3], vec![2, 3], vec![1, 2, 2]));
        assert_eq!(p.answer(1, &[2]), Some((r#"{"sub":"a"}"#, vec![0])));
        assert_eq!(p.answer(2, &[2]), Some((r#"{"sub":"b"}"#, vec![0])));
        assert_eq!(p.answer(3, &[1]), None);
        assert_eq!(p.answer(1, &[0, 9]), Some((r#"{"sub":"a"}"#, vec![])));
    }

    #[test]
    fn functions_check_by_key_or_by_policy_with_columns_winning() {
        let i = info();
        let sql = function_sql("f1", &i, Check::Key);
        assert!(sql.starts_with("create function pg_temp.f1("));
        assert!(sql.contains(r#"exists (select 1 from "public"."todos" t where t."id" = p."id")"#));
        assert!(sql.contains("#variable_conflict use_column"));
        assert!(sql.contains("set_config('request.jwt.claims', f1.p_claims[realtime_visibility.k], true)"));
        let sql = function_sql("f2", &i, Check::Policy("(owner = ( SELECT auth.uid() AS uid))"));
        assert!(sql.contains(r#"as "todos" where ((owner = ( SELECT auth.uid() AS uid)))"#));
        let tricky = function_sql("f3", &i, Check::Policy("(note <> '$realtime_visible$')"));
        assert!(tricky.contains("$realtime_visible_$ #variable_conflict"), "the body's quote tag never occurs in it");
        assert_ne!(function_key(&i, Check::Key), function_key(&i, Check::Policy("true")));
    }
}
