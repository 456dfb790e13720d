//! Files of positions as move strings, one per line: "MOVES" (to be labelled) or "MOVES SCORE"
//! (labelled: what `c4 data label` writes, the shipped data/positions/ and the benchmark
//! sets). Plain text or gzip (`.gz`, recognised by its first bytes, not its name). One reader
//! for all of them, whose errors name the file, the line and what is wrong, like the UCI
//! reader's.

use connect4_engine::game::record::{LineError, parse_test_line};
use connect4_engine::game::{BitBoard, GameError, Geometry, Position};
use std::io::Read;
use std::path::{Path, PathBuf};

/// One position of a move-string file (on a board of the integer `B`: `u128` past 64 bits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovesLine<B: BitBoard = u64> {
    /// 1-based line number in the file.
    pub line: usize,
    /// The move string, as written (1-based columns).
    pub moves: String,
    /// The position those moves reach.
    pub position: Position<B>,
    /// The score the line gives, from the side to move (exact, or -1/0/1 for weak labels).
    pub score: Option<i32>,
}

/// What a file must hold on every line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// "MOVES" or "MOVES SCORE".
    Any,
    /// "MOVES SCORE" only: a labelled file.
    Labelled,
}

/// What is wrong with one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MovesLineError {
    /// Not "MOVES" or "MOVES SCORE".
    #[error(transparent)]
    Line(#[from] LineError),
    /// The moves are not a legal game.
    #[error(transparent)]
    Moves(#[from] GameError),
    /// The game is already over: no position to learn from or to solve.
    #[error("the game is already over")]
    Finished,
    /// A labelled file's line without a score.
    #[error("no score: expected \"MOVES SCORE\"")]
    NoScore,
    /// A score no position with this many stones can have.
    #[error("score {score} is impossible with {stones} stones on the board (|score| <= {max})")]
    ScoreRange {
        /// The score given.
        score: i32,
        /// Stones on the board.
        stones: usize,
        /// The largest possible magnitude.
        max: i32,
    },
}

/// Why a move-string file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum MovesFileError {
    /// File trouble (missing, unreadable, a broken gzip stream, not UTF-8).
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A bad line.
    #[error("{path}:{line}: {problem}", path = path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        problem: MovesLineError,
    },
}

/// The text of `path`, decompressed when it is gzip.
pub fn read_text(path: &Path) -> Result<String, MovesFileError> {
    let io = |source| MovesFileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let bytes = std::fs::read(path).map_err(io)?;
    let bytes = if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::with_capacity(bytes.len() * 4);
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .map_err(io)?;
        out
    } else {
        bytes
    };
    String::from_utf8(bytes)
        .map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))
}

/// Parses one line of a move-string file: `Ok(None)` for blank lines and `#` comments.
pub(crate) fn parse_line<B: BitBoard>(
    text: &str,
    line: usize,
    geom: Geometry<B>,
    expect: Expect,
) -> Result<Option<MovesLine<B>>, MovesLineError> {
    let Some(t) = parse_test_line(text)? else {
        return Ok(None);
    };
    let position = Position::from_moves(geom, &t.moves)?;
    if position.last_move_won() || position.is_full() {
        return Err(MovesLineError::Finished);
    }
    if expect == Expect::Labelled && t.expected.is_none() {
        return Err(MovesLineError::NoScore);
    }
    if let Some(score) = t.expected {
        let stones = position.moves_played();
        let max = geom.win_score(stones);
        if score.abs() > max {
            return Err(MovesLineError::ScoreRange { score, stones, max });
        }
    }
    Ok(Some(MovesLine {
        line,
        moves: t.moves,
        position,
        score: t.expected,
    }))
}

/// Every position of the file at `path` (plain or gzip), in file order; the first bad line
/// stops the reading with an error naming it.
pub fn read_moves_file<B: BitBoard>(
    path: &Path,
    geom: Geometry<B>,
    expect: Expect,
) -> Result<Vec<MovesLine<B>>, MovesFileError> {
    read_moves_head(path, geom, expect, None)
}

/// The first `limit` positions of the file at `path` (all of them for `None`): lines past
/// the limit are not read, so a benchmark run over a file's head ignores its tail.
pub fn read_moves_head<B: BitBoard>(
    path: &Path,
    geom: Geometry<B>,
    expect: Expect,
    limit: Option<usize>,
) -> Result<Vec<MovesLine<B>>, MovesFileError> {
    let text = read_text(path)?;
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        if out.len() >= limit.unwrap_or(usize::MAX) {
            break;
        }
        match parse_line(line, k + 1, geom, expect) {
            Ok(Some(m)) => out.push(m),
            Ok(None) => {}
            Err(problem) => {
                return Err(MovesFileError::Line {
                    path: path.to_path_buf(),
                    line: k + 1,
                    problem,
                });
            }
        }
    }
    Ok(out)
}

/// Writes `text` to `path` atomically: gzip-compressed when the name ends in `.gz`, plain
/// otherwise. Returns whether it was compressed.
pub fn write_text(path: &Path, text: &str) -> std::io::Result<bool> {
    let gzip = path.extension().is_some_and(|e| e == "gz");
    if gzip {
        write_gzip_atomic(path, text)?;
    } else {
        connect4_engine::io::write_bytes_atomic(path, text.as_bytes())?;
    }
    Ok(gzip)
}

/// Writes `text` gzip-compressed (best compression) to `path`, atomically.
pub(crate) fn write_gzip_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    connect4_engine::io::write_atomic(path, |w| {
        let mut gz = flate2::write::GzEncoder::new(w, flate2::Compression::best());
        std::io::Write::write_all(&mut gz, text.as_bytes())?;
        gz.finish()?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, bytes: &[u8]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("c4-labelled-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }

    #[test]
    fn plain_and_gzip_read_the_same() {
        let text = "# comment\n4453 1\n\n44 -2\n";
        let plain = write("plain.txt", text.as_bytes());
        let gz = plain.with_extension("gz");
        write_gzip_atomic(&gz, text).unwrap();
        let g = Geometry::STANDARD;
        let a = read_moves_file(&plain, g, Expect::Labelled).unwrap();
        let b = read_moves_file(&gz, g, Expect::Labelled).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 2);
        assert_eq!(
            (a[0].line, a[0].moves.as_str(), a[0].score),
            (2, "4453", Some(1))
        );
        assert_eq!((a[1].line, a[1].score), (4, Some(-2)));
    }

    #[test]
    fn bad_lines_are_named() {
        let g = Geometry::STANDARD;
        let cases: [(&str, &str); 6] = [
            ("44 1 2\n", "found 3 fields"),
            ("48 x\n", "not an integer"),
            ("4444444\n", "full"),
            ("4455667\n", "already over"),
            ("4455\n", "no score"),
            ("4455 30\n", "impossible with 4 stones"),
        ];
        for (i, (text, what)) in cases.iter().enumerate() {
            let p = write(&format!("bad{i}.txt"), format!("44 0\n{text}").as_bytes());
            let e = read_moves_file(&p, g, Expect::Labelled)
                .unwrap_err()
                .to_string();
            assert!(e.contains(":2: ") && e.contains(what), "{text:?}: {e}");
        }
        // Unlabelled lines are fine when no score is required.
        let p = write("moves.txt", b"4455\n");
        assert_eq!(read_moves_file(&p, g, Expect::Any).unwrap()[0].score, None);
        // A damaged gzip stream is an I/O error naming the file.
        let p = write("broken.gz", &[0x1f, 0x8b, 8, 0, 1, 2, 3]);
        let e = read_moves_file(&p, g, Expect::Any).unwrap_err();
        assert!(matches!(e, MovesFileError::Io { .. }), "{e}");
    }
}
