//! `/rest/v1` reads: filters, logic trees, order, ranges, counts, singular responses, profiles and errors.

use crate::rest_fixtures::{parts, rest_app, rest_app_with, user_token};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn reads_with_filters_order_and_limit() {
    let app = rest_app().await;
    let (status, headers, body) = parts(
        app.rest(Method::GET, "/users?select=username,status&status=eq.ONLINE&order=username.asc&limit=2")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "application/json; charset=utf-8");
    assert_eq!(headers["content-range"], "0-1/*");
    assert_eq!(body, json!([{"username":"awailas","status":"ONLINE"},{"username":"dragarcia","status":"ONLINE"}]));
}

#[tokio::test]
async fn every_common_operator_filters() {
    let app = rest_app().await;
    let cases: &[(&str, serde_json::Value)] = &[
        ("username=in.(supabot,awailas)&order=username", json!(["awailas", "supabot"])),
        ("username=not.in.(supabot,awailas)&order=username", json!(["dragarcia", "kiwicopple"])),
        ("username=like.*bot", json!(["supabot"])),
        ("username=ilike.*BOT", json!(["supabot"])),
        ("username=match.^kiwi", json!(["kiwicopple"])),
        ("username=imatch.^KIWI", json!(["kiwicopple"])),
        ("data=is.null&order=username", json!(["awailas", "dragarcia"])),
        ("data=not.is.null&order=username", json!(["kiwicopple", "supabot"])),
        ("status=neq.ONLINE", json!(["kiwicopple"])),
        ("status=isdistinct.ONLINE", json!(["kiwicopple"])),
        ("age_range=ov.[1,2)", json!(["supabot"])),
        ("age_range=sl.(10,20)", json!(["supabot"])),
        ("age_range=adj.[2,5)", json!(["supabot"])),
        ("tags=cs.{a}", json!(["supabot"])),
        ("tags=cd.{a,b,c}&order=username", json!(["awailas", "kiwicopple", "supabot"])),
        ("catchphrase=fts(english).cat&order=username", json!(["kiwicopple", "supabot"])),
        ("catchphrase=plfts.rat&order=username", json!(["dragarcia", "supabot"])),
        ("catchphrase=wfts(english).fat cats", json!(["supabot"])),
        ("data->foo->>baz=eq.string value", json!(["supabot"])),
        ("data->foo->bar=gt.1", json!(["kiwicopple"])),
        ("username=like(any).{*bot,kiwi*}&order=username", json!(["kiwicopple", "supabot"])),
        ("username=gte.s", json!(["supabot"])),
        (
            "or=(username.eq.awailas,and(status.eq.OFFLINE,username.like.kiwi*))&order=username",
            json!(["awailas", "kiwicopple"]),
        ),
        ("not.or=(status.eq.ONLINE,username.eq.x)", json!(["kiwicopple"])),
        ("username=eq.supabot&username=neq.x", json!(["supabot"])),
    ];
    for (query, expected) in cases {
        let (status, _, body) =
            parts(app.rest(Method::GET, &format!("/users?select=username&{query}")).send().await.unwrap()).await;
        assert_eq!(status, 200, "{query}: {body}");
        let names: Vec<_> = body.as_array().unwrap().iter().map(|r| r["username"].clone()).collect();
        assert_eq!(json!(names), *expected, "{query}");
    }
}

#[tokio::test]
async fn selects_aliases_casts_json_paths_and_quoted_names() {
    let app = rest_app().await;
    let (status, _, body) = parts(
        app.rest(
            Method::GET,
            "/users?select=name:username,bar:data->foo->bar,baz:data->foo->>baz,r:age_range::text&username=eq.supabot",
        )
        .send()
        .await
        .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!([{"name":"supabot","bar":1,"baz":"string value","r":"[1,2)"}]));
    let (status, _, body) =
        parts(app.rest(Method::GET, "/weird%20table?select=%22my%20col%22").send().await.unwrap()).await;
    assert_eq!((status, body), (200, json!([{"my col":"spaced"}])));
}

#[tokio::test]
async fn counts_and_ranges() {
    let app = rest_app().await;
    let res = app
        .rest(Method::GET, "/users?select=username&offset=1&limit=2")
        .header("prefer", "count=exact")
        .send()
        .await
        .unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!(status, 206);
    assert_eq!(headers["content-range"], "1-2/4");
    assert_eq!(headers["preference-applied"], "count=exact");
    assert_eq!(body.as_array().unwrap().len(), 2);

    let res = app.rest(Method::HEAD, "/users?select=*").header("prefer", "count=exact").send().await.unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!((status, body), (200, serde_json::Value::Null));
    assert_eq!(headers["content-range"], "0-3/4");

    let res = app.rest(Method::GET, "/users?offset=10").header("prefer", "count=exact").send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!(status, 416);
    assert_eq!(body["code"], "PGRST103");
    assert_eq!(body["details"], "An offset of 10 was requested, but there are only 4 rows.");

    let res = app.rest(Method::GET, "/users?select=username").header("range", "0-1").send().await.unwrap();
    let (status, headers, _) = parts(res).await;
    assert_eq!((status, headers["content-range"].to_str().unwrap()), (200, "0-1/*"));

    let (status, _, body) = parts(app.rest(Method::GET, "/users?limit=-1").send().await.unwrap()).await;
    assert_eq!((status, body["code"].as_str()), (416, Some("PGRST103")));
}

#[tokio::test]
async fn max_rows_caps_reads() {
    let app = rest_app_with(&[("PGRST_DB_MAX_ROWS", "2")]).await;
    let (status, _, body) = parts(app.rest(Method::GET, "/users?limit=3").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(body.as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn singular_responses() {
    let app = rest_app().await;
    let accept = "application/vnd.pgrst.object+json";
    let res = app
        .rest(Method::GET, "/users?select=username&username=eq.supabot")
        .header("accept", accept)
        .send()
        .await
        .unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!((status, body), (200, json!({"username":"supabot"})));
    assert_eq!(headers["content-type"], "application/vnd.pgrst.object+json; charset=utf-8");
    let res = app.rest(Method::GET, "/users").header("accept", accept).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!(status, 406);
    assert_eq!(
        body,
        json!({"code":"PGRST116","details":"The result contains 4 rows","hint":null,"message":"Cannot coerce the result to a single JSON object"})
    );
}

#[tokio::test]
async fn errors_have_postgrest_shapes() {
    let app = rest_app().await;
    let (status, _, body) = parts(app.rest(Method::GET, "/nope").send().await.unwrap()).await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "PGRST205");
    assert_eq!(body["message"], "Could not find the table 'public.nope' in the schema cache");

    let (status, _, body) = parts(app.rest(Method::GET, "/user").send().await.unwrap()).await;
    assert_eq!(status, 404);
    assert_eq!(body["hint"], "Perhaps you meant the table 'public.users'");

    // a table the role cannot see is never suggested
    let (_, _, body) = parts(app.rest(Method::GET, "/secret").send().await.unwrap()).await;
    assert_eq!(body["hint"], serde_json::Value::Null);

    let (status, _, body) = parts(app.rest(Method::GET, "/users?select=nope").send().await.unwrap()).await;
    assert_eq!(status, 400);
    assert_eq!(body, json!({"code":"42703","details":null,"hint":null,"message":"column users.nope does not exist"}));

    let (status, _, body) = parts(app.rest(Method::GET, "/users?id=eqq.5").send().await.unwrap()).await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "PGRST100");

    let (status, _, body) = parts(app.rest(Method::GET, "/secrets").send().await.unwrap()).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("42501")));

    let res = app.rest(Method::GET, "/users").header("accept-profile", "auth").send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!(status, 406);
    assert_eq!(body["code"], "PGRST106");
    assert_eq!(body["message"], "Invalid schema: auth");

    let res = app.rest(Method::GET, "/users").header("accept", "text/html").send().await.unwrap();
    assert_eq!(res.status(), 406);

    let (status, _, body) = parts(app.rest(Method::GET, "/rpc/x/y").send().await.unwrap()).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("PGRST125")));
}

#[tokio::test]
async fn injection_attempts_are_quoted_or_rejected() {
    let app = rest_app().await;
    let (status, _, body) =
        parts(app.rest(Method::GET, "/users%22;drop%20table%20users;--").send().await.unwrap()).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("PGRST205")));
    let (status, _, _) =
        parts(app.rest(Method::GET, "/users?select=username,(select%201)").send().await.unwrap()).await;
    assert_eq!(status, 400);
    let (status, _, body) =
        parts(app.rest(Method::GET, "/users?username=eq.1)or(1=1&select=username").send().await.unwrap()).await;
    assert_eq!((status, body), (200, json!([])));
    let (status, _, _) =
        parts(app.rest(Method::GET, "/users?select=username::text)%20from%20users--").send().await.unwrap()).await;
    assert_eq!(status, 400);
    let n: i64 = app.admin_client().await.query_one("select count(*) from users", &[]).await.unwrap().get(0);
    assert_eq!(n, 4);
}

#[tokio::test]
async fn identity_and_rls() {
    let app = rest_app().await;
    let (status, _, body) = parts(app.rest(Method::GET, "/notes?select=body").send().await.unwrap()).await;
    assert_eq!((status, body), (200, json!([])));

    let token = user_token(&app, "00000000-0000-0000-0000-000000000001");
    let res = app.rest_as(Method::GET, "/notes?select=body", &token).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body), (200, json!([{"body":"mine"}])));

    let res =
        app.rest_as(Method::GET, "/notes?select=body", &token).header("prefer", "count=exact").send().await.unwrap();
    assert_eq!(res.headers()["content-range"], "0-0/1");

    let res = app.rest_as(Method::GET, "/users", "not.a.jwt").send().await.unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!(status, 401);
    assert_eq!(body["code"], "PGRST301");
    assert!(headers["www-authenticate"].to_str().unwrap().starts_with("Bearer error=\"invalid_token\""));

    let res = app.rest_as(Method::GET, "/users", "abc").send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body["message"].as_str()), (401, Some("Expected 3 parts in JWT; got 1")));
}

#[tokio::test]
async fn preamble_sets_role_claims_and_role_settings() {
    let app = rest_app().await;
    let token = user_token(&app, "00000000-0000-0000-0000-000000000001");
    let res = app.rest_as(Method::GET, "/rpc/whoami", &token).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({"role":"authenticated","sub":"00000000-0000-0000-0000-000000000001","path":"/rpc/whoami","method":"GET","timeout":"8s"})
    );
    let (_, _, body) = parts(app.rest(Method::GET, "/rpc/whoami").send().await.unwrap()).await;
    assert_eq!(body["role"], "anon");
    assert_eq!(body["timeout"], "3s");
}

#[tokio::test]
async fn cors_preflight_and_exposed_headers() {
    let app = rest_app().await;
    let res = app
        .http
        .request(Method::OPTIONS, app.url("/rest/v1/users"))
        .header("origin", "http://localhost:5173")
        .header("access-control-request-method", "GET")
        .header("access-control-request-headers", "apikey, authorization, x-client-info, accept-profile, prefer")
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
    assert_eq!(res.headers()["access-control-allow-origin"], "*");
    assert_eq!(res.headers()["allow"], "OPTIONS,GET,HEAD,POST,PUT,PATCH,DELETE", "a preflight answered by CORS");
    let allowed = res.headers()["access-control-allow-headers"].to_str().unwrap().to_ascii_lowercase();
    assert!(allowed.contains("apikey") && allowed.contains("prefer"), "{allowed}");

    let res =
        app.rest(Method::GET, "/users?select=username").header("origin", "http://localhost:5173").send().await.unwrap();
    let exposed = res.headers()["access-control-expose-headers"].to_str().unwrap().to_ascii_lowercase();
    assert!(exposed.contains("content-range") && exposed.contains("content-profile"), "{exposed}");
    assert!(!res.headers().contains_key("allow"), "Allow only answers OPTIONS");

    let res = app.http.request(Method::OPTIONS, app.url("/rest/v1/users")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.headers().contains_key("allow"));
}

#[tokio::test]
async fn schema_reloads_after_ddl() {
    let app = rest_app().await;
    let admin = app.admin_client().await;
    admin.batch_execute("create table public.later (id int); grant select on public.later to anon; insert into public.later values (7);").await.unwrap();
    // the event trigger notifies; the listener rebuilds in the background — wait for it, bounded
    let mut last = 0;
    for _ in 0..100 {
        let res = app.rest(Method::GET, "/later").send().await.unwrap();
        last = res.status().as_u16();
        if last == 200 {
            assert_eq!(res.json::<serde_json::Value>().await.unwrap(), json!([{"id":7}]));
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("schema cache never reloaded (last status {last})");
}

#[tokio::test]
async fn timezone_preference_applies_known_zones() {
    let app = rest_app().await;
    app.admin_client()
        .await
        .batch_execute(
            "create function public.tz() returns text language sql stable as $$ select current_setting('timezone') $$;
             grant execute on function public.tz() to anon;",
        )
        .await
        .unwrap();
    app.reload_schema().await;
    let res = app.rest(Method::GET, "/rpc/tz").header("prefer", "timezone=Asia/Tokyo").send().await.unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!((status, body), (200, json!("Asia/Tokyo")));
    assert_eq!(headers["preference-applied"], "timezone=Asia/Tokyo");
    let res = app.rest(Method::GET, "/rpc/tz").header("prefer", "timezone=Mars/Olympus").send().await.unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!(status, 200);
    assert_ne!(body, json!("Mars/Olympus"));
    assert!(!headers.contains_key("preference-applied"));
}

#[tokio::test]
async fn hostile_query_strings_never_cause_server_errors() {
    let app = rest_app().await;
    let paths = [
        "/users?select=",
        "/users?select=*,*",
        "/users?select=username::",
        "/users?select=username::text)%20--",
        "/users?select=messages(*,messages(*,messages(*)))",
        "/users?select=a:b:c",
        "/users?select=data->",
        "/users?select=data->>%27x",
        "/users?select=%22unterminated",
        "/users?select=...",
        "/users?select=count().sum()",
        "/users?order=",
        "/users?order=username.desc.desc",
        "/users?order=messages(id",
        "/users?limit=abc",
        "/users?offset=-5",
        "/users?limit=99999999999999999999",
        "/users?or=",
        "/users?or=(",
        "/users?or=(a.eq.1,",
        "/users?and=(or(and(or(x.eq.1))))",
        "/users?username=in.",
        "/users?username=in.(%22a)",
        "/users?username=is.",
        "/users?username=fts(%27english).x",
        "/users?username=eq",
        "/users?username=not.",
        "/users?username=like(any).x",
        "/users?data->a->=eq.1",
        "/users?..=eq.1",
        "/users?a.b.c.d=eq.1",
        "/users?select=username&username=eq.%00",
        "/users?tags=cs.%7Bunclosed",
        "/users?age_range=ov.not-a-range",
        "/users?columns=%22x",
        "/users?on_conflict=,",
        "/rpc/add_them?a=not-a-number",
        "/rpc/add_them?a=1&a=2",
        "/rpc/numbers?n=-1&limit=-1",
        "/%00",
        "/users%2Fmessages",
    ];
    for p in paths {
        let res = app.rest(Method::GET, p).send().await.unwrap();
        let status = res.status().as_u16();
        let body = res.text().await.unwrap();
        assert!(status < 500, "{p} → {status} {body}");
    }
    for body in ["", "null", "[", "[1,2]", "\"x\"", "{\"slug\":{\"nested\":true}}", "[{}]", "{}"] {
        let res = app
            .rest(Method::POST, "/channels")
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let status = res.status().as_u16();
        assert!(status < 500, "POST {body} → {status} {}", res.text().await.unwrap());
    }
}

#[tokio::test]
async fn pre_request_function_runs_before_every_statement() {
    let app = rest_app_with(&[("PGRST_DB_PRE_REQUEST", "public.check_request")]).await;
    app.admin_client()
        .await
        .batch_execute(
            r#"create function public.check_request() returns void language plpgsql as $$
               begin
                 if current_setting('request.headers', true)::json->>'x-blocked' = 'yes' then
                   raise sqlstate 'PGRST' using message = '{"code":"BLK","message":"blocked"}', detail = '{"status":403}';
                 end if;
               end $$;
               grant execute on function public.check_request() to anon;"#,
        )
        .await
        .unwrap();
    let (status, _, _) = parts(app.rest(Method::GET, "/users?select=username").send().await.unwrap()).await;
    assert_eq!(status, 200);
    let res = app.rest(Method::GET, "/users?select=username").header("x-blocked", "yes").send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body), (403, json!({"code":"BLK","details":null,"hint":null,"message":"blocked"})));
}

#[tokio::test]
async fn csv_and_geojson_media_types() {
    let app = rest_app().await;
    let res =
        app.rest(Method::GET, "/channels?select=id,slug&order=id").header("accept", "text/csv").send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "text/csv; charset=utf-8");
    assert_eq!(res.text().await.unwrap(), "id,slug\n1,public\n2,random");
    // without PostGIS there is no GeoJSON rendering
    let res = app.rest(Method::GET, "/channels").header("accept", "application/geo+json").send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body["code"].as_str()), (406, Some("PGRST107")));
}

#[tokio::test]
async fn plans_need_the_setting_and_show_query_identifiers() {
    let app = rest_app().await;
    let accept = "application/vnd.pgrst.plan+json; for=\"application/json\"; options=verbose";
    let res = app.rest(Method::GET, "/users?select=username").header("accept", accept).send().await.unwrap();
    assert_eq!(res.status(), 406);
    let app = rest_app_with(&[("PGRST_DB_PLAN_ENABLED", "true")]).await;
    let res = app.rest(Method::GET, "/users?select=username").header("accept", accept).send().await.unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(headers["content-type"], "application/vnd.pgrst.plan+json; for=\"application/json\"; charset=utf-8");
    assert!(body[0]["Plan"].is_object(), "{body}");
    assert!(body[0]["Query Identifier"].is_number(), "{body}");
    let res = app
        .rest(Method::GET, "/users?select=username")
        .header("accept", "application/vnd.pgrst.plan+text; for=\"application/json\"")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.text().await.unwrap().contains("Seq Scan"));
}

/// J11: a flood of unique valid tokens (every one a cache miss) is served, and the identity cache stays bounded.
#[tokio::test]
async fn unique_tokens_are_all_verified_and_the_cache_stays_bounded() {
    let app = rest_app().await;
    let capacity = gateway::core::identity::cache::CAPACITY;
    let tokens: Vec<String> = (0..capacity + 50).map(|i| user_token(&app, &format!("flood-{i}"))).collect();
    for chunk in tokens.chunks(64) {
        let requests = chunk.iter().map(|t| app.rest_as(Method::GET, "/users?select=username&limit=1", t).send());
        for res in futures::future::join_all(requests).await {
            assert_eq!(res.unwrap().status(), 200);
        }
    }
    assert_eq!(app.state.core.identities.len(), capacity);
}
