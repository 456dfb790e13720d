//! What a damaged book file is found to hold, typed: the checks of the header as a file is
//! opened, and of each block as a lookup first reads it, name the first thing that does not
//! hold; [`super::BookError::Corrupt`] carries it and says it in words.

/// The first thing in a book's bytes that does not hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Damage {
    /// The version-5 header's CRC does not match.
    #[error("the header fails its checksum")]
    Header,
    /// The digest over a version 1-4 file does not match.
    #[error("checksum mismatch")]
    Digest,
    /// Longer than its header and entries say.
    #[error("{len} bytes where {entries} entries need {need}")]
    Length {
        /// The file's bytes.
        len: usize,
        /// Entries its header says it holds.
        entries: u64,
        /// Bytes they take.
        need: u128,
    },
    /// A length of key gaps that the entries cannot take (a gap is 1 to 10 bytes).
    #[error("{bytes} bytes of key gaps cannot hold {keys} keys")]
    GapBytes {
        /// The gaps' length from the header.
        bytes: u128,
        /// Keys they should hold.
        keys: u128,
    },
    /// More key gaps than the heads' 4-byte offsets reach.
    #[error("{0} bytes of key gaps, past 4 GiB")]
    GapsPast4GiB(u128),
    /// A book too large for the heads' 4-byte offsets.
    #[error("key gaps past 4 GiB")]
    TooBig,
    /// Entries given to be stored that the heads' 4-byte offsets cannot reach.
    #[error("too many entries: key gaps past 4 GiB")]
    TooManyEntries,
    /// A stored score past the board's range.
    #[error("score {score} out of range for entry {entry}")]
    Score {
        /// The score.
        score: i8,
        /// Its entry, 0-based in key order.
        entry: usize,
    },
    /// A score given to be stored past the board's range.
    #[error("score {score} out of range for key {key}")]
    KeyScore {
        /// The score.
        score: i32,
        /// Its position's key.
        key: u64,
    },
    /// A version 1-2 file whose scores do not match the positions of its depth.
    #[error("{scores} scores where a book of {plies} plies has {positions} positions")]
    Scores {
        /// Scores the file holds.
        scores: u64,
        /// Its depth.
        plies: usize,
        /// Positions a book of that depth has.
        positions: usize,
    },
    /// A book whose entries are not the positions of its depth.
    #[error("{entries} entries where a book of {plies} plies has {positions} positions")]
    Entries {
        /// Entries the book holds.
        entries: usize,
        /// Its depth.
        plies: usize,
        /// Positions a book of that depth has.
        positions: usize,
    },
    /// Keys not in strictly increasing order.
    #[error("keys out of order")]
    KeysOutOfOrder,
    /// A key wider than the 56 bits keys take.
    #[error("a key past the key range")]
    KeyRange,
    /// Key `0` (0-based) past the 56 bits keys take.
    #[error("key {0} past the key range")]
    KeyPastRange(usize),
    /// One position given twice.
    #[error("a position appears twice")]
    Twice,
    /// The key gaps end before the last key.
    #[error("the key gaps end after {read} of {keys} keys")]
    GapsCut {
        /// Keys read.
        read: usize,
        /// Keys the header says.
        keys: usize,
    },
    /// A gap whose bytes never end.
    #[error("key gap {0} does not end")]
    GapEndless(usize),
    /// Gap bytes after the last key.
    #[error("{bytes} bytes of key gaps left over after {keys} keys")]
    GapsLeftOver {
        /// Bytes left.
        bytes: usize,
        /// Keys the header says.
        keys: usize,
    },
    /// Not one block head per block of entries.
    #[error("{heads} block heads where {entries} entries need {need}")]
    HeadCount {
        /// Heads found.
        heads: usize,
        /// Entries the header says.
        entries: usize,
        /// Heads they need.
        need: usize,
    },
    /// A block head pointing outside the gaps (or a key past 56 bits).
    #[error("a block head (key {key}, at {at}) past the gaps")]
    HeadPastGaps {
        /// Its key.
        key: u64,
        /// Where it says its block's gaps go on.
        at: usize,
    },
    /// Block heads not increasing in key and offset.
    #[error("block heads out of order")]
    HeadsOutOfOrder,
    /// A block whose CRC does not match.
    #[error("entries {first} to {last} fail their checksum")]
    BlockChecksum {
        /// The block's first entry.
        first: usize,
        /// Its last.
        last: usize,
    },
    /// A block whose gaps do not lead from its head to the next.
    #[error("the key gaps of entries {first} to {last} do not hold together")]
    BlockGaps {
        /// The block's first entry.
        first: usize,
        /// Its last.
        last: usize,
    },
}
