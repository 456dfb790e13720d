//! A game between a person and an agent: moves, undo, hints. The `c4 play` front ends (the
//! terminal UI and the line mode) only draw it and read keys.

use connect4_engine::agents::{Agent, Turn};
use connect4_engine::game::{GameError, Geometry, Outcome, Player, Position};
use connect4_engine::solver::{Mode, Solver};
use thiserror::Error;

/// Why a hint is not available.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum HintError {
    /// Solving every column would take too long here.
    #[error(
        "too early to solve quickly ({empty} empty cells); hints are available from {needed} empty cells or fewer"
    )]
    TooOpen {
        /// Empty cells now.
        empty: usize,
        /// The most empty cells a hint is computed for.
        needed: usize,
    },
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

/// A human-versus-agent game.
pub struct Session {
    start: Position,
    moves: Vec<usize>,
    human: Player,
    agent: Box<dyn Agent>,
}

/// Positions with at most this many empty cells get hints (a few milliseconds per column on
/// 7x6); the opening book covers the first plies.
pub const HINT_MAX_EMPTY: usize = 28;

impl Session {
    /// A new game on `geom` where the person plays `human` against `agent`.
    pub fn new(geom: Geometry, human: Player, agent: Box<dyn Agent>) -> Self {
        Session {
            start: Position::new(geom),
            moves: Vec::new(),
            human,
            agent,
        }
    }

    /// The current position.
    pub fn position(&self) -> Position {
        let mut p = self.start;
        for &c in &self.moves {
            p.play_col(c);
        }
        p
    }

    /// Moves so far, 0-based columns.
    pub fn moves(&self) -> &[usize] {
        &self.moves
    }

    /// The person's colour.
    pub fn human(&self) -> Player {
        self.human
    }

    /// The agent's name.
    pub fn agent_name(&self) -> &str {
        self.agent.name()
    }

    /// Won, drawn or going on.
    pub fn outcome(&self) -> Outcome {
        self.position().outcome()
    }

    /// Whether the person is to move in an open game.
    pub fn is_human_turn(&self) -> bool {
        let p = self.position();
        p.outcome() == Outcome::Ongoing && p.side_to_move() == self.human
    }

    /// Plays the person's move in column `col` (0-based), if it is their turn and legal.
    pub fn play_human(&mut self, col: usize) -> Result<(), GameError> {
        let mut p = self.position();
        p.play(col)?;
        self.moves.push(col);
        Ok(())
    }

    /// Lets the agent move; returns its column, or `None` when it is not the agent's turn.
    pub fn play_agent(&mut self) -> Option<usize> {
        let p = self.position();
        if p.outcome() != Outcome::Ongoing || p.side_to_move() == self.human {
            return None;
        }
        let opponent_move = self.moves.last().map(|&c| {
            let mut before = self.start;
            for &m in &self.moves[..self.moves.len() - 1] {
                before.play_col(m);
            }
            (before, c)
        });
        let col = self.agent.choose(&Turn {
            position: p,
            opponent_move,
        });
        self.moves.push(col);
        Some(col)
    }

    /// Takes back the person's last move and the agent's reply to it; false when there is
    /// nothing of the person's to take back.
    pub fn undo(&mut self) -> bool {
        // Move i (0-based) is the first player's when i is even.
        let human_first = self.human == Player::First;
        let last_human = (0..self.moves.len())
            .rev()
            .find(|&i| i.is_multiple_of(2) == human_first);
        match last_human {
            Some(i) => {
                self.moves.truncate(i);
                true
            }
            None => false,
        }
    }

    /// The solver's strong score of every column (index 0 = column 1) for the side to move,
    /// when the position is close enough to the end (or in the opening book) to solve fast.
    pub fn hint(&self, solver: &mut Solver) -> Result<Vec<Option<i32>>, HintError> {
        let p = self.position();
        if p.outcome() != Outcome::Ongoing {
            return Err(HintError::GameOver);
        }
        let children: Option<Vec<Option<i32>>> = (0..p.width())
            .map(|c| match p.after(c) {
                None => Some(None),
                Some(child) if child.last_move_won() => {
                    Some(Some(p.geometry().win_score(p.moves_played())))
                }
                Some(child) => solver.book()?.score(&child).map(|s| Some(-s)),
            })
            .collect();
        if let Some(scores) = children {
            return Ok(scores);
        }
        let empty = p.geometry().cells() - p.moves_played();
        if empty > HINT_MAX_EMPTY {
            return Err(HintError::TooOpen {
                empty,
                needed: HINT_MAX_EMPTY,
            });
        }
        Ok(solver.analyze(&p, Mode::Strong))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use connect4_engine::agents::AgentSpec;

    fn session(human: Player) -> Session {
        let spec: AgentSpec = "easy".parse().unwrap();
        let agent = spec.factory(Geometry::STANDARD).unwrap().build(0).unwrap();
        Session::new(Geometry::STANDARD, human, agent)
    }

    #[test]
    fn moves_alternate_and_undo_takes_back_a_pair() {
        let mut s = session(Player::First);
        assert!(s.is_human_turn());
        assert!(!s.undo());
        s.play_human(3).unwrap();
        assert!(!s.is_human_turn());
        s.play_agent().unwrap();
        assert_eq!(s.moves().len(), 2);
        assert!(s.undo());
        assert!(s.moves().is_empty());
        // Out-of-range and full columns are refused with the game unchanged.
        assert!(s.play_human(9).is_err());
        for _ in 0..3 {
            s.play_human(0).unwrap();
            s.moves.push(0);
        }
        assert!(matches!(s.play_human(0), Err(GameError::ColumnFull { .. })));
        assert_eq!(s.moves().len(), 6);
    }

    #[test]
    fn agent_first_and_undo_keeps_its_opening_move() {
        let mut s = session(Player::Second);
        assert_eq!(s.play_agent(), Some(s.moves()[0]));
        s.play_human(0).unwrap();
        s.play_agent().unwrap();
        assert!(s.undo());
        assert_eq!(s.moves().len(), 1);
        assert!(!s.undo());
    }

    #[test]
    fn hints_come_from_the_solver_late_and_refuse_early() {
        let mut solver = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
        let mut s = session(Player::First);
        // Six stones: every child is in the 10-ply opening book, so the hint is at once.
        for c in [3, 3, 2, 4, 1, 0] {
            s.moves.push(c);
        }
        let p = s.position();
        assert_eq!(
            s.hint(&mut solver).unwrap(),
            solver.analyze(&p, Mode::Strong)
        );
        // Eight stones: still every child in the book.
        s.moves.extend([5, 6]);
        let p = s.position();
        assert_eq!(
            s.hint(&mut solver).unwrap(),
            solver.analyze(&p, Mode::Strong)
        );
        // Ten stones: past the book, an early middle game position is too open.
        s.moves.extend([6, 5]);
        assert!(matches!(
            s.hint(&mut solver),
            Err(HintError::TooOpen { .. })
        ));
        // A Pons end-game position: the hint equals the solver's analysis.
        let moves = "2252576253462244111563365343671351441";
        let mut late = session(Player::Second);
        late.moves = connect4_engine::game::moves::parse_moves(moves, 7).unwrap();
        let p = late.position();
        assert_eq!(
            late.hint(&mut solver).unwrap(),
            solver.analyze(&p, Mode::Strong)
        );
    }
}
