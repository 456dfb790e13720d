//! The skeleton every self-play trainer (LMS, n-tuple) runs on: play and learn, measure, keep
//! the best, stop, save. A trainer says how it plays a step, measures and stops
//! ([`Trainer`]); the loop owns the cadence (when to measure, when to save, when the run is
//! over), so that both trainers resume, measure and keep alike.
//!
//! ```text
//! while games < total:
//!     play and learn up to the next measurement, checkpoint or the end
//!     measure when one is due (the trainer may keep the best and may stop)
//!     stop when the trainer's own rules say so
//!     save when a checkpoint is due
//! ```

use super::checkpoint::CheckpointError;
use serde::{Deserialize, Serialize};
use std::ops::{ControlFlow, Range};
use std::path::PathBuf;

/// Where and how often a run saves its state, and whether it starts from it.
#[derive(Clone, Debug)]
pub struct Checkpointing {
    /// The checkpoint file (written atomically).
    pub path: PathBuf,
    /// Games between checkpoints.
    pub every: usize,
    /// Continue from the checkpoint if there is one (otherwise start afresh).
    pub resume: bool,
}

impl Checkpointing {
    /// Refuses an interval of 0 games (a checkpoint that would never come).
    pub fn check(&self) -> Result<(), super::setting::SettingError> {
        if self.every == 0 {
            return Err(super::setting::SettingError {
                name: "checkpoint interval",
                value: "0".into(),
                expected: "at least one game",
            });
        }
        Ok(())
    }
}

/// How often the loop measures the trainee.
#[derive(Clone, Copy, Debug)]
pub struct Cadence {
    /// Measure every K games (0: never on a schedule).
    pub measure_every: usize,
    /// Measure also after the last game (when it is not on the schedule).
    pub measure_at_end: bool,
}

/// One trainer's part of the loop.
pub trait Trainer {
    /// Why a run stopped before its last game.
    type Stop;
    /// What can fail; a checkpoint's failure among it.
    type Error: From<CheckpointError>;

    /// Plays games from `games.start` on and learns from them, toward `games.end`; returns the
    /// games done after it, at least one more. A trainer may stop short of `games.end` (one
    /// game a step, to check its rules after each) or go past it to the end of a round its
    /// recipe fixes (so that the cadence never changes what is learned), never past `total`.
    fn play(&mut self, games: Range<usize>) -> Result<usize, Self::Error>;
    /// Measures the trainee after `games` games; a measurement may stop the run.
    fn measure(&mut self, games: usize) -> Result<ControlFlow<Self::Stop>, Self::Error>;
    /// The trainer's own stopping rules after `games` games.
    fn stop(&mut self, games: usize) -> ControlFlow<Self::Stop> {
        let _ = games;
        ControlFlow::Continue(())
    }
    /// Saves the run's whole state after `games` games, so that a resumed run goes on as an
    /// uninterrupted one would.
    fn save(&mut self, games: usize, checkpointing: &Checkpointing) -> Result<(), Self::Error>;
}

/// Runs `trainer` from `done` games to `total`, measuring on `cadence` and saving as
/// `checkpointing` says; returns why it stopped early (`None`: it played them all).
pub fn run<T: Trainer>(
    trainer: &mut T,
    done: usize,
    total: usize,
    cadence: Cadence,
    checkpointing: Option<&Checkpointing>,
) -> Result<Option<T::Stop>, T::Error> {
    let next = |done: usize, every: usize| match every {
        0 => total,
        k => (done / k + 1) * k,
    };
    let mut done = done;
    while done < total {
        let measure_due = next(done, cadence.measure_every);
        let save_due = next(done, checkpointing.map_or(0, |c| c.every));
        let reached = trainer.play(done..measure_due.min(save_due).min(total))?;
        debug_assert!(reached > done && reached <= total, "{done} -> {reached}");
        done = reached;
        let on_schedule = cadence.measure_every > 0 && done >= measure_due;
        if (on_schedule || (cadence.measure_at_end && done == total))
            && let ControlFlow::Break(why) = trainer.measure(done)?
        {
            return Ok(Some(why));
        }
        if let ControlFlow::Break(why) = trainer.stop(done) {
            return Ok(Some(why));
        }
        if let Some(c) = checkpointing
            && (done >= save_due || done == total)
        {
            trainer.save(done, c)?;
        }
    }
    Ok(None)
}

/// The best network a run has measured, the later of equals (it learned longer): one copy,
/// replaced when a measurement is as good or better.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct KeepBest<W> {
    best: Option<Kept<W>>,
}

/// A network kept, with where and how well it measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Kept<W> {
    /// Its measurement's index (a curve point's, or the games played then).
    pub point: usize,
    /// Its score (higher is better).
    pub score: f64,
    /// Its weights.
    pub weights: W,
}

impl<W> Default for KeepBest<W> {
    fn default() -> Self {
        KeepBest { best: None }
    }
}

impl<W> KeepBest<W> {
    /// Offers the network measured at `point` with `score`; `weights` is called only when it
    /// is kept. Returns whether it was.
    pub fn offer(&mut self, point: usize, score: f64, weights: impl FnOnce() -> W) -> bool {
        if self.best.as_ref().is_some_and(|b| b.score > score) {
            return false;
        }
        self.best = Some(Kept {
            point,
            score,
            weights: weights(),
        });
        true
    }

    /// The best so far.
    pub fn best(&self) -> Option<&Kept<W>> {
        self.best.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `step` games a call (or to the end of 10-game rounds, 25 games in all), records
    /// the calls.
    struct Log {
        step: Option<usize>,
        calls: Vec<String>,
        stop_at: Option<usize>,
        measure_stop_at: Option<usize>,
    }

    impl Trainer for Log {
        type Stop = String;
        type Error = CheckpointError;
        fn play(&mut self, games: Range<usize>) -> Result<usize, CheckpointError> {
            let reached = match self.step {
                Some(k) => games.start + k,
                None => (games.end.div_ceil(10) * 10).min(25),
            };
            self.calls
                .push(format!("play {}..{} -> {reached}", games.start, games.end));
            Ok(reached)
        }
        fn measure(&mut self, games: usize) -> Result<ControlFlow<String>, CheckpointError> {
            self.calls.push(format!("measure {games}"));
            Ok(match self.measure_stop_at {
                Some(g) if g == games => ControlFlow::Break("score".into()),
                _ => ControlFlow::Continue(()),
            })
        }
        fn stop(&mut self, games: usize) -> ControlFlow<String> {
            match self.stop_at {
                Some(g) if g == games => ControlFlow::Break("rule".into()),
                _ => ControlFlow::Continue(()),
            }
        }
        fn save(&mut self, games: usize, _: &Checkpointing) -> Result<(), CheckpointError> {
            self.calls.push(format!("save {games}"));
            Ok(())
        }
    }

    fn log(step: Option<usize>) -> Log {
        Log {
            step,
            calls: Vec::new(),
            stop_at: None,
            measure_stop_at: None,
        }
    }

    #[test]
    fn the_loop_measures_and_saves_on_its_cadence_and_rounds_never_change_it() {
        let cp = Checkpointing {
            path: "x".into(),
            every: 4,
            resume: false,
        };
        let cadence = Cadence {
            measure_every: 6,
            measure_at_end: true,
        };
        let mut t = log(None);
        assert_eq!(run(&mut t, 0, 25, cadence, Some(&cp)).unwrap(), None);
        assert_eq!(
            t.calls,
            [
                "play 0..4 -> 10",
                "measure 10",
                "save 10",
                "play 10..12 -> 20",
                "measure 20",
                "save 20",
                "play 20..24 -> 25",
                "measure 25",
                "save 25",
            ],
            "a round of 10 plays past the points, measured and saved at its end"
        );
        // One game a step: measured every 6, saved every 4 and at the end, stopped by a rule.
        let mut t = log(Some(1));
        t.stop_at = Some(13);
        let cadence = Cadence {
            measure_every: 6,
            measure_at_end: false,
        };
        assert_eq!(
            run(&mut t, 0, 25, cadence, Some(&cp)).unwrap(),
            Some("rule".into())
        );
        let not_play: Vec<_> = t.calls.iter().filter(|c| !c.starts_with("play")).collect();
        assert_eq!(
            not_play,
            ["save 4", "measure 6", "save 8", "measure 12", "save 12"]
        );
        // A measurement that stops comes before the rules and the save.
        let mut t = log(Some(1));
        t.measure_stop_at = Some(12);
        t.stop_at = Some(12);
        assert_eq!(
            run(&mut t, 3, 25, cadence, Some(&cp)).unwrap(),
            Some("score".into())
        );
        assert_eq!(t.calls.first().unwrap(), "play 3..4 -> 4");
        assert_eq!(t.calls.last().unwrap(), "measure 12");
    }

    #[test]
    fn the_best_is_the_later_of_equals_and_copied_only_when_kept() {
        let mut k = KeepBest::default();
        assert!(k.best().is_none());
        assert!(k.offer(0, 0.5, || "a"));
        assert!(k.offer(1, 0.5, || "b"), "the later of equals");
        assert!(!k.offer(2, 0.4, || panic!("not copied")));
        assert!(k.offer(3, 0.9, || "d"));
        let b = k.best().unwrap();
        assert_eq!((b.point, b.score, b.weights), (3, 0.9, "d"));
    }

    #[test]
    fn a_checkpoint_every_zero_games_is_refused() {
        let cp = Checkpointing {
            path: "x".into(),
            every: 0,
            resume: false,
        };
        assert!(cp.check().unwrap_err().to_string().contains("at least one"));
    }
}
