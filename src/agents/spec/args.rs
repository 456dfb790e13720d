//! The `key=value` arguments of one spec and the readers of the values every kind shares.

use super::{AgentError, RolloutSpec};
use crate::eval;
use crate::search::SearchParams;
use std::str::FromStr;
use std::time::Duration;

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
        for arg in rest.into_iter().flat_map(|r| r.split(',')) {
            let arg = arg.trim();
            let (k, v) = arg.split_once('=').ok_or_else(|| AgentError::NotKeyValue {
                spec: spec.into(),
                arg: arg.into(),
            })?;
            pairs.push((k.trim(), v.trim()));
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

    /// depth, ms, schedule and tt, shared by every searching kind.
    pub(super) fn search_params(&mut self, default_depth: u32) -> Result<SearchParams, AgentError> {
        let depth = self.number("depth", default_depth, 1..=64, "a depth from 1 to 64")?;
        let ms = self.take("ms");
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
        Ok(SearchParams {
            depth,
            schedule,
            time_budget,
            table_log2,
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
