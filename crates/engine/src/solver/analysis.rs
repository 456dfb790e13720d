//! A position's analysis for people: the score of every column, the position's score, the
//! best columns and the principal variation, within whatever time an [`Interrupt`] allows
//! (unproved scores come back as bounds). The opening book answers the first plies at once.
//!
//! [`Interrupt`]: crate::Interrupt

use super::{Mode, Solver};
use crate::game::{BitBoard, Position};

/// What is known of a position: exact where the solver finished, bounds where it was stopped.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Analysis {
    /// Per column (index 0 = column 1): `(low, high)` bounds of its score for the side to
    /// move, equal when exact; `None` for a full column or a finished game.
    pub columns: Vec<Option<(i32, i32)>>,
    /// Whether every column's score is exact.
    pub complete: bool,
    /// Bounds of the position's score (`None` when the game is over).
    pub score: Option<(i32, i32)>,
    /// 1-based columns proved best: every column whose score is the position's, when
    /// complete; before that, any column whose lower bound reaches every other's upper bound.
    pub best: Vec<usize>,
    /// 1-based columns of a best line of play from here (strong mode, complete analyses
    /// only): each side's [`Solver::best_move`] in turn, as far as time allowed.
    pub principal_variation: Vec<usize>,
    /// Whether the principal variation plays the game to its end (it may stop early at the
    /// time budget; asking again goes further).
    pub principal_variation_complete: bool,
    /// Positions the solver searched.
    pub nodes: u64,
}

/// The score of `pos` from the solver's book, when the book covers it.
fn book_score<B: BitBoard>(solver: &Solver<B>, pos: &Position<B>, mode: Mode) -> Option<i32> {
    let s = solver.book_score(pos)?;
    Some(if mode == Mode::Weak { s.signum() } else { s })
}

/// Analyses `pos` with `solver`, which may carry an interrupt (see
/// [`Solver::set_interrupt`]); the table keeps what was proved, so asking again with the same
/// solver goes on where the last call stopped.
///
/// ```
/// use connect4_engine::solver::{Mode, Solver, analysis::analyze};
/// use connect4_engine::{Geometry, Position};
/// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
/// // The empty board: every column from the opening book, column 4 the only win.
/// let a = analyze(&mut s, &Position::new(Geometry::STANDARD), Mode::Strong);
/// assert!(a.complete);
/// assert_eq!(a.best, vec![4]);
/// assert_eq!(a.score, Some((1, 1)));
/// ```
pub fn analyze<B: BitBoard>(solver: &mut Solver<B>, pos: &Position<B>, mode: Mode) -> Analysis {
    analyze_with(solver, pos, mode, Some(PV_BUDGET))
}

/// [`analyze`] whose principal variation starts solver steps only within `pv_budget` (instead
/// of [`PV_BUDGET`]): for answers that must stay in milliseconds, such as a server's book
/// lookups while solving saturates its cores. The line stops sooner; the scores are the same.
pub fn analyze_within<B: BitBoard>(
    solver: &mut Solver<B>,
    pos: &Position<B>,
    mode: Mode,
    pv_budget: std::time::Duration,
) -> Analysis {
    analyze_with(solver, pos, mode, Some(pv_budget))
}

/// [`analyze`] without the principal variation (left empty): what a game review needs of
/// each position, and cheaper.
pub(crate) fn analyze_columns<B: BitBoard>(
    solver: &mut Solver<B>,
    pos: &Position<B>,
    mode: Mode,
) -> Analysis {
    analyze_with(solver, pos, mode, None)
}

/// The analysis, with a principal variation within `line` (its budget) when asked for.
fn analyze_with<B: BitBoard>(
    solver: &mut Solver<B>,
    pos: &Position<B>,
    mode: Mode,
    line: Option<std::time::Duration>,
) -> Analysis {
    solver.reset_nodes();
    let over = pos.last_move_won() || pos.is_full();
    let g = pos.geometry();
    let mut columns = vec![None; pos.width()];
    let mut interrupted = false;
    for col in g.centre_order() {
        if over || !pos.can_play(col) {
            continue;
        }
        let mut child = *pos;
        child.play_col(col);
        columns[col] = Some(if pos.is_winning_move(col) {
            let s = if mode == Mode::Weak {
                1
            } else {
                g.win_score(pos.moves_played())
            };
            (s, s)
        } else if let Some(s) = book_score(solver, &child, mode) {
            (-s, -s)
        } else if interrupted {
            // No time left: the widest bounds, without asking the solver.
            let (low, high) = trivial_bounds(&child, mode);
            (-high, -low)
        } else {
            let (low, high) = solver.score_bounds(&child, mode);
            interrupted |= solver.was_interrupted();
            (-high, -low)
        });
    }
    let complete = columns.iter().flatten().all(|(l, h)| l == h);
    let score = columns
        .iter()
        .flatten()
        .fold(None, |acc: Option<(i32, i32)>, &(l, h)| {
            Some(acc.map_or((l, h), |(al, ah)| (al.max(l), ah.max(h))))
        });
    let best = (0..columns.len())
        .filter(|&c| {
            columns[c].is_some_and(|(low, _)| {
                columns
                    .iter()
                    .enumerate()
                    .all(|(o, other)| o == c || other.is_none_or(|(_, high)| low >= high))
            }) || (complete
                && columns[c].is_some()
                && columns[c].map(|(l, _)| l) == score.map(|(l, _)| l))
        })
        .map(|c| c + 1)
        .collect();
    let principal_variation = match line {
        Some(budget) if complete && mode == Mode::Strong && !over => {
            principal_variation(solver, pos, budget)
        }
        _ => Vec::new(),
    };
    let mut end = *pos;
    for &c in &principal_variation {
        end.play_col(c - 1);
    }
    Analysis {
        columns,
        complete,
        score,
        best,
        principal_variation_complete: end.last_move_won() || end.is_full(),
        principal_variation,
        nodes: solver.nodes(),
    }
}

/// The widest possible bounds of an unfinished child's score.
fn trivial_bounds<B: BitBoard>(pos: &Position<B>, mode: Mode) -> (i32, i32) {
    if mode == Mode::Weak {
        return (-1, 1);
    }
    let g = pos.geometry();
    let moves = pos.moves_played();
    (-g.win_score(moves + 1), g.win_score(moves))
}

/// The principal variation's solver steps start only within this time of its first: a line
/// that leaves the book early needs the solver on positions of 6 to 10 stones, seconds each,
/// and the analysis itself is done. The line stops there; asking again goes further (the
/// table keeps what the last steps proved). Late positions take microseconds a step, so a
/// line from the middle game on reaches the end.
pub const PV_BUDGET: std::time::Duration = std::time::Duration::from_millis(500);

/// Best moves in turn from `pos` until the game ends, the solver is interrupted or
/// [`PV_BUDGET`] is spent: from the book while the line is in it, then from the solver, whose
/// table already holds much of the line after the analysis.
fn principal_variation<B: BitBoard>(
    solver: &mut Solver<B>,
    pos: &Position<B>,
    budget: std::time::Duration,
) -> Vec<usize> {
    let mut line = Vec::new();
    let mut p = *pos;
    // Each solver step is bounded too: one step off the book can take seconds, and the
    // scores are ready already. The caller's interrupt still applies.
    let outer = solver.interrupt().cloned();
    let deadline = crate::clock::Instant::now() + budget;
    solver.set_interrupt(Some(
        outer.clone().unwrap_or_default().with_deadline(deadline),
    ));
    while !p.last_move_won() && !p.is_full() {
        let in_book = (solver.book())
            .zip(p.narrow())
            .and_then(|(b, n)| b.best_move(&n));
        let col = match in_book {
            Some((col, _)) => col,
            None if crate::clock::Instant::now() > deadline => break,
            None => match solver.best_move(&p) {
                Some((col, _)) if !solver.was_interrupted() => col,
                _ => break,
            },
        };
        line.push(col + 1);
        p.play_col(col);
    }
    solver.set_interrupt(outer);
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Interrupt;
    use crate::game::Geometry;
    use std::time::Duration;

    #[test]
    fn end_game_analysis_is_exact_with_a_winning_line() {
        let g = Geometry::STANDARD;
        let mut s = Solver::with_table_mib(g, 16).unwrap();
        // First line of the end-game benchmark set: score -1 for the side to move.
        let p = Position::from_moves(g, "2252576253462244111563365343671351441").unwrap();
        let a = analyze(&mut s, &p, Mode::Strong);
        assert!(a.complete);
        assert_eq!(a.score, Some((-1, -1)));
        let exact: Vec<Option<i32>> = a.columns.iter().map(|c| c.map(|(l, _)| l)).collect();
        assert_eq!(exact, s.analyze(&p, Mode::Strong));
        // The line is legal and plays the game to its end.
        let mut end = p;
        for &c in &a.principal_variation {
            assert!(end.can_play(c - 1), "{:?}", a.principal_variation);
            end.play_col(c - 1);
        }
        assert!(end.last_move_won() || end.is_full());
        assert!(a.principal_variation_complete);
    }

    #[test]
    fn an_interrupt_leaves_sound_bounds() {
        let g = Geometry::STANDARD;
        let mut s = Solver::with_table_mib(g, 16).unwrap();
        // A middle-game position (the middle-medium benchmark set's first, score 0): more
        // than no time to solve.
        let p = Position::from_moves(g, "274552224131661").unwrap();
        s.set_interrupt(Some(Interrupt::after(Duration::ZERO)));
        let a = analyze(&mut s, &p, Mode::Strong);
        assert!(!a.complete);
        assert!(a.principal_variation.is_empty());
        assert!(!a.principal_variation_complete);
        s.set_interrupt(None);
        let exact = s.analyze(&p, Mode::Strong);
        for (bounds, e) in a.columns.iter().zip(&exact) {
            let ((low, high), e) = (bounds.unwrap(), e.unwrap());
            assert!(low <= e && e <= high, "{low} <= {e} <= {high}");
        }
    }
}
