//! `/rest/v1` writes: insert (single, bulk, `columns`, `missing=default`), upsert (merge/ignore, `on_conflict`),
//! update, delete, `Prefer: return=…`, singular writes, `max-affected`, `tx=rollback`, RLS and errors.

use crate::rest_fixtures::{parts, rest_app, rest_app_with, user_token};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn inserts_single_and_bulk() {
    let app = rest_app().await;
    let res = app.rest(Method::POST, "/channels").json(&json!({"slug":"new"})).send().await.unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!((status, body), (201, serde_json::Value::Null));
    assert_eq!(headers["content-range"], "*/*");
    assert!(!headers.contains_key("content-type"));

    let res = app
        .rest(Method::POST, "/channels?columns=%22slug%22&select=slug")
        .header("prefer", "return=representation")
        .json(&json!([{"slug":"a"},{"slug":"b","extra":1}]))
        .send()
        .await
        .unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!((status, body), (201, json!([{"slug":"a"},{"slug":"b"}])));
    assert_eq!(headers["preference-applied"], "return=representation");

    let res = app.rest(Method::POST, "/channels").json(&json!([{"slug":"x"},{"id":9}])).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("All object keys must match")));

    let res = app.rest(Method::POST, "/channels").json(&json!({"nope":1})).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!(status, 400);
    assert_eq!(
        body,
        json!({"code":"PGRST204","details":null,"hint":null,"message":"Could not find the 'nope' column of 'channels' in the schema cache"})
    );

    let res = app
        .rest(Method::POST, "/channels")
        .header("content-type", "application/json")
        .body("{bad")
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!(
        (status, body["code"].as_str(), body["message"].as_str()),
        (400, Some("PGRST102"), Some("Empty or invalid json"))
    );

    let res = app
        .rest(Method::POST, "/channels?select=slug")
        .header("prefer", "return=representation")
        .header("accept", "application/vnd.pgrst.object+json")
        .json(&json!({"slug":"one"}))
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body), (201, json!({"slug":"one"})));

    let res = app
        .rest(Method::POST, "/channels?select=slug")
        .header("prefer", "return=representation")
        .header("accept", "application/vnd.pgrst.object+json")
        .json(&json!([{"slug":"two"},{"slug":"three"}]))
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body["code"].as_str()), (406, Some("PGRST116")));
    let n: i64 = app
        .admin_client()
        .await
        .query_one("select count(*) from channels where slug in ('two','three')", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(n, 0, "a failed singular insert is rolled back");
}

#[tokio::test]
async fn unique_violation_is_409_and_headers_only_gives_location() {
    let app = rest_app().await;
    let res = app.rest(Method::POST, "/channels").json(&json!({"id":1,"slug":"dup"})).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!(status, 409);
    assert_eq!(body["code"], "23505");
    assert_eq!(body["message"], "duplicate key value violates unique constraint \"channels_pkey\"");
    assert_eq!(body["details"], "Key (id)=(1) already exists.");

    let res = app
        .rest(Method::POST, "/channels")
        .header("prefer", "return=headers-only")
        .json(&json!({"id":50,"slug":"loc"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    assert_eq!(res.headers()["location"], "/channels?id=eq.50");
}

#[tokio::test]
async fn missing_default_uses_column_defaults() {
    let app = rest_app().await;
    let token = user_token(&app, "00000000-0000-0000-0000-000000000001");
    let res = app
        .rest_as(Method::POST, "/notes?columns=%22id%22,%22body%22&select=body,owner", &token)
        .header("prefer", "return=representation, missing=default")
        .json(&json!([{"id":100}]))
        .send()
        .await
        .unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body, json!([{"body":"empty","owner":"00000000-0000-0000-0000-000000000001"}]));
    assert_eq!(headers["preference-applied"], "missing=default, return=representation");
    // without missing=default an absent key is NULL, which the NOT NULL column rejects
    let res = app
        .rest_as(Method::POST, "/notes?columns=%22id%22,%22body%22", &token)
        .json(&json!([{"id":101}]))
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("23502")));
}

#[tokio::test]
async fn upserts_merge_or_ignore() {
    let app = rest_app().await;
    let res = app
        .rest(Method::POST, "/users?select=username,status")
        .header("prefer", "resolution=merge-duplicates, return=representation")
        .json(&json!({"username":"supabot","status":"AWAY"}))
        .send()
        .await
        .unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!((status, body), (200, json!([{"username":"supabot","status":"AWAY"}])));
    assert_eq!(headers["preference-applied"], "resolution=merge-duplicates, return=representation");

    let res = app
        .rest(Method::POST, "/users?select=username")
        .header("prefer", "resolution=merge-duplicates, return=representation")
        .json(&json!([{"username":"supabot","status":"X"},{"username":"newbie","status":"Y"}]))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);

    let res = app
        .rest(Method::POST, "/channels?on_conflict=slug&select=id,slug")
        .header("prefer", "resolution=ignore-duplicates, return=representation")
        .json(&json!({"slug":"public"}))
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body), (201, json!([])));
}

#[tokio::test]
async fn updates_and_deletes() {
    let app = rest_app().await;
    let res =
        app.rest(Method::PATCH, "/users?username=eq.awailas").json(&json!({"status":"AWAY"})).send().await.unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!((status, body), (204, serde_json::Value::Null));
    assert_eq!(headers["content-range"], "0-0/*");

    let res = app
        .rest(Method::PATCH, "/messages?id=eq.3&select=id,channel_id")
        .header("prefer", "return=representation")
        .json(&json!({"channel_id":2}))
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body), (200, json!([{"id":3,"channel_id":2}])));

    let res = app
        .rest(Method::PATCH, "/users?username=eq.nobody")
        .header("prefer", "count=exact")
        .json(&json!({"status":"A"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-range"], "*/0");

    let res = app
        .rest(Method::DELETE, "/messages?id=in.(1,2)&select=id")
        .header("prefer", "return=representation, count=exact")
        .send()
        .await
        .unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!((status, body), (200, json!([{"id":1},{"id":2}])));
    assert_eq!(headers["content-range"], "*/2");

    let res = app.rest(Method::DELETE, "/best_friends?id=eq.1").send().await.unwrap();
    assert_eq!(res.status(), 204);
    let n: i64 = app.admin_client().await.query_one("select count(*) from best_friends", &[]).await.unwrap().get(0);
    assert_eq!(n, 1);
}

#[tokio::test]
async fn rls_limits_writes() {
    let app = rest_app().await;
    let mine = user_token(&app, "00000000-0000-0000-0000-000000000001");
    // someone else's note: 0 rows affected, unchanged
    let res = app
        .rest_as(Method::PATCH, "/notes?body=eq.theirs", &mine)
        .json(&json!({"body":"hacked"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    let res = app
        .rest_as(Method::POST, "/notes", &mine)
        .json(&json!({"owner":"00000000-0000-0000-0000-000000000002","body":"forged"}))
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!(status, 403);
    assert_eq!(body["code"], "42501");
    assert_eq!(body["message"], "new row violates row-level security policy for table \"notes\"");
    let res = app.rest(Method::POST, "/notes").json(&json!({"body":"anon"})).send().await.unwrap();
    assert_eq!(res.status(), 401);
    let bodies: Vec<String> = app
        .admin_client()
        .await
        .query("select body from notes order by id", &[])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(bodies, vec!["mine", "theirs"]);
}

#[tokio::test]
async fn max_affected_and_strict_handling() {
    let app = rest_app().await;
    let res = app
        .rest(Method::PATCH, "/users?status=eq.ONLINE")
        .header("prefer", "handling=strict, max-affected=1")
        .json(&json!({"status":"X"}))
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!(status, 400);
    assert_eq!(
        body,
        json!({"code":"PGRST124","details":"The query affects 3 rows","hint":null,"message":"Query result exceeds max-affected preference constraint"})
    );
    let n: i64 =
        app.admin_client().await.query_one("select count(*) from users where status = 'X'", &[]).await.unwrap().get(0);
    assert_eq!(n, 0);
    let res = app
        .rest(Method::DELETE, "/users?username=eq.dragarcia")
        .header("prefer", "handling=strict, max-affected=1")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    let res = app.rest(Method::GET, "/users").header("prefer", "handling=strict, bogus=1").send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body["details"].as_str()), (400, Some("Invalid preferences: bogus=1")));
}

#[tokio::test]
async fn tx_rollback_is_honoured_only_when_allowed() {
    let app = rest_app().await;
    let res = app
        .rest(Method::POST, "/channels")
        .header("prefer", "tx=rollback")
        .json(&json!({"slug":"kept"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    assert!(!res.headers().contains_key("preference-applied"));
    let app2 = rest_app_with(&[("PGRST_DB_TX_END", "commit-allow-override")]).await;
    let res = app2
        .rest(Method::POST, "/channels?select=slug")
        .header("prefer", "tx=rollback, return=representation")
        .json(&json!({"slug":"gone"}))
        .send()
        .await
        .unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!((status, body), (201, json!([{"slug":"gone"}])));
    assert_eq!(headers["preference-applied"], "return=representation, tx=rollback");
    let n: i64 = app2
        .admin_client()
        .await
        .query_one("select count(*) from channels where slug = 'gone'", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(n, 0);
    let n: i64 = app
        .admin_client()
        .await
        .query_one("select count(*) from channels where slug = 'kept'", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(n, 1);
}

#[tokio::test]
async fn body_limit_is_413() {
    let app = rest_app_with(&[("GATEWAY_MAX_BODY_BYTES", "100")]).await;
    let big = json!({"slug": "x".repeat(200)});
    let res = app.rest(Method::POST, "/channels").json(&big).send().await.unwrap();
    assert_eq!(res.status(), 413);
}

#[tokio::test]
async fn insert_only_tables_accept_minimal_inserts_and_never_read_back() {
    let app = rest_app().await;
    let res = app.rest(Method::POST, "/guestbook").json(&json!({"message":"hello"})).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!(status, 201, "{body}");
    let res = app
        .rest(Method::POST, "/guestbook")
        .header("prefer", "return=representation")
        .json(&json!({"message":"again"}))
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("42501")), "{body}");
    let (status, _, body) = parts(app.rest(Method::GET, "/guestbook").send().await.unwrap()).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("42501")));
    let n: i64 = app.admin_client().await.query_one("select count(*) from guestbook", &[]).await.unwrap().get(0);
    assert_eq!(n, 1);
}

#[tokio::test]
async fn put_upserts_one_row_addressed_by_its_primary_key() {
    let app = rest_app().await;
    let res = app
        .rest(Method::PUT, "/channels?id=eq.40&select=id,slug")
        .header("prefer", "return=representation")
        .json(&json!({"id":40,"slug":"put-new"}))
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body), (201, json!([{"id":40,"slug":"put-new"}])));
    let res = app
        .rest(Method::PUT, "/channels?id=eq.40&select=slug")
        .header("prefer", "return=representation")
        .json(&json!({"id":40,"slug":"put-changed"}))
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body), (200, json!([{"slug":"put-changed"}])));
    let (status, _, body) =
        parts(app.rest(Method::PUT, "/channels?slug=eq.x").json(&json!({"id":1,"slug":"x"})).send().await.unwrap())
            .await;
    assert_eq!((status, body["code"].as_str()), (405, Some("PGRST105")));
    let (status, _, body) =
        parts(app.rest(Method::PUT, "/channels?id=eq.41").json(&json!({"id":42,"slug":"x"})).send().await.unwrap())
            .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("PGRST115")));
    let (status, _, body) = parts(
        app.rest(Method::PUT, "/channels?id=eq.41&limit=1").json(&json!({"id":41,"slug":"x"})).send().await.unwrap(),
    )
    .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("PGRST114")));
}

#[tokio::test]
async fn representations_can_embed() {
    let app = rest_app().await;
    let res = app
        .rest(Method::POST, "/messages?select=message,users(username),channels(slug)")
        .header("prefer", "return=representation")
        .json(&json!({"message":"embedded","channel_id":2,"username":"awailas"}))
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body, json!([{"message":"embedded","users":{"username":"awailas"},"channels":{"slug":"random"}}]));
}

/// Under column grants a write reads back only the columns it selects (PostgREST's RETURNING list), so a role may
/// insert or update a row whose other columns it cannot see; `select=*` still needs every column.
#[tokio::test]
async fn representation_under_column_grants_returns_only_the_selected_columns() {
    let app = rest_app().await;
    app.admin_client()
        .await
        .batch_execute(
            "create table public.people (id bigserial primary key, alias text, secret text);
             grant insert, update on public.people to anon;
             grant select (id, alias) on public.people to anon;
             grant usage on sequence public.people_id_seq to anon;",
        )
        .await
        .unwrap();
    app.reload_schema().await;

    let res = app
        .rest(Method::POST, "/people?select=id,alias")
        .header("prefer", "return=representation")
        .json(&json!({"alias":"a","secret":"s"}))
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body), (201, json!([{"id":1,"alias":"a"}])));

    let res = app
        .rest(Method::PATCH, "/people?id=eq.1&select=alias")
        .header("prefer", "return=representation")
        .json(&json!({"alias":"b"}))
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body), (200, json!([{"alias":"b"}])));

    let res = app
        .rest(Method::POST, "/people?select=*")
        .header("prefer", "return=representation")
        .json(&json!({"alias":"c"}))
        .send()
        .await
        .unwrap();
    let (_, _, body) = parts(res).await;
    assert_eq!(body["code"], "42501", "{body}");
}

/// R10: pg-safeupdate's guard, on by default as Supabase loads it for the API role; off, RLS alone decides.
#[tokio::test]
async fn unfiltered_update_and_delete_are_refused_like_safeupdate() {
    for (safe, app) in [(true, rest_app().await), (false, rest_app_with(&[("GATEWAY_SAFE_UPDATE", "off")]).await)] {
        app.admin_client()
            .await
            .batch_execute(
                "create table public.safe_notes (id int primary key, body text);
                 grant select, update, delete on public.safe_notes to anon;
                 insert into public.safe_notes values (1, 'a'), (2, 'b'), (3, 'c');",
            )
            .await
            .unwrap();
        app.reload_schema().await;
        let count = || async {
            let client = app.admin_client().await;
            client.query_one("select count(*) from public.safe_notes", &[]).await.unwrap().get::<_, i64>(0)
        };
        let patch =
            parts(app.rest(Method::PATCH, "/safe_notes").json(&json!({"body": "x"})).send().await.unwrap()).await;
        let delete = parts(app.rest(Method::DELETE, "/safe_notes").send().await.unwrap()).await;
        if safe {
            assert_eq!(
                (patch.0, patch.2),
                (400, json!({"code":"21000","details":null,"hint":null,"message":"UPDATE requires a WHERE clause"}))
            );
            assert_eq!(
                (delete.0, delete.2),
                (400, json!({"code":"21000","details":null,"hint":null,"message":"DELETE requires a WHERE clause"}))
            );
            assert_eq!(count().await, 3, "nothing deleted");
            // any filter is enough, as with safeupdate
            let one = parts(app.rest(Method::DELETE, "/safe_notes?id=eq.1").send().await.unwrap()).await;
            assert_eq!(one.0, 204);
            assert_eq!(count().await, 2);
        } else {
            assert_eq!((patch.0, delete.0), (204, 204));
            assert_eq!(count().await, 0);
        }
    }
}

/// A write that commits in flight runs in the implicit transaction its Sync ends (no BEGIN/COMMIT sent): it is
/// READ COMMITTED and read-write as `BEGIN READ WRITE` made it, a deferred constraint is still checked at commit
/// (its violation is the answer and nothing is kept), and the connection serves the next request.
#[tokio::test]
async fn writes_committed_in_flight_keep_their_transaction_semantics() {
    let app = rest_app().await;
    let admin = app.admin_client().await;
    admin
        .batch_execute(
            "create table public.deferred_pairs (id int primary key,
               partner int references public.deferred_pairs(id) deferrable initially deferred);
             grant select, insert on public.deferred_pairs to anon;
             create function public.tx_modes() returns json language sql volatile as $$
               select json_build_object('isolation', current_setting('transaction_isolation'),
                 'read_only', current_setting('transaction_read_only'), 'role', current_user) $$;
             grant execute on function public.tx_modes() to anon;",
        )
        .await
        .unwrap();
    app.reload_schema().await;

    let res = app.rest(Method::POST, "/rpc/tx_modes").json(&json!({})).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body), (200, json!({"isolation":"read committed","read_only":"off","role":"anon"})));

    for _ in 0..3 {
        // checked at commit, after the statement returned its row
        let res = app.rest(Method::POST, "/deferred_pairs").json(&json!({"id":1,"partner":2})).send().await.unwrap();
        let (status, _, body) = parts(res).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("23503")), "{body}");
    }
    let n: i64 = admin.query_one("select count(*) from public.deferred_pairs", &[]).await.unwrap().get(0);
    assert_eq!(n, 0, "a write refused at commit keeps nothing");

    let res = app
        .rest(Method::POST, "/deferred_pairs")
        .json(&json!([{"id":1,"partner":2},{"id":2,"partner":1}]))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let res = app.rest(Method::GET, "/deferred_pairs?select=id,partner&order=id").send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body), (200, json!([{"id":1,"partner":2},{"id":2,"partner":1}])));
}

/// A minimal insert of one object into a plain table runs as a bare INSERT whose RETURNING reads the response
/// settings; what a trigger sets reaches the response either way, and a row a trigger skips is never a 500.
#[tokio::test]
async fn trigger_settings_reach_minimal_inserts_on_either_statement_shape() {
    let app = rest_app().await;
    let admin = app.admin_client().await;
    admin
        .batch_execute(
            r#"
create function public.stamp() returns trigger language plpgsql as $$
begin
  perform set_config('response.status', '202', true);
  perform set_config('response.headers', '[{"X-Stamp":"yes"}]', true);
  return case when tg_level = 'ROW' and new.body = 'skip' then null else new end;
end $$;
create table public.stamped (id bigserial primary key, body text);
create trigger stamp_statement before insert on public.stamped for each statement execute function public.stamp();
create table public.skipping (id bigserial primary key, body text);
create trigger stamp_row before insert on public.skipping for each row execute function public.stamp();
create table public.late (id bigserial primary key, body text);
grant insert on public.stamped, public.skipping, public.late to anon;
grant usage on all sequences in schema public to anon;
"#,
        )
        .await
        .unwrap();
    app.reload_schema().await;
    let post =
        |table: &str, body: &str| app.rest(Method::POST, &format!("/{table}")).json(&json!({ "body": body })).send();
    let count = |table: &'static str| {
        let admin = &admin;
        async move { admin.query_one(&format!("select count(*) from {table}"), &[]).await.unwrap().get::<_, i64>(0) }
    };

    // a plain table (a statement-level trigger only): the lean INSERT
    let (status, headers, body) = parts(post("stamped", "kept").await.unwrap()).await;
    assert_eq!((status, &headers["x-stamp"]), (202, &"yes".parse().unwrap()), "{body}");
    assert_eq!(count("stamped").await, 1);

    // a row trigger that may skip the row: the wrapped statement, as PostgREST answers it
    let (status, headers, _) = parts(post("skipping", "skip").await.unwrap()).await;
    assert_eq!((status, &headers["x-stamp"]), (202, &"yes".parse().unwrap()));
    let (status, _, _) = parts(post("skipping", "kept").await.unwrap()).await;
    assert_eq!(status, 202);
    assert_eq!(count("skipping").await, 1);

    // a skipping trigger created after the schema cache was loaded: the lean INSERT answers no row, which is
    // "nothing written", not an error
    admin
        .batch_execute(
            "create trigger stamp_row before insert on public.late for each row execute function public.stamp()",
        )
        .await
        .unwrap();
    let (status, _, body) = parts(post("late", "skip").await.unwrap()).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(count("late").await, 0);
}
