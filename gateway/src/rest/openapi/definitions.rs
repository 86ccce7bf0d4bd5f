//! The document's `definitions`: each table's columns as properties, with types, formats, defaults, required
//! columns, primary and foreign keys in their descriptions.

use super::catalog::{Column, Table};
use super::document::ForeignKeys;
use super::swagger_types::{default_value, typed};
use serde_json::{json, Map, Value};

pub(super) fn definition(t: &Table, foreign_keys: &ForeignKeys) -> Value {
    let mut def = Map::new();
    def.insert("type".into(), json!("object"));
    if let Some(d) = &t.description {
        def.insert("description".into(), json!(d));
    }
    let properties: Map<String, Value> =
        t.columns.iter().map(|c| (c.name.clone(), property(t, c, foreign_keys))).collect();
    def.insert("properties".into(), Value::Object(properties));
    let required: Vec<&str> = t.columns.iter().filter(|c| !c.nullable).map(|c| c.name.as_str()).collect();
    if !required.is_empty() {
        def.insert("required".into(), json!(required));
    }
    Value::Object(def)
}

fn property(t: &Table, c: &Column, foreign_keys: &ForeignKeys) -> Value {
    let mut prop = Map::new();
    typed(&c.data_type, &mut prop);
    let mut notes = vec!["Note:".to_string()];
    if t.primary_key.contains(&c.name) {
        notes.push("This is a Primary Key.<pk/>".into());
    }
    if let Some((ft, fc)) = foreign_keys.get(&(t.name.clone(), c.name.clone())) {
        notes.push(format!("This is a Foreign Key to `{ft}.{fc}`.<fk table='{ft}' column='{fc}'/>"));
    }
    let description = match (&c.description, notes.len() > 1) {
        (Some(d), true) => Some(format!("{d}\n\n{}", notes.join("\n"))),
        (None, true) => Some(notes.join("\n")),
        (d, false) => d.clone(),
    };
    if let Some(d) = description {
        prop.insert("description".into(), json!(d));
    }
    if let Some(v) = c.default.as_deref().and_then(|d| default_value(&c.data_type, d)) {
        prop.insert("default".into(), v);
    }
    if !c.enum_labels.is_empty() {
        prop.insert("enum".into(), json!(c.enum_labels));
    }
    if let Some(n) = c.max_length {
        prop.insert("maxLength".into(), json!(n));
    }
    Value::Object(prop)
}
