//! Which agents play on which board: the [`AgentBoard`] trait over the board's integer,
//! every kind on 64-bit boards and those that need no 64-bit table or model past them.

use super::{AgentError, AgentFactory, AgentKind, AgentSpec, EvalSpec, ModelKind, Resources};
use crate::agents::level::JudgeShared;
use crate::agents::{Agent, ExploitShared, PerfectShared};
use crate::eval::{self, EvalError, Evaluator, ModelStore};
use crate::game::Geometry;
use crate::solver::PoolBoard;
use std::sync::Arc;

/// What perfect agents and the dial's judges of one spec share across its agents.
pub(super) type Shared<B> = (
    Option<Arc<PerfectShared>>,
    Option<Arc<JudgeShared<B>>>,
    Option<Arc<ExploitShared>>,
);

/// The integer of a board, as agents see it: which kinds of agent play there. Every kind
/// plays 64-bit boards (`u64`); boards past 64 bits (`u128`) have the agents that need
/// no 64-bit book or learned model but the board's network (see [`AgentSpec::factory_on`]).
pub trait AgentBoard: PoolBoard {
    /// The evaluator `spec` names, for boards of `geom`.
    fn evaluator(
        spec: &EvalSpec,
        geom: Geometry<Self>,
        models: &ModelStore,
    ) -> Result<Arc<dyn Evaluator<Self>>, EvalError>;

    /// What the perfect agents and dial judges of `spec` share (none for other kinds).
    #[doc(hidden)]
    fn shared(
        spec: &AgentSpec,
        geom: Geometry<Self>,
        resources: &Resources,
    ) -> Result<Shared<Self>, AgentError>;

    /// An agent of a kind that only some boards have (perfect, external), from `factory`.
    #[doc(hidden)]
    fn build_special(
        factory: &AgentFactory<Self>,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, AgentError>;
}

impl AgentBoard for u64 {
    fn evaluator(
        spec: &EvalSpec,
        geom: Geometry,
        models: &ModelStore,
    ) -> Result<Arc<dyn Evaluator>, EvalError> {
        spec.build_in(geom, models)
    }

    fn shared(
        spec: &AgentSpec,
        geom: Geometry,
        resources: &Resources,
    ) -> Result<Shared<u64>, AgentError> {
        spec.shared_narrow(geom, resources)
    }

    fn build_special(factory: &AgentFactory, seed: u64) -> Result<Box<dyn Agent>, AgentError> {
        factory.build_narrow(seed)
    }
}

impl AgentBoard for u128 {
    fn evaluator(
        spec: &EvalSpec,
        geom: Geometry<u128>,
        models: &ModelStore,
    ) -> Result<Arc<dyn Evaluator<u128>>, EvalError> {
        let not_here = |name: &str| EvalError::NotOnBoard {
            name: name.to_string(),
            board: geom.to_string(),
        };
        match spec {
            EvalSpec::Builtin(name) => eval::builtin_any_board(name, geom),
            EvalSpec::Rollouts(r) => Ok(Arc::new(r.build(geom))),
            EvalSpec::InMemory(name) => Err(EvalError::Unknown { name: name.clone() }),
            // The n-tuple networks read any board; the trees and linear weights 64 bits.
            EvalSpec::NTuple(path) => Ok(models.shared_ntuple(path, geom)?),
            EvalSpec::OfBoard(ModelKind::NTuple, path) => {
                Ok(models.shared_ntuple(&super::board_model(path, geom), geom)?)
            }
            EvalSpec::Model(path) | EvalSpec::Linear(path) | EvalSpec::OfBoard(_, path) => {
                Err(not_here(&path.display().to_string()))
            }
            EvalSpec::Hybrid { model, .. } => Err(not_here(&model.display().to_string())),
        }
    }

    fn shared(
        spec: &AgentSpec,
        geom: Geometry<u128>,
        resources: &Resources,
    ) -> Result<Shared<u128>, AgentError> {
        match spec.kind {
            AgentKind::Random | AgentKind::Search { .. } | AgentKind::Mcts { .. } => {
                Ok((None, None, None))
            }
            // The dial and the adaptive agent judge with a wide solver late in the game
            // and the board's network (else open lines searched) before.
            AgentKind::Level { .. } | AgentKind::Adaptive { .. } => {
                Ok((None, spec.judge_shared(geom, resources)?, None))
            }
            _ => Err(AgentError::NotOnBoard {
                spec: spec.text.clone(),
                board: geom.to_string(),
            }),
        }
    }

    fn build_special(
        factory: &AgentFactory<u128>,
        _seed: u64,
    ) -> Result<Box<dyn Agent<u128>>, AgentError> {
        Err(AgentError::NotOnBoard {
            spec: factory.spec().label().to_string(),
            board: factory.geometry().to_string(),
        })
    }
}
