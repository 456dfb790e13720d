//! Shards: the slice of a job one process or machine takes.

/// A slice of a job for one machine or process: `index` of `count` (0-based, "I/N"). Position
/// `k` of the full list belongs to shard `k % count`, so every shard gets a similar mix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, 0-based.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 0, count: 1 }
    }
}

/// Why a shard string ("I/N") was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// No `/`.
    #[error("shard {0:?} is not I/N (e.g. 0/4)")]
    Form(String),
    /// I or N is not a number.
    #[error("shard {part} {text:?} is not a number")]
    NotANumber {
        /// "index" or "count".
        part: &'static str,
        /// The text.
        text: String,
    },
    /// Not 0 <= I < N.
    #[error("shard {index}/{count}: need 0 <= I < N")]
    Range {
        /// I.
        index: usize,
        /// N.
        count: usize,
    },
}

impl std::str::FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Self, ShardError> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| ShardError::Form(s.to_string()))?;
        let number = |part, text: &str| {
            text.trim()
                .parse::<usize>()
                .map_err(|_| ShardError::NotANumber {
                    part,
                    text: text.to_string(),
                })
        };
        let (index, count) = (number("index", i)?, number("count", n)?);
        if count == 0 || index >= count {
            return Err(ShardError::Range { index, count });
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The items of `all` that belong to this shard, in order.
    pub fn select<T: Copy>(&self, all: &[T]) -> Vec<T> {
        all.iter()
            .enumerate()
            .filter(|(k, _)| k % self.count == self.index)
            .map(|(_, t)| *t)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_partition() {
        let s: Shard = "1/3".parse().unwrap();
        assert_eq!(s.select(&[0, 1, 2, 3, 4, 5, 6]), vec![1, 4]);
        assert!("3/3".parse::<Shard>().is_err());
        assert!("a/3".parse::<Shard>().is_err());
        assert!("2".parse::<Shard>().is_err());
    }
}
