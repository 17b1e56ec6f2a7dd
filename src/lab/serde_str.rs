//! Serde helpers: values written as their `Display` string and read back with `FromStr`
//! (algorithm ids, device ids, weight rules), so experiment files read like command lines.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};
use std::fmt::Display;
use std::str::FromStr;

/// Serializes `v` as its `Display` string.
pub fn serialize<T: Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// Parses a string with `FromStr`.
pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
where
    T: FromStr,
    T::Err: Display,
    D: Deserializer<'de>,
{
    let s = String::deserialize(d)?;
    s.parse().map_err(D::Error::custom)
}

/// The same for a list.
pub mod vec {
    use super::*;
    use serde::ser::SerializeSeq;

    /// Serializes every element as its `Display` string.
    pub fn serialize<T: Display, S: Serializer>(v: &[T], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for x in v {
            seq.serialize_element(&x.to_string())?;
        }
        seq.end()
    }

    /// Parses every element with `FromStr`.
    pub fn deserialize<'de, T, D>(d: D) -> Result<Vec<T>, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let v = Vec::<String>::deserialize(d)?;
        v.iter().map(|s| s.parse().map_err(D::Error::custom)).collect()
    }
}
