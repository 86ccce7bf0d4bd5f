//! Foreign keys as relationships between relations: each table key, then the copies views inherit when they show
//! every column of one side (from the view, to the view, and between two views), as PostgREST's
//! `addViewM2OAndO2ORels` and `supabase gen types` derive them.

use super::{Catalog, Key, KeyInView};

/// One side of a relationship: a relation and the columns it holds, in key order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct End<'a> {
    pub schema: &'a str,
    pub name: &'a str,
    pub columns: Vec<String>,
    /// A view standing in for the key's table.
    pub view: bool,
}

/// A foreign key between two relations (either of which may be a view showing a table's key columns).
#[derive(Debug, Clone)]
pub struct ForeignKey<'a> {
    pub key: &'a Key,
    pub from: End<'a>,
    pub to: End<'a>,
    /// The key's columns are those of a primary or unique constraint of its table.
    pub one_to_one: bool,
}

impl Catalog {
    /// Every foreign key of a user schema, then for each, the ones views inherit.
    pub fn relationships(&self) -> Vec<ForeignKey<'_>> {
        let keys: Vec<ForeignKey> = self
            .foreign_keys()
            .filter(|(k, _)| !super::SYSTEM_SCHEMAS.contains(&k.schema.as_str()))
            .map(|(key, r)| ForeignKey {
                key,
                from: End {
                    schema: &key.table_schema,
                    name: &key.table_name,
                    columns: key.column_names.clone(),
                    view: false,
                },
                to: End { schema: &r.schema, name: &r.name, columns: r.column_names.clone(), view: false },
                one_to_one: self.is_one_to_one(key),
            })
            .collect();
        let shown = self.view_columns();
        let mut inherited = Vec::new();
        for fk in &keys {
            let Some(referenced) = fk.key.referenced.as_ref() else { continue };
            let from_views = ends(shown.showing(fk.key.table, &fk.key.columns));
            let to_views = ends(shown.showing(referenced.table, &referenced.columns));
            inherited.extend(from_views.iter().map(|from| fk.between(from.clone(), fk.to.clone())));
            inherited.extend(to_views.iter().map(|to| fk.between(fk.from.clone(), to.clone())));
            for from in &from_views {
                inherited.extend(to_views.iter().map(|to| fk.between(from.clone(), to.clone())));
            }
        }
        keys.into_iter().chain(inherited).collect()
    }
}

impl<'a> ForeignKey<'a> {
    fn between(&self, from: End<'a>, to: End<'a>) -> ForeignKey<'a> {
        ForeignKey { key: self.key, from, to, one_to_one: self.one_to_one }
    }
}

/// Each way a view shows a key's columns, as an end.
fn ends<'a>(found: Vec<KeyInView<'a>>) -> Vec<End<'a>> {
    found
        .into_iter()
        .flat_map(|k| {
            k.picks.into_iter().map(move |columns| End {
                schema: &k.view.schema,
                name: &k.view.name,
                columns,
                view: true,
            })
        })
        .collect()
}
