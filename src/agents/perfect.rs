//! The perfect agent: the solver's best move.

use super::{Agent, Turn};
use crate::game::Geometry;
use crate::solver::{Solver, SolverError};

/// Plays a game-theoretically optimal move; among optimal moves the fastest win or the
/// slowest loss, most central first (see [`Solver::best_move`]). On 7x6 the first plies come
/// from the opening book, where solving would take tens of seconds per move.
pub struct Perfect {
    name: String,
    solver: Solver,
}

impl Perfect {
    /// A perfect agent for `geom` whose solver table takes `tt_mib` MiB.
    pub fn new(
        name: impl Into<String>,
        geom: Geometry,
        tt_mib: usize,
    ) -> Result<Self, SolverError> {
        Ok(Perfect {
            name: name.into(),
            solver: Solver::with_table_mib(geom, tt_mib)?,
        })
    }
}

impl Agent for Perfect {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, turn: &Turn) -> usize {
        let (col, _) = self
            .solver
            .best_move(&turn.position)
            .expect("agents are only asked to move in open games");
        if self.solver.was_interrupted() {
            // Stopped before the answer was proved: any move that does not lose at once.
            let pos = &turn.position;
            let safe = pos.possible_non_losing_moves();
            let g = pos.geometry();
            return g
                .centre_order()
                .find(|&c| safe & g.column_mask(c) != 0)
                .or_else(|| g.centre_order().find(|&c| pos.can_play(c)))
                .expect("an open game has a legal column");
        }
        col
    }

    fn set_interrupt(&mut self, interrupt: Option<crate::Interrupt>) {
        self.solver.set_interrupt(interrupt);
    }
}
