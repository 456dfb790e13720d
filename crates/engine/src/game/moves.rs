//! The one move codec: how a game's moves are written as text and read back, everywhere
//! (the CLI, the arena's CSV, the server, the WebAssembly engine, Python, the page).
//!
//! One character per move: columns 1 to 9 are the digits `1`-`9`, columns 10 to 35 the
//! letters `a`-`z` (read in either case, written in lower case), so a move string stays one
//! character a move on boards up to 35 columns wide and reads as it always did on 7x6.

use super::GameError;

/// The widest board a move string can describe: 9 digits and 26 letters.
pub const MAX_WIDTH: usize = 35;

/// The character of 0-based column `col`: `'1'` for the leftmost, `'a'` for the tenth;
/// `None` past [`MAX_WIDTH`].
///
/// ```
/// use connect4_engine::game::moves::column_char;
/// assert_eq!(column_char(0), Some('1'));
/// assert_eq!(column_char(9), Some('a'));
/// assert_eq!(column_char(35), None);
/// ```
pub fn column_char(col: usize) -> Option<char> {
    if col >= MAX_WIDTH {
        return None;
    }
    char::from_digit(col as u32 + 1, 36)
}

/// The 0-based column a character names, whatever the board (`'A'` and `'a'` both name the
/// tenth column); `None` for a character that names no column (`'0'`, `'x'` past `'z'` ...).
///
/// ```
/// use connect4_engine::game::moves::char_column;
/// assert_eq!(char_column('4'), Some(3));
/// assert_eq!(char_column('B'), Some(10));
/// assert_eq!(char_column('0'), None);
/// assert_eq!(char_column('-'), None);
/// ```
pub fn char_column(ch: char) -> Option<usize> {
    match ch.to_digit(36) {
        Some(d) if d >= 1 => Some(d as usize - 1),
        _ => None,
    }
}

/// Writes 0-based columns as a move string (`[3, 3, 4]` is `"445"`). Columns past
/// [`MAX_WIDTH`] cannot occur on a board [`Geometry`](super::Geometry) accepts; they are
/// written as `'?'` rather than lost.
///
/// ```
/// use connect4_engine::game::moves::format_moves;
/// assert_eq!(format_moves(&[3, 3, 4]), "445");
/// assert_eq!(format_moves(&[9, 11]), "ac");
/// ```
pub fn format_moves(cols: &[usize]) -> String {
    cols.iter()
        .map(|&c| column_char(c).unwrap_or('?'))
        .collect()
}

/// Reads a move string into 0-based columns of a `width`-column board, checking each
/// character names a column of that board (not that the moves are legal: a position checks
/// full columns and finished games). Errors name the 1-based move; on boards of at most 9
/// columns a letter is "not a column digit", on wider ones a column past the board.
///
/// ```
/// use connect4_engine::game::GameError;
/// use connect4_engine::game::moves::parse_moves;
/// assert_eq!(parse_moves("44a", 12).unwrap(), vec![3, 3, 9]);
/// assert_eq!(
///     parse_moves("44d", 12).unwrap_err(),
///     GameError::ColumnOutOfRange { at: 3, column: 13, width: 12 }
/// );
/// assert_eq!(parse_moves("48", 7).unwrap_err(), GameError::ColumnOutOfRange { at: 2, column: 8, width: 7 });
/// assert!(matches!(parse_moves("4x", 7), Err(GameError::NotADigit { at: 2, ch: 'x' })));
/// ```
pub fn parse_moves(text: &str, width: usize) -> Result<Vec<usize>, GameError> {
    text.chars()
        .enumerate()
        .map(|(i, ch)| parse_column(ch, i + 1, width))
        .collect()
}

/// Reads the character of move `at` (1-based) on a `width`-column board.
pub(crate) fn parse_column(ch: char, at: usize, width: usize) -> Result<usize, GameError> {
    if ch == '0' {
        return Err(GameError::ColumnOutOfRange {
            at,
            column: 0,
            width,
        });
    }
    let col = char_column(ch).ok_or(GameError::NotADigit { at, ch })?;
    // On a board of at most 9 columns a letter names nothing a player of it would mean.
    if col >= width && col >= 9 && width <= 9 {
        return Err(GameError::NotADigit { at, ch });
    }
    if col >= width {
        return Err(GameError::ColumnOutOfRange {
            at,
            column: col + 1,
            width,
        });
    }
    Ok(col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_column_round_trips() {
        for col in 0..MAX_WIDTH {
            let ch = column_char(col).unwrap();
            assert_eq!(char_column(ch), Some(col));
            assert_eq!(char_column(ch.to_ascii_uppercase()), Some(col));
        }
        let all: Vec<usize> = (0..MAX_WIDTH).collect();
        assert_eq!(parse_moves(&format_moves(&all), MAX_WIDTH).unwrap(), all);
        assert_eq!(format_moves(&all), "123456789abcdefghijklmnopqrstuvwxyz");
    }

    #[test]
    fn errors_name_the_move() {
        assert_eq!(
            parse_moves("12c", 12).unwrap(),
            vec![0, 1, 11],
            "the twelfth column of a 12-wide board"
        );
        assert_eq!(
            parse_moves("12d", 12).unwrap_err(),
            GameError::ColumnOutOfRange {
                at: 3,
                column: 13,
                width: 12
            }
        );
        assert_eq!(
            parse_moves("4a", 7).unwrap_err(),
            GameError::NotADigit { at: 2, ch: 'a' },
            "a letter on a board of digits"
        );
        assert_eq!(
            parse_moves("1é", 12).unwrap_err(),
            GameError::NotADigit { at: 2, ch: 'é' }
        );
        assert_eq!(
            parse_moves("10", 12).unwrap_err(),
            GameError::ColumnOutOfRange {
                at: 2,
                column: 0,
                width: 12
            }
        );
    }
}
