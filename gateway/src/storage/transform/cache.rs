//! Rendered images kept in memory, least recently used first out, within a byte budget.

use super::engine::Rendered;
use lru::LruCache;
use std::sync::{Arc, Mutex};

pub struct RenderCache {
    inner: Mutex<(LruCache<String, Arc<Rendered>>, usize)>,
    budget: usize,
}

impl RenderCache {
    pub fn new(budget: usize) -> Self {
        RenderCache { inner: Mutex::new((LruCache::unbounded(), 0)), budget }
    }

    pub fn get(&self, key: &str) -> Option<Arc<Rendered>> {
        self.inner.lock().ok()?.0.get(key).cloned()
    }

    /// Keeps `value` unless it alone exceeds the budget; evicts the oldest entries to make room.
    pub fn put(&self, key: String, value: Arc<Rendered>) {
        let size = value.bytes.len();
        if size > self.budget {
            return;
        }
        let Ok(mut guard) = self.inner.lock() else { return };
        let (map, used) = &mut *guard;
        if let Some(old) = map.put(key, value) {
            *used -= old.bytes.len();
        }
        *used += size;
        while *used > self.budget {
            match map.pop_lru() {
                Some((_, old)) => *used -= old.bytes.len(),
                None => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(n: usize) -> Arc<Rendered> {
        Arc::new(Rendered { bytes: vec![0; n].into(), content_type: "image/png", width: 1, height: 1 })
    }

    #[test]
    fn evicts_the_least_recently_used_within_the_budget() {
        let cache = RenderCache::new(100);
        cache.put("a".into(), image(40));
        cache.put("b".into(), image(40));
        assert!(cache.get("a").is_some()); // a is now the most recent
        cache.put("c".into(), image(40));
        assert!(cache.get("b").is_none());
        assert!(cache.get("a").is_some() && cache.get("c").is_some());
        cache.put("huge".into(), image(101));
        assert!(cache.get("huge").is_none());
    }
}
