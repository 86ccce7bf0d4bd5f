//! `/rest/v1` resource embedding: to-many, to-one, many-to-many, hints, `!inner`, spreads, filters, order and
//! limits on embeds, counts, and PGRST200/201/108.

use crate::rest_fixtures::{parts, rest_app, rest_app_with};
use reqwest::Method;
use serde_json::json;

async fn get(app: &crate::helpers::TestApp, path: &str) -> (u16, serde_json::Value) {
    let (status, _, body) = parts(app.rest(Method::GET, path).send().await.unwrap()).await;
    (status, body)
}

#[tokio::test]
async fn embeds_to_many_and_to_one() {
    let app = rest_app().await;
    let (status, body) = get(
        &app,
        "/users?select=username,messages(id,message)&username=in.(supabot,awailas)&order=username&messages.order=id",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!([
            {"username":"awailas","messages":[]},
            {"username":"supabot","messages":[{"id":1,"message":"Hello World 👋"},{"id":2,"message":"Perfection is attained."}]}
        ])
    );
    let (status, body) = get(&app, "/messages?select=id,users(username),channels(slug)&id=eq.3").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!([{"id":3,"users":{"username":"kiwicopple"},"channels":{"slug":"public"}}]));
}

#[tokio::test]
async fn embed_filters_inner_joins_and_limits() {
    let app = rest_app().await;
    let (_, body) =
        get(&app, "/users?select=username,messages(id)&messages.id=eq.2&order=username&username=neq.dragarcia").await;
    assert_eq!(
        body,
        json!([{"username":"awailas","messages":[]},{"username":"kiwicopple","messages":[]},{"username":"supabot","messages":[{"id":2}]}])
    );
    let (_, body) = get(&app, "/users?select=username,messages!inner(id)&messages.id=eq.2").await;
    assert_eq!(body, json!([{"username":"supabot","messages":[{"id":2}]}]));
    let (_, body) =
        get(&app, "/users?select=username,messages(id)&messages.limit=1&messages.order=id.desc&username=eq.supabot")
            .await;
    assert_eq!(body, json!([{"username":"supabot","messages":[{"id":2}]}]));
    let (_, body) = get(&app, "/users?select=username,messages(id)&messages=not.is.null&order=username").await;
    assert_eq!(
        body,
        json!([{"username":"kiwicopple","messages":[{"id":3}]},{"username":"supabot","messages":[{"id":1},{"id":2}]}])
    );
    let (_, body) = get(&app, "/users?select=username,messages()&messages=is.null&order=username").await;
    assert_eq!(body, json!([{"username":"awailas"},{"username":"dragarcia"}]));
    let (_, body) = get(&app, "/users?select=username,messages(id)&messages.or=(id.eq.1,id.eq.3)&order=username&username=neq.awailas&username=neq.dragarcia").await;
    assert_eq!(
        body,
        json!([{"username":"kiwicopple","messages":[{"id":3}]},{"username":"supabot","messages":[{"id":1}]}])
    );
    let res = app
        .rest(Method::GET, "/users?select=username,messages!inner(id)&messages.id=eq.2")
        .header("prefer", "count=exact")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-range"], "0-0/1");
}

#[tokio::test]
async fn hints_aliases_and_ambiguity() {
    let app = rest_app().await;
    let (status, body) = get(&app, "/best_friends?select=users(username)").await;
    assert_eq!(status, 300);
    assert_eq!(body["code"], "PGRST201");
    assert_eq!(
        body["message"],
        "Could not embed because more than one relationship was found for 'best_friends' and 'users'"
    );
    assert_eq!(body["details"].as_array().unwrap().len(), 2);
    assert_eq!(body["details"][0]["cardinality"], "many-to-one");
    assert!(body["hint"].as_str().unwrap().contains("'users!best_friends_first_user_fkey'"));

    let (status, body) = get(
        &app,
        "/best_friends?select=id,first:users!best_friends_first_user_fkey(username),second:users!second_user(username)&order=id",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!([
            {"id":1,"first":{"username":"supabot"},"second":{"username":"kiwicopple"}},
            {"id":2,"first":{"username":"awailas"},"second":{"username":"supabot"}}
        ])
    );

    let (status, body) = get(&app, "/users?select=nope(*)").await;
    assert_eq!(status, 400);
    assert_eq!(
        body,
        json!({"code":"PGRST200","details":"Searched for a foreign key relationship between 'users' and 'nope' in the schema 'public', but no matches were found.","hint":null,"message":"Could not find a relationship between 'users' and 'nope' in the schema cache"})
    );
    let (status, body) = get(&app, "/users?select=username&messages.id=eq.1").await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "PGRST108");
}

#[tokio::test]
async fn many_to_many_spread_and_count() {
    let app = rest_app().await;
    let (status, body) =
        get(&app, "/users?select=username,channels(slug)&username=eq.supabot&channels.order=slug").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!([{"username":"supabot","channels":[{"slug":"public"},{"slug":"random"}]}]));
    let (status, body) = get(&app, "/messages?select=id,...users(username,status)&id=eq.1").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!([{"id":1,"username":"supabot","status":"ONLINE"}]));
    let (status, body) = get(&app, "/users?select=username,messages(count)&username=eq.supabot").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!([{"username":"supabot","messages":[{"count":2}]}]));
    let (status, body) = get(&app, "/channels?select=slug,...messages(id)&order=slug&messages.order=id").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!([{"slug":"public","id":[1,3]},{"slug":"random","id":[2]}]));
    let (status, body) = get(&app, "/messages?select=id,users(username)&order=users(username).desc,id&limit=2").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!([{"id":1,"users":{"username":"supabot"}},{"id":2,"users":{"username":"supabot"}}]));
    let (status, body) = get(&app, "/users?select=username&order=messages(id)").await;
    assert_eq!((status, body["code"].as_str()), (400, Some("PGRST108")));
}

#[tokio::test]
async fn views_embed_through_their_base_tables() {
    let app = rest_app().await;
    let (status, body) =
        get(&app, "/active_users?select=username,messages(id)&username=eq.supabot&messages.order=id").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!([{"username":"supabot","messages":[{"id":1},{"id":2}]}]));
}

#[tokio::test]
async fn aggregates_need_the_setting() {
    let app = rest_app().await;
    let (status, body) = get(&app, "/messages?select=channel_id.sum()").await;
    assert_eq!((status, body["code"].as_str()), (400, Some("PGRST123")));
    let app = rest_app_with(&[("PGRST_DB_AGGREGATES_ENABLED", "true")]).await;
    let (status, body) = get(&app, "/messages?select=username,total:channel_id.sum(),count()&order=username").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!([{"username":"kiwicopple","total":1,"count":1},{"username":"supabot","total":3,"count":2}]));
    let (status, body) = get(&app, "/users?select=username,messages(id.max())&username=eq.supabot").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!([{"username":"supabot","messages":[{"max":2}]}]));
}

/// PGRST201 lists the candidates in PostgREST's order whatever order the catalog returns the foreign keys in: here
/// the constraints are created second, third, first (postgrest-js's relationships-error-handling snapshots).
#[tokio::test]
async fn ambiguity_details_come_in_postgrests_order_whatever_the_catalog_order() {
    let app = crate::helpers::spawn_app().await;
    app.admin_client()
        .await
        .batch_execute(
            "create table public.pals (username text primary key);
             create table public.pal_pairs (id int primary key, first_user text not null, second_user text not null,
               third_wheel text);
             alter table public.pal_pairs add constraint pal_pairs_second_user_fkey
               foreign key (second_user) references public.pals (username);
             alter table public.pal_pairs add constraint pal_pairs_third_wheel_fkey
               foreign key (third_wheel) references public.pals (username);
             alter table public.pal_pairs add constraint pal_pairs_first_user_fkey
               foreign key (first_user) references public.pals (username);
             grant select on public.pals, public.pal_pairs to anon;",
        )
        .await
        .unwrap();
    app.reload_schema().await;
    let names = |body: &serde_json::Value| -> Vec<String> {
        body["details"].as_array().unwrap().iter().map(|d| d["relationship"].as_str().unwrap().to_string()).collect()
    };
    let (status, body) = get(&app, "/pal_pairs?select=pals(username)").await;
    assert_eq!(status, 300, "{body}");
    assert_eq!(
        names(&body),
        [
            "pal_pairs_first_user_fkey using pal_pairs(first_user) and pals(username)",
            "pal_pairs_second_user_fkey using pal_pairs(second_user) and pals(username)",
            "pal_pairs_third_wheel_fkey using pal_pairs(third_wheel) and pals(username)"
        ]
    );
    assert_eq!(
        body["hint"],
        "Try changing 'pals' to one of the following: 'pals!pal_pairs_first_user_fkey', 'pals!pal_pairs_second_user_fkey', \
         'pals!pal_pairs_third_wheel_fkey'. Find the desired relationship in the 'details' key."
    );
    let (status, body) = get(&app, "/pals?select=pal_pairs(id)").await;
    assert_eq!(status, 300, "{body}");
    assert_eq!(
        names(&body),
        [
            "pal_pairs_first_user_fkey using pals(username) and pal_pairs(first_user)",
            "pal_pairs_second_user_fkey using pals(username) and pal_pairs(second_user)",
            "pal_pairs_third_wheel_fkey using pals(username) and pal_pairs(third_wheel)"
        ]
    );
}

/// A view that renames the key columns it shows (`select username as handle …`) keeps the relationships of its base
/// table, as PostgREST reads each view column's origin from the view's query tree, not by name.
#[tokio::test]
async fn views_embed_through_renamed_key_columns() {
    let app = rest_app().await;
    app.admin_client()
        .await
        .batch_execute(
            "create view public.people as select username as handle, status from public.users;
             create view public.posts as select id as post_id, message, username as author from public.messages;
             grant select on public.people, public.posts to anon;",
        )
        .await
        .unwrap();
    app.reload_schema().await;
    let (status, body) = get(&app, "/people?select=handle,messages(id)&handle=eq.supabot&messages.order=id").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!([{"handle":"supabot","messages":[{"id":1},{"id":2}]}]));
    let (status, body) = get(&app, "/posts?select=post_id,users(username)&post_id=eq.3").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!([{"post_id":3,"users":{"username":"kiwicopple"}}]));
    let (status, body) = get(&app, "/people?select=handle,posts(post_id)&handle=eq.kiwicopple").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!([{"handle":"kiwicopple","posts":[{"post_id":3}]}]));
}
