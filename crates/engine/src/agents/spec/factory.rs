//! From a parsed spec to agents: evaluators and models are loaded once per spec, then a fresh
//! agent is built per game.

use super::{AgentError, AgentKind, AgentSpec, EvalSpec, RolloutSpec};
use crate::agents::{Adaptive, Agent, Perfect, PerfectShared, RandomAgent, SearchAgent};
use crate::eval::{self, EvalError, Evaluator};
use crate::game::Geometry;
use crate::search::Searcher;
use std::sync::Arc;

impl RolloutSpec {
    pub(super) fn build(&self, geom: Geometry) -> eval::MonteCarlo {
        let policy = if self.smart {
            eval::PlayoutPolicy::Smart
        } else {
            eval::PlayoutPolicy::Uniform
        };
        eval::MonteCarlo::new(geom, self.playouts, policy, self.seed)
    }
}

impl EvalSpec {
    /// Builds the evaluator for `geom`.
    pub fn build(&self, geom: Geometry) -> Result<Arc<dyn Evaluator>, EvalError> {
        match self {
            EvalSpec::Builtin(name) => eval::builtin(name, geom),
            EvalSpec::InMemory(name) => Err(EvalError::Unknown { name: name.clone() }),
            EvalSpec::Model(path) => eval::load_model(path, geom),
            EvalSpec::Linear(path) => Ok(Arc::new(eval::LinearEvaluator::load(path, geom)?)),
            EvalSpec::NTuple(path) => Ok(Arc::new(eval::NTupleEvaluator::load(path, geom)?)),
            EvalSpec::Rollouts(r) => Ok(Arc::new(r.build(geom))),
            EvalSpec::Hybrid {
                model,
                rollouts,
                phases,
            } => {
                let model = eval::load_model(model, geom)?;
                Ok(Arc::new(eval::Hybrid::new(
                    model,
                    rollouts.build(geom),
                    *phases,
                )))
            }
        }
    }
}

impl AgentSpec {
    /// The spec as written: the agent's name in reports.
    pub fn label(&self) -> &str {
        &self.text
    }

    /// The parsed kind and settings.
    pub fn kind(&self) -> &AgentKind {
        &self.kind
    }

    /// Whether the agent plays the same move every time in the same position (agents with
    /// a time budget or randomness do not).
    pub fn is_deterministic(&self) -> bool {
        match &self.kind {
            AgentKind::Random => false,
            AgentKind::Search { params, .. } => params.time_budget.is_none(),
            AgentKind::Perfect(p) => p.ties == crate::agents::Ties::Centre && p.eps == 0.0,
            AgentKind::Adaptive { .. } | AgentKind::Mcts { .. } => true,
        }
    }

    /// Loads what the agents need once (evaluators, models) for boards of `geom`.
    pub fn factory(&self, geom: Geometry) -> Result<AgentFactory, AgentError> {
        let eval = match &self.kind {
            AgentKind::Search { eval, .. } => {
                Some(eval.build(geom).map_err(|source| AgentError::Eval {
                    spec: self.text.clone(),
                    source,
                })?)
            }
            AgentKind::Adaptive { .. } => Some(eval::builtin("openlines", geom).map_err(
                |source| AgentError::Eval {
                    spec: self.text.clone(),
                    source,
                },
            )?),
            _ => None,
        };
        let perfect = match &self.kind {
            AgentKind::Perfect(_) => Some(Arc::new(PerfectShared::default())),
            _ => None,
        };
        Ok(AgentFactory {
            spec: self.clone(),
            geom,
            eval,
            perfect,
        })
    }
}

/// Builds fresh agents of one spec (one per game), sharing loaded evaluators.
#[derive(Clone)]
pub struct AgentFactory {
    spec: AgentSpec,
    geom: Geometry,
    eval: Option<Arc<dyn Evaluator>>,
    /// What perfect agents share across games (optimal columns found, warm solvers).
    perfect: Option<Arc<PerfectShared>>,
}

impl AgentFactory {
    /// A factory of searching agents over an evaluator already in memory, named `label`
    /// (for arenas that pit weights being trained against other agents).
    pub fn search(
        label: &str,
        geom: Geometry,
        eval: Arc<dyn Evaluator>,
        params: crate::search::SearchParams,
    ) -> AgentFactory {
        AgentFactory {
            spec: AgentSpec {
                text: label.to_string(),
                kind: AgentKind::Search {
                    eval: EvalSpec::InMemory(label.to_string()),
                    params,
                },
            },
            geom,
            eval: Some(eval),
            perfect: None,
        }
    }

    /// The spec this factory builds.
    pub fn spec(&self) -> &AgentSpec {
        &self.spec
    }

    /// The board its agents play on.
    pub fn geometry(&self) -> Geometry {
        self.geom
    }

    /// A new agent; `seed` feeds agents that use randomness.
    pub fn build(&self, seed: u64) -> Result<Box<dyn Agent>, AgentError> {
        let name = self.spec.text.clone();
        Ok(match &self.spec.kind {
            AgentKind::Random => Box::new(RandomAgent::new(name, seed)),
            AgentKind::Search { params, .. } => {
                let eval = self.eval.clone().expect("search agents have an evaluator");
                Box::new(SearchAgent::new(name, Searcher::new(eval, params.clone())))
            }
            AgentKind::Perfect(settings) => Box::new(
                Perfect::with_settings(name, self.geom, *settings, self.perfect.clone(), seed)
                    .map_err(|source| AgentError::Solver {
                        spec: self.spec.text.clone(),
                        source,
                    })?,
            ),
            AgentKind::Mcts {
                sims,
                c,
                seed: s,
                safe,
            } => Box::new(
                crate::agents::MctsAgent::new(
                    name,
                    *sims,
                    *c,
                    crate::seed::derive_seed(*s, crate::seed::Stream::Mcts, &[seed]),
                )
                .with_safe(*safe),
            ),
            AgentKind::Adaptive { depth, start } => {
                let eval = self
                    .eval
                    .clone()
                    .expect("the adaptive agent has an evaluator");
                Box::new(Adaptive::new(name, eval, *depth, *start))
            }
        })
    }
}
