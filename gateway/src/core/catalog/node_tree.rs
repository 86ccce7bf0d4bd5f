//! The target list of a view's stored query (`pg_rewrite.ev_action`, a `pg_node_tree`): for each output column,
//! the table column it shows unchanged (`resorigtbl`/`resorigcol`), as PostgREST reads it. Pure text parsing.

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
}
