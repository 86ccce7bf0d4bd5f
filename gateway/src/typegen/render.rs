//! The `Database` type and the file around it, in the layout and order of `supabase gen types typescript`
//! (postgres-meta's TypeScript template): per schema Tables (Row/Insert/Update/Relationships), Views, Functions,
//! Enums and CompositeTypes, then the helper types and `Constants`.

use super::collate::locale_compare;
use super::doc::{concat, print, text, Doc};
use super::functions::{function_entries, Functions};
use super::model::*;
use super::ts::{member, never_section, object, object_literal_doc, to_doc, tuple_doc, Member, Ty};
use super::types::TypeNames;
use std::collections::HashMap;

const HEADER: &str = "export type Json =
  | string
  | number
  | boolean
  | null
  | { [key: string]: Json | undefined }
  | Json[]

";

/// The helper types after `Database` (constant text; the default schema is `public`, as the CLI sets it).
const HELPERS: &str = include_str!("helpers.ts.txt");

/// The whole generated file, as the Supabase CLI prints it (with its extra blank line at the end).
pub fn render(catalog: &Catalog) -> String {
    let mut schemas = catalog.schemas.clone();
    schemas.sort_by(|a, b| locale_compare(a, b));
    let mut relationships: Vec<&Relationship> = catalog.relationships.iter().collect();
    relationships.sort_by(|a, b| {
        locale_compare(&a.foreign_key_name, &b.foreign_key_name)
            .then_with(|| locale_compare(&a.referenced_relation, &b.referenced_relation))
            .then_with(|| locale_compare(&json_list(&a.referenced_columns), &json_list(&b.referenced_columns)))
    });
    let names = TypeNames { catalog, schemas: &schemas };
    let gen = Generator::new(catalog, &names, relationships);
    let database =
        Ty::Object { members: schemas.iter().map(|s| member(s, false, gen.schema(s))).collect(), broken: true };
    let constants = object_literal_doc(schemas.iter().map(|s| (s.clone(), gen.constants(s))).collect(), true);
    let mut out = String::from(HEADER);
    out.push_str(&print(&concat(vec![text("export type Database = "), to_doc(&database)])));
    out.push_str("\n\n");
    out.push_str(HELPERS);
    out.push_str(&print(&concat(vec![text("export const Constants = "), constants, text(" as const")])));
    out.push_str("\n\n");
    out
}

fn json_list(items: &[String]) -> String {
    serde_json::to_string(items).unwrap_or_default()
}

pub struct Generator<'a> {
    pub catalog: &'a Catalog,
    pub names: &'a TypeNames<'a>,
    relationships: Vec<&'a Relationship>,
    pub columns: HashMap<i64, Vec<&'a Column>>,
    pub relation_names: HashMap<i64, &'a str>,
    pub types_by_id: HashMap<i64, &'a TypeInfo>,
    /// Row types of relations and composite types, by type id.
    pub relation_types: HashMap<i64, &'a TypeInfo>,
}

impl<'a> Generator<'a> {
    fn new(catalog: &'a Catalog, names: &'a TypeNames<'a>, relationships: Vec<&'a Relationship>) -> Self {
        let mut columns: HashMap<i64, Vec<&Column>> = HashMap::new();
        for c in &catalog.columns {
            columns.entry(c.relation_id).or_default().push(c);
        }
        for list in columns.values_mut() {
            list.sort_by(|a, b| locale_compare(&a.name, &b.name));
        }
        Generator {
            catalog,
            names,
            relationships,
            columns,
            relation_names: catalog.relations.iter().map(|r| (r.id, r.name.as_str())).collect(),
            types_by_id: catalog.types.iter().map(|t| (t.id, t)).collect(),
            relation_types: catalog.types.iter().filter(|t| t.relation_id.is_some()).map(|t| (t.id, t)).collect(),
        }
    }

    pub fn ts_type(&self, schema: &str, type_name: &str) -> Ty {
        self.names.ts_type(schema, type_name)
    }

    /// The TypeScript type of the type with oid `id` (by its name), `unknown` when not listed.
    pub fn ts_type_of(&self, schema: &str, id: i64) -> Ty {
        self.types_by_id.get(&id).map(|t| self.ts_type(schema, &t.name)).unwrap_or_else(|| Ty::raw("unknown"))
    }

    pub fn columns_of(&self, relation: i64) -> &[&'a Column] {
        self.columns.get(&relation).map(Vec::as_slice).unwrap_or(&[])
    }

    fn relations(&self, schema: &str, kinds: &[RelationKind]) -> Vec<&'a Relation> {
        let mut list: Vec<&Relation> =
            self.catalog.relations.iter().filter(|r| r.schema == schema && kinds.contains(&r.kind)).collect();
        list.sort_by(|a, b| locale_compare(&a.name, &b.name));
        list
    }

    fn schema(&self, schema: &str) -> Ty {
        let functions = function_entries(self, schema);
        let tables = self.relations(schema, &[RelationKind::Table, RelationKind::ForeignTable]);
        let views = self.relations(schema, &[RelationKind::View, RelationKind::MaterializedView]);
        let section = |members: Vec<Member>| if members.is_empty() { never_section() } else { object(members) };
        object(vec![
            member(
                "Tables",
                false,
                section(tables.iter().map(|t| member(&t.name, false, self.table(t, &functions))).collect()),
            ),
            member(
                "Views",
                false,
                section(views.iter().map(|v| member(&v.name, false, self.view(v, &functions))).collect()),
            ),
            member("Functions", false, section(functions.members(self))),
            member("Enums", false, section(self.enums(schema))),
            member("CompositeTypes", false, section(self.composite_types(schema))),
        ])
    }

    fn column_ty(&self, schema: &str, c: &Column, nullable: bool) -> Ty {
        self.ts_type(schema, &c.type_name).nullable(nullable)
    }

    /// `Row`: every column with its nullability, then computed fields (functions taking the row).
    fn row(&self, rel: &Relation, functions: &Functions) -> Ty {
        let mut members: Vec<Member> = self
            .columns_of(rel.id)
            .iter()
            .map(|c| member(&c.name, false, self.column_ty(&rel.schema, c, c.nullable)))
            .collect();
        members.extend(functions.computed_fields(self, &rel.name));
        object(members)
    }

    fn table(&self, t: &Relation, functions: &Functions) -> Ty {
        let columns = self.columns_of(t.id);
        let write = |insert: bool| {
            object(
                columns
                    .iter()
                    .map(|c| match c.identity {
                        Some(Identity::Always) => member(&c.name, true, Ty::raw("never")),
                        _ => {
                            let optional = !insert || c.nullable || c.identity.is_some() || c.has_default;
                            member(&c.name, optional, self.column_ty(&t.schema, c, c.nullable))
                        }
                    })
                    .collect(),
            )
        };
        object(vec![
            member("Row", false, self.row(t, functions)),
            member("Insert", false, write(true)),
            member("Update", false, write(false)),
            member("Relationships", false, self.relationships_of(t)),
        ])
    }

    fn view(&self, v: &Relation, functions: &Functions) -> Ty {
        let mut members = vec![member("Row", false, self.row(v, functions))];
        if v.updatable && v.kind == RelationKind::View {
            let write = || {
                object(
                    self.columns_of(v.id)
                        .iter()
                        .map(|c| match c.updatable {
                            false => member(&c.name, true, Ty::raw("never")),
                            true => member(&c.name, true, self.column_ty(&v.schema, c, true)),
                        })
                        .collect(),
                )
            };
            members.push(member("Insert", false, write()));
            members.push(member("Update", false, write()));
        }
        members.push(member("Relationships", false, self.relationships_of(v)));
        object(members)
    }

    fn relationships_of(&self, rel: &Relation) -> Ty {
        let strings = |list: &[String]| Ty::Tuple(list.iter().map(|s| Ty::Str(s.clone())).collect());
        Ty::Tuple(
            self.relationships
                .iter()
                .filter(|r| r.schema == rel.schema && r.referenced_schema == rel.schema && r.relation == rel.name)
                .map(|r| {
                    object(vec![
                        member("foreignKeyName", false, Ty::Str(r.foreign_key_name.clone())),
                        member("columns", false, strings(&r.columns)),
                        member("isOneToOne", false, Ty::raw(if r.one_to_one { "true" } else { "false" })),
                        member("referencedRelation", false, Ty::Str(r.referenced_relation.clone())),
                        member("referencedColumns", false, strings(&r.referenced_columns)),
                    ])
                })
                .collect(),
        )
    }

    fn enum_types(&self, schema: &str) -> Vec<&'a TypeInfo> {
        let mut list: Vec<&TypeInfo> =
            self.catalog.types.iter().filter(|t| t.schema == schema && !t.enum_labels.is_empty()).collect();
        list.sort_by(|a, b| locale_compare(&a.name, &b.name));
        list
    }

    fn enums(&self, schema: &str) -> Vec<Member> {
        self.enum_types(schema)
            .into_iter()
            .map(|e| {
                member(&e.name, false, super::ts::union(e.enum_labels.iter().map(|l| Ty::Str(l.clone())).collect()))
            })
            .collect()
    }

    fn composite_types(&self, schema: &str) -> Vec<Member> {
        let mut list: Vec<&TypeInfo> =
            self.catalog.types.iter().filter(|t| t.schema == schema && !t.attributes.is_empty()).collect();
        list.sort_by(|a, b| locale_compare(&a.name, &b.name));
        list.into_iter()
            .map(|c| {
                let attrs = c.attributes.iter().map(|(name, id)| {
                    let ty = match self.types_by_id.get(id) {
                        Some(t) => self.ts_type(schema, &t.name).nullable(true),
                        None => Ty::raw("unknown"),
                    };
                    member(name, false, ty)
                });
                member(&c.name, false, object(attrs.collect()))
            })
            .collect()
    }

    /// `Constants.<schema>`: `{ Enums: { name: ["a", "b"] } }`.
    fn constants(&self, schema: &str) -> Doc {
        let enums = self
            .enum_types(schema)
            .into_iter()
            .map(|e| {
                let labels = e.enum_labels.iter().map(|l| text(super::ts::string_literal(l))).collect();
                (e.name.clone(), tuple_doc(labels))
            })
            .collect();
        object_literal_doc(vec![("Enums".to_string(), object_literal_doc(enums, true))], true)
    }
}
