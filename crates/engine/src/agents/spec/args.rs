//! The `key=value` arguments of one spec and the readers of the values every kind shares.

use super::{AgentError, RolloutSpec};
use crate::eval;
use crate::search::SearchParams;
use std::str::FromStr;
use std::time::Duration;

/// Splits `rest` at the commas that are not inside double quotes, trimming each part (none
/// for an empty `rest`). A quote left open is an error.
pub(super) fn split_outside_quotes<'a>(
    spec: &str,
    rest: &'a str,
) -> Result<Vec<&'a str>, AgentError> {
    let mut parts = Vec::new();
    if rest.trim().is_empty() {
        return Ok(parts);
    }
    let (mut start, mut quoted) = (0, false);
    for (i, c) in rest.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                parts.push(rest[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if quoted {
        return Err(AgentError::OpenQuote { spec: spec.into() });
    }
    parts.push(rest[start..].trim());
    Ok(parts)
}

/// A value without its surrounding double quotes, if it has them.
pub(super) fn unquote(v: &str) -> &str {
    v.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(v)
}

/// A value as a spec writes it: in double quotes when it holds a character the spec syntax
/// uses (`,`, `=`), a quote or white space at its ends, so that the text parses back to the
/// same value. A value with a double quote inside cannot be written.
pub(super) fn quote(v: &str) -> Option<String> {
    if v.contains('"') {
        return None;
    }
    let plain = !v.contains([',', '=']) && v.trim() == v && !v.is_empty();
    Some(if plain {
        v.to_string()
    } else {
        format!("\"{v}\"")
    })
}

/// The `key=value` arguments of one spec, consumed as they are read so that leftovers can
/// be reported.
pub(super) struct Args<'a> {
    spec: &'a str,
    kind: &'a str,
    pairs: Vec<(&'a str, &'a str)>,
}

impl<'a> Args<'a> {
    pub(super) fn parse(
        spec: &'a str,
        kind: &'a str,
        rest: Option<&'a str>,
    ) -> Result<Self, AgentError> {
        let mut pairs = Vec::new();
        for arg in split_outside_quotes(spec, rest.unwrap_or(""))? {
            let (k, v) = arg.split_once('=').ok_or_else(|| AgentError::NotKeyValue {
                spec: spec.into(),
                arg: arg.into(),
            })?;
            pairs.push((k.trim(), unquote(v.trim())));
        }
        Ok(Args { spec, kind, pairs })
    }

    pub(super) fn take(&mut self, key: &str) -> Option<&'a str> {
        let i = self.pairs.iter().position(|(k, _)| *k == key)?;
        Some(self.pairs.remove(i).1)
    }

    /// The error for a key this kind needs and did not get.
    pub(super) fn missing(&self, key: &str) -> AgentError {
        AgentError::MissingKey {
            spec: self.spec.into(),
            kind: self.kind.into(),
            key: key.into(),
        }
    }

    /// The value of a key this kind needs.
    pub(super) fn require(&mut self, key: &str) -> Result<&'a str, AgentError> {
        self.take(key).ok_or_else(|| self.missing(key))
    }

    pub(super) fn bad(&self, key: &str, value: &str, expected: &str) -> AgentError {
        AgentError::BadValue {
            spec: self.spec.into(),
            key: key.into(),
            value: value.into(),
            expected: expected.into(),
        }
    }

    pub(super) fn number<T: FromStr + PartialOrd + Copy>(
        &mut self,
        key: &str,
        default: T,
        range: std::ops::RangeInclusive<T>,
        expected: &str,
    ) -> Result<T, AgentError> {
        match self.take(key) {
            None => Ok(default),
            Some(v) => match v.parse::<T>() {
                Ok(n) if range.contains(&n) => Ok(n),
                _ => Err(self.bad(key, v, expected)),
            },
        }
    }

    /// depth, ms, schedule, tt and safe, shared by every searching kind.
    pub(super) fn search_params(&mut self, default_depth: u32) -> Result<SearchParams, AgentError> {
        let ms = self.take("ms");
        // With a time budget and no depth, deepen until the time runs out.
        let default_depth = if ms.is_some() { 64 } else { default_depth };
        let depth = self.number("depth", default_depth, 1..=64, "a depth from 1 to 64")?;
        let time_budget = match ms {
            None => None,
            Some(v) => match v.parse::<u64>() {
                Ok(ms) if ms > 0 => Some(Duration::from_millis(ms)),
                _ => return Err(self.bad("ms", v, "a positive number of milliseconds")),
            },
        };
        let mut schedule = Vec::new();
        if let Some(v) = self.take("schedule") {
            for step in v.split('/') {
                let parsed = step
                    .split_once(':')
                    .and_then(|(p, d)| Some((p.parse().ok()?, d.parse().ok()?)));
                match parsed {
                    Some((p, d)) if (1..=64).contains(&d) => schedule.push((p, d)),
                    _ => {
                        return Err(self.bad(
                            "schedule",
                            v,
                            "steps PLY:DEPTH separated by '/', e.g. 20:7/30:9",
                        ));
                    }
                }
            }
        }
        let table_log2 =
            self.number("tt", 16, 4..=28, "a table size as a power of two, 4 to 28")?;
        let safe = match self.take("safe") {
            None => None,
            Some("true" | "1" | "yes") => Some(true),
            Some("false" | "0" | "no") => Some(false),
            Some(v) => return Err(self.bad("safe", v, "true or false")),
        };
        Ok(SearchParams {
            depth,
            schedule,
            time_budget,
            table_log2,
            safe,
        })
    }

    /// playouts (or rollouts), smart and seed of the Monte Carlo kinds; `smart_default` is
    /// the policy when `smart` is not given.
    pub(super) fn rollouts(&mut self, smart_default: bool) -> Result<RolloutSpec, AgentError> {
        let default = eval::DEFAULT_PLAYOUTS;
        let expected = "a playout count from 1 to 1000000";
        let playouts = match self.take("rollouts") {
            Some(v) => match v.parse::<u32>() {
                Ok(n) if (1..=1_000_000).contains(&n) => n,
                _ => return Err(self.bad("rollouts", v, expected)),
            },
            None => self.number("playouts", default, 1..=1_000_000, expected)?,
        };
        let smart = match self.take("smart") {
            None => smart_default,
            Some("true" | "1" | "yes") => true,
            Some("false" | "0" | "no") => false,
            Some(v) => return Err(self.bad("smart", v, "true or false")),
        };
        let seed = self.number("seed", 0, 0..=u64::MAX, "a seed from 0 to 2^64-1")?;
        Ok(RolloutSpec {
            playouts,
            smart,
            seed,
        })
    }

    pub(super) fn finish(self, takes: &str) -> Result<(), AgentError> {
        match self.pairs.first() {
            None => Ok(()),
            Some((k, _)) => Err(AgentError::UnknownKey {
                spec: self.spec.into(),
                kind: self.kind.into(),
                key: (*k).into(),
                takes: takes.into(),
            }),
        }
    }
}
