//! A game reviewed by the solver, as the page shows it.

use crate::game::{BitBoard, Geometry, Position};
use crate::solver::review::{Grade, MoveReview, review};
use serde::Serialize;

/// How many moves got each grade.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ReviewCounts {
    /// Moves that keep the best score.
    pub best: usize,
    /// Moves that lose ground but not the result.
    pub inaccuracy: usize,
    /// Moves that change the result.
    pub mistake: usize,
    /// Moves not graded before the time ran out.
    pub unknown: usize,
}

/// Every move of a game graded.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewAnswer {
    /// The game's moves.
    pub moves: String,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Whether every move is graded (false: ask again to go on).
    pub complete: bool,
    /// Moves per grade.
    pub counts: ReviewCounts,
    /// The moves, in game order.
    pub reviews: Vec<MoveReview>,
    /// Time taken, ms.
    pub ms: f64,
}

impl ReviewAnswer {
    /// The answer for the game `moves` on `geom` from its reviews, which took `ms`.
    pub fn new<B: BitBoard>(
        moves: &str,
        geom: Geometry<B>,
        reviews: Vec<MoveReview>,
        ms: f64,
    ) -> Self {
        let mut counts = ReviewCounts::default();
        for r in &reviews {
            match r.grade {
                Grade::Best => counts.best += 1,
                Grade::Inaccuracy => counts.inaccuracy += 1,
                Grade::Mistake => counts.mistake += 1,
                Grade::Unknown => counts.unknown += 1,
            }
        }
        ReviewAnswer {
            moves: moves.to_string(),
            width: geom.width(),
            height: geom.height(),
            complete: counts.unknown == 0,
            counts,
            reviews,
            ms,
        }
    }

    /// Reviews the game that reached `end` (its moves `text`, checked legal) with `solver`
    /// (which may carry an interrupt: moves not graded by then are `unknown`), on boards of
    /// any integer.
    ///
    /// ```
    /// use connect4_engine::answers::{ReviewAnswer, position_of};
    /// use connect4_engine::{Solver, Geometry};
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// let r = ReviewAnswer::solve(&mut s, &position_of("44", None, None).unwrap(), "44");
    /// assert_eq!((r.reviews.len(), r.counts.best, r.complete), (2, 2, true));
    /// ```
    pub fn solve<B: BitBoard>(
        solver: &mut crate::Solver<B>,
        end: &Position<B>,
        text: &str,
    ) -> ReviewAnswer {
        let text = text.trim();
        let text = if text == "-" { "" } else { text };
        // `end` was built from `text`, so every character names a column of its board.
        let moves = crate::game::moves::parse_moves(text, end.width()).unwrap_or_default();
        let start = crate::clock::Instant::now();
        let geom = end.geometry();
        let reviews = review(solver, &Position::new(geom), &moves);
        Self::new(text, geom, reviews, start.elapsed().as_secs_f64() * 1e3)
    }
}
