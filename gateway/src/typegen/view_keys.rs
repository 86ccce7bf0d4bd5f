//! Foreign keys seen through views: which base-table column each view column shows (read from the view's stored
//! query tree), and the relationships a view inherits when it shows every column of a key (as PostgREST and
//! `supabase gen types` derive them).

use super::model::Relationship;
use std::collections::HashMap;

/// One column of a view's query: its position, and the table column it shows (table oid 0 when computed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetEntry {
    pub resno: i32,
    pub origin_table: i64,
    pub origin_column: i32,
}

/// The top-level target list of a rule action stored as `pg_node_tree` text (`({QUERY … :targetList (…) …})`).
pub fn target_entries(tree: &str) -> Vec<TargetEntry> {
    let tokens = tokenize(tree);
    let mut entries = Vec::new();
    // the first QUERY node's own fields sit at depth 2, its target entries' fields at depth 4
    let Some(start) = tokens.iter().position(|(d, t)| *d == 2 && *t == ":targetList") else { return entries };
    let mut current: Option<TargetEntry> = None;
    let mut i = start + 1;
    while i < tokens.len() {
        let (depth, tok) = tokens[i];
        if depth < 3 || (depth == 2 && tok.starts_with(':')) {
            break;
        }
        match (depth, tok) {
            (4, "TARGETENTRY") => {
                entries.extend(current.take());
                current = Some(TargetEntry { resno: 0, origin_table: 0, origin_column: 0 });
            }
            (4, key @ (":resno" | ":resorigtbl" | ":resorigcol")) => {
                let value = tokens.get(i + 1).map(|(_, v)| *v).unwrap_or("0");
                if let Some(e) = current.as_mut() {
                    match key {
                        ":resno" => e.resno = value.parse().unwrap_or(0),
                        ":resorigtbl" => e.origin_table = value.parse().unwrap_or(0),
                        _ => e.origin_column = value.parse().unwrap_or(0),
                    }
                }
                i += 1;
            }
            (4, ":resjunk") if tokens.get(i + 1).is_some_and(|(_, v)| *v == "true") => current = None,
            _ => {}
        }
        i += 1;
    }
    entries.extend(current);
    entries
}

/// Splits node-tree text into (depth, token): brackets `{` `(` open a level; `\`-escapes and quoted strings stay
/// inside their token.
fn tokenize(s: &str) -> Vec<(usize, &str)> {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'(' => {
                depth += 1;
                i += 1;
            }
            b'}' | b')' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b' ' | b'\n' | b'\t' => i += 1,
            _ => {
                let start = i;
                let mut quoted = false;
                while i < bytes.len() {
                    match bytes[i] {
                        b'\\' => i += 1,
                        b'"' => quoted = !quoted,
                        b' ' | b'\n' | b'\t' | b'{' | b'}' | b'(' | b')' if !quoted => break,
                        _ => {}
                    }
                    i += 1;
                }
                let end = i.min(bytes.len());
                out.push((depth, s.get(start..end).unwrap_or("")));
            }
        }
    }
    out
}

/// A view or materialized view with its target list and column names.
#[derive(Debug, Clone)]
pub struct View {
    pub id: i64,
    pub schema: String,
    pub name: String,
    pub entries: Vec<TargetEntry>,
    /// attnum → name
    pub columns: HashMap<i32, String>,
}

/// A primary or foreign key: its table and columns; for a foreign key also the referenced side.
#[derive(Debug, Clone)]
pub struct Key {
    pub name: String,
    pub foreign: bool,
    /// The constrained table: oid, schema, name.
    pub table: i64,
    pub table_schema: String,
    pub table_name: String,
    pub columns: Vec<i32>,
    pub ref_table: i64,
    pub ref_columns: Vec<i32>,
}

/// For each view, the table columns it shows (following views of views): (table, column) → view column names.
fn view_sources(views: &[View]) -> Vec<HashMap<(i64, i32), Vec<String>>> {
    let by_id: HashMap<i64, &View> = views.iter().map(|v| (v.id, v)).collect();
    views
        .iter()
        .map(|v| {
            let mut sources: HashMap<(i64, i32), Vec<String>> = HashMap::new();
            for e in v.entries.iter().filter(|e| e.origin_table != 0) {
                let Some(name) = v.columns.get(&e.resno) else { continue };
                let mut origin = (e.origin_table, e.origin_column);
                let mut seen = vec![origin.0];
                loop {
                    sources.entry(origin).or_default().push(name.clone());
                    let Some(inner) = by_id.get(&origin.0) else { break };
                    let Some(next) = inner.entries.iter().find(|x| x.resno == origin.1 && x.origin_table != 0) else {
                        break;
                    };
                    if seen.contains(&next.origin_table) {
                        break;
                    }
                    seen.push(next.origin_table);
                    origin = (next.origin_table, next.origin_column);
                }
            }
            sources
        })
        .collect()
}

/// The views showing all columns of `columns` of `table`: (view, one list of view columns per way to pick them).
fn views_showing<'a>(
    views: &'a [View],
    sources: &[HashMap<(i64, i32), Vec<String>>],
    table: i64,
    columns: &[i32],
) -> Vec<(&'a View, Vec<Vec<String>>)> {
    let mut found = Vec::new();
    for (v, src) in views.iter().zip(sources) {
        let per_column: Option<Vec<&Vec<String>>> = columns.iter().map(|c| src.get(&(table, *c))).collect();
        if let Some(per_column) = per_column {
            found.push((v, cartesian(&per_column)));
        }
    }
    found
}

fn cartesian(lists: &[&Vec<String>]) -> Vec<Vec<String>> {
    lists.iter().fold(vec![vec![]], |acc, list| {
        acc.iter().flat_map(|prefix| list.iter().map(move |x| [prefix.clone(), vec![x.clone()]].concat())).collect()
    })
}

/// The relationships views inherit from each table foreign key in `table_relationships`.
pub fn view_relationships(table_relationships: &[Relationship], keys: &[Key], views: &[View]) -> Vec<Relationship> {
    let sources = view_sources(views);
    let mut out = Vec::new();
    for r in table_relationships {
        let owns = |k: &&Key| {
            k.foreign && k.name == r.foreign_key_name && k.table_schema == r.schema && k.table_name == r.relation
        };
        let Some(key) = keys.iter().find(owns) else {
            continue;
        };
        let from_views = views_showing(views, &sources, key.table, &key.columns);
        let to_views = views_showing(views, &sources, key.ref_table, &key.ref_columns);
        let rel = |(schema, relation, columns): (&str, &str, &[String]), (rs, rr, rc): (&str, &str, &[String])| {
            Relationship {
                foreign_key_name: r.foreign_key_name.clone(),
                schema: schema.into(),
                relation: relation.into(),
                columns: columns.to_vec(),
                referenced_schema: rs.into(),
                referenced_relation: rr.into(),
                referenced_columns: rc.to_vec(),
                one_to_one: r.one_to_one,
            }
        };
        let target = (r.referenced_schema.as_str(), r.referenced_relation.as_str(), &r.referenced_columns[..]);
        let source = (r.schema.as_str(), r.relation.as_str(), &r.columns[..]);
        for (v, picks) in &from_views {
            out.extend(picks.iter().map(|cols| rel((&v.schema, &v.name, cols), target)));
        }
        for (v, picks) in &to_views {
            out.extend(picks.iter().map(|cols| rel(source, (&v.schema, &v.name, cols))));
        }
        for (v, picks) in &from_views {
            for cols in picks {
                for (w, wpicks) in &to_views {
                    out.extend(wpicks.iter().map(|wcols| rel((&v.schema, &v.name, cols), (&w.schema, &w.name, wcols))));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TREE: &str = "({QUERY :commandType 1 :querySource 0 :canSetTag true :utilityStmt <> :resultRelation 0 \
        :rtable ({RANGETBLENTRY :alias <> :eref {ALIAS :aliasname users :colnames (\"id\" \"name\")} :rtekind 0 \
        :relid 16400}) :targetList ({TARGETENTRY :expr {VAR :varno 1 :varattno 1 :vartype 23} :resno 1 \
        :resname id :ressortgroupref 0 :resorigtbl 16400 :resorigcol 1 :resjunk false} {TARGETENTRY :expr \
        {FUNCEXPR :funcid 870 :args ({VAR :varno 1 :varattno 2})} :resno 2 :resname upper\\ name \
        :ressortgroupref 0 :resorigtbl 0 :resorigcol 0 :resjunk false}) :override 0 :onConflict <> \
        :returningList <> :groupClause <>})";

    #[test]
    fn reads_the_top_level_target_list() {
        let entries = target_entries(TREE);
        assert_eq!(
            entries,
            vec![
                TargetEntry { resno: 1, origin_table: 16400, origin_column: 1 },
                TargetEntry { resno: 2, origin_table: 0, origin_column: 0 }
            ]
        );
    }

    #[test]
    fn a_view_showing_a_referenced_key_inherits_the_relationship() {
        let fk = Relationship {
            foreign_key_name: "todos_user_fkey".into(),
            schema: "public".into(),
            relation: "todos".into(),
            columns: vec!["user_id".into()],
            referenced_schema: "public".into(),
            referenced_relation: "users".into(),
            referenced_columns: vec!["id".into()],
            one_to_one: false,
        };
        let key = Key {
            name: fk.foreign_key_name.clone(),
            foreign: true,
            table: 2,
            table_schema: "public".into(),
            table_name: "todos".into(),
            columns: vec![2],
            ref_table: 1,
            ref_columns: vec![1],
        };
        let view = View {
            id: 9,
            schema: "public".into(),
            name: "users_view".into(),
            entries: vec![
                TargetEntry { resno: 1, origin_table: 1, origin_column: 1 },
                TargetEntry { resno: 2, origin_table: 1, origin_column: 1 },
            ],
            columns: HashMap::from([(1, "id".to_string()), (2, "second_id".to_string())]),
        };
        let rels = view_relationships(&[fk], &[key], &[view]);
        let targets: Vec<_> =
            rels.iter().map(|r| (r.referenced_relation.as_str(), r.referenced_columns[0].as_str())).collect();
        assert_eq!(targets, vec![("users_view", "id"), ("users_view", "second_id")]);
    }
}
