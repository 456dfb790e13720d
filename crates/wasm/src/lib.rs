//! The engine for the browser and Node: one [`Engine`] value answers JSON requests with the
//! same JSON `c4 serve`'s API sends (see `connect4_engine::answers`), so the page reads both
//! back ends alike.
//!
//! Requests (`op` names the question; `width`/`height` default to 7 x 6, `ms` is a time limit
//! after which the answer holds what was found so far):
//! - `{"op":"analyze","moves":"4453","weak":false,"ms":3000}`: every column's score;
//! - `{"op":"review","moves":"4453","ms":3000}`: every move graded;
//! - `{"op":"move","agent":"ntuple:depth=1","moves":"44","seed":7,"ms":2000}`: an agent's
//!   column (models from the files added with [`Engine::add_model`]; `"vary":true` draws
//!   among its moves of equal value from the seed);
//! - `{"op":"move","agent":"adaptive","moves":"44","state":"..."}`: the adaptive agent's
//!   column, with its estimate of the player (`adaptive`) read from the state it had at the
//!   game's start;
//! - `{"op":"adaptive","agent":"adaptive","moves":"4455...","side":"o","state":"..."}`: the
//!   adaptive agent's estimate after a game, and the state to keep once it is over;
//! - `{"op":"needs","agent":"gbt:depth=3"}`: the model files an agent reads that the engine
//!   does not hold yet, so a page fetches them on demand;
//! - `{"op":"agents"}`: the agent kinds, presets, board rule, models and book held;
//! - `{"op":"position","moves":"44"}`: who is to move, the legal columns, the result;
//! - `{"op":"solve","moves":"44"}`: the position's exact score alone (the benchmarks' question).
//!
//! A bad request answers `{"error":"..."}` naming what is wrong. The WebAssembly module
//! exports the C functions of [`ffi`]; the JavaScript glue is `npm/connect4.mjs`.

mod error;
pub mod ffi;

pub use error::{EngineError, UnknownOp};

use connect4_engine::Interrupt;
use connect4_engine::agents::{AgentBoard, AgentSpec, Resources};
use connect4_engine::answers::{self, AnalyzeAnswer, BookSummary, FactoryCache, ReviewAnswer};
use connect4_engine::clock::Instant;
use connect4_engine::game::{BitBoard, Geometry, Outcome, Player, Position};
use connect4_engine::solver::book::{self, Book};
use connect4_engine::solver::{Mode, PooledSolver, Solver, SolverPool};
use serde::Deserialize;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The longest any request may compute, so a page cannot hang its worker for ever.
pub const MAX_MS: u64 = 120_000;
/// The time limit of a request that names none.
pub const DEFAULT_MS: u64 = 5_000;

/// The engine of one page or program: the book, the model files it was given, warm
/// solvers and the agent factories of the last requests.
pub struct Engine {
    resources: Resources,
    solvers: Arc<SolverPool>,
    /// Factories kept across requests (see [`FACTORIES_KEPT`]).
    factories: FactoryCache,
    ladder: Option<String>,
    tt_mib: usize,
}

/// Agent factories the engine keeps: enough for a game (the adaptive agent, the dial, the
/// network) without holding many judges' solver tables (32 MiB each) in a phone's memory.
pub const FACTORIES_KEPT: usize = 3;

impl Default for Engine {
    fn default() -> Self {
        Self::new(32)
    }
}

/// A request (every field optional but `op`; which ones matter depends on it). One struct
/// for every op, not a struct per op, so that a misspelt field is refused by name: serde
/// denies no unknown field through the flattened common part an enum of ops would need.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    op: Op,
    #[serde(default)]
    moves: String,
    width: Option<usize>,
    height: Option<usize>,
    #[serde(default)]
    weak: bool,
    ms: Option<u64>,
    agent: Option<String>,
    #[serde(default)]
    seed: u64,
    /// Vary the play: a searching agent draws among its moves of equal value from the seed.
    #[serde(default)]
    vary: bool,
    /// The adaptive agent's saved state (JSON) from the game's start.
    state: Option<String>,
    /// The adaptive agent's colour in op "adaptive": "x" or "o".
    side: Option<String>,
}

/// What a request asks (its `op`, read once at the JSON edge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
enum Op {
    Analyze,
    Review,
    Move,
    Adaptive,
    Needs,
    Agents,
    Position,
    Solve,
}

impl Op {
    /// Every op with its name, in the order the error lists them.
    const ALL: [(&'static str, Op); 8] = [
        ("analyze", Op::Analyze),
        ("review", Op::Review),
        ("move", Op::Move),
        ("adaptive", Op::Adaptive),
        ("needs", Op::Needs),
        ("agents", Op::Agents),
        ("position", Op::Position),
        ("solve", Op::Solve),
    ];
}

impl TryFrom<String> for Op {
    type Error = UnknownOp;
    fn try_from(s: String) -> Result<Op, UnknownOp> {
        Op::ALL
            .iter()
            .find(|(name, _)| *name == s)
            .map(|&(_, op)| op)
            .ok_or_else(|| UnknownOp {
                op: answers::short(&s),
                names: Op::ALL.map(|(n, _)| n).join(", "),
            })
    }
}

impl Engine {
    /// An engine whose solvers take `tt_mib` MiB each, reading the built-in book.
    pub fn new(tt_mib: usize) -> Self {
        Engine {
            resources: Resources::default(),
            solvers: Self::pool(tt_mib, book::embedded()),
            factories: FactoryCache::new(FACTORIES_KEPT),
            ladder: None,
            tt_mib,
        }
    }

    /// The engine's solvers: one kept warm between requests, reading `book`.
    fn pool(tt_mib: usize, book: Arc<Book>) -> Arc<SolverPool> {
        Arc::new(
            SolverPool::new(tt_mib)
                .with_other_boards_mib(16)
                .keeping(1)
                .with_book(Some(book)),
        )
    }

    /// Reads the opening book every exact answer uses from `bytes`, a 7x6 book file of `c4
    /// data book`, in place of the one held: a page fetches a deeper book than the built-in
    /// one (which keeps the module small) so that perfect play answers at once further into
    /// the game. Refused, keeping the book held, when the file is not a sound 7x6 book (its
    /// header, length and every block's checksum) or is shallower than the book held.
    /// Answers the book now held.
    pub fn set_book(&mut self, bytes: Vec<u8>) -> Result<BookSummary, EngineError> {
        let book = Book::from_bytes(bytes, Some(Geometry::STANDARD)).map_err(EngineError::Book)?;
        // The bytes are all here already: every block is checked once now (22.5 MB in about
        // a tenth of a second) rather than found damaged by a later answer.
        book.check().map_err(EngineError::Book)?;
        let held = BookSummary::of(self.solvers.book().map(|b| &**b)).plies;
        if book.plies() < held {
            return Err(EngineError::Shallower {
                plies: book.plies(),
                held,
            });
        }
        let book = Arc::new(book);
        self.resources.book = Some(Arc::clone(&book));
        self.solvers = Self::pool(self.tt_mib, book);
        self.factories.clear();
        Ok(self.book_summary())
    }

    /// The book held: its depth and number of positions.
    pub fn book_summary(&self) -> BookSummary {
        BookSummary::of(self.solvers.book().map(|b| &**b))
    }

    /// Holds a model file under `path` (e.g. `models/ntuple.bin`), for the agents that name it.
    pub fn add_model(&mut self, path: &str, bytes: Vec<u8>) {
        self.resources.models.insert(PathBuf::from(path), bytes);
        // No kept agent plays a model this replaces.
        self.factories.clear();
    }

    /// Sets the ladder (a `c4 tournament` summary) whose Elo the presets show.
    pub fn set_ladder(&mut self, ladder: String) {
        self.ladder = Some(ladder);
    }

    /// Answers one JSON request with JSON (`{"error": ...}` when it cannot be answered).
    pub fn call(&mut self, request: &str) -> String {
        let answer = serde_json::from_str::<Request>(request)
            .map_err(EngineError::Json)
            .and_then(|r| self.answer(&r));
        match answer {
            Ok(v) => v.to_string(),
            Err(e) => json!({ "error": e.to_string() }).to_string(),
        }
    }

    fn answer(&mut self, r: &Request) -> Result<Value, EngineError> {
        let limit = Duration::from_millis(r.ms.unwrap_or(DEFAULT_MS).min(MAX_MS));
        match r.op {
            Op::Analyze => self.op_analyze(r, limit),
            Op::Review => self.op_review(r, limit),
            Op::Move => self.op_move(r, limit),
            Op::Adaptive => self.op_adaptive(r, limit),
            Op::Needs => self.op_needs(r),
            Op::Agents => self.op_agents(),
            Op::Solve => self.op_solve(r, limit),
            Op::Position => Self::op_position(r),
        }
    }

    /// Every column's exact score (within the time limit: bounds where it ran out).
    fn op_analyze(&mut self, r: &Request, limit: Duration) -> Result<Value, EngineError> {
        let mode = if r.weak { Mode::Weak } else { Mode::Strong };
        if let Some(pos) = answers::wide_position_of(&r.moves, r.width, r.height)? {
            let mut solver = Self::wide_solver(pos.geometry(), limit)?;
            return to_json(serde_json::to_value(AnalyzeAnswer::solve(
                &mut solver,
                &pos,
                &r.moves,
                mode,
            )));
        }
        let pos = answers::position_of(&r.moves, r.width, r.height)?;
        let mut solver = self.solver(pos.geometry(), limit)?;
        to_json(serde_json::to_value(AnalyzeAnswer::solve(
            &mut solver,
            &pos,
            &r.moves,
            mode,
        )))
    }

    /// Every move of a game graded against the solver's.
    fn op_review(&mut self, r: &Request, limit: Duration) -> Result<Value, EngineError> {
        if let Some(end) = answers::wide_position_of(&r.moves, r.width, r.height)? {
            let mut solver = Self::wide_solver(end.geometry(), limit)?;
            return to_json(serde_json::to_value(ReviewAnswer::solve(
                &mut solver,
                &end,
                &r.moves,
            )));
        }
        let end = answers::position_of(&r.moves, r.width, r.height)?;
        let mut solver = self.solver(end.geometry(), limit)?;
        to_json(serde_json::to_value(ReviewAnswer::solve(
            &mut solver,
            &end,
            &r.moves,
        )))
    }

    /// An agent's move (the adaptive agent's with its estimate).
    fn op_move(&mut self, r: &Request, limit: Duration) -> Result<Value, EngineError> {
        if let Some(pos) = answers::wide_position_of(&r.moves, r.width, r.height)? {
            return self.move_on(r, pos, limit);
        }
        let pos = answers::position_of(&r.moves, r.width, r.height)?;
        self.move_on(r, pos, limit)
    }

    /// [`Engine::op_move`] on a board of the integer `B`.
    fn move_on<B: AgentBoard>(
        &self,
        r: &Request,
        pos: Position<B>,
        limit: Duration,
    ) -> Result<Value, EngineError> {
        let spec = self.spec(r.agent.as_deref())?;
        let factory = self
            .factories
            .get(&spec, pos.geometry(), &self.resources, &self.solvers)?;
        let stop = Interrupt::after(limit);
        let (answer, adaptive) = answers::play_move(
            &factory,
            pos,
            &r.moves,
            r.seed,
            r.vary,
            r.state.as_deref(),
            &stop,
        )?;
        let mut answer = to_json(serde_json::to_value(answer))?;
        if let Some(a) = adaptive {
            answer["adaptive"] = to_json(serde_json::to_value(a))?;
        }
        Ok(answer)
    }

    /// The adaptive agent's estimate after a game, and the state to keep.
    fn op_adaptive(&mut self, r: &Request, limit: Duration) -> Result<Value, EngineError> {
        if let Some(pos) = answers::wide_position_of(&r.moves, r.width, r.height)? {
            return self.adaptive_on(r, pos, limit);
        }
        let pos = answers::position_of(&r.moves, r.width, r.height)?;
        self.adaptive_on(r, pos, limit)
    }

    /// [`Engine::op_adaptive`] on a board of the integer `B`.
    fn adaptive_on<B: AgentBoard>(
        &self,
        r: &Request,
        pos: Position<B>,
        limit: Duration,
    ) -> Result<Value, EngineError> {
        let side = match r.side.as_deref() {
            Some("x" | "first") => Player::First,
            Some("o" | "second") => Player::Second,
            _ => return Err(EngineError::NoSide),
        };
        let spec = self.spec(r.agent.as_deref())?;
        let factory = self
            .factories
            .get(&spec, pos.geometry(), &self.resources, &self.solvers)?;
        let stop = Interrupt::after(limit);
        let answer = answers::adaptive_answer(
            &factory,
            &pos,
            &r.moves,
            side,
            r.seed,
            r.state.as_deref(),
            &stop,
        )?;
        to_json(serde_json::to_value(answer))
    }

    /// The model files an agent spec needs that the engine does not hold.
    fn op_needs(&self, r: &Request) -> Result<Value, EngineError> {
        let spec = self.spec(r.agent.as_deref())?;
        if let Some(pos) = answers::wide_position_of("", r.width, r.height)? {
            return self.needs_on(&spec, pos.geometry());
        }
        let geom = answers::position_of("", r.width, r.height)?.geometry();
        self.needs_on(&spec, geom)
    }

    /// [`Engine::op_needs`] on a board of the integer `B`.
    fn needs_on<B: BitBoard>(
        &self,
        spec: &AgentSpec,
        geom: Geometry<B>,
    ) -> Result<Value, EngineError> {
        let mut files = spec.model_files(geom);
        // The dial, the adaptive agent and the exploiting agent value what the solver does
        // not reach in time with the board's network, where one ships beside the page.
        let board = [geom.width(), geom.height()];
        if matches!(
            spec.kind(),
            connect4_engine::agents::AgentKind::Level { .. }
                | connect4_engine::agents::AgentKind::Adaptive { .. }
                | connect4_engine::agents::AgentKind::Exploit(_)
        ) && (geom.narrow() == Some(Geometry::STANDARD)
            || answers::NETWORK_BOARDS.contains(&board))
        {
            files.push(connect4_engine::agents::board_model(
                Path::new("models/ntuple.bin"),
                geom,
            ));
        }
        let missing: Vec<String> = files
            .iter()
            .filter(|p| !self.resources.models.contains(p))
            .map(|p| p.display().to_string())
            .collect();
        Ok(json!({ "models": missing }))
    }

    /// What the engine offers: kinds, models, limits, presets, board rule, book, dial.
    fn op_agents(&self) -> Result<Value, EngineError> {
        let mut models: Vec<String> = self
            .resources
            .models
            .paths()
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect();
        models.sort();
        Ok(json!({
            "kinds": answers::kinds(),
            "models": models,
            "limits": { "max_ms": MAX_MS },
            "presets": answers::presets(self.ladder.as_deref()),
            "board": answers::board_rule(),
            "book": self.book_summary(),
            "dial": answers::dial_range(),
        }))
    }

    /// A position's exact score (or bounds when the time ran out).
    fn op_solve(&mut self, r: &Request, limit: Duration) -> Result<Value, EngineError> {
        let mode = if r.weak { Mode::Weak } else { Mode::Strong };
        if let Some(pos) = answers::wide_position_of(&r.moves, r.width, r.height)? {
            let mut solver = Self::wide_solver(pos.geometry(), limit)?;
            return solve_json(&mut solver, &pos, mode);
        }
        let pos = answers::position_of(&r.moves, r.width, r.height)?;
        let mut solver = self.solver(pos.geometry(), limit)?;
        solve_json(&mut solver, &pos, mode)
    }

    /// The rules' view of a position.
    fn op_position(r: &Request) -> Result<Value, EngineError> {
        if let Some(pos) = answers::wide_position_of(&r.moves, r.width, r.height)? {
            return position_json(&pos);
        }
        position_json(&answers::position_of(&r.moves, r.width, r.height)?)
    }

    /// A solver for a board past 64 bits that stops at `limit`: made for the request (the
    /// pool holds the narrow boards' solvers), with the smaller table analyses use.
    fn wide_solver(geom: Geometry<u128>, limit: Duration) -> Result<Solver<u128>, EngineError> {
        let mut solver = Solver::with_table_mib(geom, answers::WIDE_TT_MIB)?;
        solver.set_interrupt(Some(Interrupt::after(limit)));
        Ok(solver)
    }

    /// Parses an agent spec, its model paths pointed into `models/` (see
    /// [`answers::spec_in_folder`]).
    fn spec(&self, text: Option<&str>) -> Result<AgentSpec, EngineError> {
        let text = text.ok_or(EngineError::NoAgent)?;
        Ok(answers::spec_in_folder(text, Path::new("models"))?)
    }

    /// A solver for `geom` that stops at `limit`, back in the pool when dropped.
    fn solver(&self, geom: Geometry, limit: Duration) -> Result<PooledSolver, EngineError> {
        let mut solver = self.solvers.lend(geom)?;
        solver.set_interrupt(Some(Interrupt::after(limit)));
        Ok(solver)
    }
}

/// A value as the JSON of an answer.
fn to_json(v: Result<Value, serde_json::Error>) -> Result<Value, EngineError> {
    v.map_err(EngineError::Encode)
}

/// A position's exact score (or bounds when the solver's interrupt fired), with its nodes
/// and time.
fn solve_json<B: BitBoard>(
    solver: &mut Solver<B>,
    pos: &Position<B>,
    mode: Mode,
) -> Result<Value, EngineError> {
    if pos.outcome() != Outcome::Ongoing {
        return Err(EngineError::GameOver);
    }
    solver.reset_nodes();
    let start = Instant::now();
    let (low, high) = solver.score_bounds(pos, mode);
    Ok(json!({
        "score": (low == high).then_some(low),
        "low": low,
        "high": high,
        "nodes": solver.nodes(),
        "ms": start.elapsed().as_secs_f64() * 1e3,
    }))
}

/// The rules' view of a position: who moves, what may be played, how it ended, and the
/// winning line's cells when it did.
fn position_json<B: BitBoard>(pos: &Position<B>) -> Result<Value, EngineError> {
    let legal: Vec<usize> = pos.legal_columns().map(|c| c + 1).collect();
    Ok(json!({
        "width": pos.width(),
        "height": pos.height(),
        "stones": pos.moves_played(),
        "to_move": pos.side_to_move().symbol().to_string(),
        "legal": if pos.outcome() == Outcome::Ongoing { legal } else { Vec::new() },
        "result": answers::result_words(pos),
    }))
}

#[cfg(test)]
mod tests;
