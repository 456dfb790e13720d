//! From a parsed spec to agents: evaluators and models are loaded once per spec, then a fresh
//! agent is built per game.

use super::board::{AgentBoard, Shared};
use super::{AgentError, AgentKind, AgentSpec, EvalSpec, ModelKind, RolloutSpec};
use crate::agents::level::{Calibration, Fallback, Judge, JudgeShared, Level};
use crate::agents::{
    Adaptive, AdaptiveState, Agent, Exploit, ExploitShared, Perfect, PerfectShared, RandomAgent,
    SearchAgent,
};
use crate::eval::{self, EvalError, Evaluator, ModelStore};
use crate::game::{BitBoard, Geometry};
use crate::search::Searcher;
use crate::solver::SolverPool;
use crate::solver::book::Book;
use std::sync::Arc;

impl RolloutSpec {
    pub(super) fn build<B: BitBoard>(&self, geom: Geometry<B>) -> eval::MonteCarlo<B> {
        let policy = if self.smart {
            eval::PlayoutPolicy::Smart
        } else {
            eval::PlayoutPolicy::Uniform
        };
        eval::MonteCarlo::new(geom, self.playouts, policy, self.seed)
    }
}

/// What building agents draws on besides their spec: the opening book perfect agents read,
/// and model files held in memory (a spec's model path found there is not read from disk).
#[derive(Clone, Debug)]
pub struct Resources {
    /// The book of perfect agents (`None`: none).
    pub book: Option<Arc<Book>>,
    /// Model files in memory, by the paths specs name.
    pub models: ModelStore,
}

impl Default for Resources {
    /// The built-in book; models read from their files.
    fn default() -> Self {
        Resources {
            book: Some(crate::solver::book::embedded()),
            models: ModelStore::default(),
        }
    }
}

impl EvalSpec {
    /// Builds the evaluator for `geom`, reading model files from disk.
    pub fn build(&self, geom: Geometry) -> Result<Arc<dyn Evaluator>, EvalError> {
        self.build_in(geom, &ModelStore::default())
    }

    /// Builds the evaluator for `geom`, taking model files from `models` where it holds them.
    pub(crate) fn build_in(
        &self,
        geom: Geometry,
        models: &ModelStore,
    ) -> Result<Arc<dyn Evaluator>, EvalError> {
        match self {
            EvalSpec::Builtin(name) => eval::builtin(name, geom),
            EvalSpec::InMemory(name) => Err(EvalError::Unknown { name: name.clone() }),
            EvalSpec::Model(path) => models.model(path, geom),
            EvalSpec::Linear(path) => Ok(Arc::new(models.linear(path, geom)?)),
            EvalSpec::NTuple(path) => Ok(models.shared_ntuple(path, geom)?),
            EvalSpec::OfBoard(kind, path) => {
                let path = super::board_model(path, geom);
                match kind {
                    ModelKind::Any => models.model(&path, geom),
                    ModelKind::Linear => Ok(Arc::new(models.linear(&path, geom)?)),
                    ModelKind::NTuple => Ok(models.shared_ntuple(&path, geom)?),
                }
            }
            EvalSpec::Rollouts(r) => Ok(Arc::new(r.build(geom))),
            EvalSpec::Hybrid {
                model,
                rollouts,
                phases,
            } => {
                let model = models.model(model, geom)?;
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

    /// Loads what the agents need once (evaluators, models) for boards of `geom`; perfect
    /// agents read the book built into the library (see [`AgentSpec::factory_with_book`]).
    pub fn factory(&self, geom: Geometry) -> Result<AgentFactory, AgentError> {
        self.factory_with_book(geom, Some(crate::solver::book::embedded()))
    }

    /// As [`AgentSpec::factory`], with perfect agents reading `book` (`None`: none).
    pub fn factory_with_book(
        &self,
        geom: Geometry,
        book: Option<Arc<Book>>,
    ) -> Result<AgentFactory, AgentError> {
        self.factory_in(
            geom,
            &Resources {
                book,
                models: ModelStore::default(),
            },
        )
    }

    /// As [`AgentSpec::factory`], drawing the book and model files from `resources`.
    pub fn factory_in(
        &self,
        geom: Geometry,
        resources: &Resources,
    ) -> Result<AgentFactory, AgentError> {
        self.factory_on(geom, resources)
    }

    /// The factory of this spec's agents on boards of any integer: every kind on 64-bit
    /// boards (as [`AgentSpec::factory_in`]); on boards past 64 bits, the kinds that need no
    /// 64-bit book, solver table or learned model: `random`, `mcts`, and search over the
    /// built-in evaluators that need no weights (`easy`, `hard`, `window`, `threat`,
    /// `negamax:eval=openlines|window|threat|rollouts`, `openlines`, `rollouts`). Another kind
    /// there is an error naming it and the board.
    ///
    /// ```
    /// use connect4_engine::agents::{AgentSpec, Resources, Turn};
    /// use connect4_engine::{Geometry, Position};
    /// let g = Geometry::<u128>::sized(8, 8).unwrap();
    /// let hard = "hard".parse::<AgentSpec>().unwrap().factory_on(g, &Resources::default()).unwrap();
    /// let col = hard.build(1).unwrap().choose(&Turn::new(Position::new(g)));
    /// assert!(col < 8);
    /// let err = "perfect".parse::<AgentSpec>().unwrap().factory_on(g, &Resources::default());
    /// assert!(err.err().unwrap().to_string().contains("8x8"));
    /// ```
    pub fn factory_on<B: AgentBoard>(
        &self,
        geom: Geometry<B>,
        resources: &Resources,
    ) -> Result<AgentFactory<B>, AgentError> {
        if self.kind == AgentKind::External {
            return Err(AgentError::External {
                spec: self.text.clone(),
            });
        }
        let eval = match &self.kind {
            AgentKind::Search { eval, .. } => Some(
                B::evaluator(eval, geom, &resources.models).map_err(|source| AgentError::Eval {
                    spec: self.text.clone(),
                    source,
                })?,
            ),
            _ => None,
        };
        let (perfect, judge, exploit) = B::shared(self, geom, resources)?;
        Ok(AgentFactory {
            spec: self.clone(),
            geom,
            eval,
            perfect,
            judge,
            exploit,
            external: None,
        })
    }

    /// What the dial's judges of this spec share on boards of `geom` (none for kinds
    /// other than the dial and the adaptive agent).
    pub(super) fn judge_shared<B: AgentBoard>(
        &self,
        geom: Geometry<B>,
        resources: &Resources,
    ) -> Result<Option<Arc<JudgeShared<B>>>, AgentError> {
        let (AgentKind::Level {
            solve_ms, depth, ..
        }
        | AgentKind::Adaptive {
            solve_ms, depth, ..
        }) = &self.kind
        else {
            return Ok(None);
        };
        Ok(Some(Arc::new(JudgeShared::new(
            Arc::new(SolverPool::new(JUDGE_TT_MIB).with_book(resources.book.clone())),
            fallback(geom, *depth, resources).map_err(|source| AgentError::Eval {
                spec: self.text.clone(),
                source,
            })?,
            solve_ms.map_or_else(
                || crate::agents::level::solve_time(geom),
                std::time::Duration::from_millis,
            ),
        ))))
    }

    /// What perfect agents and the dial's judges of this spec share, on 64-bit boards.
    pub(super) fn shared_narrow(
        &self,
        geom: Geometry,
        resources: &Resources,
    ) -> Result<Shared<u64>, AgentError> {
        let judge = self.judge_shared(geom, resources)?;
        let perfect = match &self.kind {
            AgentKind::Perfect(p) => Some(Arc::new(PerfectShared::new(Arc::new(
                SolverPool::new(p.tt_mib).with_book(resources.book.clone()),
            )))),
            _ => None,
        };
        let exploit = match &self.kind {
            AgentKind::Exploit(x) => {
                let net = board_network(geom, resources);
                Some(Arc::new(ExploitShared::new(
                    Arc::new(SolverPool::new(x.tt_mib).with_book(resources.book.clone())),
                    net,
                )))
            }
            _ => None,
        };
        Ok((perfect, judge, exploit))
    }
}

/// Solver table of the dial's judges, MiB (one per agent playing at once).
const JUDGE_TT_MIB: usize = 32;

/// The shipped n-tuple network of the board (`models/ntuple.bin` on 7x6,
/// `models/ntuple-WxH.bin` elsewhere), when its file is found.
fn board_network<B: AgentBoard>(
    geom: Geometry<B>,
    resources: &Resources,
) -> Option<Arc<dyn Evaluator<B>>> {
    let path = super::board_model(std::path::Path::new(super::DEFAULT_NTUPLE_MODEL), geom);
    let net = resources.models.shared_ntuple(&path, geom).ok()?;
    Some(net)
}

/// What values moves when the solver runs out of time: the shipped n-tuple network of the
/// board (`models/ntuple.bin` on 7x6, `models/ntuple-WxH.bin` elsewhere) when its file is
/// found, else the open-lines evaluator searched `depth` plies.
fn fallback<B: AgentBoard>(
    geom: Geometry<B>,
    depth: u32,
    resources: &Resources,
) -> Result<Fallback<B>, EvalError> {
    if let Some(net) = board_network(geom, resources) {
        return Ok(Fallback::Model(net));
    }
    Ok(Fallback::Search {
        eval: eval::builtin_any_board("openlines", geom)?,
        depth,
        // Open lines count five for each of the player's lines: a few lines' difference
        // is a clear edge, tens of them decisive.
        scale: 40.0,
    })
}

/// Builds the agents of an [`AgentKind::External`] factory: whatever a caller outside the
/// library plays (a Python function), one fresh agent per game as the arena asks.
pub trait BuildAgent: Send + Sync {
    /// A new agent for one game; `seed` feeds agents that use randomness.
    fn build(&self, seed: u64) -> Box<dyn Agent>;
}

/// Builds fresh agents of one spec (one per game), sharing loaded evaluators. Generic over
/// the board's integer (`AgentFactory` alone: 64-bit boards; see [`AgentBoard`]).
#[derive(Clone)]
pub struct AgentFactory<B: AgentBoard = u64> {
    spec: AgentSpec,
    geom: Geometry<B>,
    eval: Option<Arc<dyn Evaluator<B>>>,
    /// What perfect agents share across games (optimal columns found, warm solvers).
    perfect: Option<Arc<PerfectShared>>,
    /// What the dial's judges share (exact scores found, warm solvers, the fallback).
    judge: Option<Arc<JudgeShared<B>>>,
    /// What exploiting agents share (exact scores found, warm solvers, the network).
    exploit: Option<Arc<ExploitShared>>,
    /// The builder of an external agent.
    external: Option<Arc<dyn BuildAgent>>,
}

impl<B: AgentBoard> AgentFactory<B> {
    /// A factory of searching agents over an evaluator already in memory, named `label`
    /// (for arenas that pit weights being trained against other agents).
    pub fn search(
        label: &str,
        geom: Geometry<B>,
        eval: Arc<dyn Evaluator<B>>,
        params: crate::search::SearchParams,
    ) -> AgentFactory<B> {
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
            judge: None,
            exploit: None,
            external: None,
        }
    }

    /// The spec this factory builds.
    pub fn spec(&self) -> &AgentSpec {
        &self.spec
    }

    /// The board its agents play on.
    pub fn geometry(&self) -> Geometry<B> {
        self.geom
    }

    /// A new agent; `seed` feeds agents that use randomness.
    pub fn build(&self, seed: u64) -> Result<Box<dyn Agent<B>>, AgentError> {
        let name = self.spec.text.clone();
        Ok(match &self.spec.kind {
            AgentKind::Random => Box::new(RandomAgent::new(name, seed)),
            AgentKind::Search { params, .. } => {
                let eval = self.eval.clone().expect("search agents have an evaluator");
                Box::new(SearchAgent::new(name, Searcher::new(eval, params.clone())))
            }
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
            AgentKind::Level {
                skill,
                elo,
                seed: s,
                ..
            } => Box::new(Level::new(
                name,
                // An Elo asked for reads this board's calibration; past its ends (the
                // spec checked the 7x6 range) the dial plays the nearest end.
                elo.map_or(*skill, |e| Calibration::for_board(self.geom).skill_at(e)),
                self.judge()?,
                crate::seed::derive_seed(*s, crate::seed::Stream::Level, &[seed]),
            )),
            AgentKind::Adaptive { start, .. } => {
                Box::new(self.build_adaptive(seed, AdaptiveState::new(*start))?)
            }
            AgentKind::Perfect(_) | AgentKind::Exploit(_) | AgentKind::External => {
                B::build_special(self, seed)?
            }
        })
    }

    /// An adaptive agent of this factory's spec starting from `state` (a saved estimate);
    /// an error for a spec of another kind.
    pub fn build_adaptive(
        &self,
        seed: u64,
        state: AdaptiveState,
    ) -> Result<Adaptive<B>, AgentError> {
        let AgentKind::Adaptive { seed: s, rates, .. } = &self.spec.kind else {
            return Err(AgentError::NotAdaptive {
                spec: self.spec.text.clone(),
            });
        };
        Ok(Adaptive::new(
            self.spec.text.clone(),
            state,
            self.judge()?,
            crate::seed::derive_seed(*s, crate::seed::Stream::Level, &[seed]),
        )
        .with_rates(*rates)
        .with_calibration(Calibration::for_board(self.geom)))
    }

    /// A judge for one more agent of a dial kind.
    fn judge(&self) -> Result<Judge<B>, AgentError> {
        let shared = self.judge.clone().expect("dial kinds have a judge");
        Judge::new(shared, self.geom).map_err(|source| AgentError::Solver {
            spec: self.spec.text.clone(),
            source,
        })
    }

    /// The same factory with perfect agents (on 64-bit boards) taking their solvers (table size and book) from
    /// `solvers`, e.g. a server's pool whose tables stay warm across requests.
    pub fn with_solvers(mut self, solvers: Arc<SolverPool>) -> Self {
        if self.perfect.is_some() {
            self.perfect = Some(Arc::new(PerfectShared::new(solvers)));
        }
        self
    }

    /// Whether this factory and `other` share their judges (the dial's and the adaptive
    /// agent's solvers and what they remember of positions): true for clones of one factory.
    pub fn shares_judges_with(&self, other: &Self) -> bool {
        match (&self.judge, &other.judge) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Whether agents of this spec carry what they learn from game to game (see
    /// [`Agent::carries_state`]).
    pub fn carries_state(&self) -> bool {
        matches!(self.spec.kind, AgentKind::Adaptive { .. })
    }
}

impl AgentFactory {
    /// A factory of agents `builder` makes, named `label` (an agent the caller supplies,
    /// such as a Python policy, in an arena beside spec agents).
    pub fn external(label: &str, geom: Geometry, builder: Arc<dyn BuildAgent>) -> AgentFactory {
        AgentFactory {
            spec: AgentSpec {
                text: label.to_string(),
                kind: AgentKind::External,
            },
            geom,
            eval: None,
            perfect: None,
            judge: None,
            exploit: None,
            external: Some(builder),
        }
    }

    /// An agent of the kinds only 64-bit boards have (perfect, external).
    pub(super) fn build_narrow(&self, seed: u64) -> Result<Box<dyn Agent>, AgentError> {
        let name = self.spec.text.clone();
        Ok(match &self.spec.kind {
            AgentKind::External => self
                .external
                .as_ref()
                .expect("external factories carry their builder")
                .build(seed),
            AgentKind::Perfect(settings) => Box::new(
                Perfect::with_settings(name, self.geom, *settings, self.perfect.clone(), seed)
                    .map_err(|source| AgentError::Solver {
                        spec: self.spec.text.clone(),
                        source,
                    })?,
            ),
            AgentKind::Exploit(settings) => Box::new(
                Exploit::new(
                    name,
                    self.geom,
                    *settings,
                    self.exploit
                        .clone()
                        .expect("exploit factories share their state"),
                    seed,
                )
                .map_err(|source| AgentError::Solver {
                    spec: self.spec.text.clone(),
                    source,
                })?,
            ),
            _ => unreachable!("built by AgentFactory::build"),
        })
    }
}
