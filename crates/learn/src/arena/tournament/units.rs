//! Which games a tournament plays side by side and which in order: an agent that carries
//! what it learns from game to game (the adaptive agent) plays all the games of a pairing,
//! one after another, as a person would; every other game stands alone.

use super::{Scheduled, Tournament, TournamentError};
use crate::arena::{PlayedGame, play_game};
use connect4_engine::Interrupt;
use connect4_engine::agents::AgentBoard;
use connect4_engine::game::Position;
use connect4_engine::progress::Progress;

impl<B: AgentBoard> Tournament<B> {
    /// The schedule cut into units that run in parallel: a game alone, or every game of a
    /// pairing whose agent carries what it learns from game to game, in order (one agent
    /// plays them all, so it meets its opponent's games as a person would: one after
    /// another). The units, and so the games, are the same on any number of threads.
    pub(super) fn units(&self, schedule: Vec<Scheduled>) -> Vec<Vec<Scheduled>> {
        let mut units: Vec<Vec<Scheduled>> = Vec::new();
        let mut last_pairing: Option<(usize, usize)> = None;
        for s in schedule {
            let pairing = (s.first.min(s.second), s.first.max(s.second));
            let stateful =
                self.factories[s.first].carries_state() || self.factories[s.second].carries_state();
            match units.last_mut() {
                Some(unit) if stateful && last_pairing == Some(pairing) => unit.push(s),
                _ => units.push(vec![s]),
            }
            last_pairing = Some(pairing);
        }
        units
    }

    /// Plays one unit's games in order. An agent that carries state is built once for the
    /// unit (from its first game's seed); every other agent afresh for each game.
    pub(super) fn play_unit(
        &self,
        unit: Vec<Scheduled>,
        progress: &dyn Progress,
        stop: &Interrupt,
    ) -> Result<Vec<(Scheduled, PlayedGame)>, TournamentError> {
        let c = &self.config;
        let mut kept: Vec<(usize, Box<dyn connect4_engine::agents::Agent<B>>)> = Vec::new();
        let mut out = Vec::with_capacity(unit.len());
        for s in unit {
            if stop.should_stop() {
                return Err(TournamentError::Interrupted);
            }
            let mut fresh = |index: usize, seed: u64| -> Result<_, TournamentError> {
                let factory = &self.factories[index];
                if factory.carries_state()
                    && let Some(pos) = kept.iter().position(|(i, _)| *i == index)
                {
                    return Ok(kept.swap_remove(pos).1);
                }
                let mut agent = factory.build(seed)?;
                agent.set_interrupt(Some(stop.clone()));
                Ok(agent)
            };
            let mut a = fresh(s.first, s.seeds[0])?;
            let mut b = fresh(s.second, s.seeds[1])?;
            let g = play_game(
                a.as_mut(),
                b.as_mut(),
                Position::new(c.geometry),
                &s.opening,
            );
            progress.advance(1);
            for (index, agent) in [(s.first, a), (s.second, b)] {
                if agent.carries_state() {
                    kept.push((index, agent));
                }
            }
            out.push((s, g));
        }
        Ok(out)
    }
}
