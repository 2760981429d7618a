//! A RON map read as an ordered list of entries.
//!
//! A `HashMap` would silently keep the last of two entries with the same key and forget the file's
//! order. The formats need both: a duplicate name is an error to report, and output (saved files,
//! JSON) must be deterministic.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Map entries in file order; duplicates are kept, so validation can report them.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderedMap<T>(pub Vec<(String, T)>);

impl<T> Default for OrderedMap<T> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<T> OrderedMap<T> {
    /// True when the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The entries in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &T)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The first entry with this key.
    pub fn get(&self, key: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Keys that occur more than once, each reported once, in order of their second occurrence.
    pub fn duplicate_keys(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        let mut reported = std::collections::HashSet::new();
        let mut out = Vec::new();
        for (k, _) in &self.0 {
            if !seen.insert(k.as_str()) && reported.insert(k.as_str()) {
                out.push(k.as_str());
            }
        }
        out
    }
}

impl<T: Serialize> Serialize for OrderedMap<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for OrderedMap<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for EntriesVisitor<T> {
            type Value = OrderedMap<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map from names to definitions")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                // Do not trust the size hint of hostile input for the allocation.
                let mut entries = Vec::with_capacity(access.size_hint().unwrap_or(0).min(256));
                while let Some((k, v)) = access.next_entry::<String, T>()? {
                    entries.push((k, v));
                }
                Ok(OrderedMap(entries))
            }
        }

        deserializer.deserialize_map(EntriesVisitor(PhantomData))
    }
}
