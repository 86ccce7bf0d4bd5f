//! Relationships from foreign keys: each key gives a to-one relationship from the referencing table and a
//! to-many (or one-to-one) back; a table whose primary key covers two foreign keys is a junction for a
//! many-to-many pair. Views come with the keys they inherit (the catalog derives those).

use super::{Cardinality, Junction, QualifiedName, Relationship, Table};
use std::collections::HashMap;

/// A foreign key as loaded from `pg_constraint`.
#[derive(Debug, Clone)]
pub struct ForeignKey {
    pub name: String,
    pub table: QualifiedName,
    pub foreign_table: QualifiedName,
    /// (column, foreign column)
    pub columns: Vec<(String, String)>,
    /// The key's columns are unique in its table.
    pub one_to_one: bool,
    pub via_view: bool,
}

/// Builds every relationship, keyed by source.
pub fn build(tables: &HashMap<QualifiedName, Table>, fks: &[ForeignKey]) -> HashMap<QualifiedName, Vec<Relationship>> {
    let mut out: HashMap<QualifiedName, Vec<Relationship>> = HashMap::new();
    for fk in fks {
        add_key(&mut out, fk);
    }
    add_junctions(&mut out, tables, fks);
    out
}

/// A foreign key's two relationships: to-one from the referencing table, to-many (or one-to-one) back.
fn add_key(out: &mut HashMap<QualifiedName, Vec<Relationship>>, fk: &ForeignKey) {
    let one_to_one = fk.one_to_one;
    out.entry(fk.table.clone()).or_default().push(Relationship {
        source: fk.table.clone(),
        target: fk.foreign_table.clone(),
        constraint: fk.name.clone(),
        columns: fk.columns.clone(),
        cardinality: if one_to_one { Cardinality::O2O { source_holds_key: true } } else { Cardinality::M2O },
        via_view: fk.via_view,
    });
    out.entry(fk.foreign_table.clone()).or_default().push(Relationship {
        source: fk.foreign_table.clone(),
        target: fk.table.clone(),
        constraint: fk.name.clone(),
        columns: fk.columns.iter().map(|(a, b)| (b.clone(), a.clone())).collect(),
        cardinality: if one_to_one { Cardinality::O2O { source_holds_key: false } } else { Cardinality::O2M },
        via_view: fk.via_view,
    });
}

/// Many-to-many through junctions whose primary key covers both keys' columns.
fn add_junctions(
    out: &mut HashMap<QualifiedName, Vec<Relationship>>,
    tables: &HashMap<QualifiedName, Table>,
    fks: &[ForeignKey],
) {
    let mut by_table: HashMap<&QualifiedName, Vec<&ForeignKey>> = HashMap::new();
    for fk in fks {
        by_table.entry(&fk.table).or_default().push(fk);
    }
    for (junction, keys) in by_table {
        let Some(jt) = tables.get(junction) else { continue };
        for a in &keys {
            for b in &keys {
                let covered = a.columns.iter().chain(b.columns.iter()).all(|(c, _)| jt.primary_key.contains(c));
                if a.name != b.name && covered {
                    out.entry(a.foreign_table.clone()).or_default().push(through(junction, a, b));
                }
            }
        }
    }
}

/// The relationship from `a`'s target to `b`'s target through `junction`.
fn through(junction: &QualifiedName, a: &ForeignKey, b: &ForeignKey) -> Relationship {
    Relationship {
        source: a.foreign_table.clone(),
        target: b.foreign_table.clone(),
        constraint: b.name.clone(),
        columns: vec![],
        cardinality: Cardinality::M2M(Junction {
            table: junction.clone(),
            source_constraint: a.name.clone(),
            source_columns: a.columns.iter().map(|(j, s)| (s.clone(), j.clone())).collect(),
            target_constraint: b.name.clone(),
            target_columns: b.columns.iter().map(|(j, t)| (t.clone(), j.clone())).collect(),
        }),
        via_view: a.via_view || b.via_view,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(name: &str, pk: &[&str]) -> (QualifiedName, Table) {
        let q = QualifiedName::new("public", name);
        (
            q.clone(),
            Table {
                name: q,
                is_view: false,
                columns: vec![],
                primary_key: pk.iter().map(|s| s.to_string()).collect(),
                visible_to: vec![],
                plain_insert: false,
            },
        )
    }

    #[test]
    fn builds_both_directions_and_many_to_many() {
        let tables: HashMap<_, _> =
            [table("users", &["id"]), table("groups", &["id"]), table("members", &["user_id", "group_id"])].into();
        let q = |n: &str| QualifiedName::new("public", n);
        let fks = vec![
            ForeignKey {
                name: "members_user_id_fkey".into(),
                table: q("members"),
                foreign_table: q("users"),
                columns: vec![("user_id".into(), "id".into())],
                one_to_one: false,
                via_view: false,
            },
            ForeignKey {
                name: "members_group_id_fkey".into(),
                table: q("members"),
                foreign_table: q("groups"),
                columns: vec![("group_id".into(), "id".into())],
                one_to_one: false,
                via_view: false,
            },
        ];
        let rels = build(&tables, &fks);
        let from_users = &rels[&q("users")];
        assert!(from_users.iter().any(|r| r.target == q("members") && r.cardinality == Cardinality::O2M));
        assert!(from_users.iter().any(|r| r.target == q("groups") && matches!(r.cardinality, Cardinality::M2M(_))));
        assert!(rels[&q("members")].iter().all(|r| r.cardinality == Cardinality::M2O));
    }
}
