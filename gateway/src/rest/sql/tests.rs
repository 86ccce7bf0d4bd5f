//! Plan + SQL without a database: requests go through the real parser and planner against a hand-built schema
//! cache; the SQL must name every value through a `$n` placeholder and bind exactly as many parameters.

use crate::rest::plan::{self, Plan, PlanContext, ReadLimits};
use crate::rest::request::{self, ParseConfig, Resource};
use crate::rest::schema_cache::*;
use bytes::Bytes;
use http::{HeaderMap, Method};

fn table(name: &str, cols: &[(&str, &str)], pk: &[&str]) -> Table {
    Table {
        name: QualifiedName::new("public", name),
        is_view: false,
        columns: cols
            .iter()
            .map(|(n, t)| Column { name: n.to_string(), data_type: t.to_string(), nullable: true, default: None })
            .collect(),
        primary_key: pk.iter().map(|s| s.to_string()).collect(),
        visible_to: vec!["anon".into()],
        plain_insert: false,
    }
}

fn cache() -> SchemaCache {
    let users =
        table("users", &[("username", "text"), ("status", "text"), ("data", "jsonb"), ("fts", "text")], &["username"]);
    let messages = table("messages", &[("id", "bigint"), ("message", "text"), ("username", "text")], &["id"]);
    let q = |n: &str| QualifiedName::new("public", n);
    let rel_m2o = Relationship {
        source: q("messages"),
        target: q("users"),
        constraint: "messages_username_fkey".into(),
        columns: vec![("username".into(), "username".into())],
        cardinality: Cardinality::M2O,
        via_view: false,
    };
    let rel_o2m = Relationship {
        source: q("users"),
        target: q("messages"),
        constraint: "messages_username_fkey".into(),
        columns: vec![("username".into(), "username".into())],
        cardinality: Cardinality::O2M,
        via_view: false,
    };
    let routine = Routine {
        name: q("add"),
        row_param: None,
        rows_one: false,
        params: vec![
            RoutineParam { name: "a".into(), data_type: "integer".into(), has_default: false, variadic: false },
            RoutineParam { name: "b".into(), data_type: "integer".into(), has_default: true, variadic: false },
        ],
        returns: ReturnShape::Scalar { set: false, void: false },
        return_type: "integer".into(),
        volatility: Volatility::Immutable,
        visible_to: vec!["anon".into()],
    };
    SchemaCache {
        tables: [(q("users"), users), (q("messages"), messages)].into_iter().collect(),
        relationships: [(q("messages"), vec![rel_m2o]), (q("users"), vec![rel_o2m])].into_iter().collect(),
        routines: [(q("add"), vec![routine])].into_iter().collect(),
        ..SchemaCache::default()
    }
}

fn statement(
    method: Method,
    resource: Resource,
    query: &str,
    headers: &[(&'static str, &str)],
    body: &str,
) -> super::Statement {
    statement_in(cache(), method, resource, query, headers, body)
}

fn statement_in(
    cache: SchemaCache,
    method: Method,
    resource: Resource,
    query: &str,
    headers: &[(&'static str, &str)],
    body: &str,
) -> super::Statement {
    let mut h = HeaderMap::new();
    for (k, v) in headers {
        h.append(*k, v.parse().unwrap());
    }
    let schemas = vec!["public".to_string()];
    let settings = ParseConfig { schemas: &schemas, plan_enabled: false };
    let req = request::parse(&method, resource, Some(query), &h, Bytes::from(body.to_string()), &settings).unwrap();
    let ctx = PlanContext { limits: ReadLimits { max_rows: Some(1000), aggregates_enabled: true }, role: "anon" };
    match plan::plan(&req, &cache, &ctx).unwrap() {
        Plan::Read(p) => super::read_statement(&cache, &p, &req.media),
        Plan::Mutate(p) => super::mutate::mutate_statement(&cache, &p, &req.media, body, false),
        Plan::Call(p) => super::call::call_statement(&cache, &p, &req.media, body),
    }
}

/// The highest `$n` in the SQL.
fn max_placeholder(sql: &str) -> usize {
    let b = sql.as_bytes();
    let mut max = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' {
            let start = i + 1;
            let mut j = start;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j > start {
                max = max.max(sql[start..j].parse().unwrap());
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    max
}

fn users() -> Resource {
    Resource::Relation("users".into())
}

#[test]
fn read_binds_every_value() {
    let s = statement(
        Method::GET,
        users(),
        "select=username,data->a->>b,messages(id)&status=eq.ON'LINE&username=in.(a,b)&or=(status.is.null,username.like.*x)&messages.id=gt.1&data->a->>b=eq.z&order=username&limit=5&offset=2",
        &[("prefer", "count=exact")],
        "",
    );
    assert_eq!(max_placeholder(&s.sql), s.params.len());
    // values never appear in the SQL text
    assert!(!s.sql.contains("ON'LINE") && !s.sql.contains("%x"));
    assert!(s.sql.contains("\"public\".\"users\".\"status\" = $"));
    assert!(s.sql.contains("LEFT JOIN LATERAL (SELECT json_agg(\"users_messages_1\") AS"));
    assert!(s.sql.contains("FROM \"public\".\"messages\" AS \"messages_1\""));
    assert!(s.sql.contains("pgrst_source_count"));
    // the json key "b" is bound once and reused by the filter and the select
    let b_params = s.params.iter().filter(|p| p.0.as_deref() == Some("b")).count();
    assert_eq!(b_params, 1);
}

#[test]
fn writes_bind_the_body_once() {
    let body = r#"[{"username":"x","status":"y"}]"#;
    let s = statement(
        Method::POST,
        users(),
        "select=username",
        &[("prefer", "return=representation, resolution=merge-duplicates")],
        body,
    );
    assert_eq!(max_placeholder(&s.sql), s.params.len());
    assert_eq!(s.params.iter().filter(|p| p.0.as_deref() == Some(body)).count(), 1);
    assert!(s.sql.contains("ON CONFLICT(\"username\") DO UPDATE SET "));
    assert!(s.sql.contains("\"username\" = EXCLUDED.\"username\""));
    let s = statement(Method::PATCH, users(), "username=eq.x", &[], r#"{"status":"z"}"#);
    assert_eq!((max_placeholder(&s.sql), s.params.len()), (2, 2));
    assert!(s.sql.contains("RETURNING 1"));
    let s = statement(Method::DELETE, users(), "username=eq.x&status=not.is.null", &[], "");
    assert_eq!((max_placeholder(&s.sql), s.params.len()), (1, 1));
}

#[test]
fn calls_bind_arguments() {
    let s = statement(Method::GET, Resource::Routine("add".into()), "a=1&b=2", &[], "");
    assert_eq!((max_placeholder(&s.sql), s.params.len()), (2, 2));
    assert!(s.sql.contains("\"a\" := $1::integer, \"b\" := $2::integer"));
    let s = statement(Method::POST, Resource::Routine("add".into()), "", &[], r#"{"a":1}"#);
    assert_eq!((max_placeholder(&s.sql), s.params.len()), (1, 1));
    assert!(s.sql.contains("json_to_record(pgrst_payload.json_data) AS _(\"a\" integer)"));
}

#[test]
fn identifiers_from_the_request_are_quoted() {
    let s = statement(Method::GET, users(), "select=%22a%5C%22b%22:username", &[], "");
    assert!(s.sql.contains("AS \"a\"\"b\""), "{}", s.sql);
}

#[test]
fn estimated_count_stops_one_row_past_max_rows() {
    let s = statement(Method::GET, users(), "select=username", &[("prefer", "count=estimated")], "");
    assert!(s.sql.contains("pgrst_source_count AS (SELECT 1 FROM \"public\".\"users\" LIMIT 1001)"), "{}", s.sql);
    let exact = statement(Method::GET, users(), "select=username", &[("prefer", "count=exact")], "");
    assert!(!exact.sql.contains("LIMIT 1001"));
}

#[test]
fn estimated_count_is_exact_up_to_the_cap_then_the_estimate() {
    use super::choose_count;
    assert_eq!(choose_count(Some(7), Some(1000), Some(9)), Some(7));
    assert_eq!(choose_count(Some(1000), Some(1000), Some(5000)), Some(1000));
    assert_eq!(choose_count(Some(1001), Some(1000), Some(5000)), Some(5000));
    // count=planned has no cap: always the estimate
    assert_eq!(choose_count(Some(7), None, Some(9)), Some(9));
}

#[test]
fn a_page_size_is_written_into_the_sql_and_its_offset_bound() {
    // PostgreSQL can cost (and so reuse) a generic plan only for a LIMIT it sees; offsets are many, so bound
    let s =
        statement(Method::GET, users(), "select=username,messages(id)&messages.limit=3&limit=25&offset=50", &[], "");
    assert!(s.sql.contains(" LIMIT 25 OFFSET $"), "{}", s.sql);
    assert!(s.sql.contains(" LIMIT 3)"), "{}", s.sql);
    assert_eq!(max_placeholder(&s.sql), s.params.len());
    assert!(s.params.iter().any(|p| p.0.as_deref() == Some("50")));
    assert!(!s.params.iter().any(|p| p.0.as_deref() == Some("25") || p.0.as_deref() == Some("3")));
}

/// The statements of the benchmarked requests (`tests/bench`: GET by key, a page with a to-many embed, a minimal
/// insert) word for word: the builder's speed-ups must not change what PostgreSQL parses and plans.
#[test]
fn the_benchmarked_shapes_keep_their_sql_text() {
    // what every read statement ends with, after its `pgrst_source`
    const READ_TAIL: &str = concat!(
        r#" SELECT NULL::bigint AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total,"#,
        r#" coalesce(json_agg(_postgrest_t), '[]')::text AS body, nullif(current_setting('response.headers',"#,
        r#" true), '') AS response_headers, nullif(current_setting('response.status', true), '') AS"#,
        r#" response_status, NULL::int AS response_inserted FROM (SELECT * FROM pgrst_source) _postgrest_t"#,
    );
    let get = statement(Method::GET, users(), "select=*&username=eq.x", &[], "");
    let source = concat!(
        r#"WITH pgrst_source AS (SELECT "public"."users".* FROM "public"."users" WHERE"#,
        r#" "public"."users"."username" = $1 LIMIT 1000)"#,
    );
    assert_eq!(get.sql, [source, READ_TAIL].concat());
    let page = "select=username,status,messages(id,message)&username=gte.a&order=username.asc&limit=25";
    let page = statement(Method::GET, users(), page, &[], "");
    let source = concat!(
        r#"WITH pgrst_source AS (SELECT "public"."users"."username" AS "username","#,
        r#" "public"."users"."status" AS "status", COALESCE("users_messages_1"."users_messages_1","#,
        r#" '[]') AS "messages" FROM "public"."users" LEFT JOIN LATERAL (SELECT"#,
        r#" json_agg("users_messages_1") AS "users_messages_1" FROM (SELECT "messages_1"."id" AS"#,
        r#" "id", "messages_1"."message" AS "message" FROM "public"."messages" AS "messages_1" WHERE"#,
        r#" "messages_1"."username" = "public"."users"."username" LIMIT 1000) AS "users_messages_1")"#,
        r#" AS "users_messages_1" ON TRUE WHERE "public"."users"."username" >= $1 ORDER BY"#,
        r#" "public"."users"."username" ASC LIMIT 25)"#,
    );
    assert_eq!(page.sql, [source, READ_TAIL].concat());
    let insert = statement(Method::POST, users(), "", &[], r#"{"username":"x","status":"y"}"#);
    assert_eq!(
        insert.sql,
        concat!(
            r#"WITH pgrst_source AS (INSERT INTO "public"."users"("status", "username") SELECT"#,
            r#" pgrst_body."status", pgrst_body."username" FROM (SELECT $1::json AS json_data)"#,
            r#" pgrst_payload, LATERAL json_array_elements(CASE WHEN json_typeof(pgrst_payload.json_data)"#,
            r#" = 'array' THEN pgrst_payload.json_data ELSE json_build_array(pgrst_payload.json_data)"#,
            r#" END) pgrst_elem, LATERAL (SELECT "status", "username" FROM"#,
            r#" json_to_record(pgrst_elem.value) AS _("status" text, "username" text)) pgrst_body"#,
            r#" RETURNING 1) SELECT NULL::bigint AS total_result_set, pg_catalog.count(_postgrest_t) AS"#,
            r#" page_total, '' AS body, nullif(current_setting('response.headers', true), '') AS"#,
            r#" response_headers, nullif(current_setting('response.status', true), '') AS"#,
            r#" response_status, nullif(current_setting('pgrst.inserted', true), '')::int AS"#,
            r#" response_inserted FROM (SELECT 1 FROM pgrst_source) _postgrest_t"#,
        )
    );
}

/// One object into a plain table (no row-skipping trigger or rule), answered without a representation: the INSERT
/// alone, its RETURNING giving the six columns the wrapper would; anything else keeps the wrapper.
#[test]
fn a_minimal_insert_into_a_plain_table_skips_the_wrapper() {
    let mut plain = cache();
    plain.tables.values_mut().for_each(|t| t.plain_insert = true);
    let post = |query: &str, headers: &[(&'static str, &str)], body: &str| {
        statement_in(plain.clone(), Method::POST, users(), query, headers, body)
    };
    let lean = post("", &[], r#"  {"username":"x","status":"y"}"#);
    assert_eq!(
        lean.sql,
        concat!(
            r#"INSERT INTO "public"."users"("status", "username") SELECT "status", "username" FROM"#,
            r#" json_to_record($1::json) AS _("status" text, "username" text) RETURNING NULL::bigint AS"#,
            r#" total_result_set, 1::bigint AS page_total, ''::text AS body,"#,
            r#" nullif(current_setting('response.headers', true), '') AS response_headers,"#,
            r#" nullif(current_setting('response.status', true), '') AS response_status, NULL::int AS"#,
            r#" response_inserted"#,
        )
    );
    assert_eq!((max_placeholder(&lean.sql), lean.params.len()), (1, 1));
    let one = r#"{"username":"x"}"#;
    let wrapped = [
        post("", &[], r#"[{"username":"x"}]"#),
        post("", &[("prefer", "return=representation")], one),
        post("", &[("prefer", "resolution=ignore-duplicates")], one),
        post("", &[("prefer", "missing=default")], one),
        statement(Method::POST, users(), "", &[], one),
    ];
    for s in wrapped {
        assert!(s.sql.starts_with("WITH pgrst_source AS (INSERT"), "{}", s.sql);
    }
}
