//! Every way a token is refused, as each API answers it: PostgREST's PGRST30x (`/rest/v1`), GoTrue's `bad_jwt`
//! (`/auth/v1/user`) and Storage's `403 Unauthorized` (`/storage/v1/bucket`). The expected answers were recorded
//! from the gateway before token rejections became a typed enum, so the wire stays as it was.

use crate::auth_helpers::{call, into_call};
use crate::helpers::{spawn_app, spawn_app_with, TestApp};
use base64::Engine;
use jwks::{KeySet, KeyStatus, SigningKey};
use reqwest::Method;
use serde_json::{json, Value};

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// A token signed by the gateway's own current key.
fn signed(app: &TestApp, claims: Value) -> String {
    app.keys().sign(&claims).expect("sign")
}

/// An HS256 token under a secret the gateway does not know, naming no key of its set.
fn foreign_hs256(claims: &Value) -> String {
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    header.kid = Some("nobody".into());
    let key = jsonwebtoken::EncodingKey::from_secret(b"a-secret-this-gateway-has-never-seen");
    jsonwebtoken::encode(&header, claims, &key).expect("encode")
}

fn user_claims() -> Value {
    json!({"role": "authenticated", "sub": "00000000-0000-0000-0000-000000000001", "aud": "authenticated",
           "iat": now(), "exp": now() + 600})
}

/// Status and body of each API for one token.
async fn answers(app: &TestApp, token: &str) -> [(u16, Value); 3] {
    let rest = app
        .http
        .get(app.url("/rest/v1/jobs?select=id"))
        .header("apikey", &app.anon_key)
        .header("authorization", format!("Bearer {token}"))
        .send()
        .await
        .unwrap();
    let rest = into_call(rest).await;
    let auth = call(app, Method::GET, "/user", Some(token), None).await;
    let storage = app
        .http
        .get(app.url("/storage/v1/bucket"))
        .header("apikey", &app.anon_key)
        .header("authorization", format!("Bearer {token}"))
        .send()
        .await
        .unwrap();
    let storage = into_call(storage).await;
    [(rest.status, rest.body), (auth.status, auth.body), (storage.status, storage.body)]
}

fn pgrst(code: &str, message: &str, details: Value) -> Value {
    json!({"code": code, "message": message, "details": details, "hint": null})
}

fn bad_jwt(reason: &str) -> (u16, Value) {
    let message = format!("invalid JWT: unable to parse or verify signature, {reason}");
    (403, json!({"code": "bad_jwt", "error_code": "bad_jwt", "message": message}))
}

fn storage_denied(message: &str) -> (u16, Value) {
    (400, json!({"statusCode": "403", "code": "AccessDenied", "error": "Unauthorized", "message": message}))
}

/// One case: the token and the three answers expected.
struct Case {
    name: &'static str,
    token: String,
    rest: (u16, Value),
    auth: (u16, Value),
    storage: (u16, Value),
}

/// Checks every case and reports every difference at once.
async fn check(app: &TestApp, cases: Vec<Case>) {
    let mut wrong = vec![];
    for case in cases {
        let [rest, auth, storage] = answers(app, &case.token).await;
        for (api, got, expected) in
            [("REST", rest, case.rest), ("Auth", auth, case.auth), ("Storage", storage, case.storage)]
        {
            if got != expected {
                wrong.push(format!("{} ({api}): got {got:?}, expected {expected:?}", case.name));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[tokio::test]
async fn each_rejection_answers_in_each_apis_words() {
    let app = spawn_app().await;
    let valid = signed(&app, user_claims());
    let mut parts: Vec<&str> = valid.split('.').collect();
    let other_payload = b64(json!({"role": "service_role", "exp": now() + 600}).to_string().as_bytes());
    parts[1] = &other_payload;
    let tampered = parts.join(".");
    let unsecured = format!("{}.{}.", b64(br#"{"alg":"none","typ":"JWT"}"#), b64(user_claims().to_string().as_bytes()));
    let stranger = KeySet::new(vec![SigningKey::generate_es256(KeyStatus::Current).unwrap()]);
    let missing_sub = "invalid claim: missing sub claim";
    let cases = vec![
        Case {
            name: "not three parts",
            token: "abc".into(),
            rest: (401, pgrst("PGRST301", "Expected 3 parts in JWT; got 1", Value::Null)),
            auth: bad_jwt("token is malformed"),
            storage: storage_denied("Expected 3 parts in JWT; got 1"),
        },
        Case {
            name: "malformed",
            token: "not.a.jwt".into(),
            rest: (401, pgrst("PGRST301", "JWT cryptographic operation failed", Value::Null)),
            auth: bad_jwt("token is malformed"),
            storage: storage_denied("token is malformed"),
        },
        Case {
            name: "unsecured (alg none)",
            token: unsecured,
            rest: (
                401,
                pgrst(
                    "PGRST301",
                    "Wrong or unsupported encoding algorithm",
                    json!("JWT is unsecured but expected 'alg' was not 'none'"),
                ),
            ),
            auth: bad_jwt("token is malformed"),
            storage: storage_denied("token is malformed"),
        },
        Case {
            name: "wrong algorithm",
            token: foreign_hs256(&user_claims()),
            rest: (401, pgrst("PGRST301", "Wrong or unsupported encoding algorithm", Value::Null)),
            auth: bad_jwt("algorithm HS256 is not allowed"),
            storage: storage_denied("algorithm HS256 is not allowed"),
        },
        Case {
            name: "unknown key",
            token: stranger.sign(&user_claims()).unwrap(),
            rest: (401, pgrst("PGRST301", "No suitable key or wrong key type", Value::Null)),
            auth: bad_jwt("no key matches the token's kid"),
            storage: storage_denied("no key matches the token's kid"),
        },
        Case {
            name: "bad signature",
            token: tampered,
            rest: (401, pgrst("PGRST301", "JWT cryptographic operation failed", Value::Null)),
            auth: bad_jwt("signature is invalid"),
            storage: storage_denied("signature is invalid"),
        },
        Case {
            name: "expired",
            token: signed(&app, json!({"role": "authenticated", "sub": "x", "exp": now() - 120})),
            rest: (401, pgrst("PGRST303", "JWT expired", Value::Null)),
            auth: bad_jwt("token has expired"),
            storage: storage_denied("jwt expired"),
        },
        Case {
            name: "not yet valid (nbf)",
            token: signed(&app, json!({"role": "authenticated", "nbf": now() + 600, "exp": now() + 900})),
            rest: (401, pgrst("PGRST303", "JWT not yet valid", Value::Null)),
            auth: bad_jwt("token is not valid yet"),
            storage: storage_denied("token is not valid yet"),
        },
        Case {
            name: "issued in the future (iat)",
            token: signed(&app, json!({"role": "authenticated", "iat": now() + 600, "exp": now() + 900})),
            rest: (401, pgrst("PGRST303", "JWT issued at future", Value::Null)),
            auth: (403, json!({"code": "bad_jwt", "error_code": "bad_jwt", "message": missing_sub})),
            storage: storage_denied("token is not valid yet: issued in the future"),
        },
        Case {
            name: "exp missing",
            token: signed(&app, json!({"role": "authenticated", "sub": "x"})),
            rest: (401, pgrst("PGRST303", "JWT claims are invalid", Value::Null)),
            auth: bad_jwt("invalid claims: missing exp"),
            storage: storage_denied("invalid claims: missing exp"),
        },
        Case {
            name: "exp not a number",
            token: signed(&app, json!({"role": "authenticated", "exp": "later"})),
            rest: (401, pgrst("PGRST303", "The JWT 'exp' claim must be a number", Value::Null)),
            auth: bad_jwt("invalid claims: missing exp"),
            storage: storage_denied("invalid claims: missing exp"),
        },
        Case {
            name: "nbf not a number",
            token: signed(&app, json!({"role": "authenticated", "nbf": "soon", "exp": now() + 600})),
            rest: (401, pgrst("PGRST301", "JWT cryptographic operation failed", Value::Null)),
            auth: bad_jwt("token is malformed"),
            storage: storage_denied("token is malformed"),
        },
        Case {
            name: "claims not an object",
            token: signed(&app, json!("just a string")),
            rest: (401, pgrst("PGRST303", "JWT claims are invalid", Value::Null)),
            auth: bad_jwt("invalid claims: claims are not valid JSON of the expected types"),
            storage: storage_denied("invalid claims: claims are not valid JSON of the expected types"),
        },
        Case {
            name: "iat not a number",
            token: signed(&app, json!({"role": "authenticated", "iat": "then", "exp": now() + 600})),
            rest: (401, pgrst("PGRST303", "The JWT 'iat' claim must be a number", Value::Null)),
            auth: (403, json!({"code": "bad_jwt", "error_code": "bad_jwt", "message": missing_sub})),
            storage: storage_denied("iat claim is not a number"),
        },
        Case {
            name: "role not a string",
            token: signed(&app, json!({"role": ["anon"], "exp": now() + 600})),
            rest: (401, pgrst("PGRST303", "JWT claims are invalid", Value::Null)),
            auth: (403, json!({"code": "bad_jwt", "error_code": "bad_jwt", "message": missing_sub})),
            storage: storage_denied("role claim is not a string"),
        },
        Case {
            name: "minted for a signed URL",
            token: signed(&app, json!({"url": "b/o", "scope": "download", "exp": now() + 600})),
            rest: (401, pgrst("PGRST303", "JWT claims are invalid", Value::Null)),
            auth: (403, json!({"code": "bad_jwt", "error_code": "bad_jwt", "message": missing_sub})),
            storage: storage_denied("the token was issued for a signed URL, not for API access"),
        },
        Case {
            name: "a role that is never switched to",
            token: signed(&app, json!({"role": "postgres", "exp": now() + 600})),
            rest: (403, pgrst("42501", "permission denied to set role \"postgres\"", Value::Null)),
            auth: (403, json!({"code": "bad_jwt", "error_code": "bad_jwt", "message": missing_sub})),
            storage: storage_denied("Access denied: Invalid role"),
        },
        Case {
            name: "a role that does not exist",
            token: signed(&app, json!({"role": "no_such_role", "exp": now() + 600})),
            rest: (401, pgrst("22023", "role \"no_such_role\" does not exist", Value::Null)),
            auth: (403, json!({"code": "bad_jwt", "error_code": "bad_jwt", "message": missing_sub})),
            storage: storage_denied("Access denied: Invalid role"),
        },
    ];
    check(&app, cases).await;
}

#[tokio::test]
async fn a_wrong_audience_and_a_missing_api_key_answer_in_each_apis_words() {
    let app = spawn_app_with(&[("PGRST_JWT_AUD", "gateway-tests"), ("GATEWAY_REQUIRE_APIKEY", "true")]).await;
    let wrong_audience = signed(&app, json!({"role": "authenticated", "aud": "elsewhere", "exp": now() + 600}));
    check(
        &app,
        vec![Case {
            name: "wrong audience",
            token: wrong_audience,
            rest: (401, pgrst("PGRST303", "JWT not in audience", Value::Null)),
            auth: (
                403,
                json!({"code": "bad_jwt", "error_code": "bad_jwt", "message": "invalid claim: missing sub claim"}),
            ),
            storage: storage_denied("audience does not match"),
        }],
    )
    .await;
    // without an apikey header
    let rest = into_call(app.http.get(app.url("/rest/v1/jobs")).send().await.unwrap()).await;
    assert_eq!((rest.status, rest.body), (401, pgrst("PGRST301", "No API key found in request", Value::Null)));
    let auth = into_call(app.http.get(app.url("/auth/v1/settings")).send().await.unwrap()).await;
    assert_eq!((auth.status, auth.body), (401, json!({"message": "No API key found in request"})));
    let storage =
        into_call(app.http.get(app.url("/storage/v1/bucket")).bearer_auth(&app.anon_key).send().await.unwrap()).await;
    assert_eq!((storage.status, storage.body), storage_denied("No API key found in request"));
}
