//! The document's `paths` (each table and view with its verbs, each function under `/rpc`) and the `parameters`
//! they refer to (the shared query and `Prefer` parameters, each table's body and row filters).

use super::catalog::{Function, Param, Table};
use super::document::summary_fields;
use super::document::MEDIA;
use super::swagger_types::{swagger_format, swagger_type, typed};
use crate::core::catalog::Volatility;
use serde_json::{json, Map, Value};

pub(super) fn paths(tables: &[&Table], functions: &[&Function]) -> Value {
    let mut paths = Map::new();
    paths.insert(
        "/".into(),
        json!({ "get": {
            "tags": ["Introspection"],
            "summary": "OpenAPI description (this document)",
            "produces": ["application/openapi+json", "application/json"],
            "responses": { "200": { "description": "OK" } },
        }}),
    );
    for t in tables {
        paths.insert(format!("/{}", t.name), table_path(t));
    }
    for f in functions {
        paths.insert(format!("/rpc/{}", f.name), function_path(f));
    }
    Value::Object(paths)
}

fn refs(names: impl IntoIterator<Item = String>) -> Value {
    Value::Array(names.into_iter().map(|n| json!({ "$ref": format!("#/parameters/{n}") })).collect())
}

fn table_path(t: &Table) -> Value {
    let row_filters: Vec<String> = t.columns.iter().map(|c| format!("rowFilter.{}.{}", t.name, c.name)).collect();
    let operation = |params: Vec<String>, responses: Value| {
        let mut op = Map::new();
        op.insert("tags".into(), json!([t.name]));
        summary_fields(&mut op, t.description.as_ref());
        op.insert("parameters".into(), refs(params));
        op.insert("responses".into(), responses);
        Value::Object(op)
    };
    let with = |extra: &[&str]| row_filters.iter().cloned().chain(extra.iter().map(|s| s.to_string())).collect();
    let mut item = Map::new();
    item.insert(
        "get".into(),
        operation(
            with(&["select", "order", "range", "rangeUnit", "offset", "limit", "preferCount"]),
            json!({
                "200": { "description": "OK", "schema": { "type": "array", "items": { "$ref": format!("#/definitions/{}", t.name) } } },
                "206": { "description": "Partial Content" },
            }),
        ),
    );
    if t.insertable || t.updatable || t.deletable {
        let body = format!("body.{}", t.name);
        item.insert(
            "post".into(),
            operation(
                vec![body.clone(), "select".into(), "preferPost".into()],
                json!({"201": {"description": "Created"}}),
            ),
        );
        item.insert(
            "patch".into(),
            operation(with(&[&body, "preferReturn"]), json!({"204": {"description": "No Content"}})),
        );
        item.insert("delete".into(), operation(with(&["preferReturn"]), json!({"204": {"description": "No Content"}})));
    }
    Value::Object(item)
}

fn function_path(f: &Function) -> Value {
    let operation = |parameters: Value| {
        let mut op = Map::new();
        summary_fields(&mut op, f.description.as_ref());
        op.insert("tags".into(), json!([format!("(rpc) {}", f.name)]));
        op.insert("produces".into(), json!(&MEDIA[..3]));
        op.insert("parameters".into(), parameters);
        op.insert("responses".into(), json!({"200": {"description": "OK"}}));
        Value::Object(op)
    };
    let mut body_schema = Map::new();
    if let Some(d) = &f.description {
        body_schema.insert("description".into(), json!(d));
    }
    body_schema.insert("type".into(), json!("object"));
    let properties: Map<String, Value> = f
        .params
        .iter()
        .map(|p| {
            let mut prop = Map::new();
            typed(&p.type_name, &mut prop);
            (p.name.clone(), Value::Object(prop))
        })
        .collect();
    body_schema.insert("properties".into(), Value::Object(properties));
    let required: Vec<&str> = f.params.iter().filter(|p| p.required).map(|p| p.name.as_str()).collect();
    if !required.is_empty() {
        body_schema.insert("required".into(), json!(required));
    }
    let post = json!([
        { "name": "args", "required": true, "in": "body", "schema": body_schema },
        { "$ref": "#/parameters/preferParams" },
    ]);
    let mut item = Map::new();
    if f.volatility != Volatility::Volatile {
        item.insert("get".into(), operation(Value::Array(f.params.iter().map(query_param).collect())));
    }
    item.insert("post".into(), operation(post));
    Value::Object(item)
}

/// An argument passed in the query string (`GET /rpc/f?a=1`); arrays and JSON are strings there, a VARIADIC
/// argument repeats.
fn query_param(p: &Param) -> Value {
    let mut param = Map::new();
    param.insert("name".into(), json!(p.name));
    param.insert("required".into(), json!(p.required));
    param.insert("in".into(), json!("query"));
    if p.variadic {
        param.insert("type".into(), json!(swagger_type(&p.type_name).unwrap_or("string")));
        param.insert("collectionFormat".into(), json!("multi"));
        let element = p.type_name.strip_suffix("[]").unwrap_or(&p.type_name);
        let mut items = Map::new();
        if let Some(t) = swagger_type(element) {
            items.insert("type".into(), json!(t));
        }
        items.insert("format".into(), json!(swagger_format(element)));
        param.insert("items".into(), Value::Object(items));
    } else {
        let t = match swagger_type(&p.type_name) {
            Some("array") | None => "string",
            Some(t) => t,
        };
        param.insert("type".into(), json!(t));
        param.insert("format".into(), json!(swagger_format(&p.type_name)));
    }
    Value::Object(param)
}

fn prefer(enum_values: &[&str]) -> Value {
    let mut p =
        json!({ "name": "Prefer", "description": "Preference", "required": false, "in": "header", "type": "string" });
    if !enum_values.is_empty() {
        p["enum"] = json!(enum_values);
    }
    p
}

fn query(name: &str, description: &str) -> Value {
    json!({ "name": name, "description": description, "required": false, "in": "query", "type": "string" })
}

pub(super) fn parameters(tables: &[&Table]) -> Value {
    const RETURN: [&str; 3] = ["return=representation", "return=minimal", "return=none"];
    let mut params = Map::new();
    params.insert("preferParams".into(), prefer(&[]));
    params.insert("preferReturn".into(), prefer(&RETURN));
    params.insert("preferCount".into(), prefer(&["count=none"]));
    let post: Vec<&str> =
        RETURN.iter().copied().chain(["resolution=ignore-duplicates", "resolution=merge-duplicates"]).collect();
    params.insert("preferPost".into(), prefer(&post));
    params.insert("select".into(), query("select", "Filtering Columns"));
    params.insert("on_conflict".into(), query("on_conflict", "On Conflict"));
    params.insert("order".into(), query("order", "Ordering"));
    params.insert(
        "range".into(),
        json!({ "name": "Range", "description": "Limiting and Pagination", "required": false, "in": "header", "type": "string" }),
    );
    params.insert(
        "rangeUnit".into(),
        json!({ "name": "Range-Unit", "description": "Limiting and Pagination", "required": false, "in": "header", "type": "string", "default": "items" }),
    );
    params.insert("offset".into(), query("offset", "Limiting and Pagination"));
    params.insert("limit".into(), query("limit", "Limiting and Pagination"));
    for t in tables {
        params.insert(
            format!("body.{}", t.name),
            json!({ "name": t.name, "description": t.name, "required": false, "in": "body", "schema": { "$ref": format!("#/definitions/{}", t.name) } }),
        );
        for c in &t.columns {
            let mut f = json!({ "name": c.name, "required": false, "in": "query", "type": "string" });
            if let Some(d) = &c.description {
                f["description"] = json!(d);
            }
            params.insert(format!("rowFilter.{}.{}", t.name, c.name), f);
        }
    }
    Value::Object(params)
}
