//! The solver's verdict on a position, as the page shows it.

use crate::game::{BitBoard, Outcome, Position};
use crate::solver::analysis::Analysis;
use crate::solver::{Mode, describe_score};
use serde::Serialize;

/// One column of the answer.
#[derive(Clone, Debug, Serialize)]
pub struct ColumnAnswer {
    /// 1-based column.
    pub column: usize,
    /// The exact score, when known.
    pub score: Option<i32>,
    /// Lower bound (equal to `score` when exact).
    pub low: i32,
    /// Upper bound.
    pub high: i32,
    /// Whether the score is exact.
    pub exact: bool,
}

/// The verdict on a position: every column's score (or bounds found so far), the best
/// columns and a best line.
#[derive(Clone, Debug, Serialize)]
pub struct AnalyzeAnswer {
    /// The moves asked about.
    pub moves: String,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// `strong` or `weak`.
    pub mode: &'static str,
    /// 'x' or 'o': who is to move.
    pub to_move: char,
    /// Stones on the board.
    pub stones: usize,
    /// `null` while the game goes on, else "x won", "o won" or "draw".
    pub result: Option<String>,
    /// Whether every column's score is exact (false: "still solving", ask again).
    pub complete: bool,
    /// The playable columns.
    pub columns: Vec<ColumnAnswer>,
    /// The position's score for the side to move, when exact.
    pub score: Option<i32>,
    /// Its lower bound.
    pub score_low: Option<i32>,
    /// Its upper bound.
    pub score_high: Option<i32>,
    /// The position's score in words (or what is known so far).
    pub words: String,
    /// 1-based columns proved best.
    pub best: Vec<usize>,
    /// A best line of play, 1-based columns.
    pub principal_variation: Vec<usize>,
    /// Whether the principal variation reaches the end of the game (false: ask again).
    pub principal_variation_complete: bool,
    /// Positions searched.
    pub nodes: u64,
    /// Time taken, ms.
    pub ms: f64,
}

/// The game's result in words, `None` while it goes on.
pub fn result_words<B: BitBoard>(pos: &Position<B>) -> Option<String> {
    match pos.outcome() {
        Outcome::Won(p) => Some(format!("{} won", p.symbol())),
        Outcome::Draw => Some("draw".to_string()),
        Outcome::Ongoing => None,
    }
}

/// The analysis of a finished game: nothing to solve.
pub fn game_over_analysis<B: BitBoard>(pos: &Position<B>) -> Analysis {
    Analysis {
        columns: vec![None; pos.width()],
        complete: true,
        score: None,
        best: Vec::new(),
        principal_variation: Vec::new(),
        principal_variation_complete: true,
        nodes: 0,
    }
}

impl AnalyzeAnswer {
    /// The answer for `pos` (reached by `moves`) from `analysis`, which took `ms`.
    pub fn new<B: BitBoard>(
        pos: &Position<B>,
        moves: &str,
        mode: Mode,
        analysis: Analysis,
        ms: f64,
    ) -> Self {
        let geom = pos.geometry();
        let result = result_words(pos);
        let exact = |b: Option<(i32, i32)>| b.and_then(|(l, h)| (l == h).then_some(l));
        let words = match (result.as_ref(), analysis.score) {
            (Some(r), _) => format!("game over: {r}"),
            (None, Some((l, h))) if l == h => describe_score(l, geom, mode),
            (None, Some((l, h))) => format!(
                "still solving: between {} and {}",
                describe_score(l, geom, mode),
                describe_score(h, geom, mode)
            ),
            (None, None) => "no move left".into(),
        };
        AnalyzeAnswer {
            moves: moves.trim().to_string(),
            width: geom.width(),
            height: geom.height(),
            mode: if mode == Mode::Weak { "weak" } else { "strong" },
            to_move: pos.side_to_move().symbol(),
            stones: pos.moves_played(),
            result,
            complete: analysis.complete,
            columns: analysis
                .columns
                .iter()
                .enumerate()
                .filter_map(|(c, b)| {
                    b.map(|(low, high)| ColumnAnswer {
                        column: c + 1,
                        score: (low == high).then_some(low),
                        low,
                        high,
                        exact: low == high,
                    })
                })
                .collect(),
            score: exact(analysis.score),
            score_low: analysis.score.map(|s| s.0),
            score_high: analysis.score.map(|s| s.1),
            words,
            best: analysis.best,
            principal_variation: analysis.principal_variation,
            principal_variation_complete: analysis.principal_variation_complete,
            nodes: analysis.nodes,
            ms,
        }
    }

    /// Analyses `pos` with `solver` (which may carry an interrupt: the answer then holds the
    /// bounds proved so far) and answers.
    ///
    /// ```
    /// use connect4_engine::answers::{AnalyzeAnswer, position_of};
    /// use connect4_engine::{Mode, Solver, Geometry};
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// let a = AnalyzeAnswer::solve(&mut s, &position_of("", None, None).unwrap(), "", Mode::Strong);
    /// assert_eq!((a.score, a.best.clone()), (Some(1), vec![4]));
    /// ```
    pub fn solve<B: BitBoard>(
        solver: &mut crate::Solver<B>,
        pos: &Position<B>,
        moves: &str,
        mode: Mode,
    ) -> AnalyzeAnswer {
        let start = crate::clock::Instant::now();
        let analysis = if pos.outcome() == Outcome::Ongoing {
            crate::solver::analysis::analyze(solver, pos, mode)
        } else {
            game_over_analysis(pos)
        };
        Self::new(
            pos,
            moves,
            mode,
            analysis,
            start.elapsed().as_secs_f64() * 1e3,
        )
    }
}
