//! Keys seen through views: which table column each view column shows (following views of views to the table), and
//! the views that show every column of a key, with each way to pick the view's columns when a table column is
//! shown more than once (PostgREST's `allViewsKeyDependencies` and `expandKeyDepCols`).

use super::View;
use std::collections::HashMap;

/// A view column's origin: (table oid, column number).
type Origin = (i64, i32);

/// For each view, the table columns it shows and under which of its names.
pub struct ViewColumns<'a> {
    views: &'a [View],
    sources: Vec<HashMap<Origin, Vec<String>>>,
}

/// A view showing all columns of a key: one list of view column names (in key order) per way to pick them.
#[derive(Debug)]
pub struct KeyInView<'a> {
    pub view: &'a View,
    pub picks: Vec<Vec<String>>,
}

impl<'a> ViewColumns<'a> {
    pub fn new(views: &'a [View]) -> Self {
        let by_oid: HashMap<i64, &View> = views.iter().map(|v| (v.oid, v)).collect();
        ViewColumns { views, sources: views.iter().map(|v| sources(v, &by_oid)).collect() }
    }

    /// The views showing every one of `columns` of `table`.
    pub fn showing(&self, table: i64, columns: &[i32]) -> Vec<KeyInView<'a>> {
        let mut found = Vec::new();
        for (view, src) in self.views.iter().zip(&self.sources) {
            let per_column: Option<Vec<&Vec<String>>> = columns.iter().map(|c| src.get(&(table, *c))).collect();
            if let Some(per_column) = per_column {
                found.push(KeyInView { view, picks: cartesian(&per_column) });
            }
        }
        found
    }
}

/// The table (and inner view) columns one view shows: each origin maps to the view's names for it.
fn sources(view: &View, by_oid: &HashMap<i64, &View>) -> HashMap<Origin, Vec<String>> {
    let mut sources: HashMap<Origin, Vec<String>> = HashMap::new();
    for e in view.entries.iter().filter(|e| e.origin_table != 0) {
        let Some(name) = view.columns.get(&e.resno) else { continue };
        let mut origin = (e.origin_table, e.origin_column);
        let mut seen = vec![origin.0];
        loop {
            sources.entry(origin).or_default().push(name.clone());
            let Some(inner) = by_oid.get(&origin.0) else { break };
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
}

fn cartesian(lists: &[&Vec<String>]) -> Vec<Vec<String>> {
    lists.iter().fold(vec![vec![]], |acc, list| {
        acc.iter().flat_map(|prefix| list.iter().map(move |x| [prefix.clone(), vec![x.clone()]].concat())).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::super::node_tree::TargetEntry;
    use super::*;

    fn view(oid: i64, name: &str, entries: &[(i32, i64, i32)], columns: &[&str]) -> View {
        View {
            oid,
            schema: "public".into(),
            name: name.into(),
            entries: entries
                .iter()
                .map(|&(resno, origin_table, origin_column)| TargetEntry { resno, origin_table, origin_column })
                .collect(),
            columns: columns.iter().enumerate().map(|(i, c)| (i as i32 + 1, c.to_string())).collect(),
        }
    }

    #[test]
    fn a_renamed_column_shows_its_table_column() {
        // create view people as select username as handle, status from users (users = 1: username 1, status 2)
        let views = [view(9, "people", &[(1, 1, 1), (2, 1, 2)], &["handle", "status"])];
        let found = ViewColumns::new(&views).showing(1, &[1]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].picks, vec![vec!["handle".to_string()]]);
    }

    #[test]
    fn a_column_shown_twice_gives_two_picks_and_views_of_views_reach_the_table() {
        let views = [
            view(9, "users_view", &[(1, 1, 1), (2, 1, 1)], &["id", "second_id"]),
            view(10, "outer_view", &[(1, 9, 2)], &["outer_id"]),
        ];
        let columns = ViewColumns::new(&views);
        let found = columns.showing(1, &[1]);
        let picks: Vec<_> = found.iter().map(|k| (k.view.name.as_str(), k.picks.clone())).collect();
        assert_eq!(
            picks,
            vec![
                ("users_view", vec![vec!["id".to_string()], vec!["second_id".to_string()]]),
                ("outer_view", vec![vec!["outer_id".to_string()]])
            ]
        );
        assert!(columns.showing(1, &[1, 2]).is_empty(), "a view must show every column of the key");
    }
}
