//! Agent spec strings: `kind[:arg,arg,...]`, each arg `key=value`.
//!
//! | spec | agent |
//! |---|---|
//! | `random` | uniformly random legal moves |
//! | `easy` | open lines, depth 1 |
//! | `hard` | open lines, depth 5 |
//! | `window[:depth=N]`, `handtuned[:depth=N]`, `threat[:depth=N]` | that evaluator, depth N (5) |
//! | `negamax:eval=NAME[,depth=N][,ms=T][,schedule=P:D/P:D][,tt=LOG2]` | any evaluator |
//! | `perfect[:tt=MIB]` | the solver |
//! | `adaptive[:depth=N][,start=R]` | matches the opponent's strength |
//! | `model:PATH[,depth=N]` | a model file (`c4 train gbt` or `c4 train lms`) as the evaluator |
//! | `gbt[:depth=N]` | `model:models/gbt.bin`, the shipped GBT model |
//! | `lms[:PATH][,depth=N]` | linear weights from `c4 train lms` (default `models/lms.bin`) |
//! | `rollouts[:playouts=R][,smart=B][,seed=S][,depth=N]` | Monte Carlo playouts at the leaves (depth 1) |
//! | `hybrid[:model=PATH][,depth=N][,rollouts=R][,smart=B (true)][,model_until=P][,blend_until=P][,weight=W][,seed=S]` | model early, blend, rollouts late |
//!
//! A model path that does not exist but names a shipped model (`gbt`, `lms`) stands for
//! `models/NAME.bin`, so `model:gbt` works from the repository root.
//!
//! Every search kind also takes `ms` (time budget per move, iterative deepening stops when
//! it runs out), `schedule` (deeper search from a given ply on: `schedule=20:7/30:9`) and
//! `tt` (table size as a power of two). Evaluators are described by [`EvalSpec`], which is
//! where model-backed evaluators plug in.

use super::{Adaptive, Agent, Perfect, RandomAgent, SearchAgent};
use crate::eval::{self, EvalError, Evaluator};
use crate::game::Geometry;
use crate::search::{SearchParams, Searcher};
use crate::solver::SolverError;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use thiserror::Error;

/// Why a spec could not be parsed or its agent built.
#[derive(Debug, Error)]
pub enum AgentError {
    /// Nothing was given.
    #[error("empty agent spec")]
    Empty,
    /// The kind before `:` is not known.
    #[error("agent spec '{spec}': unknown agent '{kind}' (known: {})", KINDS.join(", "))]
    UnknownKind {
        /// The whole spec.
        spec: String,
        /// The unknown kind.
        kind: String,
    },
    /// A key this kind does not take.
    #[error("agent spec '{spec}': '{kind}' takes no option '{key}' (it takes: {takes})")]
    UnknownKey {
        /// The whole spec.
        spec: String,
        /// The agent kind.
        kind: String,
        /// The offending key.
        key: String,
        /// The keys it does take.
        takes: String,
    },
    /// A value that does not parse or is out of range.
    #[error("agent spec '{spec}': {key}={value}: {expected}")]
    BadValue {
        /// The whole spec.
        spec: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What was expected.
        expected: String,
    },
    /// A required key is missing.
    #[error("agent spec '{spec}': '{kind}' needs {key}=...")]
    MissingKey {
        /// The whole spec.
        spec: String,
        /// The agent kind.
        kind: String,
        /// The missing key.
        key: String,
    },
    /// An argument without `=`.
    #[error("agent spec '{spec}': '{arg}' is not of the form key=value")]
    NotKeyValue {
        /// The whole spec.
        spec: String,
        /// The argument.
        arg: String,
    },
    /// The evaluator could not be built.
    #[error("agent spec '{spec}': {source}")]
    Eval {
        /// The whole spec.
        spec: String,
        /// The evaluator's error.
        source: EvalError,
    },
    /// The solver could not be set up.
    #[error("agent spec '{spec}': {source}")]
    Solver {
        /// The whole spec.
        spec: String,
        /// The solver's error.
        source: SolverError,
    },
}

/// Agent kinds the parser knows.
pub const KINDS: [&str; 15] = [
    "random",
    "easy",
    "hard",
    "window",
    "handtuned",
    "threat",
    "negamax",
    "perfect",
    "adaptive",
    "openlines",
    "model",
    "gbt",
    "lms",
    "rollouts",
    "hybrid",
];

/// The shipped GBT model, relative to the repository root.
pub const DEFAULT_GBT_MODEL: &str = "models/gbt.bin";
/// The shipped LMS weights, relative to the repository root.
pub const DEFAULT_LMS_MODEL: &str = "models/lms.bin";

/// `path` as given if it exists; otherwise, for a bare name like `gbt`, the shipped model
/// `models/NAME.bin` when that exists (so the error, if any, names what was asked for).
pub fn resolve_model_path(path: &std::path::Path) -> std::path::PathBuf {
    if path.exists() || path.components().count() != 1 || path.extension().is_some() {
        return path.to_path_buf();
    }
    let shipped = std::path::Path::new("models")
        .join(path)
        .with_extension("bin");
    if shipped.exists() {
        shipped
    } else {
        path.to_path_buf()
    }
}

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

impl RolloutSpec {
    fn build(&self, geom: Geometry) -> eval::MonteCarlo {
        let policy = if self.smart {
            eval::PlayoutPolicy::Smart
        } else {
            eval::PlayoutPolicy::Uniform
        };
        eval::MonteCarlo::new(geom, self.playouts, policy, self.seed)
    }
}

/// Default search depth of the evaluator kinds.
pub const DEFAULT_DEPTH: u32 = 5;

/// Which evaluator a searching agent uses.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalSpec {
    /// One of [`eval::BUILTIN_EVALUATORS`].
    Builtin(String),
    /// A model file of any kind (`model:PATH`).
    Model(std::path::PathBuf),
    /// A linear model file (`lms:PATH`); other kinds are refused.
    Linear(std::path::PathBuf),
    /// Random playouts.
    Rollouts(RolloutSpec),
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

impl EvalSpec {
    /// Builds the evaluator for `geom`.
    pub fn build(&self, geom: Geometry) -> Result<Arc<dyn Evaluator>, EvalError> {
        match self {
            EvalSpec::Builtin(name) => eval::builtin(name, geom),
            EvalSpec::Model(path) => eval::load_model(&resolve_model_path(path), geom),
            EvalSpec::Linear(path) => Ok(Arc::new(eval::LinearEvaluator::load(
                &resolve_model_path(path),
                geom,
            )?)),
            EvalSpec::Rollouts(r) => Ok(Arc::new(r.build(geom))),
            EvalSpec::Hybrid {
                model,
                rollouts,
                phases,
            } => {
                let model = eval::load_model(&resolve_model_path(model), geom)?;
                Ok(Arc::new(eval::Hybrid::new(
                    model,
                    rollouts.build(geom),
                    *phases,
                )))
            }
        }
    }
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
    Perfect {
        /// Solver table size in MiB.
        tt_mib: usize,
    },
    /// The adaptive-difficulty agent.
    Adaptive {
        /// Analysis depth.
        depth: u32,
        /// The rank it plays before it has seen the opponent move (1 = best).
        start: f64,
    },
}

/// A parsed agent spec; [`AgentSpec::factory`] turns it into agents.
///
/// ```
/// use connect4_ml::agents::AgentSpec;
/// use connect4_ml::{Geometry, Position};
/// let spec: AgentSpec = "negamax:eval=threat,depth=4".parse().unwrap();
/// let mut agent = spec.factory(Geometry::STANDARD).unwrap().build(0).unwrap();
/// let empty = Position::new(Geometry::STANDARD);
/// let column = agent.choose(&connect4_ml::agents::Turn::new(empty));
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

/// The `key=value` arguments of one spec, consumed as they are read so that leftovers can
/// be reported.
struct Args<'a> {
    spec: &'a str,
    kind: &'a str,
    pairs: Vec<(&'a str, &'a str)>,
}

impl<'a> Args<'a> {
    fn parse(spec: &'a str, kind: &'a str, rest: Option<&'a str>) -> Result<Self, AgentError> {
        let mut pairs = Vec::new();
        for arg in rest.into_iter().flat_map(|r| r.split(',')) {
            let arg = arg.trim();
            let (k, v) = arg.split_once('=').ok_or_else(|| AgentError::NotKeyValue {
                spec: spec.into(),
                arg: arg.into(),
            })?;
            pairs.push((k.trim(), v.trim()));
        }
        Ok(Args { spec, kind, pairs })
    }

    fn take(&mut self, key: &str) -> Option<&'a str> {
        let i = self.pairs.iter().position(|(k, _)| *k == key)?;
        Some(self.pairs.remove(i).1)
    }

    fn bad(&self, key: &str, value: &str, expected: &str) -> AgentError {
        AgentError::BadValue {
            spec: self.spec.into(),
            key: key.into(),
            value: value.into(),
            expected: expected.into(),
        }
    }

    fn number<T: FromStr + PartialOrd + Copy>(
        &mut self,
        key: &str,
        default: T,
        range: std::ops::RangeInclusive<T>,
        expected: &str,
    ) -> Result<T, AgentError> {
        match self.take(key) {
            None => Ok(default),
            Some(v) => match v.parse::<T>() {
                Ok(n) if range.contains(&n) => Ok(n),
                _ => Err(self.bad(key, v, expected)),
            },
        }
    }

    /// depth, ms, schedule and tt, shared by every searching kind.
    fn search_params(&mut self, default_depth: u32) -> Result<SearchParams, AgentError> {
        let depth = self.number("depth", default_depth, 1..=64, "a depth from 1 to 64")?;
        let ms = self.take("ms");
        let time_budget = match ms {
            None => None,
            Some(v) => match v.parse::<u64>() {
                Ok(ms) if ms > 0 => Some(Duration::from_millis(ms)),
                _ => return Err(self.bad("ms", v, "a positive number of milliseconds")),
            },
        };
        let mut schedule = Vec::new();
        if let Some(v) = self.take("schedule") {
            for step in v.split('/') {
                let parsed = step
                    .split_once(':')
                    .and_then(|(p, d)| Some((p.parse().ok()?, d.parse().ok()?)));
                match parsed {
                    Some((p, d)) if (1..=64).contains(&d) => schedule.push((p, d)),
                    _ => {
                        return Err(self.bad(
                            "schedule",
                            v,
                            "steps PLY:DEPTH separated by '/', e.g. 20:7/30:9",
                        ));
                    }
                }
            }
        }
        let table_log2 =
            self.number("tt", 16, 4..=28, "a table size as a power of two, 4 to 28")?;
        Ok(SearchParams {
            depth,
            schedule,
            time_budget,
            table_log2,
        })
    }

    /// playouts (or rollouts), smart and seed of the Monte Carlo kinds; `smart_default` is
    /// the policy when `smart` is not given.
    fn rollouts(&mut self, smart_default: bool) -> Result<RolloutSpec, AgentError> {
        let default = eval::DEFAULT_PLAYOUTS;
        let expected = "a playout count from 1 to 1000000";
        let playouts = match self.take("rollouts") {
            Some(v) => match v.parse::<u32>() {
                Ok(n) if (1..=1_000_000).contains(&n) => n,
                _ => return Err(self.bad("rollouts", v, expected)),
            },
            None => self.number("playouts", default, 1..=1_000_000, expected)?,
        };
        let smart = match self.take("smart") {
            None => smart_default,
            Some("true" | "1" | "yes") => true,
            Some("false" | "0" | "no") => false,
            Some(v) => return Err(self.bad("smart", v, "true or false")),
        };
        let seed = self.number("seed", 0, 0..=u64::MAX, "a seed from 0 to 2^64-1")?;
        Ok(RolloutSpec {
            playouts,
            smart,
            seed,
        })
    }

    fn finish(self, takes: &str) -> Result<(), AgentError> {
        match self.pairs.first() {
            None => Ok(()),
            Some((k, _)) => Err(AgentError::UnknownKey {
                spec: self.spec.into(),
                kind: self.kind.into(),
                key: (*k).into(),
                takes: takes.into(),
            }),
        }
    }
}

const SEARCH_KEYS: &str = "depth, ms, schedule, tt";

impl FromStr for AgentSpec {
    type Err = AgentError;

    fn from_str(s: &str) -> Result<Self, AgentError> {
        let text = s.trim();
        if text.is_empty() {
            return Err(AgentError::Empty);
        }
        let (kind, rest) = match text.split_once(':') {
            Some((k, r)) => (k.trim(), Some(r)),
            None => (text, None),
        };
        // `model:PATH,...`: the first argument is the path (or `path=PATH` anywhere).
        let (model_path, rest) = match (kind, rest) {
            ("model" | "lms", Some(r)) => match r.split_once(',') {
                Some((first, more)) if !first.contains('=') => (Some(first.trim()), Some(more)),
                None if !r.contains('=') => (Some(r.trim()), None),
                _ => (None, Some(r)),
            },
            _ => (None, rest),
        };
        let mut args = Args::parse(text, kind, rest)?;
        let builtin = |name: &str| EvalSpec::Builtin(name.into());
        let kind = match kind {
            "random" => {
                args.finish("nothing")?;
                AgentKind::Random
            }
            "easy" | "hard" => {
                args.finish("nothing")?;
                AgentKind::Search {
                    eval: builtin("openlines"),
                    params: SearchParams::depth(if kind == "easy" { 1 } else { 5 }),
                }
            }
            "window" | "handtuned" | "threat" | "openlines" => {
                let params = args.search_params(DEFAULT_DEPTH)?;
                args.finish(SEARCH_KEYS)?;
                AgentKind::Search {
                    eval: builtin(kind),
                    params,
                }
            }
            "model" => {
                let path = model_path
                    .or_else(|| args.take("path"))
                    .filter(|p| !p.is_empty());
                let path = path.ok_or_else(|| AgentError::MissingKey {
                    spec: text.into(),
                    kind: kind.into(),
                    key: "path (model:PATH)".into(),
                })?;
                let params = args.search_params(DEFAULT_DEPTH)?;
                args.finish("path, depth, ms, schedule, tt")?;
                AgentKind::Search {
                    eval: EvalSpec::Model(path.into()),
                    params,
                }
            }
            "gbt" => {
                let params = args.search_params(DEFAULT_DEPTH)?;
                args.finish(SEARCH_KEYS)?;
                AgentKind::Search {
                    eval: EvalSpec::Model(DEFAULT_GBT_MODEL.into()),
                    params,
                }
            }
            "lms" => {
                let path = model_path
                    .or_else(|| args.take("path"))
                    .filter(|p| !p.is_empty())
                    .unwrap_or(DEFAULT_LMS_MODEL);
                let params = args.search_params(DEFAULT_DEPTH)?;
                args.finish("path, depth, ms, schedule, tt")?;
                AgentKind::Search {
                    eval: EvalSpec::Linear(path.into()),
                    params,
                }
            }
            "rollouts" => {
                let rollouts = args.rollouts(false)?;
                let params = args.search_params(1)?;
                args.finish("playouts, smart, seed, depth, ms, schedule, tt")?;
                AgentKind::Search {
                    eval: EvalSpec::Rollouts(rollouts),
                    params,
                }
            }
            "hybrid" => {
                let model = args
                    .take("model")
                    .filter(|p| !p.is_empty())
                    .unwrap_or(DEFAULT_GBT_MODEL);
                // Smart playouts by default: at depth 3 they lift the score against
                // handtuned:depth=3 from 70% to 81% (BENCHMARKS.md).
                let rollouts = args.rollouts(true)?;
                let d = eval::Phases::default();
                let model_until =
                    args.number("model_until", d.model_until, 0..=64, "a ply from 0 to 64")?;
                let blend_until =
                    args.number("blend_until", d.blend_until, 0..=64, "a ply from 0 to 64")?;
                if blend_until < model_until {
                    return Err(args.bad(
                        "blend_until",
                        &blend_until.to_string(),
                        &format!("a ply at least model_until ({model_until})"),
                    ));
                }
                let model_weight =
                    args.number("weight", d.model_weight, 0.0..=1.0, "a weight from 0 to 1")?;
                let params = args.search_params(DEFAULT_DEPTH)?;
                args.finish(
                    "model, rollouts, smart, seed, model_until, blend_until, weight, depth, ms, schedule, tt",
                )?;
                AgentKind::Search {
                    eval: EvalSpec::Hybrid {
                        model: model.into(),
                        rollouts,
                        phases: eval::Phases {
                            model_until,
                            blend_until,
                            model_weight,
                        },
                    },
                    params,
                }
            }
            "negamax" => {
                let name = args.take("eval").ok_or_else(|| AgentError::MissingKey {
                    spec: text.into(),
                    kind: kind.into(),
                    key: "eval".into(),
                })?;
                let Some(name) = eval::canonical_name(name) else {
                    return Err(args.bad(
                        "eval",
                        name,
                        &format!("one of {}", eval::BUILTIN_EVALUATORS.join(", ")),
                    ));
                };
                let params = args.search_params(DEFAULT_DEPTH)?;
                args.finish("eval, depth, ms, schedule, tt")?;
                AgentKind::Search {
                    eval: builtin(name),
                    params,
                }
            }
            "perfect" => {
                let tt_mib = args.number(
                    "tt",
                    crate::solver::DEFAULT_TT_MIB,
                    1..=65536,
                    "a table size in MiB, 1 to 65536",
                )?;
                args.finish("tt")?;
                AgentKind::Perfect { tt_mib }
            }
            "adaptive" => {
                let depth = args.number("depth", 5, 1..=64, "a depth from 1 to 64")?;
                let start = args.number("start", 1.0, 0.0..=1.0, "a rank from 0 to 1")?;
                args.finish("depth, start")?;
                AgentKind::Adaptive { depth, start }
            }
            other => {
                return Err(AgentError::UnknownKind {
                    spec: text.into(),
                    kind: other.into(),
                });
            }
        };
        Ok(AgentSpec {
            text: text.to_string(),
            kind,
        })
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
            AgentKind::Perfect { .. } | AgentKind::Adaptive { .. } => true,
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
        Ok(AgentFactory {
            spec: self.clone(),
            geom,
            eval,
        })
    }
}

/// Builds fresh agents of one spec (one per game), sharing loaded evaluators.
#[derive(Clone)]
pub struct AgentFactory {
    spec: AgentSpec,
    geom: Geometry,
    eval: Option<Arc<dyn Evaluator>>,
}

impl AgentFactory {
    /// The spec this factory builds.
    pub fn spec(&self) -> &AgentSpec {
        &self.spec
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
            AgentKind::Perfect { tt_mib } => {
                Box::new(Perfect::new(name, self.geom, *tt_mib).map_err(|source| {
                    AgentError::Solver {
                        spec: self.spec.text.clone(),
                        source,
                    }
                })?)
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<AgentSpec, AgentError> {
        s.parse()
    }

    #[test]
    fn every_documented_spec_parses() {
        for s in [
            "random",
            "easy",
            "hard",
            "window:depth=3",
            "handtuned:depth=5",
            "threat:depth=7",
            "negamax:eval=threat,depth=7,ms=50",
            "negamax:eval=window,depth=3,schedule=20:5/30:9,tt=18",
            "perfect",
            "perfect:tt=16",
            "adaptive",
            "adaptive:depth=3",
        ] {
            let spec = parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(spec.label(), s);
            spec.factory(Geometry::STANDARD).unwrap().build(1).unwrap();
        }
        match parse("hard").unwrap().kind() {
            AgentKind::Search { eval, params } => {
                assert_eq!(eval, &EvalSpec::Builtin("openlines".into()));
                assert_eq!(params.depth, 5);
            }
            k => panic!("{k:?}"),
        }
        match parse("negamax:eval=window,depth=3,schedule=20:5/30:9")
            .unwrap()
            .kind()
        {
            AgentKind::Search { params, .. } => {
                assert_eq!(params.schedule, vec![(20, 5), (30, 9)]);
            }
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let cases = [
            ("", "empty agent spec"),
            ("bogus", "unknown agent 'bogus'"),
            ("easy:depth=3", "'easy' takes no option 'depth'"),
            ("window:depth=0", "depth=0: a depth from 1 to 64"),
            ("window:depth=x", "depth=x"),
            ("window:deep=3", "takes no option 'deep'"),
            ("negamax:depth=3", "'negamax' needs eval=..."),
            ("negamax:eval=nope", "eval=nope: one of openlines"),
            ("negamax:eval=window,ms=0", "ms=0"),
            (
                "negamax:eval=window,schedule=20",
                "schedule=20: steps PLY:DEPTH",
            ),
            ("adaptive:start=2", "start=2: a rank from 0 to 1"),
            ("window:3", "'3' is not of the form key=value"),
            ("perfect:tt=0", "tt=0"),
        ];
        for (spec, want) in cases {
            let err = parse(spec).err().unwrap_or_else(|| panic!("{spec} parsed"));
            assert!(err.to_string().contains(want), "{spec}: {err}");
        }
    }
}
