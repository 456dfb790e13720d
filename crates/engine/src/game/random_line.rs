//! Random lines of play from the empty board: the openings of tournaments and the random
//! boards of the Python package, drawn by one function whatever supplies the randomness.

use super::{BitBoard, Geometry, Position};

/// What a random line must avoid, besides ending the game (it never does).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineRules {
    /// Never draw a move that wins (draw among the others), rather than drawing any legal
    /// move and throwing away lines that end the game.
    pub no_winning_moves: bool,
    /// Refuse a line after which the side to move can win at once.
    pub no_win_in_one: bool,
}

/// `plies` random moves (0-based columns) from the empty board of `geom` that leave the game
/// open and obey `rules`. `draw(n)` picks an index below `n` (any source: a seeded stream, a
/// caller's generator); a line that fails the rules is thrown away and drawn again, at most
/// `max_tries` times (`None`: until one is found). `Ok(None)` when the tries ran out.
///
/// ```
/// use connect4_engine::game::{Geometry, LineRules, Position, random_line};
/// let mut x = 0usize;
/// let rules = LineRules { no_winning_moves: true, no_win_in_one: true };
/// let draw = |n: usize| -> Result<usize, ()> { x = (x + 3) % 7; Ok(x % n) };
/// let moves = random_line(Geometry::STANDARD, 6, rules, draw, Some(100)).unwrap().unwrap();
/// let mut pos = Position::new(Geometry::STANDARD);
/// moves.iter().for_each(|&c| pos.play_col(c));
/// assert_eq!(pos.moves_played(), 6);
/// assert!(!pos.can_win_next());
/// ```
pub fn random_line<B: BitBoard, E>(
    geom: Geometry<B>,
    plies: usize,
    rules: LineRules,
    mut draw: impl FnMut(usize) -> Result<usize, E>,
    max_tries: Option<usize>,
) -> Result<Option<Vec<usize>>, E> {
    let mut tries = 0;
    while max_tries.is_none_or(|m| tries < m) {
        tries += 1;
        let mut pos = Position::new(geom);
        let mut moves = Vec::with_capacity(plies);
        for _ in 0..plies {
            let cols: Vec<usize> = pos
                .legal_columns()
                .filter(|&c| !rules.no_winning_moves || !pos.is_winning_move(c))
                .collect();
            if cols.is_empty() {
                break;
            }
            let c = cols[draw(cols.len())?];
            pos.play_col(c);
            moves.push(c);
        }
        if moves.len() == plies
            && !pos.last_move_won()
            && !pos.is_full()
            && (!rules.no_win_in_one || !pos.can_win_next())
        {
            return Ok(Some(moves));
        }
    }
    Ok(None)
}
