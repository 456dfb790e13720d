//! The table of agent kinds: one row per kind with its usage, what it is, the keys it takes
//! and how its arguments become an [`AgentKind`]. The parser, the "known: ..." message and
//! the CLI's help all read this table, so they cannot drift apart.

use super::args::Args;
use super::{
    AgentError, AgentKind, DEFAULT_DEPTH, DEFAULT_GBT_MODEL, DEFAULT_LMS_MODEL,
    DEFAULT_NTUPLE_MODEL, EvalSpec, ModelKind,
};
use crate::eval;
use crate::search::SearchParams;

/// One agent kind.
pub struct KindInfo {
    /// The word before `:`.
    pub name: &'static str,
    /// The spec's form, e.g. `window[:depth=N]`.
    pub usage: &'static str,
    /// What the agent does.
    pub summary: &'static str,
    /// Every key it takes.
    pub keys: &'static [&'static str],
    /// Builds the kind from its arguments; `path` is a leading bare argument (`model:PATH`).
    parse: fn(&mut Args<'_>, Option<&str>) -> Result<AgentKind, AgentError>,
}

/// The keys every searching kind takes.
const SEARCH: &[&str] = &["depth", "ms", "schedule", "tt", "safe"];

fn search(args: &mut Args<'_>, eval: EvalSpec, depth: u32) -> Result<AgentKind, AgentError> {
    Ok(AgentKind::Search {
        eval,
        params: args.search_params(depth)?,
    })
}

/// A model kind's file: the bare first argument (`kind:PATH`) or `path=PATH`, if not empty.
fn model_path(args: &mut Args<'_>, bare: Option<&str>) -> Option<std::path::PathBuf> {
    let path = match bare {
        Some(p) => p,
        None => args.take("path")?,
    };
    (!path.is_empty()).then(|| path.into())
}

fn builtin(name: &str) -> EvalSpec {
    EvalSpec::Builtin(name.into())
}

fn fixed_depth(name: &str, depth: u32) -> AgentKind {
    AgentKind::Search {
        eval: builtin(name),
        params: SearchParams::depth(depth),
    }
}

/// "an Elo from LOW to HIGH": the range of the shipped calibration, for error messages.
fn elo_range(cal: &crate::agents::level::Calibration) -> String {
    let (low, high) = cal.range();
    format!("an Elo from {:.0} to {:.0}", low.ceil(), high.floor())
}

/// ms (time to solve a position; `None`: the board's default), depth (the heuristic
/// fallback's) and seed of the dial's kinds.
fn dial_keys(a: &mut Args<'_>) -> Result<(Option<u64>, u32, u64), AgentError> {
    let ms = match a.take("ms") {
        None => None,
        Some(v) => match v.parse::<u64>() {
            Ok(n) if n <= 3_600_000 => Some(n),
            _ => {
                return Err(a.bad("ms", v, "milliseconds to solve a position, 0 to 3600000"));
            }
        },
    };
    let depth = a.number("depth", 3, 1..=64, "a depth from 1 to 64")?;
    let seed = a.number("seed", 0, 0..=u64::MAX, "a whole number")?;
    Ok((ms, depth, seed))
}

/// What `eps` takes: the share of an erring perfect player's random moves.
const EPS_RANGE: &str = "a share of random moves from 0 to 1";

/// `tt`: the solver table of the kinds that solve, MiB.
fn solver_table(a: &mut Args<'_>) -> Result<usize, AgentError> {
    a.number(
        "tt",
        crate::solver::DEFAULT_TT_MIB,
        1..=65536,
        "a table size in MiB, 1 to 65536",
    )
}

/// Every kind, in the order help texts list them.
pub const AGENT_KINDS: &[KindInfo] = &[
    KindInfo {
        name: "random",
        usage: "random",
        summary: "a uniformly random legal column (seeded)",
        keys: &[],
        parse: |_, _| Ok(AgentKind::Random),
    },
    KindInfo {
        name: "easy",
        usage: "easy",
        summary: "open lines, depth 1",
        keys: &[],
        parse: |_, _| Ok(fixed_depth("openlines", 1)),
    },
    KindInfo {
        name: "hard",
        usage: "hard",
        summary: "open lines, depth 5",
        keys: &[],
        parse: |_, _| Ok(fixed_depth("openlines", 5)),
    },
    KindInfo {
        name: "openlines",
        usage: "openlines[:depth=N]",
        summary: "the open-lines evaluator, depth N (5)",
        keys: SEARCH,
        parse: |a, _| search(a, builtin("openlines"), DEFAULT_DEPTH),
    },
    KindInfo {
        name: "window",
        usage: "window[:depth=N]",
        summary: "the window-score evaluator, depth N (5)",
        keys: SEARCH,
        parse: |a, _| search(a, builtin("window"), DEFAULT_DEPTH),
    },
    KindInfo {
        name: "handtuned",
        usage: "handtuned[:depth=N]",
        summary: "the linear evaluator with the hand-tuned weights, depth N (5)",
        keys: SEARCH,
        parse: |a, _| search(a, builtin("handtuned"), DEFAULT_DEPTH),
    },
    KindInfo {
        name: "threat",
        usage: "threat[:depth=N]",
        summary: "the threat evaluator, depth N (5)",
        keys: SEARCH,
        parse: |a, _| search(a, builtin("threat"), DEFAULT_DEPTH),
    },
    KindInfo {
        name: "negamax",
        usage: "negamax:eval=NAME[,depth=N][,ms=T][,schedule=P:D/P:D][,tt=LOG2]",
        summary: "any built-in evaluator; ms: time budget per move; schedule: deeper from a ply on",
        keys: &["eval", "depth", "ms", "schedule", "tt", "safe"],
        parse: |a, _| {
            let name = a.require("eval")?;
            let Some(name) = eval::canonical_name(name) else {
                return Err(a.bad(
                    "eval",
                    name,
                    &format!("one of {}", eval::BUILTIN_EVALUATORS.join(", ")),
                ));
            };
            search(a, builtin(name), DEFAULT_DEPTH)
        },
    },
    KindInfo {
        name: "perfect",
        usage: "perfect[:tt=MIB][,ties=centre|random|value][,eps=E][,seed=S]",
        summary: "the solver: fastest win, slowest loss; ties centre first, random, or random among all moves of the same outcome (value); eps: share of random moves that give no immediate win",
        keys: &["tt", "ties", "eps", "seed"],
        parse: |a, _| {
            let tt_mib = solver_table(a)?;
            let ties = match a.take("ties") {
                None | Some("centre" | "center") => crate::agents::Ties::Centre,
                Some("random") => crate::agents::Ties::Random,
                Some("value") => crate::agents::Ties::Value,
                Some(v) => return Err(a.bad("ties", v, "centre, random or value")),
            };
            let eps = a.number("eps", 0.0, 0.0..=1.0, EPS_RANGE)?;
            let seed = a.number("seed", 0, 0..=u64::MAX, "a whole number")?;
            Ok(AgentKind::Perfect(crate::agents::PerfectSettings {
                tt_mib,
                ties,
                eps,
                seed,
            }))
        },
    },
    KindInfo {
        name: "exploit",
        usage: "exploit:eps=E[,ms=T][,seed=S][,tt=MIB]",
        summary: "plays for the mistakes of perfect:ties=random,eps=E: the move with the best chance to win (then draw) against it, searched on exact values for T ms a move (200)",
        keys: &["eps", "ms", "seed", "tt"],
        parse: |a, _| {
            let v = a.require("eps")?;
            let eps = (v.parse::<f64>().ok())
                .filter(|e| (0.0..=1.0).contains(e))
                .ok_or_else(|| a.bad("eps", v, EPS_RANGE))?;
            let ms = a.number(
                "ms",
                crate::agents::DEFAULT_EXPLOIT_MS,
                1..=3_600_000,
                "milliseconds per move, 1 to 3600000",
            )?;
            let seed = a.number("seed", 0, 0..=u64::MAX, "a whole number")?;
            let tt_mib = solver_table(a)?;
            Ok(AgentKind::Exploit(crate::agents::ExploitSettings {
                eps,
                ms,
                seed,
                tt_mib,
            }))
        },
    },
    KindInfo {
        name: "level",
        usage: "level:elo=E[,skill=S][,ms=T][,seed=S]",
        summary: "the strength dial: plays at Elo E of the ladder (models/level.json), its mistakes chosen by how much they lose; skill=S (0 random to 1 perfect) sets the dial itself",
        keys: &["elo", "skill", "ms", "depth", "seed"],
        parse: |a, _| {
            let cal = crate::agents::level::Calibration::builtin();
            let (elo, skill) = match (a.take("elo"), a.take("skill")) {
                (Some(_), Some(_)) => {
                    return Err(a.bad("skill", "given with elo", "either elo=E or skill=S"));
                }
                (None, None) => return Err(a.missing("elo")),
                (Some(v), None) => {
                    let elo: Option<f64> = v.parse().ok().filter(|e: &f64| e.is_finite());
                    match elo.map(|e| (e, cal.skill_of(e))) {
                        Some((e, Ok(skill))) => (Some(e), skill),
                        _ => return Err(a.bad("elo", v, &elo_range(cal))),
                    }
                }
                (None, Some(v)) => match v.parse::<f64>() {
                    Ok(s) if (0.0..=1.0).contains(&s) => (None, s),
                    _ => return Err(a.bad("skill", v, "a skill from 0 (random) to 1 (perfect)")),
                },
            };
            let (solve_ms, depth, seed) = dial_keys(a)?;
            Ok(AgentKind::Level {
                skill,
                elo,
                solve_ms,
                depth,
                seed,
            })
        },
    },
    KindInfo {
        name: "adaptive",
        usage: "adaptive[:start=E][,depth=N][,ms=T][,seed=S][,fade=F][,step=K][,slip=P][,trust=W]",
        summary: "estimates the opponent's Elo from its moves and results, and plays the strength dial there; start: the first estimate (an Elo, or a share 0 to 1 of the dial's range; default the middle); fade: weight of a game's moves a game later (0.85); step: Elo a result's surprise moves it (40); slip: share of moves taken as slips (0.02); trust: weight of each move's evidence (0.5)",
        keys: &[
            "start", "depth", "ms", "seed", "fade", "step", "slip", "trust",
        ],
        parse: |a, _| {
            let cal = crate::agents::level::Calibration::builtin();
            let (low, high) = cal.range();
            let start = match a.take("start") {
                None => (low + high) / 2.0,
                Some(v) => match v.parse::<f64>() {
                    Ok(s) if (0.0..=1.0).contains(&s) => low + s * (high - low),
                    Ok(e) if (low..=high).contains(&e) => e,
                    _ => {
                        return Err(a.bad(
                            "start",
                            v,
                            &format!("{} or a share of it from 0 to 1", elo_range(cal)),
                        ));
                    }
                },
            };
            let (solve_ms, depth, seed) = dial_keys(a)?;
            let d = crate::agents::AdaptiveRates::default();
            let rates = crate::agents::AdaptiveRates {
                fade: a.number("fade", d.fade, 0.0..=1.0, "a weight from 0 to 1")?,
                step: a.number("step", d.step, 0.0..=1000.0, "Elo from 0 to 1000")?,
                slip: a.number("slip", d.slip, 0.0001..=0.5, "a share from 0.0001 to 0.5")?,
                trust: a.number("trust", d.trust, 0.0..=1.0, "a weight from 0 to 1")?,
            };
            Ok(AgentKind::Adaptive {
                depth,
                start,
                solve_ms,
                seed,
                rates,
            })
        },
    },
    KindInfo {
        name: "model",
        usage: "model:PATH[,depth=N]",
        summary: "a model file as the evaluator: GBT (P(win) - P(loss)) or linear weights",
        keys: &["path", "depth", "ms", "schedule", "tt", "safe"],
        parse: |a, path| {
            let path = model_path(a, path).ok_or_else(|| a.missing("path (model:PATH)"))?;
            search(a, EvalSpec::Model(path), DEFAULT_DEPTH)
        },
    },
    KindInfo {
        name: "gbt",
        usage: "gbt[:depth=N]",
        summary: "the shipped GBT model, models/gbt.bin (models/gbt-WxH.bin on other boards)",
        keys: SEARCH,
        parse: |a, _| {
            let eval = EvalSpec::OfBoard(ModelKind::Any, DEFAULT_GBT_MODEL.into());
            search(a, eval, DEFAULT_DEPTH)
        },
    },
    KindInfo {
        name: "lms",
        usage: "lms[:PATH][,depth=N]",
        summary: "LMS-trained linear weights (default models/lms.bin on 7x6, models/lms-WxH.bin on other boards)",
        keys: &["path", "depth", "ms", "schedule", "tt", "safe"],
        parse: |a, path| {
            let eval = match model_path(a, path) {
                Some(path) => EvalSpec::Linear(path),
                None => EvalSpec::OfBoard(ModelKind::Linear, DEFAULT_LMS_MODEL.into()),
            };
            search(a, eval, DEFAULT_DEPTH)
        },
    },
    KindInfo {
        name: "ntuple",
        usage: "ntuple[:PATH][,depth=N]",
        summary: "an n-tuple network from c4 train ntuple (default models/ntuple.bin on 7x6, models/ntuple-WxH.bin on other boards)",
        keys: &["path", "depth", "ms", "schedule", "tt", "safe"],
        parse: |a, path| {
            let eval = match model_path(a, path) {
                Some(path) => EvalSpec::NTuple(path),
                None => EvalSpec::OfBoard(ModelKind::NTuple, DEFAULT_NTUPLE_MODEL.into()),
            };
            search(a, eval, DEFAULT_DEPTH)
        },
    },
    KindInfo {
        name: "mcts",
        usage: "mcts[:sims=N][,c=C][,seed=S][,safe=B]",
        summary: "Monte Carlo tree search (UCT), uniformly random rollouts, proven wins and losses",
        keys: &["sims", "c", "seed", "safe"],
        parse: |a, _| {
            let sims = a.number(
                "sims",
                crate::agents::mcts::DEFAULT_SIMS,
                1..=100_000_000,
                "a number of simulations from 1",
            )?;
            let c = a.number(
                "c",
                crate::agents::mcts::DEFAULT_C,
                0.0..=100.0,
                "an exploration constant from 0 to 100",
            )?;
            let seed = a.number("seed", 0, 0..=u64::MAX, "a whole number")?;
            let safe = match a.take("safe") {
                None | Some("false" | "0" | "no") => false,
                Some("true" | "1" | "yes") => true,
                Some(v) => return Err(a.bad("safe", v, "true or false")),
            };
            Ok(AgentKind::Mcts {
                sims,
                c,
                seed,
                safe,
            })
        },
    },
    KindInfo {
        name: "rollouts",
        usage: "rollouts[:playouts=R][,smart=B][,seed=S][,depth=N]",
        summary: "Monte Carlo: mean result of R (75) random playouts, depth 1",
        keys: &[
            "playouts", "smart", "seed", "depth", "ms", "schedule", "tt", "safe",
        ],
        parse: |a, _| {
            let rollouts = a.rollouts(false)?;
            search(a, EvalSpec::Rollouts(rollouts), 1)
        },
    },
    KindInfo {
        name: "hybrid",
        usage: "hybrid[:model=PATH][,depth=N][,rollouts=R][,smart=B][,model_until=9][,blend_until=19][,weight=0.5][,seed=S]",
        summary: "model (default models/gbt.bin) early, model and smart rollouts blended, rollouts late",
        keys: &[
            "model",
            "rollouts",
            "smart",
            "seed",
            "model_until",
            "blend_until",
            "weight",
            "depth",
            "ms",
            "schedule",
            "tt",
            "safe",
        ],
        parse: |a, _| {
            let model = a
                .take("model")
                .filter(|p| !p.is_empty())
                .unwrap_or(DEFAULT_GBT_MODEL);
            // Smart playouts by default: at depth 3 they lift the score against
            // handtuned:depth=3 from 70% to 81% (docs/results.md).
            let rollouts = a.rollouts(true)?;
            let d = eval::Phases::default();
            let model_until =
                a.number("model_until", d.model_until, 0..=64, "a ply from 0 to 64")?;
            let blend_until =
                a.number("blend_until", d.blend_until, 0..=64, "a ply from 0 to 64")?;
            if blend_until < model_until {
                return Err(a.bad(
                    "blend_until",
                    &blend_until.to_string(),
                    &format!("a ply at least model_until ({model_until})"),
                ));
            }
            let model_weight =
                a.number("weight", d.model_weight, 0.0..=1.0, "a weight from 0 to 1")?;
            let phases = eval::Phases {
                model_until,
                blend_until,
                model_weight,
            };
            search(
                a,
                EvalSpec::Hybrid {
                    model: model.into(),
                    rollouts,
                    phases,
                },
                DEFAULT_DEPTH,
            )
        },
    },
];

/// The kind called `name`.
pub fn kind(name: &str) -> Option<&'static KindInfo> {
    AGENT_KINDS.iter().find(|k| k.name == name)
}

/// Every kind's name, in table order.
pub fn names() -> Vec<&'static str> {
    AGENT_KINDS.iter().map(|k| k.name).collect()
}

/// A help text listing every kind: its usage and what it does, one per line.
pub fn kinds_help() -> String {
    let mut s = String::from("Agent specs (KIND[:key=value,...]):\n");
    for k in AGENT_KINDS {
        s.push_str(&format!("  {}\n      {}\n", k.usage, k.summary));
    }
    s
}

impl KindInfo {
    /// Parses this kind's arguments; every key left over is refused, naming the keys it
    /// takes.
    pub(super) fn parse(
        &self,
        mut args: Args<'_>,
        path: Option<&str>,
    ) -> Result<AgentKind, AgentError> {
        let kind = (self.parse)(&mut args, path)?;
        let takes = if self.keys.is_empty() {
            "nothing".to_string()
        } else {
            self.keys.join(", ")
        };
        args.finish(&takes)?;
        Ok(kind)
    }
}
