//! A bounded cache: a syntax fixture.

use std::collections::HashMap;
use std::fmt;

/// Largest number of entries.
pub const MAX_ENTRIES: usize = 4096;

static GREETING: &str = "hello";

/// A key-value entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry<K, V> {
    pub key: K,
    pub value: V,
}

/// Errors from the cache.
#[derive(Debug)]
pub enum CacheError {
    /// The cache is full.
    Full,
    Missing(String),
}

pub type Result<T> = std::result::Result<T, CacheError>;

/// Something that can be evicted.
pub trait Evict {
    /// Picks a victim.
    fn victim(&self) -> Option<usize>;

    fn evict_all(&mut self) {
        while let Some(_) = self.victim() {}
    }
}

/// The cache.
pub struct Cache<K, V>
where
    K: std::hash::Hash + Eq,
{
    map: HashMap<K, Entry<K, V>>,
    hits: u64,
}

impl<K, V> Cache<K, V>
where
    K: std::hash::Hash + Eq + Clone,
    V: Clone,
{
    /// Makes an empty cache.
    pub fn new() -> Self {
        Cache { map: HashMap::new(), hits: 0 }
    }

    #[inline]
    pub fn get(&mut self, key: &K) -> Result<V> {
        match self.map.get(key) {
            Some(e) => {
                self.hits += 1;
                Ok(e.value.clone())
            }
            None => Err(CacheError::Missing(String::from("key"))),
        }
    }

    pub fn insert(&mut self, key: K, value: V) -> Result<()> {
        if self.map.len() >= MAX_ENTRIES {
            return Err(CacheError::Full);
        }
        let entry = Entry { key: key.clone(), value };
        self.map.insert(key, entry);
        Ok(())
    }
}

impl fmt::Display for CacheError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CacheError::Full => write!(f, "full"),
            CacheError::Missing(k) => write!(f, "missing {}", k),
        }
    }
}

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

pub fn greeting() -> &'static str {
    GREETING
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_then_get() {
        let mut c: Cache<String, i32> = Cache::new();
        c.insert("a".into(), square!(3)).unwrap();
        assert_eq!(c.get(&"a".to_string()).unwrap(), 9);
    }
}
