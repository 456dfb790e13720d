//! Solving test files line by line: shared by `c4 solve` and `c4 bench solver`.

use connect4_engine::clock::Instant;
use connect4_engine::game::record::{LineError, parse_test_line};
use connect4_engine::game::{GameError, Position};
use connect4_engine::solver::{Mode, Solver};
use serde::Serialize;
use thiserror::Error;

/// One solved line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Solved {
    /// The move string as given.
    pub moves: String,
    /// The score the file expects, if it gives one.
    pub expected: Option<i32>,
    /// The solver's score in the mode asked for.
    pub score: i32,
    /// Nodes searched for this line.
    pub nodes: u64,
    /// Wall time for this line in microseconds.
    pub micros: f64,
    /// The best column (1-based), when it was asked for and the game is not over.
    pub best: Option<usize>,
}

impl Solved {
    /// Whether the score disagrees with the expected one (by sign in weak mode).
    pub(crate) fn mismatch(&self, mode: Mode) -> bool {
        match (self.expected, mode) {
            (None, _) => false,
            (Some(e), Mode::Strong) => e != self.score,
            (Some(e), Mode::Weak) => e.signum() != self.score,
        }
    }
}

/// Why a line could not be solved.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LineFault {
    /// The line's shape is wrong.
    #[error("{0}")]
    Shape(#[from] LineError),
    /// The move string is illegal.
    #[error("{0}")]
    Moves(#[from] GameError),
}

/// Parses and solves one line; `Ok(None)` for blank and comment lines. The node counter is
/// reset per line; the table is kept (as the reference benchmarks do).
pub fn solve_line(
    solver: &mut Solver,
    line: &str,
    mode: Mode,
) -> Result<Option<Solved>, LineFault> {
    solve_line_with(solver, line, mode, false)
}

/// [`solve_line`], and with `best` also the best column ([`Solver::best_move`], always by the
/// strong score, whatever `mode` says about the reported score).
pub fn solve_line_with<B: connect4_engine::game::BitBoard>(
    solver: &mut Solver<B>,
    line: &str,
    mode: Mode,
    best: bool,
) -> Result<Option<Solved>, LineFault> {
    let Some(test) = parse_test_line(line)? else {
        return Ok(None);
    };
    let pos = Position::from_moves(solver.geometry(), &test.moves)?;
    solver.reset_nodes();
    let start = Instant::now();
    let (score, best) = match best.then(|| solver.best_move(&pos)).flatten() {
        Some((col, strong)) => {
            let score = if mode == Mode::Weak {
                strong.signum()
            } else {
                strong
            };
            (score, Some(col + 1))
        }
        None => (solver.score(&pos, mode), None),
    };
    let micros = start.elapsed().as_secs_f64() * 1e6;
    Ok(Some(Solved {
        moves: test.moves,
        expected: test.expected,
        score,
        nodes: solver.nodes(),
        micros,
        best,
    }))
}

/// Figures for one benchmark file.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SetSummary {
    /// File name as given.
    pub file: String,
    /// `strong` or `weak`.
    pub mode: String,
    /// Positions solved.
    pub positions: usize,
    /// Mean wall time per position in microseconds.
    pub mean_micros: f64,
    /// Mean nodes per position.
    pub mean_nodes: f64,
    /// Total nodes over the set.
    pub total_nodes: u64,
    /// Nodes per second over the whole set.
    pub nodes_per_second: f64,
    /// Positions whose score disagrees with the file.
    pub mismatches: usize,
    /// Lines that could not be solved.
    pub bad_lines: usize,
}

impl SetSummary {
    /// Summarises `solved` lines of `file`.
    pub(crate) fn from_lines(file: &str, mode: Mode, solved: &[Solved], bad_lines: usize) -> Self {
        let n = solved.len();
        let micros: f64 = solved.iter().map(|s| s.micros).sum();
        let nodes: u64 = solved.iter().map(|s| s.nodes).sum();
        let per = |x: f64| if n == 0 { 0.0 } else { x / n as f64 };
        SetSummary {
            file: file.to_string(),
            mode: match mode {
                Mode::Strong => "strong",
                Mode::Weak => "weak",
            }
            .to_string(),
            positions: n,
            mean_micros: per(micros),
            mean_nodes: per(nodes as f64),
            total_nodes: nodes,
            nodes_per_second: if micros > 0.0 {
                nodes as f64 / (micros / 1e6)
            } else {
                0.0
            },
            mismatches: solved.iter().filter(|s| s.mismatch(mode)).count(),
            bad_lines,
        }
    }
}

/// `c4 bench solver` on one file: solves its first `limit` lines (all for `None`), each from
/// an empty table unless `keep_table`, and sums them up. A line that is not a position, or
/// whose score differs from the file's, is reported through `progress.note` with `name` and
/// its line number; the others are still solved.
pub fn bench_file(
    solver: &mut Solver,
    name: &str,
    text: &str,
    limit: Option<usize>,
    mode: Mode,
    keep_table: bool,
    progress: &dyn connect4_engine::progress::Progress,
) -> SetSummary {
    let lines: Vec<&str> = text.lines().take(limit.unwrap_or(usize::MAX)).collect();
    progress.start(name, lines.len());
    let mut solved = Vec::with_capacity(lines.len());
    let mut bad = 0;
    for (i, line) in lines.iter().enumerate() {
        if !keep_table {
            solver.clear();
        }
        match solve_line(solver, line, mode) {
            Ok(Some(s)) => {
                if s.mismatch(mode) {
                    progress.note(&format!(
                        "{name}: line {}: {} expected {:?}, solver says {}",
                        i + 1,
                        s.moves,
                        s.expected,
                        s.score
                    ));
                }
                solved.push(s);
            }
            Ok(None) => {}
            Err(e) => {
                progress.note(&format!("{name}: line {}: {e}", i + 1));
                bad += 1;
            }
        }
        progress.advance(1);
    }
    progress.finish();
    SetSummary::from_lines(name, mode, &solved, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_faults() {
        let mut s = Solver::with_table_mib(Default::default(), 1).unwrap();
        let r = solve_line(
            &mut s,
            "2252576253462244111563365343671351441 -1",
            Mode::Strong,
        )
        .unwrap()
        .unwrap();
        assert_eq!(r.score, -1);
        assert!(!r.mismatch(Mode::Strong));
        assert_eq!(solve_line(&mut s, "  ", Mode::Strong), Ok(None));
        assert!(matches!(
            solve_line(&mut s, "448 0", Mode::Strong),
            Err(LineFault::Moves(GameError::ColumnOutOfRange { at: 3, .. }))
        ));
        assert!(matches!(
            solve_line(&mut s, "44 x", Mode::Strong),
            Err(LineFault::Shape(LineError::BadScore(_)))
        ));
    }
}
