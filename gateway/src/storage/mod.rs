//! The Storage API under `/storage/v1`, compatible with storage-js 2.119 as the Supabase CLI stack serves it:
//! buckets, objects (upload, download, signed URLs, list, info, move, copy, remove). Access rules are RLS
//! policies on `storage.objects`/`storage.buckets`, evaluated as the request's role; contents live in the
//! backend chosen with Supabase Storage's variables.

mod backend;
mod buckets;
mod caller;
mod config;
mod cors;
mod db;
mod download;
mod error;
mod extract;
mod find;
mod info;
mod json;
mod list;
mod list_v2;
mod names;
mod objects;
mod range;
mod refusal;
pub mod render;
#[cfg(feature = "s3")]
mod s3;
#[cfg(not(feature = "s3"))]
#[path = "s3_absent.rs"]
mod s3;
mod schema;
mod signing;
mod sniff;
pub mod sweep;
mod transfer;
pub mod transform;
mod upload;

pub use backend::{Backend, FileBackend};
pub use config::{BackendKind, StorageConfig};
pub use error::StorageError;

use crate::core::shared::Shared;
use crate::core::Core;
use axum::extract::FromRef;
use axum::routing::{get, post};
use axum::Router;

/// Storage's state as its handlers receive it; cloning it is one reference count.
pub type Storage = Shared<StorageState>;

/// What the storage routes share: the core, Storage's configuration, the backend the contents live in, the renderer.
pub struct StorageState {
    pub core: Core,
    pub config: StorageConfig,
    pub backend: Backend,
    /// Image transformations: bounded rendering and its cache.
    pub renderer: transform::Renderer,
}

impl Storage {
    pub async fn new(core: &Core) -> anyhow::Result<Self> {
        let config = StorageConfig::from_vars(&core.config.vars);
        let backend = match &config.backend {
            BackendKind::File(root) => Backend::File(FileBackend::new(root)),
            BackendKind::S3(s3) => Backend::S3 { staging: FileBackend::new(&s3.staging), s3: s3::S3Backend::new(s3)? },
        };
        backend.ensure_dirs().await?;
        let renderer = config.renderer();
        Ok(Shared::from(StorageState { core: core.clone(), config, backend, renderer }))
    }
}

pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Storage: FromRef<S>,
    Core: FromRef<S>,
{
    use download::{any_caller, authenticated, public, signed};
    use info::{info, info_any, info_public};
    Router::new()
        .route("/bucket", get(buckets::list).post(buckets::create))
        .route("/bucket/", get(buckets::list).post(buckets::create))
        .route("/bucket/{id}", get(buckets::get).put(buckets::update).delete(buckets::delete))
        .route("/bucket/{id}/empty", post(buckets::empty))
        .route("/object/list/{bucket}", post(list::list))
        .route("/object/list-v2/{bucket}", post(list_v2::list_v2))
        .route("/object/move", post(transfer::move_object))
        .route("/object/copy", post(transfer::copy_object))
        .route("/object/sign/{bucket}", post(signing::sign_many))
        .route("/object/sign/{bucket}/{*name}", post(signing::sign_one).get(signed))
        .route("/object/upload/sign/{bucket}/{*name}", post(signing::sign_upload).put(objects::upload_signed))
        .route("/object/info/public/{bucket}/{*name}", get(info_public))
        .route("/object/info/authenticated/{bucket}/{*name}", get(info))
        .route("/object/info/{bucket}/{*name}", get(info_any))
        .route("/object/public/{bucket}/{*name}", get(public).head(public))
        .route("/object/authenticated/{bucket}/{*name}", get(authenticated).head(authenticated))
        .route(
            "/object/{bucket}/{*name}",
            get(any_caller).head(any_caller).post(objects::upload).put(objects::upload).delete(objects::remove_one),
        )
        .route("/object/{bucket}", axum::routing::delete(objects::remove_many))
        .route("/render/image/public/{bucket}/{*name}", get(render::public))
        .route("/render/image/authenticated/{bucket}/{*name}", get(render::authenticated))
        .route("/render/image/sign/{bucket}/{*name}", get(render::signed))
        .fallback(not_found)
        .layer(cors::layer())
}

/// Fastify's not-found answer, as Storage gives it for any unknown route.
async fn not_found(method: axum::http::Method, uri: axum::extract::OriginalUri) -> StorageError {
    let path_and_query = uri.0.path_and_query().map(|p| p.as_str()).unwrap_or("/");
    let relative = path_and_query.strip_prefix("/storage/v1").unwrap_or(path_and_query);
    StorageError::RouteNotFound(format!("{method}:{relative}"))
}

/// Background work: the storage sweep (the mail outbox is the core's, started and stopped by `Application::serve`).
pub fn spawn_background(state: &Storage) {
    sweep::spawn(state);
}
