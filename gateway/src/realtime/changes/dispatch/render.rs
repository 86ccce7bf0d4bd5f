//! Payloads: a change's new and old images typed as PostgreSQL renders the table's row type, and the event's
//! `data` as Realtime sends it (only the columns a role may select).

use super::{Dispatcher, Item};
use crate::realtime::changes::catalog::RelationInfo;
use crate::realtime::changes::pgoutput::{Cell, PG_EPOCH_UNIX_MICROS};
use crate::realtime::changes::slot::Kind;
use serde_json::{Map, Value};

impl Dispatcher {
    /// Typed new and old images, as PostgreSQL renders the table's row type (`to_jsonb`).
    pub(super) async fn render(
        &mut self,
        info: &RelationInfo,
        items: &[Item<'_>],
        indices: &[usize],
    ) -> Result<(Vec<Option<Map<String, Value>>>, Vec<Option<Map<String, Value>>>), tokio_postgres::Error> {
        let (images, slots) = images(info, items, indices);
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
}

/// The images to type, new then old for each change of the group, and where each change's two are among them.
type Images = (Vec<Value>, Vec<(Option<usize>, Option<usize>)>);

fn images(info: &RelationInfo, items: &[Item<'_>], indices: &[usize]) -> Images {
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
    (images, slots)
}

/// `{column: text}` of a tuple; unchanged TOASTed values are taken from the old tuple when it has them.
fn image(columns: &[crate::realtime::changes::pgoutput::Column], cells: &[Cell], old: Option<&[Cell]>) -> Value {
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

/// `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn commit_timestamp(micros_since_2000: i64) -> String {
    chrono::DateTime::from_timestamp_micros(micros_since_2000 + PG_EPOCH_UNIX_MICROS)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
        .unwrap_or_default()
}

/// The event's `data` for one role: Realtime's keys, only the role's selectable columns.
pub(super) fn data(
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
    let project = |m: &Map<String, Value>, only: &dyn Fn(&str) -> bool| -> Value {
        Value::Object(m.iter().filter(|(k, _)| keep(k) && only(k)).map(|(k, v)| (k.clone(), v.clone())).collect())
    };
    let mut d = Map::new();
    d.insert("schema".into(), Value::String(rel.schema.clone()));
    d.insert("table".into(), Value::String(rel.name.clone()));
    d.insert("commit_timestamp".into(), Value::String(commit_timestamp(item.commit_micros)));
    d.insert("type".into(), Value::String(kind.as_str().into()));
    d.insert("columns".into(), Value::Array(columns(info, &keep)));
    if kind != Kind::Delete {
        d.insert("record".into(), project(new?, &|_| true));
    }
    let full_old = rel.replica_identity == b'f' && !(kind == Kind::Update && info.row_security);
    let is_key = |name: &str| is_key(info, name);
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

/// `data.columns`: the name and type of each column the role may select.
fn columns(info: &RelationInfo, keep: &dyn Fn(&str) -> bool) -> Vec<Value> {
    let columns = info.relation.columns.iter().zip(&info.type_names).filter(|(c, _)| keep(&c.name));
    columns.map(|(c, t)| serde_json::json!({ "name": c.name, "type": t })).collect()
}

/// Whether a column is one of the key columns an old record without the full row keeps: the primary key on a table
/// with RLS, otherwise the replica identity's.
fn is_key(info: &RelationInfo, name: &str) -> bool {
    if info.row_security && !info.primary_key.is_empty() {
        info.primary_key.iter().any(|k| k == name)
    } else {
        info.relation.columns.iter().any(|c| c.key && c.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::realtime::changes::pgoutput::{Column, Relation};
    use crate::realtime::changes::slot::RowChange;
    use std::sync::Arc;

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
