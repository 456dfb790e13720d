//! Values kept by key for the next request, the most recently used first: what the model
//! store (decoded networks) and the answers' factory cache (agent factories) both need, a
//! small list rather than a map since each holds a handful of large values.

use std::any::Any;
use std::sync::{Arc, Mutex, MutexGuard};

/// Values of any type by key `K`, at most `capacity` of them, the most recently used first;
/// a value is found again only as the type it was kept as.
pub(crate) struct Kept<K> {
    entries: Mutex<Vec<(K, Arc<dyn Any + Send + Sync>)>>,
    capacity: usize,
}

impl<K: PartialEq> Kept<K> {
    /// An empty list keeping at most `capacity` values.
    pub(crate) fn new(capacity: usize) -> Self {
        Kept {
            entries: Mutex::default(),
            capacity,
        }
    }

    /// The value kept under `key` as a `T`, else the one `make` gives, kept. `make` runs
    /// without the lock: other threads' requests go on meanwhile.
    pub(crate) fn get_or<T: Clone + Send + Sync + 'static, E>(
        &self,
        key: K,
        make: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, E> {
        let found = {
            let mut entries = self.lock();
            let hit = entries.iter().position(|(k, v)| *k == key && v.is::<T>());
            hit.and_then(|i| {
                let entry = entries.remove(i);
                let value = entry.1.downcast_ref::<T>().cloned();
                entries.insert(0, entry);
                value
            })
        };
        if let Some(v) = found {
            return Ok(v);
        }
        let v = make()?;
        let mut entries = self.lock();
        entries.insert(0, (key, Arc::new(v.clone())));
        entries.truncate(self.capacity);
        Ok(v)
    }

    /// Forgets every value.
    pub(crate) fn clear(&self) {
        self.lock().clear();
    }

    /// How many values are kept.
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> MutexGuard<'_, Vec<(K, Arc<dyn Any + Send + Sync>)>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_kept_by_key_and_type_most_recent_first() {
        let kept = Kept::new(2);
        let make = |v: u32| move || Ok::<_, ()>(Arc::new(v));
        let a = kept.get_or("a", make(1)).unwrap();
        assert!(Arc::ptr_eq(&a, &kept.get_or("a", make(9)).unwrap()));
        // Another type under the same key is another value.
        assert_eq!(kept.get_or("a", || Ok::<_, ()>(7u8)), Ok(7));
        assert_eq!(kept.len(), 2);
        // "a" as Arc<u32> was used before the u8: a third value drops it.
        kept.get_or("b", make(2)).unwrap();
        assert_eq!(*kept.get_or("a", make(3)).unwrap(), 3);
        assert_eq!(kept.get_or("c", || Err::<Arc<u32>, _>("no")), Err("no"));
        assert_eq!(kept.len(), 2);
        kept.clear();
        assert_eq!(kept.len(), 0);
    }
}
