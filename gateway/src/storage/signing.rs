//! Signed URLs, as Supabase issues them: JWTs signed by the current key with `url` (`bucket/name`), `scope`
//! (`download` or `upload`) and `exp` claims. Signing a download checks the caller can read the object (RLS);
//! signing an upload checks the caller could insert it (the insert runs and is rolled back).

use super::caller::{Caller, Owner, Requester};
use super::db;
use super::error::{Result, StorageError};
use super::extract::{BucketJson, StoragePath};
use super::find::{find_object, Access};
use super::json::parse_checked;
use super::names;
use super::schema::{Prop, Schema};
use super::transform::Transform;
use crate::core::identity::{token, Rejection};
use crate::storage::Storage;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method};
use axum::Json;
use jwks::VerifyOptions;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Download,
    Upload,
}

impl Scope {
    fn as_str(self) -> &'static str {
        match self {
            Scope::Download => "download",
            Scope::Upload => "upload",
        }
    }
}

/// What a verified signed-URL token grants.
#[derive(Debug, Clone, Deserialize)]
pub struct SignedClaims {
    pub url: String,
    pub exp: i64,
    #[serde(default)]
    pub scope: Option<String>,
    #[serde(default)]
    pub owner: Option<String>,
    #[serde(default)]
    pub upsert: Option<bool>,
    /// The role that minted a signed upload URL; the upload runs as it.
    #[serde(default)]
    pub owner_role: Option<String>,
    /// Image transformations a render URL was signed with (`height:200,width:200,resize:cover`).
    #[serde(default)]
    pub transformations: Option<String>,
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Signs `bucket/name` for `expires_in` seconds.
pub fn sign(state: &Storage, scope: Scope, bucket: &str, name: &str, expires_in: i64, extra: Value) -> Result<String> {
    let mut claims = json!({
        "url": names::signed_path(bucket, name), "scope": scope.as_str(), "aud": crate::core::identity::SIGNED_URL_AUDIENCE,
        "iat": now(), "exp": now() + expires_in,
    });
    if let (Value::Object(c), Value::Object(e)) = (&mut claims, extra) {
        c.extend(e);
    }
    state.core.keys.load().sign(&claims).map_err(|e| StorageError::internal("sign url", e))
}

/// Verifies a signed-URL token for this object and scope.
pub fn verify(state: &Storage, token: &str, scope: Scope, bucket: &str, name: &str) -> Result<SignedClaims> {
    let options = VerifyOptions { leeway_secs: 0, audience: None, required_claims: vec!["exp".into()] };
    let claims: SignedClaims = token::verify(&state.core.keys.load(), token, &options).map_err(|e| match e {
        Rejection::Expired => StorageError::InvalidJwt("jwt expired".into()),
        _ => StorageError::InvalidSignature("Invalid signature".into()),
    })?;
    // A download token never uploads and an upload token never downloads.
    let scope_ok = claims.scope.as_deref() == Some(scope.as_str());
    if !scope_ok || claims.url != names::signed_path(bucket, name) {
        return Err(StorageError::InvalidSignature("Invalid signature".into()));
    }
    Ok(claims)
}

/// Storage's image transformation options (validated as Storage does; see `sign_one`).
const TRANSFORM: Schema = Schema::object(&[
    Prop::new("height", Schema::integer().min(0.0)),
    Prop::new("width", Schema::integer().min(0.0)),
    Prop::new("resize", Schema::string().values(&["cover", "contain", "fill"])),
    Prop::new("format", Schema::string().values(&["origin", "avif", "webp"])),
    Prop::new("quality", Schema::integer().min(20.0).max(100.0)),
    Prop::new(
        "gravity",
        Schema::string().values(&["no", "so", "ea", "we", "noea", "nowe", "soea", "sowe", "ce", "sm", "fp"]),
    ),
    Prop::new("x_offset", Schema::number()),
    Prop::new("y_offset", Schema::number()),
]);
const EXPIRES_IN: Schema = Schema::integer().min(1.0);
const SIGN_ONE: Schema =
    Schema::object(&[Prop::new("expiresIn", EXPIRES_IN), Prop::new("transform", TRANSFORM)]).required(&["expiresIn"]);
const PATH: Schema = Schema::string();
const SIGN_MANY: Schema = Schema::object(&[
    Prop::new("expiresIn", EXPIRES_IN),
    Prop::new("paths", Schema::array(&PATH).items(Some(1), Some(1000))),
])
.required(&["expiresIn", "paths"]);

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SignOneBody {
    expires_in: i64,
    #[serde(default)]
    transform: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SignManyBody {
    expires_in: i64,
    paths: Vec<String>,
}

/// Storage's bound on a numeric expiry: at least a second, and `now + expiresIn` within JavaScript's safe
/// integer range of milliseconds.
fn check_expiry(expires_in: i64) -> Result<i64> {
    const MAX_ABSOLUTE_SECS: i64 = 9_007_199_254_740_991 / 1000;
    if expires_in < 1 || expires_in > MAX_ABSOLUTE_SECS - now() {
        return Err(StorageError::InvalidParameter("expiresIn"));
    }
    Ok(expires_in)
}

/// Focal-point gravity needs both offsets within 0–1 (the schema's `if gravity = fp then …`).
fn check_focal_point(transform: &Option<Value>) -> Result<()> {
    let Some(t) = transform.as_ref().filter(|t| t.get("gravity").and_then(Value::as_str) == Some("fp")) else {
        return Ok(());
    };
    for axis in ["x_offset", "y_offset"] {
        match t.get(axis).and_then(Value::as_f64) {
            None => {
                return Err(StorageError::Validation(format!(
                    "body/transform must have required property '{axis}', body/transform must match \"then\" schema"
                )))
            }
            Some(v) if !(0.0..=1.0).contains(&v) => {
                let bound = if v < 0.0 { ">= 0" } else { "<= 1" };
                return Err(StorageError::Validation(format!(
                    "body/transform/{axis} must be {bound}, body/transform must match \"then\" schema"
                )));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// `POST /object/sign/{bucket}/{name}` `{expiresIn}` → `{signedURL}`.
pub async fn sign_one(
    State(state): State<Storage>,
    requester: Requester,
    StoragePath((bucket, name)): StoragePath<(String, String)>,
    body: Bytes,
) -> Result<Json<Value>> {
    let (bucket, name) = (names::bucket_id(&bucket)?, names::object_name(&name)?);
    let body: SignOneBody = parse_checked(&body, &SIGN_ONE)?;
    check_focal_point(&body.transform)?;
    let caller = requester.caller()?;
    let expires = check_expiry(body.expires_in)?;
    find_object(&state, Access::Caller(&caller), bucket, name).await?;
    // With transformations the token carries them and the URL is the render route's, as Storage signs.
    let transformations = match &body.transform {
        Some(t) if state.config.image.enabled => {
            // an option the renderer would not apply is refused, not signed into a URL that renders without it
            let text = |k: &str| t.get(k).map(|v| v.as_str().unwrap_or("(a number)"));
            if let Some(message) = super::transform::unapplied(text) {
                return Err(StorageError::FeatureNotEnabled(message.into()));
            }
            signed_transformations(&state, t)
        }
        _ => String::new(),
    };
    if transformations.is_empty() {
        let token = sign(&state, Scope::Download, bucket, name, expires, json!({}))?;
        return Ok(Json(json!({ "signedURL": format!("/object/sign/{bucket}/{name}?token={token}") })));
    }
    let token = sign(&state, Scope::Download, bucket, name, expires, json!({ "transformations": transformations }))?;
    Ok(Json(json!({ "signedURL": format!("/render/image/sign/{bucket}/{name}?token={token}") })))
}

/// The `transformations` text Storage signs for a validated `transform` body (empty when nothing applies).
fn signed_transformations(state: &Storage, t: &Value) -> String {
    let text = |k: &str| match t.get(k) {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let pairs: Vec<(&str, String)> = ["width", "height", "resize", "quality", "format"]
        .into_iter()
        .filter_map(|k| text(k).map(|v| (k, v)))
        .collect();
    let parsed = Transform::from_query(pairs.iter().map(|(k, v)| (*k, v.as_str())), state.renderer.sizes);
    parsed.map(|p| p.claim(text("resize").as_deref())).unwrap_or_default()
}

/// `POST /object/sign/{bucket}` `{expiresIn, paths}` → one `{error, path, signedURL}` per path.
pub async fn sign_many(State(state): State<Storage>, req: BucketJson) -> Result<Json<Value>> {
    let (bucket, SignManyBody { expires_in, paths }, caller) = req.open(&SIGN_MANY)?;
    let bucket = bucket.as_str();
    let expires = check_expiry(expires_in)?;
    let visible = visible_names(&state, &caller, bucket, &paths).await?;
    let mut out = Vec::with_capacity(paths.len());
    for path in paths {
        if visible.contains(&path) {
            let token = sign(&state, Scope::Download, bucket, &path, expires, json!({}))?;
            out.push(json!({ "error": null, "path": path, "signedURL": format!("/object/sign/{bucket}/{path}?token={token}") }));
        } else {
            out.push(json!({ "error": "Either the object does not exist or you do not have access to it", "path": path, "signedURL": null }));
        }
    }
    Ok(Json(Value::Array(out)))
}

async fn visible_names(
    state: &Storage,
    caller: &Caller,
    bucket: &str,
    paths: &[String],
) -> Result<std::collections::HashSet<String>> {
    let mut client = db::client(state).await?;
    let tx = db::begin(&mut client, true).await?;
    let info = super::buckets::find_as_service(&tx, state, Method::POST, bucket).await?;
    if !info.public {
        db::switch(&tx, caller).await?;
    }
    let rows = tx
        .query("select name from storage.objects where bucket_id = $1 and name = any($2)", &[&bucket, &paths])
        .await?;
    tx.commit().await?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

/// `POST /object/upload/sign/{bucket}/{name}` (`x-upsert`) → `{url, token}`.
pub async fn sign_upload(
    State(state): State<Storage>,
    requester: Requester,
    headers: HeaderMap,
    StoragePath((bucket, name)): StoragePath<(String, String)>,
) -> Result<Json<Value>> {
    let (bucket, name) = (names::bucket_id(&bucket)?, names::object_name(&name)?);
    let caller = requester.caller()?;
    let upsert = super::upload::upsert_header(&headers);
    can_upload(&state, &caller, bucket, name, upsert).await?;
    let expiry = state.config.upload_url_expiry_secs;
    let token = sign(
        &state,
        Scope::Upload,
        bucket,
        name,
        expiry,
        json!({ "owner": caller.owner_id(), "owner_role": caller.verified.identity.role, "upsert": upsert }),
    )?;
    Ok(Json(json!({ "url": format!("/object/upload/sign/{bucket}/{name}?token={token}"), "token": token })))
}

/// Runs the insert (or upsert) the upload would make, as the caller, and rolls it back.
async fn can_upload(state: &Storage, caller: &Caller, bucket: &str, name: &str, upsert: bool) -> Result<()> {
    let mut client = db::client(state).await?;
    let tx = db::begin(&mut client, false).await?;
    super::buckets::find_as_service(&tx, state, Method::POST, bucket).await?;
    db::switch(&tx, caller).await?;
    let sql = if upsert {
        "insert into storage.objects (bucket_id, name, owner, owner_id) values ($1, $2, $3, $4) \
         on conflict (bucket_id, name) do update set owner = excluded.owner, owner_id = excluded.owner_id"
    } else {
        "insert into storage.objects (bucket_id, name, owner, owner_id) values ($1, $2, $3, $4)"
    };
    tx.execute(sql, &[&bucket, &name, &caller.owner(), &caller.owner_id()]).await?;
    tx.rollback().await?;
    Ok(())
}
