//! The phase-based hybrid evaluator: a learned model early, random playouts late, and a blend
//! of the two in between.
//!
//! A model trained on 8-ply positions knows openings best and knows little about crowded
//! boards, where playouts are short and accurate; playouts from an almost empty board are long
//! and noisy. So the evaluator picks by ply (stones on the board): the model alone up to
//! [`Phases::model_until`], then `model_weight x model + (1 - model_weight) x rollouts` up to
//! [`Phases::blend_until`], then rollouts alone.

use super::{Evaluator, MonteCarlo};
use crate::game::Position;
use std::sync::Arc;

/// Where the phases change and how they blend.
///
/// The defaults were chosen by tournament for the GBT trained on positions of every phase
/// (models/README.md has the grid): against handtuned:depth=3 at depth 3, 800 games on seeds
/// the grid was not run on, model to ply 9 / blend to 19 / weight 0.5 scored 90.6% where the
/// earlier 9 / 12 / 0.7 scored 86.0%.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Phases {
    /// Last ply valued by the model alone (default 9).
    pub model_until: usize,
    /// Last ply of the blend (default 19); later plies use rollouts alone.
    pub blend_until: usize,
    /// The model's share in the blend (default 0.5).
    pub model_weight: f64,
}

impl Default for Phases {
    fn default() -> Self {
        Phases {
            model_until: 9,
            blend_until: 19,
            model_weight: 0.5,
        }
    }
}

/// Which evaluator(s) value a position of a given ply.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Phase {
    /// The model alone.
    Model,
    /// The weighted blend.
    Blend,
    /// Rollouts alone.
    Rollouts,
}

impl Phases {
    /// The phase of a position with `ply` stones.
    pub fn phase(&self, ply: usize) -> Phase {
        if ply <= self.model_until {
            Phase::Model
        } else if ply <= self.blend_until {
            Phase::Blend
        } else {
            Phase::Rollouts
        }
    }
}

/// A model evaluator and a Monte Carlo evaluator, chosen by ply.
pub struct Hybrid {
    model: Arc<dyn Evaluator>,
    rollouts: MonteCarlo,
    phases: Phases,
}

impl Hybrid {
    /// Combines `model` (values should lie in [-1, 1] like the rollouts', as the GBT's do)
    /// and `rollouts` by `phases`.
    ///
    /// ```
    /// use connect4_engine::eval::{Evaluator, Hybrid};
    /// use connect4_engine::{Geometry, Position};
    /// use connect4_engine::eval::{MonteCarlo, Phases, PlayoutPolicy, Threats};
    /// use std::sync::Arc;
    /// let rollouts = MonteCarlo::new(Geometry::STANDARD, 100, PlayoutPolicy::Smart, 1);
    /// let e = Hybrid::new(Arc::new(Threats::new(Geometry::STANDARD)), rollouts, Phases::default());
    /// let p = Position::from_moves(Geometry::STANDARD, "4455").unwrap();
    /// assert!(e.evaluate(&p).is_finite());
    /// ```
    pub fn new(model: Arc<dyn Evaluator>, rollouts: MonteCarlo, phases: Phases) -> Self {
        Hybrid {
            model,
            rollouts,
            phases,
        }
    }

    /// The phase settings.
    pub fn phases(&self) -> Phases {
        self.phases
    }
}

impl Evaluator for Hybrid {
    fn name(&self) -> String {
        format!(
            "hybrid({}, {}, model<={}, blend<={} at {})",
            self.model.name(),
            self.rollouts.name(),
            self.phases.model_until,
            self.phases.blend_until,
            self.phases.model_weight
        )
    }

    fn evaluate(&self, pos: &Position) -> f64 {
        match self.phases.phase(pos.moves_played()) {
            Phase::Model => self.model.evaluate(pos),
            Phase::Rollouts => self.rollouts.evaluate(pos),
            Phase::Blend => {
                let w = self.phases.model_weight;
                w * self.model.evaluate(pos) + (1.0 - w) * self.rollouts.evaluate(pos)
            }
        }
    }

    /// The model's batches: a model that batches (a Python one) keeps doing so in the
    /// phases that ask it.
    fn prefetch_depth(&self) -> u32 {
        self.model.prefetch_depth()
    }

    fn prefetch(&self, positions: &[Position]) {
        let asked: Vec<Position> = positions
            .iter()
            .filter(|p| self.phases.phase(p.moves_played()) != Phase::Rollouts)
            .copied()
            .collect();
        self.model.prefetch(&asked);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::PlayoutPolicy;
    use crate::game::Geometry;

    /// A model that always says 0.5.
    struct Constant;
    impl Evaluator for Constant {
        fn name(&self) -> String {
            "constant".into()
        }
        fn evaluate(&self, _: &Position) -> f64 {
            0.5
        }
    }

    #[test]
    fn phases_pick_the_evaluator_by_ply() {
        let g = Geometry::STANDARD;
        let mc = MonteCarlo::new(g, 75, PlayoutPolicy::Uniform, 1);
        let phases = Phases {
            model_until: 9,
            blend_until: 12,
            model_weight: 0.7,
        };
        let h = Hybrid::new(Arc::new(Constant), mc.clone(), phases);
        let at = |moves: &str| {
            let p = Position::from_moves(g, moves).unwrap();
            (h.evaluate(&p), mc.evaluate(&p))
        };
        // Ply 9: the model alone.
        assert_eq!(at("444455553").0, 0.5);
        // Ply 10 and 12: 0.7 x 0.5 + 0.3 x rollouts.
        for moves in ["4444555533", "444455553333"] {
            let (v, r) = at(moves);
            assert!((v - (0.35 + 0.3 * r)).abs() < 1e-12, "{moves}");
        }
        // Ply 13: rollouts alone.
        let (v, r) = at("4444555533336");
        assert_eq!(v, r);
        let p = phases;
        assert_eq!(
            (
                p.phase(0),
                p.phase(9),
                p.phase(10),
                p.phase(12),
                p.phase(13)
            ),
            (
                Phase::Model,
                Phase::Model,
                Phase::Blend,
                Phase::Blend,
                Phase::Rollouts
            )
        );
        // The tuned defaults.
        let d = Phases::default();
        assert_eq!((d.model_until, d.blend_until, d.model_weight), (9, 19, 0.5));
        assert_eq!((d.phase(19), d.phase(20)), (Phase::Blend, Phase::Rollouts));
    }
}
