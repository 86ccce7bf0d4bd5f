//! The application's state: the core and each API's own state, composed for axum's sub-state (`FromRef`), so a
//! handler extracts only its API's state (and the core) and no API module names another.

use crate::auth::Auth;
use crate::core::reload::Reloader;
use crate::core::Core;
use crate::realtime::Realtime;
use crate::rest::Rest;
use crate::site::Site;
use crate::storage::Storage;
use axum::extract::FromRef;
use std::sync::Arc;

/// Every API's state; cloning it (axum does, per request) is one reference count, and extracting an API's state
/// from it one more.
#[derive(Clone)]
pub struct AppState(Arc<Apis>);

pub struct Apis {
    pub core: Core,
    pub rest: Rest,
    pub auth: Auth,
    pub storage: Storage,
    pub site: Site,
    pub realtime: Realtime,
}

impl AppState {
    pub fn new(apis: Apis) -> Self {
        AppState(Arc::new(apis))
    }

    /// What rebuilds the catalog's readings on `NOTIFY pgrst`: the roles' settings (core) and REST's schema cache.
    pub fn reloader(&self) -> Reloader {
        Reloader::new(self.core.clone(), vec![self.rest.reload_hook()])
    }

    /// Rereads the roles' settings and rebuilds REST's schema cache now, as `NOTIFY pgrst` does.
    pub async fn reload_schema(&self) {
        self.reloader().reload().await;
    }
}

impl std::ops::Deref for AppState {
    type Target = Apis;

    fn deref(&self) -> &Apis {
        &self.0
    }
}

macro_rules! sub_state {
    ($($field:ident: $ty:ty),*) => {
        $(impl FromRef<AppState> for $ty {
            fn from_ref(state: &AppState) -> $ty {
                state.$field.clone()
            }
        })*
    };
}

sub_state!(core: Core, rest: Rest, auth: Auth, storage: Storage, site: Site, realtime: Realtime);
