//! Agent spec strings: `kind[:arg,arg,...]`, each arg `key=value`.
//!
//! The kinds live in one table ([`kinds::AGENT_KINDS`]), which the parser, its errors and
//! the CLI's help read:
//!
//! | spec | agent |
//! |---|---|
//! | `random` | uniformly random legal moves |
//! | `easy` | open lines, depth 1 |
//! | `hard` | open lines, depth 5 |
//! | `window[:depth=N]`, `handtuned[:depth=N]`, `threat[:depth=N]` | that evaluator, depth N (5) |
//! | `negamax:eval=NAME[,depth=N][,ms=T][,schedule=P:D/P:D][,tt=LOG2]` | any evaluator |
//! | `perfect[:tt=MIB][,ties=centre\|random\|value][,eps=E][,seed=S]` | the solver; random tie-breaks and a share of random safe moves for the literature's yardstick |
//! | `exploit:eps=E[,ms=T][,seed=S][,tt=MIB]` | the best chance to win against `perfect:ties=random,eps=E` |
//! | `level:elo=E[,skill=S][,ms=T][,seed=S]` | the strength dial: plays at Elo E of the ladder |
//! | `adaptive[:start=E][,depth=N][,ms=T][,seed=S]` | estimates the opponent's Elo and plays the dial there |
//! | `model:PATH[,depth=N]` | a model file (`c4 train gbt` or `c4 train lms`) as the evaluator |
//! | `gbt[:depth=N]` | `model:models/gbt.bin`, the shipped GBT model |
//! | `lms[:PATH][,depth=N]` | linear weights from `c4 train lms` (default `models/lms.bin`) |
//! | `ntuple[:PATH][,depth=N]` | an n-tuple network from `c4 train ntuple` (default `models/ntuple.bin`) |
//! | `mcts[:sims=N][,c=C][,seed=S]` | UCT with uniformly random rollouts (1000 simulations, c = sqrt 2) |
//! | `rollouts[:playouts=R][,smart=B][,seed=S][,depth=N]` | Monte Carlo playouts at the leaves (depth 1) |
//! | `hybrid[:model=PATH][,depth=N][,rollouts=R][,smart=B (true)][,model_until=P][,blend_until=P][,weight=W][,seed=S]` | model early, blend, rollouts late |
//!
//! Model paths are used as given (the CLI resolves a bare `gbt` to `models/gbt.bin` before it
//! hands a spec over, see [`AgentSpec::map_model_paths`]).
//!
//! Every search kind also takes `ms` (time budget per move, iterative deepening stops when
//! it runs out; without `depth` it then deepens as far as the time allows), `schedule` (deeper
//! search from a given ply on: `schedule=20:7/30:9`) and
//! `tt` (table size as a power of two). Evaluators are described by [`EvalSpec`], which is
//! where model-backed evaluators plug in.

mod args;
mod board;
mod error;
mod factory;
mod kinds;

pub use board::AgentBoard;
pub use error::AgentError;
pub use factory::{AgentFactory, BuildAgent, Resources};
pub use kinds::{AGENT_KINDS, KindInfo, kinds_help};

use crate::eval;
use crate::search::SearchParams;
use args::Args;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The shipped GBT model, relative to the repository root.
pub(crate) const DEFAULT_GBT_MODEL: &str = "models/gbt.bin";
/// The shipped LMS weights, relative to the repository root.
pub(crate) const DEFAULT_LMS_MODEL: &str = "models/lms.bin";
/// The shipped n-tuple network, relative to the repository root.
pub(crate) const DEFAULT_NTUPLE_MODEL: &str = "models/ntuple.bin";

/// The model file of board `geom` for a model named `path` on 7x6: `path` itself on the
/// standard board, else its sibling with the board in its name (`models/ntuple.bin` on 8x7
/// is `models/ntuple-8x7.bin`), where `c4 train ntuple --width 8 --height 7` puts it.
///
/// ```
/// use connect4_engine::agents::board_model;
/// use connect4_engine::Geometry;
/// use std::path::Path;
/// let p = Path::new("models/ntuple.bin");
/// assert_eq!(board_model(p, Geometry::STANDARD), p);
/// assert_eq!(board_model(p, Geometry::new(8, 7).unwrap()), Path::new("models/ntuple-8x7.bin"));
/// ```
pub fn board_model<B: crate::game::BitBoard>(
    path: &Path,
    geom: crate::game::Geometry<B>,
) -> PathBuf {
    if geom.narrow() == Some(crate::game::Geometry::STANDARD) {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let ext = path
        .extension()
        .map_or_else(String::new, |e| format!(".{}", e.to_string_lossy()));
    path.with_file_name(format!("{stem}-{}x{}{ext}", geom.width(), geom.height()))
}

/// Default search depth of the evaluator kinds.
pub(crate) const DEFAULT_DEPTH: u32 = 5;

/// Settings of the Monte Carlo part of `rollouts` and `hybrid` agents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutSpec {
    /// Playouts per evaluation.
    pub playouts: u32,
    /// Playouts take immediate wins and block immediate losses.
    pub smart: bool,
    /// Seed mixed into every position's playouts.
    pub seed: u64,
}

/// Which kinds of model file a spec accepts at a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelKind {
    /// Any model file (GBT, linear weights, n-tuple network).
    Any,
    /// Linear weights only.
    Linear,
    /// An n-tuple network only.
    NTuple,
}

/// Which evaluator a searching agent uses.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalSpec {
    /// One of [`eval::BUILTIN_EVALUATORS`].
    Builtin(String),
    /// A model file of any kind (`model:PATH`).
    Model(std::path::PathBuf),
    /// A linear model file (`lms:PATH`); other kinds are refused.
    Linear(std::path::PathBuf),
    /// An n-tuple network file (`ntuple:PATH`); other kinds are refused.
    NTuple(std::path::PathBuf),
    /// The shipped model of the board played: the file named on 7x6 (`models/ntuple.bin`),
    /// its sibling `ntuple-WxH.bin` on a W x H board (see [`board_model`]), read as `kind`.
    /// What `ntuple`, `lms` and `gbt` without a path mean.
    OfBoard(ModelKind, std::path::PathBuf),
    /// Random playouts.
    Rollouts(RolloutSpec),
    /// An evaluator built in memory by the caller (e.g. weights being trained), named; it
    /// has no spec string and lives only in the factory that holds it
    /// ([`AgentFactory::search`]).
    InMemory(String),
    /// A model early, rollouts late.
    Hybrid {
        /// The model file.
        model: std::path::PathBuf,
        /// The playouts.
        rollouts: RolloutSpec,
        /// Where the phases change.
        phases: eval::Phases,
    },
}

/// What kind of agent a spec describes, with its settings.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentKind {
    /// Uniformly random legal moves.
    Random,
    /// Depth-limited search over an evaluator.
    Search {
        /// The leaf evaluator.
        eval: EvalSpec,
        /// Depth, schedule, time budget, table size.
        params: SearchParams,
    },
    /// The perfect solver.
    Perfect(crate::agents::PerfectSettings),
    /// Plays for an erring perfect opponent's mistakes (expectimax over exact values).
    Exploit(crate::agents::ExploitSettings),
    /// Monte Carlo tree search (UCT) with random rollouts.
    Mcts {
        /// Simulations per move.
        sims: u32,
        /// Exploration constant.
        c: f64,
        /// Seed of the rollouts.
        seed: u64,
        /// The one-move rule at the root.
        safe: bool,
    },
    /// The strength dial: plays at a skill (0 random, 1 perfect) the calibration maps to Elo.
    Level {
        /// The skill played.
        skill: f64,
        /// The Elo asked for (`elo=E`), when the skill comes from one.
        elo: Option<f64>,
        /// Time to solve one position before the evaluator answers, ms (`None`: the
        /// board's default, [`crate::agents::level::solve_time`]).
        solve_ms: Option<u64>,
        /// Depth of the heuristic fallback on boards without a model.
        depth: u32,
        /// Seed of its draws (mixed with each game's seed).
        seed: u64,
    },
    /// The adaptive-difficulty agent: the dial at its estimate of the opponent's Elo.
    Adaptive {
        /// Depth of the heuristic fallback on boards without a model.
        depth: u32,
        /// The estimate it starts from, Elo.
        start: f64,
        /// Time to solve one position before the evaluator answers, ms (`None`: the
        /// board's default, [`crate::agents::level::solve_time`]).
        solve_ms: Option<u64>,
        /// Seed of its draws (mixed with each pairing's seed).
        seed: u64,
        /// How fast its estimate moves.
        rates: crate::agents::AdaptiveRates,
    },
    /// An agent the caller supplies (a Python policy), built by the [`BuildAgent`] its
    /// factory holds ([`AgentFactory::external`]): it has no spec text beyond its name.
    External,
}

/// A parsed agent spec; [`AgentSpec::factory`] turns it into agents.
///
/// ```
/// use connect4_engine::agents::AgentSpec;
/// use connect4_engine::{Geometry, Position};
/// let spec: AgentSpec = "negamax:eval=threat,depth=4".parse().unwrap();
/// let mut agent = spec.factory(Geometry::STANDARD).unwrap().build(0).unwrap();
/// let empty = Position::new(Geometry::STANDARD);
/// let column = agent.choose(&connect4_engine::agents::Turn::new(empty));
/// assert!(column < 7);
/// // A bad spec says what is wrong.
/// let err = "hard:depth=3".parse::<AgentSpec>().unwrap_err().to_string();
/// assert!(err.contains("'hard' takes no option 'depth'"), "{err}");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    text: String,
    kind: AgentKind,
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl FromStr for AgentSpec {
    type Err = AgentError;

    fn from_str(s: &str) -> Result<Self, AgentError> {
        let text = s.trim();
        if text.is_empty() {
            return Err(AgentError::Empty);
        }
        let (name, rest) = match text.split_once(':') {
            Some((k, r)) => (k.trim(), Some(r)),
            None => (text, None),
        };
        let info = kinds::kind(name).ok_or_else(|| AgentError::UnknownKind {
            spec: text.into(),
            kind: name.into(),
        })?;
        // Kinds that read a file take its path as a bare first argument (`model:PATH`), or
        // as `path=PATH` anywhere.
        // A path holding `,` or `=` is written in double quotes (`model:"a,b=c.bin"`).
        let (path, rest) = match rest {
            Some(r) if info.keys.contains(&"path") => {
                let first = args::split_outside_quotes(text, r)?;
                match first.first() {
                    Some(f) if !args::unquote(f).contains('=') || f.starts_with('"') => {
                        let end = f.as_ptr() as usize - r.as_ptr() as usize + f.len();
                        let more = r[end..].trim_start().strip_prefix(',');
                        (Some(args::unquote(f)), more)
                    }
                    _ => (None, Some(r)),
                }
            }
            _ => (None, rest),
        };
        let args = Args::parse(text, name, rest)?;
        let kind = info.parse(args, path)?;
        Ok(AgentSpec {
            text: text.to_string(),
            kind,
        })
    }
}

impl AgentSpec {
    /// A search over any model file (`model:PATH,depth=N`), whatever characters the path
    /// holds (it is quoted in the text when needed, so the text parses back to this spec).
    ///
    /// ```
    /// use connect4_engine::agents::AgentSpec;
    /// use connect4_engine::{Geometry, Position};
    /// let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    /// let spec = AgentSpec::model(&models.join("gbt.bin"), 2).unwrap();
    /// assert!(spec.to_string().starts_with("model:"));
    /// let mut agent = spec.factory(Geometry::STANDARD).unwrap().build(1).unwrap();
    /// assert!(agent.choose(&connect4_engine::agents::Turn::new(Position::new(Geometry::STANDARD))) < 7);
    /// ```
    pub fn model(path: &Path, depth: u32) -> Result<AgentSpec, AgentError> {
        Self::with_path("model", "", path, depth)
    }

    /// A search over an n-tuple network (`ntuple:PATH,depth=N`).
    ///
    /// ```
    /// use connect4_engine::agents::AgentSpec;
    /// use connect4_engine::{Geometry, Position};
    /// let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    /// let spec = AgentSpec::ntuple(&models.join("ntuple.bin"), 1).unwrap();
    /// assert!(spec.factory(Geometry::STANDARD).is_ok());
    /// ```
    pub fn ntuple(path: &Path, depth: u32) -> Result<AgentSpec, AgentError> {
        Self::with_path("ntuple", "", path, depth)
    }

    /// A search over linear weights (`lms:PATH,depth=N`).
    ///
    /// ```
    /// use connect4_engine::agents::AgentSpec;
    /// use connect4_engine::{Geometry, Position};
    /// let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    /// let spec = AgentSpec::lms(&models.join("lms.bin"), 3).unwrap();
    /// assert!(spec.factory(Geometry::STANDARD).is_ok());
    /// ```
    pub fn lms(path: &Path, depth: u32) -> Result<AgentSpec, AgentError> {
        Self::with_path("lms", "", path, depth)
    }

    /// The hybrid agent over a model file (`hybrid:model=PATH,depth=N`), other settings at
    /// their defaults.
    ///
    /// ```
    /// use connect4_engine::agents::AgentSpec;
    /// use connect4_engine::{Geometry, Position};
    /// let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    /// let spec = AgentSpec::hybrid(&models.join("gbt.bin"), 2).unwrap();
    /// assert!(spec.to_string().starts_with("hybrid:model="));
    /// ```
    pub fn hybrid(path: &Path, depth: u32) -> Result<AgentSpec, AgentError> {
        Self::with_path("hybrid", "model=", path, depth)
    }

    /// A search over a built-in evaluator kind (`handtuned`, `window`, `threat`) at `depth`.
    ///
    /// ```
    /// use connect4_engine::agents::AgentSpec;
    /// use connect4_engine::{Geometry, Position};
    /// let spec = AgentSpec::builtin("threat", 4).unwrap();
    /// assert_eq!(spec.to_string(), "threat:depth=4");
    /// assert!(AgentSpec::builtin("nonsense", 4).is_err());
    /// ```
    pub fn builtin(kind: &str, depth: u32) -> Result<AgentSpec, AgentError> {
        format!("{kind}:depth={depth}").parse()
    }

    fn with_path(kind: &str, key: &str, path: &Path, depth: u32) -> Result<AgentSpec, AgentError> {
        let shown = path.to_string_lossy();
        let quoted = args::quote(&shown).ok_or_else(|| AgentError::Unquotable {
            path: shown.to_string(),
        })?;
        let mut spec: AgentSpec = format!("{kind}:{key}{quoted},depth={depth}").parse()?;
        // The path as given, not as text: a path that is not UTF-8 still loads.
        spec = spec.map_model_paths(|_| path.to_path_buf());
        Ok(spec)
    }

    /// The same searching agent playing on a time budget of `ms` per move instead of a fixed
    /// depth (it deepens until the budget is spent, up to 42 plies), labelled `SPEC@MSms`;
    /// `None` for agents that do not search (random, perfect, adaptive).
    ///
    /// ```
    /// use connect4_engine::agents::AgentSpec;
    /// use connect4_engine::{Geometry, Position};
    /// let spec: AgentSpec = "handtuned:depth=5".parse().unwrap();
    /// assert!(spec.with_time_budget(50.0).is_some());
    /// assert!("random".parse::<AgentSpec>().unwrap().with_time_budget(50.0).is_none());
    /// ```
    pub fn with_time_budget(&self, ms: f64) -> Option<AgentSpec> {
        let AgentKind::Search { eval, params } = &self.kind else {
            return None;
        };
        let mut params = params.clone();
        params.time_budget = Some(std::time::Duration::from_secs_f64(ms.max(0.001) / 1e3));
        params.depth = 42;
        params.schedule.clear();
        Some(AgentSpec {
            text: format!("{}@{ms:.2}ms", self.text),
            kind: AgentKind::Search {
                eval: eval.clone(),
                params,
            },
        })
    }

    /// The same agent with every model path passed through `resolve` (the label keeps the
    /// spec as written). The CLI uses it to let `model:gbt` stand for `models/gbt.bin`.
    pub fn map_model_paths(mut self, resolve: impl Fn(&Path) -> PathBuf) -> AgentSpec {
        if let AgentKind::Search { eval, .. } = &mut self.kind {
            match eval {
                EvalSpec::Model(p)
                | EvalSpec::Linear(p)
                | EvalSpec::NTuple(p)
                | EvalSpec::OfBoard(_, p) => *p = resolve(p),
                EvalSpec::Hybrid { model, .. } => *model = resolve(model),
                EvalSpec::Builtin(_) | EvalSpec::Rollouts(_) | EvalSpec::InMemory(_) => {}
            }
        }
        self
    }
}

impl AgentSpec {
    /// The model files the agents of this spec read on boards of `geom` (the board's own
    /// network for a bare `ntuple`), so that a program without a file system (the
    /// WebAssembly engine) fetches exactly those.
    ///
    /// ```
    /// use connect4_engine::agents::AgentSpec;
    /// use connect4_engine::Geometry;
    /// let spec: AgentSpec = "ntuple:depth=1".parse().unwrap();
    /// let on = |w, h| spec.model_files(Geometry::new(w, h).unwrap());
    /// assert_eq!(on(7, 6), vec![std::path::PathBuf::from("models/ntuple.bin")]);
    /// assert_eq!(on(8, 7), vec![std::path::PathBuf::from("models/ntuple-8x7.bin")]);
    /// // lms and gbt without a path read their board's file too, where one was trained.
    /// let lms: AgentSpec = "lms:depth=3".parse().unwrap();
    /// assert_eq!(lms.model_files(Geometry::new(6, 5).unwrap()), vec![std::path::PathBuf::from("models/lms-6x5.bin")]);
    /// let gbt: AgentSpec = "gbt".parse().unwrap();
    /// assert_eq!(gbt.model_files(Geometry::STANDARD), vec![std::path::PathBuf::from("models/gbt.bin")]);
    /// assert!("easy".parse::<AgentSpec>().unwrap().model_files(Geometry::STANDARD).is_empty());
    /// ```
    pub fn model_files<B: crate::game::BitBoard>(
        &self,
        geom: crate::game::Geometry<B>,
    ) -> Vec<PathBuf> {
        let AgentKind::Search { eval, .. } = &self.kind else {
            return Vec::new();
        };
        match eval {
            EvalSpec::Model(p) | EvalSpec::Linear(p) | EvalSpec::NTuple(p) => vec![p.clone()],
            EvalSpec::OfBoard(_, p) => vec![board_model(p, geom)],
            EvalSpec::Hybrid { model, .. } => vec![model.clone()],
            EvalSpec::Builtin(_) | EvalSpec::Rollouts(_) | EvalSpec::InMemory(_) => Vec::new(),
        }
    }
}

/// Splits `--agents a,b:depth=3,c` into specs: a comma starts a new spec unless what follows
/// is a `key=value` option of the current one.
pub fn split_agent_list(args: &[String]) -> Vec<String> {
    let mut specs: Vec<String> = Vec::new();
    for arg in args {
        let mut current: Option<String> = None;
        for part in arg.split(',') {
            let part = part.trim();
            match current.as_mut() {
                Some(s) if part.contains('=') && !part.contains(':') => {
                    s.push(',');
                    s.push_str(part);
                }
                _ => {
                    if let Some(s) = current.take() {
                        specs.push(s);
                    }
                    current = Some(part.to_string());
                }
            }
        }
        specs.extend(current);
    }
    specs
}

#[cfg(test)]
mod tests;
