//! Game review: every move of a game graded by the solver against the best move of its
//! position. Best keeps the position's score; an inaccuracy loses score but keeps the result
//! (a slower win, a faster loss); a mistake changes the result. A move whose position the
//! solver did not finish in time is graded unknown, never guessed.

use super::{Mode, Solver, analysis::analyze_columns};
use crate::game::{BitBoard, Position};

/// How good a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// The best score of the position.
    Best,
    /// Less than the best score, the same result.
    Inaccuracy,
    /// A worse result: a win thrown to a draw or loss, or a draw to a loss.
    Mistake,
    /// The position was not solved in time.
    Unknown,
}

/// One move of a reviewed game.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MoveReview {
    /// 1-based move number.
    pub number: usize,
    /// 'x' or 'o': who played it.
    pub player: char,
    /// 1-based column played.
    pub column: usize,
    /// The played move's exact score for its player, when known.
    pub played: Option<i32>,
    /// The position's exact score (its best move's), when known.
    pub best: Option<i32>,
    /// 1-based columns that reach the best score, when known.
    pub best_columns: Vec<usize>,
    /// The grade.
    pub grade: Grade,
}

/// Reviews the game `moves` (0-based columns, legal, from the empty board of `start`'s
/// geometry or from `start`), latest move first so the solver's table warms up from the end
/// game backwards; `solver` may carry an interrupt, after which unfinished positions are
/// graded [`Grade::Unknown`] (book positions are still exact). Returns the moves in game
/// order.
pub fn review<B: BitBoard>(
    solver: &mut Solver<B>,
    start: &Position<B>,
    moves: &[usize],
) -> Vec<MoveReview> {
    let mut positions = Vec::with_capacity(moves.len());
    let mut p = *start;
    for &col in moves {
        positions.push(p);
        p.play_col(col);
    }
    let mut out: Vec<MoveReview> = positions
        .iter()
        .zip(moves)
        .enumerate()
        .rev()
        .map(|(i, (pos, &col))| {
            let a = analyze_columns(solver, pos, Mode::Strong);
            let exact = |b: Option<(i32, i32)>| b.and_then(|(l, h)| (l == h).then_some(l));
            let played = exact(a.columns[col]);
            let best = if a.complete { exact(a.score) } else { None };
            let grade = match (played, best) {
                (Some(p), Some(b)) if p == b => Grade::Best,
                (Some(p), Some(b)) if p.signum() == b.signum() => Grade::Inaccuracy,
                (Some(_), Some(_)) => Grade::Mistake,
                _ => Grade::Unknown,
            };
            MoveReview {
                number: start.moves_played() + i + 1,
                player: pos.side_to_move().symbol(),
                column: col + 1,
                played,
                best,
                best_columns: if best.is_some() { a.best } else { Vec::new() },
                grade,
            }
        })
        .collect();
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Geometry;

    #[test]
    fn a_late_game_is_graded_move_by_move() {
        let g = Geometry::STANDARD;
        // An end-game position, then moves: the first keeps the score, the rest are checked
        // against the solver's own analysis.
        let start = Position::from_moves(g, "2252576253462244111563365343671351441").unwrap();
        let mut s = Solver::with_table_mib(g, 16).unwrap();
        // Legal moves until the game ends: the i-th move the i-th legal column (wrapping).
        let mut moves = Vec::new();
        let mut p = start;
        while !p.last_move_won() && !p.is_full() {
            let legal: Vec<usize> = (0..7).filter(|&c| p.can_play(c)).collect();
            let col = legal[moves.len() % legal.len()];
            moves.push(col);
            p.play_col(col);
        }
        assert!(moves.len() >= 2);
        let r = review(&mut s, &start, &moves);
        assert_eq!(r.len(), moves.len());
        let mut p = start;
        for (m, &col) in r.iter().zip(&moves) {
            let scores = s.analyze(&p, Mode::Strong);
            let best = scores.iter().flatten().max().copied();
            assert_eq!(m.played, scores[col], "{m:?}");
            assert_eq!(m.best, best);
            assert_eq!(m.column, col + 1);
            let want = if scores[col] == best {
                Grade::Best
            } else if scores[col].map(i32::signum) == best.map(i32::signum) {
                Grade::Inaccuracy
            } else {
                Grade::Mistake
            };
            assert_eq!(m.grade, want, "{m:?}");
            p.play_col(col);
        }
        assert_eq!(r[0].number, 38);
        assert_eq!(r[0].player, 'o');
    }

    #[test]
    fn unsolved_positions_are_unknown() {
        let g = Geometry::STANDARD;
        let mut s = Solver::with_table_mib(g, 16).unwrap();
        s.set_book(None);
        let stop = crate::Interrupt::new();
        stop.cancel();
        s.set_interrupt(Some(stop));
        let r = review(&mut s, &Position::new(g), &[3, 3, 2]);
        assert!(
            r.iter()
                .all(|m| m.grade == Grade::Unknown && m.played.is_none())
        );
    }
}
