//! `/rest/v1/rpc`: POST and GET calls, scalar/set/composite/void results, overloads, the single json argument,
//! read-only transactions, filters on results, response GUCs and errors.

use crate::rest_fixtures::{parts, rest_app};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn scalar_set_composite_and_void_results() {
    let app = rest_app().await;
    let res = app.rest(Method::POST, "/rpc/get_status").json(&json!({"name_param":"supabot"})).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body), (200, json!("ONLINE")));

    let res = app.rest(Method::POST, "/rpc/get_status").json(&json!({"name_param":"nobody"})).send().await.unwrap();
    assert_eq!(parts(res).await.2, serde_json::Value::Null);

    let res = app.rest(Method::POST, "/rpc/add_them").json(&json!({"a":1})).send().await.unwrap();
    assert_eq!(parts(res).await.2, json!(11));

    let (status, _, body) = parts(app.rest(Method::GET, "/rpc/add_them?a=1&b=2").send().await.unwrap()).await;
    assert_eq!((status, body), (200, json!(3)));

    let (status, _, body) = parts(app.rest(Method::GET, "/rpc/numbers?n=3").send().await.unwrap()).await;
    assert_eq!((status, body), (200, json!([1, 2, 3])));

    let res = app.rest(Method::POST, "/rpc/void_func").json(&json!({})).send().await.unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!((status, body), (204, serde_json::Value::Null));
    assert!(!headers.contains_key("content-type"));

    let res = app
        .rest(Method::POST, "/rpc/user_by_name?select=username,status")
        .json(&json!({"name":"supabot"}))
        .send()
        .await
        .unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body), (200, json!({"username":"supabot","status":"ONLINE"})));

    let res = app.rest(Method::POST, "/rpc/echo_json").json(&json!({"any":[1,2]})).send().await.unwrap();
    assert_eq!(parts(res).await.2, json!({"any":[1,2]}));
}

#[tokio::test]
async fn set_results_take_select_filters_order_limit_count_and_embeds() {
    let app = rest_app().await;
    let res = app
        .rest(Method::GET, "/rpc/list_users?select=username,messages(id)&status=eq.ONLINE&order=username.desc&limit=2&messages.order=id")
        .header("prefer", "count=exact")
        .send()
        .await
        .unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!(status, 206, "{body}");
    assert_eq!(headers["content-range"], "0-1/3");
    assert_eq!(
        body,
        json!([{"username":"supabot","messages":[{"id":1},{"id":2}]},{"username":"dragarcia","messages":[]}])
    );
}

#[tokio::test]
async fn overloads_and_missing_functions() {
    let app = rest_app().await;
    let res = app.rest(Method::POST, "/rpc/poly").json(&json!({"x":1})).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!(status, 300);
    assert_eq!(body["code"], "PGRST203");
    assert!(body["message"]
        .as_str()
        .unwrap()
        .starts_with("Could not choose the best candidate function between: public.poly(x => "));

    let res = app.rest(Method::POST, "/rpc/get_statu").json(&json!({"name_param":"x"})).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!(status, 404);
    assert_eq!(
        body,
        json!({
            "code":"PGRST202",
            "details":"Searched for the function public.get_statu with parameter name_param or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.",
            "hint":"Perhaps you meant to call the function public.get_status",
            "message":"Could not find the function public.get_statu(name_param) in the schema cache"
        })
    );
    let res = app.rest(Method::POST, "/rpc/add_them").json(&json!({"b":1})).send().await.unwrap();
    assert_eq!(res.status(), 404);
    let res = app.rest(Method::PUT, "/rpc/add_them").json(&json!({"a":1})).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body["message"].as_str()), (405, Some("Cannot use the PUT method on RPC")));
}

#[tokio::test]
async fn read_only_transactions_for_get_and_stable_functions() {
    let app = rest_app().await;
    let (status, _, body) = parts(app.rest(Method::GET, "/rpc/touch_channel?new_slug=x").send().await.unwrap()).await;
    assert_eq!(status, 405);
    assert_eq!(body["code"], "25006");
    let res = app.rest(Method::POST, "/rpc/touch_channel").json(&json!({"new_slug":"y"})).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!((status, body), (200, json!(3)));
}

#[tokio::test]
async fn raised_errors_and_response_gucs() {
    let app = rest_app().await;
    let res = app.rest(Method::POST, "/rpc/raise_it").json(&json!({})).send().await.unwrap();
    let (status, _, body) = parts(res).await;
    assert_eq!(status, 400);
    assert_eq!(body, json!({"code":"P0001","details":null,"hint":"try again","message":"custom failure"}));
    let res = app.rest(Method::GET, "/rpc/set_headers").send().await.unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!((status, body), (202, json!(1)));
    assert_eq!(headers["x-custom"], "yes");
}

#[tokio::test]
async fn raise_sqlstate_pgrst_sets_status_headers_and_body() {
    let app = rest_app().await;
    let res = app.rest(Method::POST, "/rpc/pay").json(&json!({})).send().await.unwrap();
    let (status, headers, body) = parts(res).await;
    assert_eq!(status, 402);
    assert_eq!(headers["x-powered-by"], "Nerd Rage");
    assert_eq!(
        body,
        json!({"code":"123","details":"Quota exceeded","hint":"Upgrade your plan","message":"Payment Required"})
    );
}
