//! `/rest/v1/rpc` with a raw body, as PostgREST calls a function with a single unnamed parameter: `text/plain` →
//! `text`, `text/xml` → `xml`, `application/octet-stream` → `bytea`; such a body reaches no other parameter.

use crate::helpers::{spawn_app_with, TestApp};
use crate::rest_fixtures::{parts, SCHEMA};
use reqwest::Method;
use serde_json::json;

const FUNCTIONS: &str = r#"
create function public.shout(text) returns text language sql immutable as $$ select upper($1) $$;
create function public.xml_title(xml) returns text language sql immutable
  as $$ select t from xmltable('/job' passing $1 columns t text path 'title') $$;
create function public.byte_count(bytea) returns json language sql immutable
  as $$ select json_build_object('length', length($1), 'hex', encode($1, 'hex')) $$;
create table public.xml_inbox (id bigserial primary key, doc xml not null);
create function public.keep_xml(xml) returns bigint language sql volatile
  as $$ insert into public.xml_inbox (doc) values ($1) returning id $$;
create function public.no_args() returns int language sql immutable as $$ select 1 $$;
grant execute on function public.shout(text), public.xml_title(xml), public.byte_count(bytea), public.keep_xml(xml),
  public.no_args() to anon;
grant select, insert on public.xml_inbox to anon;
grant usage on sequence public.xml_inbox_id_seq to anon;
"#;

/// The REST fixtures and these functions in one batch (one schema change, so no reload sees half of it).
async fn app() -> TestApp {
    let app = spawn_app_with(&[]).await;
    app.admin_client().await.batch_execute(&format!("{SCHEMA}{FUNCTIONS}")).await.expect("fixtures");
    app.reload_schema().await;
    app
}

async fn post(
    app: &TestApp,
    path: &str,
    content_type: &str,
    body: impl Into<reqwest::Body>,
) -> (u16, serde_json::Value) {
    let res = app.rest(Method::POST, path).header("content-type", content_type).body(body).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    (status, body)
}

#[tokio::test]
async fn each_raw_content_type_reaches_its_parameter_type() {
    let app = app().await;
    assert_eq!(post(&app, "/rpc/shout", "text/plain", "hello £5").await, (200, json!("HELLO £5")));
    let doc = r#"<?xml version="1.0" encoding="UTF-8"?><job><title><![CDATA[Site Manager & Co]]></title></job>"#;
    assert_eq!(post(&app, "/rpc/xml_title", "text/xml; charset=utf-8", doc).await, (200, json!("Site Manager & Co")));
    let bytes: Vec<u8> = vec![0, 255, 16, b'a'];
    assert_eq!(
        post(&app, "/rpc/byte_count", "application/octet-stream", bytes).await,
        (200, json!({"length": 4, "hex": "00ff1061"}))
    );
    // A volatile function writes in a read-write transaction.
    assert_eq!(post(&app, "/rpc/keep_xml", "text/xml", "<a>1</a>").await, (200, json!(1)));
    let rows = app.admin_client().await.query("select doc::text from public.xml_inbox", &[]).await.unwrap();
    assert_eq!(rows[0].get::<_, String>(0), "<a>1</a>");
}

#[tokio::test]
async fn a_raw_body_never_reaches_another_type_or_named_parameters() {
    let app = app().await;
    let (status, body) = post(&app, "/rpc/shout", "text/xml", "<a/>").await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(
        body,
        json!({
            "code": "PGRST202",
            "message": "Could not find the function public.shout in the schema cache",
            "details": "Searched for the function public.shout with a single unnamed xml parameter, but no matches were found in the schema cache.",
            "hint": null
        })
    );
    let (status, body) = post(&app, "/rpc/no_args", "text/plain", "").await;
    assert_eq!((status, body["code"].clone()), (404, json!("PGRST202")));
    let (status, body) = post(&app, "/rpc/get_status", "text/plain", "supabot").await;
    assert_eq!((status, body["code"].clone()), (404, json!("PGRST202")));
    // A JSON body reaches a single unnamed text parameter as its JSON text, as PostgREST passes it.
    let (status, body) = post(&app, "/rpc/shout", "application/json", "\"x\"").await;
    assert_eq!((status, body), (200, json!("\"X\"")));
}

#[tokio::test]
async fn malformed_xml_and_invalid_text_are_refused_and_change_nothing() {
    let app = app().await;
    let (status, body) = post(&app, "/rpc/keep_xml", "text/xml", "<job><title>unclosed</job>").await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["code"], "2200N");
    let (status, body) = post(&app, "/rpc/shout", "text/plain", vec![0xff, 0xfe, b'a']).await;
    assert_eq!((status, body["code"].clone()), (400, json!("PGRST102")), "{body}");
    let (status, body) =
        post(&app, "/rpc/keep_xml", "text/xml", vec![b'<', b'a', b'>', 0xc3, b'<', b'/', b'a', b'>']).await;
    assert_eq!((status, body["code"].clone()), (400, json!("PGRST102")), "{body}");
    let rows = app.admin_client().await.query("select count(*) from public.xml_inbox", &[]).await.unwrap();
    assert_eq!(rows[0].get::<_, i64>(0), 0);
}
