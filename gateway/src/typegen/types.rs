//! How a PostgreSQL type becomes a TypeScript type in the generated file: built-ins by name, arrays, enums,
//! composite types and row types by reference into `Database` when their schema is generated, `unknown` otherwise.

use super::model::{Catalog, RelationKind, TypeInfo};
use super::ts::{union, Ty};

/// The lookups a type name needs: every type, the generated schemas, and their tables and views.
pub struct TypeNames<'a> {
    pub catalog: &'a Catalog,
    pub schemas: &'a [String],
}

fn indexed(schema: &str, section: &str, name: &str, row: bool) -> Ty {
    let row = if row { "[\"Row\"]" } else { "" };
    Ty::Raw(format!("Database[{}][\"{section}\"][{}]{row}", quote(schema), quote(name)))
}

fn quote(s: &str) -> String {
    super::ts::string_literal(s)
}

impl TypeNames<'_> {
    fn included(&self, schema: &str) -> bool {
        self.schemas.iter().any(|s| s == schema)
    }

    /// The first of `candidates` in `schema`, else the first one.
    fn pick<'b, T>(candidates: Vec<&'b T>, schema: &str, of: impl Fn(&T) -> &str) -> Option<&'b T> {
        candidates.iter().find(|c| of(c) == schema).or(candidates.first()).copied()
    }

    fn types_named(&self, name: &str, keep: impl Fn(&TypeInfo) -> bool) -> Vec<&TypeInfo> {
        self.catalog.types.iter().filter(|t| t.name == name && keep(t)).collect()
    }

    /// The TypeScript type for the PostgreSQL type named `name`, seen from `schema`.
    pub fn ts_type(&self, schema: &str, name: &str) -> Ty {
        if let Some(t) = builtin(name) {
            return Ty::raw(t);
        }
        if let Some(element) = name.strip_prefix('_') {
            return self.ts_type(schema, element).array();
        }
        let enums = self.types_named(name, |t| !t.enum_labels.is_empty());
        if let Some(e) = Self::pick(enums, schema, |t| &t.schema) {
            if self.included(&e.schema) {
                return indexed(&e.schema, "Enums", &e.name, false);
            }
            return union(e.enum_labels.iter().map(|l| Ty::Str(l.clone())).collect());
        }
        let composites = self.types_named(name, |t| !t.attributes.is_empty());
        if let Some(c) = Self::pick(composites, schema, |t| &t.schema) {
            return if self.included(&c.schema) {
                indexed(&c.schema, "CompositeTypes", &c.name, false)
            } else {
                Ty::raw("unknown")
            };
        }
        for (kind, section) in [(RelationKind::Table, "Tables"), (RelationKind::View, "Views")] {
            let rels: Vec<_> = self.catalog.relations.iter().filter(|r| r.kind == kind && r.name == name).collect();
            if let Some(r) = Self::pick(rels, schema, |r| &r.schema) {
                return if self.included(&r.schema) {
                    indexed(&r.schema, section, &r.name, true)
                } else {
                    Ty::raw("unknown")
                };
            }
        }
        Ty::raw("unknown")
    }
}

fn builtin(name: &str) -> Option<&'static str> {
    Some(match name {
        "bool" => "boolean",
        "int2" | "int4" | "int8" | "float4" | "float8" | "numeric" => "number",
        "bytea" | "bpchar" | "varchar" | "date" | "text" | "citext" | "time" | "timetz" | "timestamp"
        | "timestamptz" | "uuid" | "vector" | "interval" => "string",
        "json" | "jsonb" => "Json",
        "void" => "undefined",
        "record" => "Record<string, unknown>",
        _ => return None,
    })
}
