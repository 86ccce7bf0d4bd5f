//! `Shared<T>`: an API's (or the core's) state behind one `Arc`, as handlers receive it — axum clones the state
//! per request, and cloning this is one reference count.

use std::sync::Arc;

pub struct Shared<T>(Arc<T>);

impl<T> From<T> for Shared<T> {
    fn from(state: T) -> Self {
        Shared(Arc::new(state))
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}
